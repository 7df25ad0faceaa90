"""What a command line's output and exit status show of each of its simple commands:
worked, failed, or unknown (the rules of docs/architecture.md, "The command model").

- the exit status of a line belongs to its last pipeline: with `a && b` a success means both
  worked, with `a; b` or `a || b` it says nothing of `a`; a pipeline's status is its last
  command's (`pytest | tail -20` exits as `tail` does) unless `set -o pipefail`;
- a failure is attributed to a command only when it is the one command of the last list that
  could fail, or the output names its kind (a test summary under a test runner);
- a status the line printed itself (`cmd; echo "exit: $?"`, `cmd && echo OK || echo FAIL`)
  is the status of the command before it;
- what the tools say in their own words (`reports.REPORTS`: "1 failed", `error[E0425]`,
  `npm ERR!`, "BUILD SUCCESSFUL", "All checks passed!") overrides a status a pipe hid or
  the output cut: a failure they report is one whatever the exit status, and a final
  success summary shows a run worked; a tool silent on success (`reports.SILENT`) worked
  when a pipe hid its status and nothing was printed (a package script that runs one, when
  nothing but the script's banner was: `> api@0.0.1 build`, `> nest build`), unless a filter
  that selects lines stood in the pipe (`tsc --noEmit | grep src/app`: nothing matched; a
  filter for the lines of a problem, `grep "error TS"`, found none: that silence counts).
Callers that know more about how a run was awaited (an agent's timeout, a background
launch) decide that before asking here (`extract/builtin/observed.py`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from git_memory.command_line import kinds
from git_memory.command_line.line import Command, Line, Step
from git_memory.command_line.program import tool_words
from git_memory.command_line.reports import REPORTS, SILENT, Outcome

# A count of failures, as test runners, linters and type checkers report them; not on the
# line of a test that passed (`✓ reports 2 errors`, `test_x PASSED`).
_COUNTED = re.compile(r"(?<![\w.-])[1-9]\d* (?:failed|errors?)\b(?! (?:to|while|when))")
_PASSING_LINE = re.compile(r"^\s*(?:[✓✔√]|ok\b|PASS\b)|\b(?:PASSED|ok)\s*$")
# Commands whose own failure is not what a command line is run for.
_QUIET = frozenset(
    ["cd", "pushd", "popd", "export", "set", "echo", "printf", "source", ".", "true", ":", "sleep"]
)
_CD_FAILED = re.compile(r"(?m)^(?:\S+: )?(?:line \d+: )?cd: ")
_ECHO = frozenset(["echo", "printf"])
ANY = None  # a report of whichever project command printed it


# A line's output is read by several of the rules below: each distinct output once.
@functools.lru_cache(maxsize=256)
def printed_failures(output: str) -> frozenset[str | None]:
    """The kinds whose failures the output reports (None: a failure of any kind)."""
    found = {
        report.kind
        for report in REPORTS
        if report.outcome is Outcome.FAILED
        and report.hint in output
        and report.pattern.search(output)
    }
    return frozenset(found | {ANY} if counts_failures(output) else found)


@functools.lru_cache(maxsize=256)
def counts_failures(output: str) -> bool:
    """The output counts failures ("79 errors", "2 failed") outside a passing test's line."""
    return any(
        _COUNTED.search(line) and not _PASSING_LINE.search(line)
        for line in output.splitlines()
        if "failed" in line or "error" in line
    )


@functools.lru_cache(maxsize=256)
def printed_passes(output: str) -> frozenset[str | None]:
    """The kinds whose final success summary the output holds (None: a build tool's or
    runner's verdict on whichever command printed it)."""
    return frozenset(
        {
            report.kind
            for report in REPORTS
            if report.outcome is Outcome.WORKED
            and report.hint in output
            and report.pattern.search(output)
        }
    )


def silent_on_success(step: Step) -> bool:
    """A tool that prints nothing when it finds nothing wrong (`tsc --noEmit`, `go vet`)."""
    return _silent(tool_words(step.command.program))  # `pnpm --filter api exec tsc --noEmit`


