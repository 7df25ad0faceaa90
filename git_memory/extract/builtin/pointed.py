"""A refusal that names the program to use instead, and a later run of that program: the
project allows one package manager (`npm install` → `Use "pnpm install" for installation in
this project.`, corepack's "This project is configured to use yarn"), a hook on the machine
forbids a command (`rm -rf .next` → "rm -rf is forbidden - use trash instead"). The agent
reaches for the forbidden one again in every session; the trap hands on what the refusal said:
"Trap: `npm install` fails with "Use 'pnpm install' for installation in this project."; run
`pnpm install` instead."

Only a program the refusal names counts, run after it in the same session: what the agent
tried on its own after an error that named nothing is no fix the machine asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from git_memory.command_line.kinds import NAVIGATION

# The words of a refusal naming what to run: only-allow, corepack and pnpm, hooks.
_POINTS = re.compile(
    r"(?i)\buse\s+[\"'`]?(?P<use>[\w.-]+)(?:\s+[\w:.-]+)?[\"'`]?\s+(?:instead\b|for installation\b)"
    r"|\bconfigured to use\s+[\"'`]?(?P<configured>[\w.-]+)"
)


# A line that refuses, not one that only advises (a deprecation's "use … instead").
_REFUSING = re.compile(
    r"(?i)\b(?:blocked|forbidden|not allowed|refused|denied|error|for installation"
    r"|configured to use)\b"
)


def refused_pointing(output: str) -> bool:
    """Whether a run whose outcome is not known was refused by a line naming what to use
    instead (a hook blocks a command before it runs: "Command blocked! … use trash
    instead")."""
    pointed = pointed_program(output)
    return pointed is not None and bool(_REFUSING.search(pointed[1]))


def pointed_program(output: str) -> tuple[str, str] | None:
    """The program a failed run's output says to use instead, and the line saying so."""
    for line in output.splitlines():
        found = _POINTS.search(line)
        if found is not None:
            program = found.group("use") or found.group("configured")
            return program.casefold(), line.strip().strip("║│|").strip()
    return None


def pointed_fix(
    failing: Sequence[Sequence[str]], program: str, later: Sequence[Sequence[str]]
) -> tuple[int, int] | None:
    """(which step of the failed run was refused, which step of a later run ran the program
    named), given their steps' words: the refused one ran another program."""
    refused = next(
        (
            n
            for n, w in enumerate(failing)
            if w and w[0].casefold() != program and w[0] not in NAVIGATION
        ),
        None,
    )
    fixed = next((n for n, w in enumerate(later) if w and w[0].casefold() == program), None)
    if refused is None or fixed is None:
        return None
    return refused, fixed


def pointed_by(error: str, failing: str, fix: str) -> bool:
    """Whether a trap's error names its fix's program, which its failing command did not
    run."""
    found = pointed_program(error)
    # each named as a teammate runs it, after the `cd` into its folder
    words, fixed = failing.rsplit(" && ", 1)[-1].split(), fix.rsplit(" && ", 1)[-1].split()
    return (
        found is not None
        and bool(words)
        and bool(fixed)
        and fixed[0].casefold() == found[0]
        and words[0].casefold() != found[0]
    )
