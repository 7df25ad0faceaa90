"""What a transcript shows of a command's result: worked, failed, or unknown, per segment.

A command worked or failed only where its own exit status, or an unambiguous result line of
its own, is in the transcript (issue 26):
- a run sent to the background, stopped by the agent's timeout or interrupted is *unknown*,
  whatever the call's state says, and so is a success whose captured output stops in the
  middle of a progress display ("building for production...");
- the exit status of a command line belongs to its last pipeline: with `a && b` a success
  means both worked, with `a; b` or `a || b` it says nothing of `a`; a pipeline's status is
  its last command's (`pytest | tail -20` exits as `tail` does) unless `set -o pipefail`;
- a failure is attributed to a segment only when it is the one segment of the last list that
  could fail, or the output names its kind (a test summary under a test runner);
- a status the line printed itself (`cmd; echo "exit: $?"`, `cmd && echo OK || echo FAIL`)
  is the status of the command before it;
- output that reports failures ("1058 passed, 79 errors", "1 file would be reformatted",
  `FAILED`, `error[E0425]`) is a failure of the command that printed it whatever the exit
  status, and a final summary line ("== 12 passed in 0.4s ==", "Success: no issues found")
  shows a run worked even when a pipe hid its status.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from git_memory.extract.builtin.shell import Step


class Outcome(StrEnum):
    """The observed result of one command (or one segment of a command line)."""

    WORKED = "worked"
    FAILED = "failed"
    UNKNOWN = "unknown"


# The agent did not wait for the command to end: background launches, its own timeouts,
# interruptions (Claude Code, Codex `exec_command` / code mode, Gemini CLI and Qwen Code,
# Copilot CLI, OpenCode; shapes in tests/fixtures/PROVENANCE.md and the fixtures).
_NOT_AWAITED = re.compile(
    r"(?im)^Command timed out after\b|\bCommand running in background with ID\b"
    r"|\bmoved to (?:the )?background\b|\bwas manually backgrounded\b"
    r"|^Process running with session ID \d+|^Script running with cell ID\b"
    r"|^Background PIDs: \d|\bwaiting for command\b.*\btimed out\b"
    r"|<bash_metadata>[^<]{0,500}?\b(?:timeout|timed out|terminated|aborted)\b"
    r"|^\[Request interrupted by user|\[Operation Cancelled\]|^Command was cancelled\b"
    r"|^Command aborted\b|\binterrupted by user\b"
)
_AWAIT_HINTS = (
    "timed out",
    "background",
    "running with",
    "bash_metadata",
    "interrupted",
    "cancelled",
    "aborted",
)
# A count of failures, as test runners, linters and type checkers report them; not on the
# line of a test that passed (`✓ reports 2 errors`, `test_x PASSED`).
_COUNTED = re.compile(r"(?<![\w.-])[1-9]\d* (?:failed|errors?)\b(?! (?:to|while|when))")
_PASSING_LINE = re.compile(r"^\s*(?:[✓✔√]|ok\b|PASS\b)|\b(?:PASSED|ok)\s*$")
# Output reporting failures, of any kind of project command (None), or of one kind, with
# the words (lower case) one of which must be in the output for the pattern to be tried.
_FAILURES: tuple[tuple[str | None, tuple[str, ...], re.Pattern[str]], ...] = (
    (
        None,
        ("error[", "error: could not", "npm err!", "err_pnpm_"),
        re.compile(r"(?m)^error\[E\d+\]|^error: could not compile\b|^npm ERR! |ERR_PNPM_"),
    ),
    (
        None,
        ("***", "error command failed"),
        re.compile(r"(?m)^make(?:\[\d+\])?: \*\*\* .*Error \d+|^error Command failed with exit"),
    ),
    (
        "format",
        ("reformat", "code style"),
        re.compile(r"(?i)\bwould (?:be )?reformat|Code style issues found"),
    ),
    (
        "test",
        ("fail",),
        re.compile(r"(?m)^FAILED\b|^--- FAIL\b|^FAIL\s|\btest result: FAILED\b"),
    ),
)
# Final summary lines that show a run of that kind passed.
_PASSED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "test",
        re.compile(
            r"(?m)^(?:=+ )?(?:\d+ (?:passed|skipped|xfailed|xpassed|deselected|warnings?)"
            r"(?:, )?)+ in [\d.]+s\b"
        ),
    ),
    ("test", re.compile(r"(?m)^\s*Tests:?\s+(?:\d+ (?:passed|skipped|todo)(?:, )?)+,? \d+ total")),
    ("test", re.compile(r"(?m)^\s*Tests?\s+\d+ passed(?: \| \d+ skipped)? \(\d+\)")),
    # The node:test / TAP summary: tests passed and none failed.
    ("test", re.compile(r"(?ms)^# pass [1-9]\d*\s*$.*?^# fail 0\s*$")),
    ("build", re.compile(r"(?m)^\s*✓ built in [\d.]+m?s\s*$")),  # Vite
    ("lint", re.compile(r"(?m)^All checks passed!")),
    ("typecheck", re.compile(r"(?m)^Success: no issues found\b|^0 errors, \d+ warnings?, ")),
    ("format", re.compile(r"(?m)^\d+ files? (?:left unchanged|already formatted)\s*$")),
    ("format", re.compile(r"(?m)^All matched files use Prettier code style!")),
)
_EXIT_FIELD = re.compile(r'"exit_code"\s*:\s*(-?\d+)')
# Segments whose own failure is not what a command line is run for.
_QUIET = frozenset(
    ["cd", "pushd", "popd", "export", "set", "echo", "printf", "source", ".", "true", ":", "sleep"]
)


def of_state(state: str) -> Outcome:
    """The outcome an agent's result state records (`completed` is exit 0)."""
    if state == "completed":
        return Outcome.WORKED
    return Outcome.FAILED if state == "failed" else Outcome.UNKNOWN