def _silent(program: Sequence[str]) -> bool:
    head = (program[0].rsplit("/", 1)[-1], *program[1:2]) if program else ()
    return any(tuple(head[: len(words)]) == words for words, _ in SILENT)


# The lines a package manager prints before a script's own output (`> api@0.0.1 build /app`,
# `> nest build`): the last one is the command the script runs.
_SCRIPT_BANNER = re.compile(r"^\s*> \S")


def _banner_only(output: str) -> tuple[str, ...] | None:
    """The command a package script ran, when its banner is all the output holds."""
    lines = [line for line in output.splitlines() if line.strip()]
    if len(lines) < 2 or not all(_SCRIPT_BANNER.match(line) for line in lines):
        return None
    return tuple(lines[-1].strip()[2:].split())


def line_outcomes(line: Line, exit_status: Outcome, output: str) -> list[Outcome]:
    """The observed outcome of each step of `line`, given the line's exit status (`WORKED`
    for exit 0, `FAILED` for another, `UNKNOWN` when not seen) and its output."""
    return step_outcomes(line.steps, exit_status, output, pipefail=line.pipefail)


def step_outcomes(
    steps: Sequence[Step], exit_status: Outcome, output: str, *, pipefail: bool = False
) -> list[Outcome]:
    """`line_outcomes` over steps (a line's, or a part of one)."""
    result = [Outcome.UNKNOWN] * len(steps)
    if not steps or steps[-1].joiner == "&":
        return result
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
    if exit_status is Outcome.WORKED:
        script = _banner_only(output)
        if not output.strip() or (script is not None and _silent(script)):
            _read_silence(steps, result, start, scripted=script is not None)
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
    """A pipeline's status is its last command's: the step's own is lost in a pipe."""
    return outcome if pipefail or not step.piped else Outcome.UNKNOWN


def _could_fail(step: Step) -> bool:
    return bool(step.command.words) and step.command.words[0] not in _QUIET


def _culprit(steps: Sequence[Step], start: int, output: str) -> int | None:
    """The step a failure exit belongs to, when only one could have failed."""
    if _CD_FAILED.search(output):
        return None
    candidates = [i for i in range(start, len(steps)) if _could_fail(steps[i])]
    if len(candidates) == 1:
        return candidates[0]
    failures = printed_failures(output)
    named_kinds = {kind for kind in failures if kind} | {k for k in printed_passes(output) if k}
    named = [i for i in candidates if steps[i].command.kind in named_kinds]
    if len(named) != 1 and counts_failures(output):  # counted failures: the project command
        named = [i for i in candidates if steps[i].command.kind is not None]
    return named[0] if len(named) == 1 else None


def _project(steps: Sequence[Step]) -> list[int]:
    return [i for i, s in enumerate(steps) if s.command.kind is not None and s.joiner != "&"]


def _read_output(steps: Sequence[Step], result: list[Outcome], output: str) -> None:
    """Failures the output reports override the exit status; a final success summary counts
    for a run whose status was not seen."""
    project = _project(steps)
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
        same = [i for i in project if steps[i].command.kind == kind]
        if not same and (kind is ANY or _through_runner(steps, project)):
            same = project  # a build tool's verdict, or a task runner wrapping the tool
            if project and _of_another_side(kind, steps[project[0]]):
                same = []
        if len(same) == 1 and result[same[0]] is Outcome.UNKNOWN:
            result[same[0]] = Outcome.WORKED


# The kinds of command that check the code, and those that make or run something.
_CHECKS = frozenset(["test", "lint", "typecheck", "format", "syntax"])
_NOT_CHECKS = frozenset(["build", "run", "deploy", "migrate", "generate"])


def _of_another_side(kind: str | None, step: Step) -> bool:
    """Whether a summary says nothing of the one target a runner ran: a check's of a target
    that builds or runs (`npm run build` running `astro check && astro build`: the check came
    first), or a build's of a target that checks (`make test | head` cut before the tests).
    A line naming several targets (`make build test`), or none (`make`), is not one target."""
    target = step.command.kind
    checked = kind in _CHECKS and target in _NOT_CHECKS
    built = kind in _NOT_CHECKS and target in _CHECKS
    return (checked or built) and len(_targets(step)) == 1


