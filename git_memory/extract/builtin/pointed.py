"""A refusal that names the program to use instead, and a later run of that program doing the
same job: the project allows one package manager (`npm install` → `Use "pnpm install" for
installation in this project.`, corepack's "This project is configured to use yarn"), a hook
on the machine forbids a command (`rm -rf .next` → "rm -rf is forbidden - use trash
instead"). The agent reaches for the forbidden one again in every session; the trap hands on
what the refusal said:
"Trap: `npm install` fails with "Use 'pnpm install' for installation in this project."; run
`pnpm install` instead."

Only a line that refuses counts, not advice printed beside a failure (a deprecation's "use
tsx instead", a linter's "Use find instead of ls"). The step refused is the one the line is
about: the program it names as forbidden (`rm`), or the other package manager when it names
the one to install with; the fix is the named program doing that step's job (`pnpm install`
for `npm install`, `trash .next` for `rm -rf .next`), not any later run of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from git_memory.command_line.kinds import PACKAGE_MANAGERS

# The words of a refusal naming what to run: only-allow, corepack and pnpm, hooks.
_POINTS = re.compile(
    r"(?i)\buse\s+[\"'`]?(?P<use>[\w.-]+)(?:\s+[\w:.-]+)?[\"'`]?\s+(?:instead\b|for installation\b)"
    r"|\bconfigured to use\s+[\"'`]?(?P<configured>[\w.-]+)"
)
# A line that refuses, not one that only advises.
_REFUSING = re.compile(
    r"(?i)\b(?:blocked|forbidden|not allowed|refused|denied|for installation|configured to use)\b"
)
# A package manager's words for installing the project's dependencies.
_INSTALLS = frozenset(["install", "i", "add", "ci"])


def pointed_program(output: str) -> tuple[str, str] | None:
    """The program a refusing line of a run's output says to use instead, and the line."""
    for line in output.splitlines():
        found = _POINTS.search(line)
        if found is not None and _REFUSING.search(line):
            program = found.group("use") or found.group("configured")
            return program.casefold(), line.strip().strip("║│|").strip()
    return None


def pointed_fix(
    failing: Sequence[Sequence[str]], program: str, said: str, later: Sequence[Sequence[str]]
) -> tuple[int, int] | None:
    """(which step of the failed run was refused, which step of a later run did its job with
    the program named), given their steps' words and the refusing line."""
    refused = _refused_step(failing, program, said)
    if refused is None:
        return None
    fixed = next(
        (n for n, w in enumerate(later) if w and w[0].casefold() == program),
        None,
    )
    if fixed is None or not same_job(failing[refused], later[fixed]):
        return None
    return refused, fixed


def _refused_step(steps: Sequence[Sequence[str]], program: str, said: str) -> int | None:
    """The step the refusing line is about: the one whose program it names (`rm -rf is
    forbidden`), else, when it names a package manager to install with, the step of another
    package manager."""
    named = {word.casefold() for word in re.findall(r"[\w.-]+", said)}
    for index, words in enumerate(steps):
        if words and words[0].casefold() != program and words[0].casefold() in named:
            return index
    if program in PACKAGE_MANAGERS:
        for index, words in enumerate(steps):
            if words and words[0].casefold() in PACKAGE_MANAGERS - {program}:
                return index
    return None


def same_job(refused: Sequence[str], fixed: Sequence[str]) -> bool:
    """Whether two steps of different programs do one job: the same targets (`rm -rf .next`,
    `trash .next`), or, for two package managers, the same subcommand (an install is one
    whatever its spelling: `npm i`, `yarn`, `pnpm install`)."""
    if refused[0].casefold() in PACKAGE_MANAGERS and fixed[0].casefold() in PACKAGE_MANAGERS:
        return _subcommand(refused) == _subcommand(fixed)
    return _targets(refused) == _targets(fixed) and bool(_targets(fixed))


def _subcommand(words: Sequence[str]) -> str:
    """A package manager's step: its subcommand, an install of any spelling as `install`
    (`yarn` alone installs; `pnpm --version` does not), with the packages it names."""
    rest = _targets(words)
    if rest[:1] and rest[0] in _INSTALLS:
        rest = ["install", *rest[1:]]
    elif list(words) == ["yarn"]:
        rest = ["install"]
    return " ".join(rest)


def _targets(words: Sequence[str]) -> list[str]:
    return [word for word in words[1:] if not word.startswith("-")]


def pointed_by(error: str, failing: str, fix: str) -> bool:
    """Whether a trap's error is a refusal naming its fix's program, which its failing
    command did not run, and the two do one job (each named without the `cd` into the
    folder it ran in)."""
    found = pointed_program(error)
    words, fixed = failing.split(), fix.split()
    return (
        found is not None
        and bool(words)
        and bool(fixed)
        and fixed[0].casefold() == found[0]
        and words[0].casefold() != found[0]
        and same_job(words, fixed)
    )
