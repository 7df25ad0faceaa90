"""Every real transcript fixture is in the checkout, unchanged, and named in PROVENANCE.md."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

TRANSCRIPTS = FIXTURES / "transcripts"
REAL_SESSIONS = FIXTURES / "real-sessions"


def _records() -> list[tuple[str, str]]:
    """(path under tests/fixtures, sha256) of every recorded transcript file."""
    claude_codex = json.loads((TRANSCRIPTS / "PROVENANCE.json").read_text())
    others = json.loads((TRANSCRIPTS / "PROVENANCE-other-agents.json").read_text())
    return [(r["saved"].removeprefix("fixtures/"), r["sha256"]) for r in claude_codex] + [
        (f"transcripts/{r['file']}", r["sha256"]) for r in others
    ]


@pytest.mark.parametrize(("relative", "digest"), _records())
def test_fixture_is_present_unchanged_and_documented(relative: str, digest: str) -> None:
    path = FIXTURES / relative
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert f"`{relative}`" in (FIXTURES / "PROVENANCE.md").read_text()


def _real_sessions() -> list[tuple[str, int, str]]:
    """(path under real-sessions, bytes, sha256) of every labelled real session."""
    records = json.loads((REAL_SESSIONS / "PROVENANCE.json").read_text())
    return [(r["file"], r["bytes"], r["sha256"]) for r in records]


@pytest.mark.parametrize(("relative", "size", "digest"), _real_sessions())
def test_real_session_is_present_unchanged_and_documented(
    relative: str, size: int, digest: str
) -> None:
    data = (REAL_SESSIONS / relative).read_bytes()
    assert (len(data), hashlib.sha256(data).hexdigest()) == (size, digest)
    assert f"`real-sessions/{relative}`" in (REAL_SESSIONS / "PROVENANCE.md").read_text()


def test_real_sessions_folder_holds_only_recorded_files() -> None:
    recorded = {relative for relative, _, _ in _real_sessions()}
    recorded |= {"PROVENANCE.json", "PROVENANCE.md", "labels.json"}
    present = {str(p.relative_to(REAL_SESSIONS)) for p in REAL_SESSIONS.rglob("*") if p.is_file()}
    assert present == recorded


def test_real_sessions_are_new_to_the_tests() -> None:
    """The labelled corpus shares no file with the transcripts the other tests read."""
    used = {digest for _, digest in _records()}
    assert not used & {digest for _, _, digest in _real_sessions()}


def test_every_agent_has_fixtures() -> None:
    agents = {"claude-code", "codex", "copilot-cli", "cursor", "gemini-cli", "opencode"}
    agents.add("qwen-code")
    present = {p.name for p in TRANSCRIPTS.iterdir() if p.is_dir() and any(p.iterdir())}
    assert agents <= present


def test_tests_read_nothing_outside_the_checkout() -> None:
    root = Path(__file__).resolve().parent
    markers = ("/ " + '"shared"', "../" + "shared/")  # split so this file does not match itself
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if any(marker in path.read_text(encoding="utf-8") for marker in markers)
    ]
    assert offenders == []