def _targets(step: Step) -> list[str]:
    """The targets a runner's words name (`make build test`: two; `npm run build`: one)."""
    words = [w for w in step.command.program[1:] if not w.startswith("-") and "=" not in w]
    return words[1:] if words[:1] == ["run"] else words


def _through_runner(steps: Sequence[Step], project: list[int]) -> bool:
    """The one project step runs a task runner's target (`make verify`, `mise run test`):
    the tool it wraps printed the summary."""
    if len(project) != 1:
        return False
    program = steps[project[0]].command.program
    return bool(program) and program[0].rsplit("/", 1)[-1] in kinds.SCRIPT_RUNNERS


def _read_silence(
    steps: Sequence[Step], result: list[Outcome], start: int, *, scripted: bool = False
) -> None:
    """Exit 0 and no output at all: a tool silent on success, whose status a pipe hid,
    found nothing wrong (when it surely ran). `scripted`: the output was only the banner of
    a package script that runs such a tool (`> nest build`), so the script run worked."""
    last = len(steps) - 1
    for index in (last, *_succeeded_before(steps, last, start)):
        step = steps[index]
        program = step.command.program
        silent = scripted and bool(program) and program[0] in kinds.PACKAGE_MANAGERS
        quiet = step.piped and not any(map(_selects_lines, step.filters))
        if result[index] is Outcome.UNKNOWN and quiet and (silent or silent_on_success(step)):
            result[index] = Outcome.WORKED


# Filters that pass on only the lines they select: behind one, silence says that nothing
# matched (`tsc --noEmit | grep src/app`), not that the tool printed nothing. A filter for the
# lines of a problem (`grep "error TS"`, `Where-Object { $_ -match 'error' }`) found none, and
# one that drops only what it names (`grep -v "^$"`, `sed '/^$/d'`) passes the rest on: there
# silence is the tool's own.
_SELECTING = frozenset(
    {
        *("grep", "egrep", "fgrep", "rg", "ag", "ack", "findstr"),
        *("select-string", "sls", "where-object", "where", "?"),
    }
)
# The words of a problem's lines as a filter looks for them (`"error TS"`, `-i error`), not a
# name or a path that holds one (`ErrorBoundary`, `src/lib/errors.ts`).
# The words of a problem's lines as a filter looks for them: the word itself (`"error TS"`,
# `-i warn`, `'/FAILED/'`) or a class of error (`TypeError|SyntaxError`); not a name holding
# one (`handleError`, `onFailure`, `ErrorBoundary`) nor a path (`src/lib/errors.ts`).
_PROBLEM_WORD = re.compile(
    r"(?i:errors?|err|warn(?:ings?)?|fail(?:ed|ures?|s|ing)?|problems?|fatal|panic|exceptions?"
    r"|traceback)|[A-Z][a-z]+(?:Error|Exception|Warning)"
)
_A_PATH = re.compile(r"\w/\w|^[\w.-]+\.[a-z]{1,4}$")
# A regular expression's escapes (`\b`, `\/`), which join or split no word.
_ESCAPE = re.compile(r"\\[bBwWdDsS<>]")


def _looks_for_problems(argument: str) -> bool:
    """Whether a filter's pattern looks for the lines of a problem (the module's docstring)."""
    pattern = _ESCAPE.sub(" ", argument.replace("\\/", "/"))
    if _A_PATH.search(pattern):
        return False
    return any(_PROBLEM_WORD.fullmatch(word) for word in re.findall(r"\w+", pattern))


