"""`git memory review` alone goes from the queue to written files, through a real terminal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.conftest import run_cli
from tests.daily.terminal import Terminal
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo

CLAIM = r"\(c\)onfirm, \(d\)iscard, \(s\)kip, \(q\)uit(, or confirm for one \(p\)ath only)?\?"
TYPED = r"Typed facts: confirm \(a\)ll, decide \(o\)ne by one, or \(s\)kip them\?"
WRITE = r"Write these (\d+) file\(s\) into \.memory/ now \(and regenerate \.memory/index\.json\)\?"


def _queued(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    sample = build_sample_repo(tmp_path, hermetic_env)
    assert run_cli(["init"], cwd=sample.root).exit_code == 0
    extracted = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        cwd=sample.root,
    )
    assert extracted.exit_code == 0, extracted.stderr
    return sample


def _statuses(hermetic_env: dict[str, Path]) -> dict[str, int]:
    db = sqlite3.connect(hermetic_env["state"] / "memory-state.sqlite3")
    rows = db.execute("SELECT status, count(*) FROM candidates GROUP BY status").fetchall()
    db.close()
    return {str(status): int(count) for status, count in rows}


def _play(terminal: Terminal, first_answer: str, write: str) -> int:
    """Decide typed facts one by one: `first_answer` for the first item, confirm the rest;
    then answer the write question. Returns how many claims were asked."""
    terminal.expect(TYPED)
    terminal.type("o")
    decided = 0
    while terminal.next_prompt([CLAIM, WRITE]) == CLAIM:
        terminal.type(first_answer if decided == 0 else "c")
        decided += 1
    terminal.type(write)
    return decided


def test_a_whole_review_session_writes_the_files(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    queued = _statuses(hermetic_env)["quarantined"]
    assert queued >= 3
    terminal = Terminal(["review"], sample.root)
    decided = _play(terminal, "d", "y")
    assert terminal.finish() == 0, terminal.screen
    assert decided >= queued, "every item was asked one by one"
    listing = terminal.screen.split("Typed facts: confirm", 1)[0]
    assert "\n  - `uv run pytest` runs the tests" in listing
    # Typed facts show the command as run and its observed result, not a summary of the turn.
    assert "] uv run pytest -q\n" in listing, "typed facts show the run"
    assert "] 12 passed in 0.41s\n" in listing, "typed facts show the observed result"
    assert "[a tool call and its output, " in listing
    assert "applied:" in terminal.screen
    assert "git status" in terminal.screen, "new files are untracked: the aftercare says so"
    assert ".memory/index.json (regenerated)" in terminal.screen, "every written file is named"
    assert terminal.screen.count(".md (new)") == queued - 1
    statuses = _statuses(hermetic_env)
    assert statuses.get("discarded") == 1
    assert statuses.get("promoted") == queued - 1
    written = sorted((sample.root / ".memory" / "entries").glob("*.md"))
    assert len(written) == queued - 1
    again = Terminal(["review"], sample.root)
    assert again.finish() == 0
    assert "nothing to review" in again.screen
    assert "(c)onfirm" not in again.screen, "confirmed items are never asked again"


def test_a_kept_plan_is_never_asked_again_nor_overlapped(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    first = Terminal(["review"], sample.root)
    first.expect(TYPED)
    first.type("a")
    while first.next_prompt([CLAIM, WRITE]) == CLAIM:
        first.type("c")
    first.type("n")
    assert first.finish() == 0, first.screen
    kept = first.expect(r"plan (plan-[0-9a-f]{7}) kept; write it later with: git memory promote")
    assert list((sample.root / ".memory" / "entries").glob("*.md")) == []
    after = first.screen[kept.end() :]
    assert "extract-" not in after, "what the kept plan holds is not listed as waiting"
    assert "nothing to review" in after

    second = Terminal(["review"], sample.root)
    assert second.finish() == 0, second.screen
    assert f"wait in plan {kept.group(1)}" in second.screen
    assert "(c)onfirm" not in second.screen
    assert "Typed facts" not in second.screen
    status = json.loads(run_cli(["status", "--format", "json"], cwd=sample.root).stdout)
    assert len(status["counts"]["promotions"]["openPlans"]) == 1, "no overlapping second plan"

    shown = run_cli(["status"], cwd=sample.root).stdout
    assert f"git memory promote --plan {kept.group(1)}" in shown
    assert "wait for review" not in shown, "the plan holds every quarantined candidate"
    applied = Terminal(["promote", "--plan", kept.group(1)], sample.root)
    applied.expect(rf"Promote plan {kept.group(1)}: \d+ file\(s\) into \.memory/")
    applied.expect(r"\[y/N\]")
    applied.type("y")
    assert applied.finish() == 0, applied.screen
    assert list((sample.root / ".memory" / "entries").glob("*.md"))
