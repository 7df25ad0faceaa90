"""The end of a review and of a promotion at a real terminal: one rule for the write
question, a headed list of what still waits, the steps after writing, and `promote` without
a plan naming the plans that wait (issue 45, items 7, 8 and 9)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_cli
from tests.daily.terminal import Terminal
from tests.daily.test_review_terminal import CLAIM, TYPED, WRITE, _queued, _statuses
from tests.extract.conftest import SampleRepo


def _at_write_question(sample: SampleRepo, first: str) -> Terminal:
    """A review of the sample queue decided one by one (`first` for the first claim, confirm
    the rest), stopped at the write question, which must ask `[y/N]`."""
    terminal = Terminal(["review"], sample.root)
    terminal.expect(TYPED)
    terminal.type("o")
    answer = first
    while terminal.next_prompt([CLAIM, WRITE]) == CLAIM:
        terminal.type(answer)
        answer = "c"
    terminal.expect(r" \[y/N\]: ")  # a question that writes files: only y writes
    return terminal


def test_the_tail_heads_what_waits_and_names_assemble(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    terminal = _at_write_question(sample, "s")
    terminal.type("y")
    assert terminal.finish() == 0, terminal.screen
    after = terminal.screen[terminal.screen.index("applied:") :]
    steps = after[after.index("next:") :].splitlines()[1:4]
    assert [line.split("  ")[1] for line in steps] == [
        "git status",
        "git memory assemble",
        "git add, git commit",
    ], steps
    assert "update your agents' files" in steps[1]
    waiting = re.search(
        r"1 candidate still waits for review \(skipped this time\):\n"
        r"  (extract-[0-9a-f]{7,}-c\d+)  (\S.*)\n"
        r"decide them later with: git memory review",
        after,
    )
    assert waiting, after
    assert "evidence " not in after, "what waits is listed one line each, not as a raw listing"
    assert _statuses(hermetic_env).get("quarantined") == 1
    shown = run_cli(["review"], cwd=sample.root).stdout
    assert shown.startswith(f"{waiting.group(1)} r"), "the short id is the one review takes"


def test_enter_writes_nothing_at_review_or_promote(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    review = _at_write_question(sample, "c")
    review.type("")  # Enter: the default
    assert review.finish() == 0, review.screen
    kept = review.expect(r"plan (plan-[0-9a-f]{7,}) kept; write it later with")
    assert not (sample.root / ".memory" / "entries").exists() or not list(
        (sample.root / ".memory" / "entries").iterdir()
    )

    promote = Terminal(["promote", "--plan", kept.group(1)], sample.root)
    promote.expect(r"\[y/N\]: ")
    promote.type("")
    promote.finish()
    assert not list((sample.root / ".memory" / "entries").glob("*.md")), promote.screen
    assert f"--plan {kept.group(1)}" in run_cli(["status"], cwd=sample.root).stdout


def test_promote_without_a_plan_lists_the_plans_that_wait(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    nothing = Terminal(["promote"], sample.root)
    assert nothing.finish() == 2, nothing.screen
    assert "promote needs --plan ID: the promotion plan to write [GM_PLAN_REQUIRED]" in (
        nothing.screen
    )
    assert "hint: no plan waits in this worktree: `git memory review` makes a plan" in (
        nothing.screen
    )
    assert "`git memory status` lists the plans that wait" in nothing.screen

    review = _at_write_question(sample, "c")
    review.type("n")
    assert review.finish() == 0, review.screen
    plan = review.expect(r"plan (plan-[0-9a-f]{7,}) kept").group(1)
    held = _statuses(hermetic_env)["quarantined"]

    listed = Terminal(["promote"], sample.root)
    assert listed.finish() == 2, listed.screen
    assert f"hint: plans waiting: {plan} ({held} confirmed candidates)" in listed.screen
    assert f"hint: write one with: git memory promote --plan {plan}" in listed.screen
    as_json = run_cli(["promote", "--format", "json"], cwd=sample.root)
    assert as_json.exit_code == 2
    assert as_json.json()["error"]["details"] == {"waiting": [plan]}
