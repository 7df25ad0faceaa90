"""A program the machine lacks and one of the same use that worked instead: `rg` is not
installed (`zsh:1: command not found: rg`), then `grep -R -n "TODO" src` found what it looked
for. The agent would try `rg` again in every session; the trap tells it what works here:
"Trap: `rg` fails with "zsh:1: command not found: rg"; run `grep -R` instead."

The trap names the two programs only, and the mode a use needs (`grep -R` searches a folder's
tree as `rg` does): the pattern, the paths and the other switches were the task's, and one
memory stands for every session that met the same lack. No trap when the
program worked later in the session (it was installed, or the failure was another), or when
nothing of the same use ran after it. What one person's machine lacks is true of that machine,
not of the project: a window proposes the trap only when two people's sessions show it, the
environment the team shares (`window.MACHINE_LACK_PEOPLE`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Programs of one use each, any of which can stand for another.
ALTERNATIVES: tuple[frozenset[str], ...] = (
    frozenset(["rg", "ag", "ack", "grep", "grep -R", "Select-String", "findstr"]),  # search text
    frozenset(["fd", "fdfind", "rg --files", "find", "Get-ChildItem"]),  # find files
    frozenset(["bat", "batcat", "cat", "Get-Content"]),  # show a file
    frozenset(["tree", "eza", "exa", "ls", "Get-ChildItem"]),  # list folders
    frozenset(["http", "https", "xh", "curl", "wget", "Invoke-WebRequest", "Invoke-RestMethod"]),
)


def _not_found(program: str) -> re.Pattern[str]:
    """The shells' words for a program they could not find: bash, zsh, sh, fish, PowerShell
    and cmd."""
    name = re.escape(program)
    return re.compile(
        rf"command not found: {name}\b|(?<![\w-]){name}: (?:command )?not found"
        rf"|'{name}' is not recognized|term '{name}' is not recognized"
        rf"|Unknown command:? '?{name}\b",
        re.IGNORECASE,
    )


def missing_program(programs: Sequence[Sequence[str]], output: str) -> tuple[str, str] | None:
    """The program of a failed run (its steps' program words) that the shell could not find,
    if it has one of a known use, and the line saying so."""
    for words in programs:
        if not words or not any(_use(words) in group for group in ALTERNATIVES):
            continue
        said = _not_found(words[0])
        line = next((line for line in output.splitlines() if said.search(line)), None)
        if line is not None:
            # the program the shell lacks, whatever mode it was run in
            return ("grep" if words[0] == "grep" else _use(words)), line.strip()
    return None


def alternative_to(program: str, programs: Sequence[Sequence[str]]) -> str | None:
    """The alternative a later run's steps ran, as the trap names it; "" when the missing
    program itself ran (installed after all, or the failure was another); None for neither."""
    group = next(g for g in ALTERNATIVES if program in g)
    if any(words and words[0] == program.split(maxsplit=1)[0] for words in programs):
        return ""
    found = next((w for w in programs if w and _use(w) in group and _use(w) != program), None)
    return _use(found) if found is not None else None


# grep's short switches that take a value (`-e PATTERN`, `-m 5`, `-d recurse`): the rest of
# the cluster or the next word is that value, not a switch.
_TAKES_A_VALUE = frozenset("efmABCdD")
_RECURSIVE = frozenset(["--recursive", "--dereference-recursive", "--directories=recurse"])


def _use(words: Sequence[str]) -> str:
    """The program, as the table names its use: `rg --files` lists files, `rg` searches;
    `grep -R` searches a folder's tree, `grep` a file."""
    if words[0] == "rg" and "--files" in words:
        return "rg --files"
    if words[0] == "grep" and _recursive(words[1:]):
        return "grep -R"
    return words[0]


def _recursive(arguments: Sequence[str]) -> bool:
    """Whether grep's switches search a folder's tree (`-r`, `-Rn`, `-d recurse`), read as
    grep reads them: up to `--`, a value after the switch that takes it (`-e -r` searches for
    "-r")."""
    value_of = ""  # the switch whose value the next word is
    for word in arguments:
        if value_of:
            if value_of == "d" and word == "recurse":
                return True
            value_of = ""
        elif word == "--":
            return False
        elif word in _RECURSIVE:
            return True
        elif word.startswith("-") and not word.startswith("--"):
            for at, letter in enumerate(word[1:], start=1):
                if letter in "rR":
                    return True
                if letter in _TAKES_A_VALUE:
                    value = word[at + 1 :]
                    if letter == "d" and value == "recurse":
                        return True
                    value_of = "" if value else letter
                    break
    return False


def missing_and_alternative(failing: str, fix: str) -> bool:
    """Whether a trap's two commands are a program and an alternative of the same use, as
    `missing_program` and `alternative_to` name them."""
    if failing == fix:
        return False
    return any(failing in group and fix in group for group in ALTERNATIVES)