def awaited(output: str) -> bool:
    """False when the agent stopped waiting: background, its timeout, an interruption."""
    lower = output.lower()
    return not (any(hint in lower for hint in _AWAIT_HINTS) and _NOT_AWAITED.search(output))


# Lines an agent adds after a command's own output (Gemini CLI, Qwen Code).
_AGENT_TRAILER = re.compile(r"^(?:Process Group PGID|Background PIDs|Signal|Exit Code|Error): ")
# A progress line: an activity still going on ("vite v6.4.2 building for production...",
# "transforming (8) node_modules/react/jsx-runtime.js").
_IN_PROGRESS = re.compile(r"(?:\.\.\.|…)\s*$|^\s*[a-z]+ing \(\d+\) \S")


def cut_short(output: str) -> bool:
    """The output stops in the middle of a progress display: what was captured is not how the
    command ended, so a success the agent recorded for it was not seen."""
    lines = [line for line in output.splitlines() if line.strip()]
    while lines and _AGENT_TRAILER.match(lines[-1]):
        lines.pop()
    return bool(lines) and bool(_IN_PROGRESS.search(lines[-1]))


def exit_field(output: str) -> Outcome:
    """A script that printed the whole exec result (`{"exit_code": 0, …}`) shows the exit."""
    found = _EXIT_FIELD.findall(output)
    if len(found) != 1:
        return Outcome.UNKNOWN
    return Outcome.WORKED if int(found[0]) == 0 else Outcome.FAILED


def printed_failures(output: str) -> set[str | None]:
    """The kinds whose failures the output reports (None: a failure of any kind)."""
    lower = output.lower()
    found = {
        kind
        for kind, hints, pattern in _FAILURES
        if any(hint in lower for hint in hints) and pattern.search(output)
    }
    return found | {None} if counts_failures(output) else found


def counts_failures(output: str) -> bool:
    """The output counts failures ("79 errors", "2 failed") outside a passing test's line."""
    return any(
        _COUNTED.search(line) and not _PASSING_LINE.search(line)
        for line in output.splitlines()
        if "failed" in line or "error" in line
    )


def printed_passes(output: str) -> set[str]:
    """The kinds whose final success summary the output holds."""
    return {kind for kind, pattern in _PASSED if pattern.search(output)}


def segment_outcomes(
    steps: Sequence[Step], exit_status: Outcome, output: str, *, pipefail: bool = False
) -> list[Outcome]:
    """The observed outcome of each step of a command line, given the line's exit status as
    the agent recorded it (`exit_status`) and its output."""
    result = [Outcome.UNKNOWN] * len(steps)
    if not steps or not awaited(output) or steps[-1].joiner == "&":
        return result
    if exit_status is Outcome.WORKED and steps[-1].segment.kind is not None and cut_short(output):
        return result  # a project command's progress display, not its end (not an installer's)
    start = _last_list(steps)
    last = len(steps) - 1
    if exit_status is Outcome.WORKED and _ran(steps, last, start):
        for index in (last, *_succeeded_before(steps, last, start)):
            result[index] = _own(steps[index], Outcome.WORKED, pipefail)
    elif exit_status is Outcome.FAILED:
        culprit = _culprit(steps, start, output)
        if culprit is not None:
            result[culprit] = _own(steps[culprit], Outcome.FAILED, pipefail)
            for index in _succeeded_before(steps, culprit, start):
                result[index] = _own(steps[index], Outcome.WORKED, pipefail)
    _read_echoes(steps, result, output, pipefail)
    _read_output(steps, result, output)
    return result


def _last_list(steps: Sequence[Step]) -> int:
    """Index of the first step of the line's last list (after its last `;`, newline, `&`)."""
    start = 0
    for index, step in enumerate(steps[:-1]):
        if step.joiner in (";", "\n", "&"):
            start = index + 1
    return start


