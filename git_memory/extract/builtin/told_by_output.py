"""Traps whose failure's own output names what went wrong and a later run shows the way
(`traps.py` tries them when the failing command is no project command of a known kind):
- *alternative*: a program the machine lacks and one of the same use that worked
  (`missing.py`);
- *switch*: a switch the program refused and the same program run without it
  (`unknown_option.py`);
- *quoted*: a route folder zsh took for a pattern and the same command with it quoted
  (`globbed.py`);
- *pointed*: a refusal naming the program to use instead and a later run of it doing the same
  job (`pointed.py`), tried after every other shape.
Each is told as a *variant*: "run `…` instead".
"""

from __future__ import annotations

from collections.abc import Sequence

from git_memory.command_line.line import located
from git_memory.command_line.signature import PREFIX
from git_memory.extract.builtin.globbed import quoted_fix, typed_back, unmatched_route
from git_memory.extract.builtin.missing import alternative_to, missing_program
from git_memory.extract.builtin.pointed import pointed_fix, pointed_program
from git_memory.extract.builtin.renderers import BuiltinFact, sanitize_error
from git_memory.extract.builtin.runs import Run
from git_memory.extract.builtin.trap_fact import trap_fact
from git_memory.extract.builtin.unknown_option import a_slip, refused_switch, switch_fix

# How many runs after a failure may show the way it names.
ALTERNATIVE_WINDOW = 6


def alternative_trap(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """A program the machine lacks, and one of the same use that worked (`missing.py`)."""
    failed = runs[index]
    missing = missing_program(_programs(failed), failed.output)
    if missing is None:
        return None
    program, said = missing
    for later in runs[index + 1 : index + 1 + ALTERNATIVE_WINDOW]:
        if later.command is None or later.state != "completed":
            continue
        fix = alternative_to(program, _programs(later))
        if fix == "":
            return None  # it ran after all
        if fix is not None:
            error = sanitize_error(PREFIX.sub("", said))  # the line saying it is not found
            return trap_fact("variant", failed, later, error, fix, failing=program, said=said)
    return None


def switch_trap(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """A switch the program refused, and the same program run without it (`unknown_option`)."""
    failed = runs[index]
    refused = refused_switch(failed.output)
    if refused is None or a_slip(refused[0], failed.output):
        return None  # (a slip the program itself pointed out is no switch it lacks)
    later = [r for r in runs[index + 1 : index + 1 + ALTERNATIVE_WINDOW] if r.state == "completed"]
    for step in failed.steps:
        for run in later:
            found = switch_fix(step.command.words, refused, [s.command.words for s in run.steps])
            if found is not None:
                failing, fix = found
                said = refused[1]  # the line refusing it
                error = sanitize_error(PREFIX.sub("", said))
                return trap_fact("variant", failed, run, error, fix, failing=failing, said=said)
    return None


def quoted_trap(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """A route folder zsh took for a pattern, and the same command with it quoted
    (`globbed`)."""
    failed = runs[index]
    refused = unmatched_route(failed.output)
    if refused is None:
        return None
    path, said = refused
    later = [r for r in runs[index + 1 : index + 1 + ALTERNATIVE_WINDOW] if r.state == "completed"]
    for step in failed.steps:
        for run in later:
            steps = [s.command.words for s in run.steps]
            found = quoted_fix(step.command.words, path, steps, run.command or "")
            if found is not None:
                failing, fix = found
                error = sanitize_error(PREFIX.sub("", said))
                return trap_fact("variant", failed, run, error, fix, failing=failing, said=said)
    return None


def pointed_trap(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """A refusal naming the program to use instead, and a later run of it (`pointed`)."""
    failed = runs[index]
    pointed = pointed_program(failed.output)
    if pointed is None:
        return None
    program, said = pointed
    failing = [step.command.words for step in failed.steps]
    for later in runs[index + 1 : index + 1 + ALTERNATIVE_WINDOW]:
        if later.command is None or later.state != "completed":
            continue
        found = pointed_fix(failing, program, said, [s.command.words for s in later.steps])
        if found is not None:
            refused, fixed = failed.steps[found[0]].command, later.steps[found[1]].command
            if failed.folder(refused) != later.folder(fixed):
                continue  # another folder's project: no fix of this one
            where = failed.folder(refused)
            error = sanitize_error(PREFIX.sub("", said))
            fix = located(typed_back(fixed.words, fixed.dialect), where)
            name = located(typed_back(refused.words, refused.dialect), where)
            return trap_fact("variant", failed, later, error, fix, failing=name, said=said)
    return None


def _programs(run: Run) -> list[tuple[str, ...]]:
    return [step.command.program for step in run.steps if step.command.program]
