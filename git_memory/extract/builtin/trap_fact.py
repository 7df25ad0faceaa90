"""How a trap is told (`command-fix@1`): the fact naming the failing command, its error line
and the fix, quoting the failing run with the line its failure showed and the run that worked;
never one whose fix turns a safeguard off or whose words hold a secret (`traps.py` finds the
pairs).
"""

from __future__ import annotations

from typing import Literal

from git_memory.command_line.signature import PREFIX, error_line
from git_memory.extract.builtin.renderers import (
    RENDERER_COMMAND_FIX,
    BuiltinFact,
    Quote,
    render_command_fix,
    result_line,
    sanitize_error,
    weakens_safety,
)
from git_memory.extract.builtin.runs import Run
from git_memory.lint.engine import scan_secrets


def first_error_line(output: str) -> str:
    """The first meaningful error line of a failed command's output ("" when none), fit for
    a memory (`signature.error_line` picks it)."""
    raw = error_line(output)
    return sanitize_error(PREFIX.sub("", raw)) if raw else ""


def trap_fact(
    mode: str,
    failed: Run,
    fixed: Run,
    error: str,
    fix: str,
    *,
    failing: str | None = None,
    said: str = "",
) -> BuiltinFact | None:
    """The trap, quoting the failing run with the line its error came from (`said`, when it
    is not the first error line of its output) and the run that worked."""
    if failing is None:
        failing = failed.key or ""
    if mode == "hook":
        failing = f"git {'push' if 'git push' in (failed.command or '') else 'commit'}"
    if not failing or not fix or "`" in fix or fix == failing:
        return None
    if blocked(f"{failing} {fix} {error}"):
        return None  # (a command can hold a secret, an error line echo one)
    if weakens_safety(fix) or weakens_safety(fixed.command or ""):
        return None  # a fix that turns a safeguard off is not one to hand on
    text = render_command_fix(mode, failing, error, fix)
    turns = tuple(dict.fromkeys((failed.turn_key, fixed.turn_key)))
    return BuiltinFact(
        RENDERER_COMMAND_FIX,
        "typed-fact",
        text,
        text,
        turns,
        f"fix:{failing}\0{fix}",
        (("mode", mode), ("failing", failing), ("error", error), ("fix", fix)),
        _quotes(failed, fixed, said),
    )


def _quotes(failed: Run, fixed: Run, said: str = "") -> tuple[Quote, ...]:
    """The failing command as run with the line that shows its failure, and the run that
    worked with its result line."""
    lines: tuple[tuple[str, str, Literal["user", "tool"]], ...] = (
        (failed.turn_key, failed.command or "", "tool"),
        (failed.turn_key, said or error_line(failed.output), "tool"),
        # a step the person ran is quoted from what they typed (`told.py`)
        (fixed.turn_key, fixed.command or "", "user" if fixed.told else "tool"),
        (fixed.turn_key, result_line(fixed.output), "tool"),
    )
    return tuple(Quote(turn, text, part) for turn, text, part in lines if text)


def blocked(text: str) -> bool:
    return any(f.severity == "block" for f in scan_secrets(text))