def _selects_lines(command: Command) -> bool:
    """Whether a pipeline's filter passes on only some lines of its own choosing."""
    words = command.program
    name = words[0].rsplit("/", 1)[-1].casefold() if words else ""
    arguments = words[1:]
    # clustered short switches (`-Ev`, `-qi`), not PowerShell's named ones (`-CaseSensitive`);
    # findstr's (`/IV`)
    short = "".join(w[1:] for w in arguments if re.fullmatch(r"-[a-zA-Z]{1,4}", w))
    slashed = "".join(w[1:].casefold() for w in arguments if re.fullmatch(r"/[a-zA-Z]{1,4}", w))
    if name in _SELECTING:
        lowered = {w.casefold() for w in arguments}
        if "q" in short or lowered & {"--quiet", "--silent", "-quiet"}:
            return True  # it prints nothing either way: its status says what it found
        inverted = "v" in short or "v" in slashed or lowered & {"--invert-match", "-notmatch"}
        return not inverted and not any(map(_looks_for_problems, arguments))
    if name in ("awk", "gawk"):
        # a pattern before any action (`awk '/warning/'`), not a program for every line
        program = next((w for w in arguments if not w.startswith("-")), "")
        return not program.lstrip().startswith("{") and not _looks_for_problems(program)
    if name == "jq":
        return any("select(" in w for w in arguments)
    # sed picks lines by a pattern's address when it prints only those (`sed -n '/x/p'`)
    addressed = [w for w in arguments if w.startswith("/")]
    quiet = "n" in short or "--quiet" in arguments or "--silent" in arguments
    # (the pattern between the address's slashes, not the command after them)
    pattern = re.match(r"/((?:\\.|[^/\\])*)/", addressed[0]) if addressed else None
    return (
        name == "sed"
        and quiet
        and bool(addressed)
        and not (pattern is not None and _looks_for_problems(pattern.group(1)))
    )


def _blamed(
    steps: Sequence[Step], project: list[int], failures: frozenset[str | None], output: str
) -> int | None:
    """The project step a failure report belongs to: the one of the report's kind, else the
    only project step when nothing else could have printed it (or it counts failures)."""
    named = [i for i in project if steps[i].command.kind in failures]
    if len(named) == 1:
        return named[0]
    others = [i for i, step in enumerate(steps) if i not in project and _could_fail(step)]
    if len(project) == 1 and (not others or counts_failures(output)):
        return project[0]
    return None


def _read_echoes(steps: Sequence[Step], result: list[Outcome], output: str, pipefail: bool) -> None:
    """A status the line printed itself: `cmd; echo "exit: $?"`, or `cmd && echo OK || echo
    FAIL` (the two words differ and exactly one of them is a line of the output)."""
    lines = {line.strip() for line in output.splitlines()}
    for index in range(1, len(steps)):
        found = steps[index].command.words
        before = steps[index - 1]
        if found[:1] and found[0] in _ECHO and before.joiner in (";", "\n"):
            code = _echoed_code(" ".join(w for w in found[1:] if w != "-e"), output)
            if code is not None:
                outcome = Outcome.WORKED if code == 0 else Outcome.FAILED
                result[index - 1] = _own(before, outcome, pipefail)
        if index + 1 < len(steps) and before.joiner == "&&" and steps[index].joiner == "||":
            passed, failed = _echoed(found), _echoed(steps[index + 1].command.words)
            if passed and failed and passed != failed and (passed in lines) != (failed in lines):
                outcome = Outcome.WORKED if passed in lines else Outcome.FAILED
                result[index - 1] = _own(before, outcome, pipefail)


def _echoed_code(template: str, output: str) -> int | None:
    if template.count("$?") != 1:
        return None
    pattern = re.escape(template.strip()).replace(re.escape("$?"), r"(\d+)")
    found = re.findall(rf"(?m)^\s*{pattern}\s*$", output)
    return int(found[-1]) if len(found) == 1 else None


def _echoed(found: Sequence[str]) -> str | None:
    """The literal line an `echo` prints (None for anything with a variable)."""
    if not found or found[0] != "echo" or any("$" in w for w in found):
        return None
    text = " ".join(w for w in found[1:] if w not in ("-e", "-n")).strip()
    return text or None