def _ran(steps: Sequence[Step], index: int, start: int) -> bool:
    """The step surely ran when its list got that far: first of its list, or after `&&`
    (after `||` it runs only when the step before failed)."""
    return index == start or steps[index - 1].joiner == "&&"


def _succeeded_before(steps: Sequence[Step], index: int, start: int) -> list[int]:
    """The steps before `index` in its `&&` chain: it ran, so each of them succeeded."""
    found: list[int] = []
    while index > start and steps[index - 1].joiner == "&&" and _ran(steps, index - 1, start):
        index -= 1
        found.append(index)
    return found


def _own(step: Step, outcome: Outcome, pipefail: bool) -> Outcome:
    """A pipeline's status is its last command's: the segment's own is lost in a pipe."""
    return outcome if pipefail or not step.piped else Outcome.UNKNOWN


_CD_FAILED = re.compile(r"(?m)^(?:\S+: )?(?:line \d+: )?cd: ")


def _culprit(steps: Sequence[Step], start: int, output: str) -> int | None:
    """The step a failure exit belongs to, when only one could have failed."""
    if _CD_FAILED.search(output):
        return None
    candidates = [
        i
        for i in range(start, len(steps))
        if steps[i].segment.words and steps[i].segment.words[0] not in _QUIET
    ]
    if len(candidates) == 1:
        return candidates[0]
    failures = printed_failures(output)
    kinds = {kind for kind in failures if kind} | printed_passes(output)
    named = [i for i in candidates if steps[i].segment.kind in kinds]
    if len(named) != 1 and counts_failures(output):  # counted failures: the project command
        named = [i for i in candidates if steps[i].segment.kind is not None]
    return named[0] if len(named) == 1 else None


def _read_output(steps: Sequence[Step], result: list[Outcome], output: str) -> None:
    """Failures the output reports override the exit status; a final success summary counts
    for a run whose status was not seen."""
    project = [i for i, s in enumerate(steps) if s.segment.kind is not None and s.joiner != "&"]
    failures = printed_failures(output)
    if failures:
        blamed = _blamed(steps, project, failures, output)
        for index in project:
            if index == blamed:
                result[index] = Outcome.FAILED
            elif result[index] is Outcome.WORKED:
                result[index] = Outcome.UNKNOWN
        return
    for kind in printed_passes(output):
        same = [i for i in project if steps[i].segment.kind == kind]
        if len(same) == 1 and result[same[0]] is Outcome.UNKNOWN:
            result[same[0]] = Outcome.WORKED


def _blamed(
    steps: Sequence[Step], project: list[int], failures: set[str | None], output: str
) -> int | None:
    """The project step a failure report belongs to: the one of the report's kind, else the
    only project step when nothing else could have printed it (or it counts failures)."""
    named = [i for i in project if steps[i].segment.kind in failures]
    if len(named) == 1:
        return named[0]
    others = [
        i
        for i, step in enumerate(steps)
        if i not in project and step.segment.words and step.segment.words[0] not in _QUIET
    ]
    if len(project) == 1 and (not others or counts_failures(output)):
        return project[0]
    return None


_ECHO = frozenset(["echo", "printf"])


def _read_echoes(steps: Sequence[Step], result: list[Outcome], output: str, pipefail: bool) -> None:
    """A status the line printed itself: `cmd; echo "exit: $?"`, or `cmd && echo OK || echo
    FAIL` (the two words differ and exactly one of them is a line of the output)."""
    lines = {line.strip() for line in output.splitlines()}
    for index in range(1, len(steps)):
        words = steps[index].segment.words
        before = steps[index - 1]
        if words[:1] and words[0] in _ECHO and before.joiner in (";", "\n"):
            code = _echoed_code(" ".join(w for w in words[1:] if w != "-e"), output)
            if code is not None:
                outcome = Outcome.WORKED if code == 0 else Outcome.FAILED
                result[index - 1] = _own(before, outcome, pipefail)
        if index + 1 < len(steps) and before.joiner == "&&" and steps[index].joiner == "||":
            passed, failed = _echoed(words), _echoed(steps[index + 1].segment.words)
            if passed and failed and passed != failed and (passed in lines) != (failed in lines):
                outcome = Outcome.WORKED if passed in lines else Outcome.FAILED
                result[index - 1] = _own(before, outcome, pipefail)


def _echoed_code(template: str, output: str) -> int | None:
    if template.count("$?") != 1:
        return None
    pattern = re.escape(template.strip()).replace(re.escape("$?"), r"(\d+)")
    found = re.findall(rf"(?m)^\s*{pattern}\s*$", output)
    return int(found[-1]) if len(found) == 1 else None


def _echoed(words: Sequence[str]) -> str | None:
    """The literal line an `echo` prints (None for anything with a variable)."""
    if not words or words[0] != "echo" or any("$" in w for w in words):
        return None
    text = " ".join(w for w in words[1:] if w not in ("-e", "-n")).strip()
    return text or None
