"""A switch the installed program does not have: the program refuses it (`brew bundle
--no-lock` → "Error: invalid option: --no-lock"), and the same program and subcommand worked
without it. Agents reach for switches older versions had; the trap tells the next one what
this machine's version takes:
"Trap: `brew bundle --no-lock` fails with "Error: invalid option: --no-lock"; run `brew
bundle` instead."

The trap names the program, its subcommand and the switch refused, and the run that worked
with its own switches (a replacement: `npm install --omit=optional` for `--no-optional`), not
the paths or names the task gave them. A project command or a set-up step refused the same
way is `traps.py`'s own variant; programs that only look around are left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from git_memory.command_line.kinds import NAVIGATION
from git_memory.command_line.program import skip_options
from git_memory.command_line.words import DRY_FLAGS, INFO_FLAGS, INTERPRETERS, WRAPPER_OPTIONS

# The words of the common command-line parsers for a switch they do not know: Homebrew,
# argparse, click, clap, cobra, getopt, Node, pip, Yarn, `arg` (Prisma, Vercel); the switch
# they name.
_REFUSED = re.compile(
    r"(?i)(?:invalid option|unrecognized (?:arguments?|option)"
    r"|unknown (?:or unexpected )?(?:shorthand )?(?:flag|option)|no such option"
    r"|unexpected argument|bad option"
    r"|unsupported option name)"
    r"[:\s]*[(\"'`]*(--?[A-Za-z][\w-]*)"
)
# A subcommand's name, and how many words a program and its subcommands take at most.
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9-]*")
MAX_HEAD_WORDS = 4
# Programs that run another program or a script, whose switches may be that one's.
_NOT_THE_PROGRAM = frozenset(
    [
        *INTERPRETERS,
        *("ssh", "env", "sudo", "xargs", "time", "nohup", "timeout"),
        # runners of a script file, whose switches after it are the script's
        *("vite-node", "zx", "esno", "jiti"),
    ]
)
# Runners of a package's program (`npx supabase db push …`): the program named after them
# (and after their own switches, `npx -y`) is the one that refuses, and the trap names it
# with its runner, as a teammate types it.
_PACKAGE_RUNNERS = (("npx",), ("bunx",), ("pnpx",), ("pnpm", "dlx"), ("yarn", "dlx"), ("bun", "x"))
# The runners' switches that run a shell line instead of a program.
_RUNNER_SHELL = frozenset(["-c", "--call"])
# A program's name a refusal starts with (`vllm: error: …`), and the words that are no name.
_NAMED = re.compile(r"^([\w./-]+): ")
_NOT_NAMES = frozenset(["error", "fatal", "warning", "usage", "err", "npm", "yarn"])
_PLAIN = re.compile(r"[\w./@+-]+")
# How alike a refused switch and the one typed next are when the first was a slip.
TYPO_LIKENESS = 0.8
# A program suggesting the switch it expected, and a switch a usage text lists.
_SUGGESTS = re.compile(r"(?i)did you mean|similar (?:argument|flag|option)|perhaps you meant")
_LISTED_SWITCH = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
# git's own wording: "error: unknown option `no-edit'".
_GIT_REFUSED = re.compile(r"unknown (?:switch|option) `([\w-]+)'")


def refused_switch(output: str) -> tuple[str, str] | None:
    """The switch a program's output says it does not know (`--no-lock`), and the line that
    says so."""
    for line in output.splitlines():
        found = _REFUSED.search(line)
        if found is not None:
            return found.group(1), line.strip()
        git = _GIT_REFUSED.search(line)
        if git is not None:
            name = git.group(1)
            return (f"-{name}" if len(name) == 1 else f"--{name}"), line.strip()
    return None


def head(words: Sequence[str]) -> list[str]:
    """The program and its subcommands: the words named like commands before its first
    switch (`brew bundle`, `supabase db push`; not `Qwen/Qwen3-8B`), at most four."""
    found = list(words[:1])
    for word in words[1:MAX_HEAD_WORDS]:
        if not _SUBCOMMAND.fullmatch(word):
            break
        found.append(word)
    return found


def _switches(words: Sequence[str], taken: Sequence[str]) -> list[str]:
    """The switches of `words` not in `taken`, each with the value typed after it."""
    found: list[str] = []
    for index, word in enumerate(words):
        if not word.startswith("-") or len(word) < 2 or word in taken:
            continue
        value = words[index + 1] if index + 1 < len(words) else ""
        found += [word, value] if value and not value.startswith("-") else [word]
    return found


def _a_typo(switch: str, added: Sequence[str]) -> bool:
    """A switch misspelled and then typed right (`--no-edti`, `--no-edit`): the run's own
    slip, nothing the machine refuses."""
    return any(
        SequenceMatcher(None, switch, word).ratio() >= TYPO_LIKENESS
        for word in added
        if word.startswith("-")
    )


def _has(words: Sequence[str], switch: str) -> bool:
    return any(w == switch or w.startswith(switch + "=") for w in words)


def a_slip(switch: str, output: str) -> bool:
    """Whether the program took the refused switch for a slip: it suggests another ("Did you
    mean --graph?", clap's "a similar argument exists"), or lists among its own switches one
    spelled nearly the same (git prints its usage: `--graph` beside the refused `--grpah`)."""
    if _SUGGESTS.search(output):
        return True
    listed = set(_LISTED_SWITCH.findall(output)) - {switch}
    return any(SequenceMatcher(None, switch, word).ratio() >= TYPO_LIKENESS for word in listed)


def unwrapped(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the package runner's words, the program's): `npx -y supabase db push` is (`npx
    -y`, `supabase db push`), `npx -p yo -- yo code` is (`npx -p yo --`, `yo code`), the
    runner's options read as the command model reads them (`program.skip_options`); a
    program run directly has no runner, a shell line the runner is given (`npx -c '…'`) no
    program."""
    for runner in _PACKAGE_RUNNERS:
        if tuple(words[: len(runner)]) != runner:
            continue
        rest = skip_options(words[len(runner) :], WRAPPER_OPTIONS)
        rest = rest[1:] if rest[:1] == ["--"] else rest
        own = list(words[: len(words) - len(rest)])
        return (own, []) if _RUNNER_SHELL & set(own) else (own, rest)
    return [], list(words)


def switch_fix(
    failing: Sequence[str], refused: tuple[str, str], later: Sequence[Sequence[str]]
) -> tuple[str, str] | None:
    """(the refused run as the trap names it, the run that worked) when `failing`'s program
    refused one of its switches (`refused`: the switch and the line saying so) and a later run
    (`later`, its steps' program words, in order) of the same program and subcommands went
    without it, through the same package runner if any."""
    switch, line = refused
    runner, failing = unwrapped(failing)
    if not _its_own(failing, line) or not _has(failing[1:], switch):
        return None
    start = head(failing)
    for each in later:
        its_runner, words = unwrapped(each)
        if its_runner[:1] != runner[:1] or words[: len(start)] != start:
            continue
        if _has(words[1:], switch):
            continue  # (`brew install wget` after `brew install --no-quarantine wget`)
        added = _switches(words[len(start) :], failing)
        if any(word in INFO_FLAGS | DRY_FLAGS for word in added):
            continue  # it asked for help or a dry run: nothing worked yet
        if _a_typo(switch, added):
            return None
        return " ".join([*runner, *start, switch]), " ".join([*its_runner, *start, *added])
    return None


def _its_own(failing: Sequence[str], line: str) -> bool:
    """Whether the refusal is the program's own: not an interpreter's or a wrapper's, whose
    script or remote command refused it (`python3 check.py --verbose` → "check.py: error:
    …"), and not another program's named in the line; a plain word, no path with spaces."""
    if not failing or failing[0] in _NOT_THE_PROGRAM or failing[0] in NAVIGATION:
        return False
    if any(not _PLAIN.fullmatch(word) for word in head(failing)):
        return False
    named = _NAMED.match(line)
    if named is None or named.group(1).casefold() in _NOT_NAMES:
        return True
    return named.group(1).rsplit("/", 1)[-1] == failing[0].rsplit("/", 1)[-1]


def dropped_switch(failing: str, fix: str) -> bool:
    """Whether a trap's two commands are a program refusing a switch and the same program
    and subcommand run without it, as `switch_fix` names them."""
    runner, words = unwrapped(failing.split())
    if len(words) < 2 or words[0] in NAVIGATION or not words[-1].startswith("-"):
        return False
    start, switch = words[:-1], words[-1]
    its_runner, fixed = unwrapped(fix.split())
    return (
        its_runner[:1] == runner[:1]
        and head(words) == start
        and fixed[: len(start)] == start
        and not _has([*its_runner, *fixed], switch)
    )
