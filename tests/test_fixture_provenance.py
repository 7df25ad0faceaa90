"""Every real transcript fixture is in the checkout, unchanged, and named in PROVENANCE.md."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES
from tests.perf.real_corpus import (
    LABELS_DIR,
    PROVENANCE_DIR,
    ROUND_ONE,
    SUMMARY_END,
    SUMMARY_START,
    file_stem,
    label_documents,
    provenance_files,
    repositories,
    sessions,
    summary,
)

TRANSCRIPTS = FIXTURES / "transcripts"
REAL_SESSIONS = FIXTURES / "real-sessions"
# The human-readable rows of the real-session corpus: one file per person adding repositories.
PROVENANCE_DOCS = ("PROVENANCE.md", "PROVENANCE-others.md")
RECORD_KEYS = {
    "file", "agent", "repo", "path", "commit", "licence", "agent_version", "excerpt", "bytes",
    "sha256", "language",
}  # fmt: skip
LARGEST_NEW_FILE = 1_500_000


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


def _documented_rows() -> str:
    present = (REAL_SESSIONS / name for name in PROVENANCE_DOCS)
    return "\n".join(path.read_text(encoding="utf-8") for path in present if path.is_file())


def _real_sessions() -> list[tuple[str, int, str]]:
    """(path under real-sessions, bytes, sha256) of every labelled real session."""
    return [(r["file"], r["bytes"], r["sha256"]) for r in sessions()]


@pytest.mark.parametrize(("relative", "size", "digest"), _real_sessions())
def test_real_session_is_present_unchanged_and_documented(
    relative: str, size: int, digest: str
) -> None:
    data = (REAL_SESSIONS / relative).read_bytes()
    assert (len(data), hashlib.sha256(data).hexdigest()) == (size, digest)
    assert f"`real-sessions/{relative}`" in _documented_rows()


def test_real_sessions_folder_holds_only_recorded_files() -> None:
    recorded = {relative for relative, _, _ in _real_sessions()}
    recorded |= {"labels.json", *provenance_files(), *label_documents()}
    recorded |= {name for name in PROVENANCE_DOCS if (REAL_SESSIONS / name).is_file()}
    present = {str(p.relative_to(REAL_SESSIONS)) for p in REAL_SESSIONS.rglob("*") if p.is_file()}
    assert present == recorded


def test_real_sessions_are_new_to_the_tests() -> None:
    """The labelled corpus shares no file with the transcripts the other tests read."""
    used = {digest for _, digest in _records()}
    assert not used & {digest for _, _, digest in _real_sessions()}


def _record_problems(where: str, record: dict[str, Any]) -> list[str]:
    problems = [f"{where}: keys {sorted(set(record) ^ RECORD_KEYS)}"] * (set(record) != RECORD_KEYS)
    prefix = f"{record['agent']}/{file_stem(record['repo'])}__"
    if not record["file"].startswith(prefix):
        problems.append(f"{where}: {record['file']} is not under {prefix}")
    if (record["excerpt"] is None) == (".excerpt-L" in record["file"]):
        problems.append(f"{where}: {record['file']} and its excerpt field disagree")
    if not re.fullmatch(r"[a-z]{2}", record["language"]):
        problems.append(f"{where}: language {record['language']!r} is not ISO 639-1")
    if not re.fullmatch(r"[0-9a-f]{40}", record["commit"]):
        problems.append(f"{where}: commit {record['commit']!r}")
    return problems


def test_every_session_record_has_the_one_shape() -> None:
    problems = [
        problem
        for where, records in provenance_files().items()
        for record in records
        for problem in _record_problems(where, record)
    ]
    assert problems == []


def test_each_later_repository_has_its_own_provenance_and_labels() -> None:
    provenance = {
        where: {r["repo"] for r in records}
        for where, records in provenance_files().items()
        if where.startswith(f"{PROVENANCE_DIR}/")
    }
    for where, repos in provenance.items():
        assert [f"{PROVENANCE_DIR}/{file_stem(repo)}.json" for repo in repos] == [where]
    for where, document in label_documents().items():
        assert where == f"{LABELS_DIR}/{file_stem(document['repo'])}.json"
        assert document["round"] != ROUND_ONE
        assert document["labelled_before_tuning"] is True
    labelled = {document["repo"] for document in label_documents().values()}
    assert labelled == {repo for repos in provenance.values() for repo in repos}


def test_no_repository_is_in_both_layouts_or_in_the_other_fixtures() -> None:
    later = {document["repo"] for document in label_documents().values()}
    round_one = json.loads((REAL_SESSIONS / "labels.json").read_text(encoding="utf-8"))
    assert not later & set(round_one["repositories"])
    claude_codex = json.loads((TRANSCRIPTS / "PROVENANCE.json").read_text())
    others = json.loads((TRANSCRIPTS / "PROVENANCE-other-agents.json").read_text())
    transcripts = {r["repo"].casefold() for r in claude_codex + others}
    assert not {repo.casefold() for repo in later} & transcripts


def test_no_later_session_file_is_over_the_size_cap() -> None:
    later = (
        r for where, rs in provenance_files().items() if where != "PROVENANCE.json" for r in rs
    )
    oversized = [r["file"] for r in later if r["bytes"] > LARGEST_NEW_FILE]
    assert oversized == []


def _line_count(relative: str) -> int:
    return len((REAL_SESSIONS / relative).read_bytes().splitlines())


def _source_problems(repo: str, label: dict[str, Any], files: set[str]) -> list[str]:
    sources = label.get("sources") or []
    problems = [f"{repo}: KEEP {label} names no sources"] * (not sources)
    for source in sources:
        if source["file"] not in files:
            problems.append(f"{repo}: {source['file']} is not one of its sessions")
            continue
        count = _line_count(source["file"])
        bad = [n for n in source["lines"] if not 1 <= n <= count]
        problems += [f"{repo}: {source['file']} has no line {n}" for n in bad]
        problems += [f"{repo}: {source['file']} names no line"] * (not source["lines"])
    return problems


def test_every_keep_label_points_at_lines_of_its_own_sessions() -> None:
    problems = [
        problem
        for repository in repositories().values()
        for label in repository.labels
        if label["verdict"] == "KEEP"
        for problem in _source_problems(
            repository.name, label, {s["file"] for s in repository.sessions}
        )
    ]
    assert problems == []


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


def test_the_corpus_summary_in_provenance_md_matches_the_files() -> None:
    text = (REAL_SESSIONS / "PROVENANCE.md").read_text(encoding="utf-8")
    start, end = text.index(SUMMARY_START), text.index(SUMMARY_END) + len(SUMMARY_END)
    assert text[start:end] == summary(repositories())
