"""The normal form of a project command: what only narrows a run (a test file or id,
`-k EXPR`, `-run TestX`, a package path) or decorates it (`-q`, `--color …`) is dropped, so
one memory stands for one command; wrappers stay, as a person reuses them.

`go test -v -run TestParse ./internal/parser/` → `go test ./...`;
`npm run test -- src/a.test.ts` → `npm test`; `npx eslint src/a.tsx` → `npx eslint .`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from git_memory.command_line import kinds, words
from git_memory.command_line import program as programs
from git_memory.command_line.program import outside

_TOOLCHAIN_PIN = re.compile(r"\+[\w.-]+$")
_DOTTED_TEST = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def machine_specific(word: str) -> bool:
    """Arguments that belong to one machine or one moment, never to the project's command:
    a toolchain pin (`+1.96.0`, `+nightly`), an absolute or home path, a shell variable."""
    value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
    return bool(_TOOLCHAIN_PIN.match(word)) or outside(value) or value.startswith("$")


def normal_words(command: Sequence[str], program: Sequence[str], kind: str) -> list[str]:
    """The command with narrowing and cosmetic arguments removed (wrappers kept)."""
    prefix = list(command[: len(command) - len(program)])
    head, rest = list(program[:1]), [w for w in program[1:] if not machine_specific(w)]
    if head and head[0] in kinds.SCRIPT_RUNNERS:
        return prefix + head + _script_args(head[0], rest)
    if kind == "script":  # its options stay, what it is run on does not
        return prefix + head + [w for w in rest if w.startswith("-")]
    if kind == "syntax":  # the files checked are what the check is: `node --check app.js`
        return prefix + head + [w for w in rest if not words.COSMETIC.match(w)]
    kept, dropped = _kept(head, rest, kind)
    targets = [w for w in kept[_fixed(head) :] if not w.startswith("-")]
    if head and not targets and (dropped or head[0] in words.DEFAULT_TARGET):
        kept += _default_target(head[0])
    return prefix + head + kept


def _kept(head: list[str], rest: list[str], kind: str) -> tuple[list[str], bool]:
    """The arguments kept, and whether a narrowing one was dropped."""
    kept: list[str] = []
    dropped = False
    own = words.KEPT_VALUE.get(head[0] if head else "", frozenset())
    # A run over a top-level folder as well (`flake8 src/pkg/ tests/`) is over the project's
    # code, not narrowed: dropping the deeper path alone would leave a narrower command (beside
    # `.`, a deeper path adds nothing and goes).
    wide = any(_top_folder(word) for word in rest)
    after = ""  # the flag before this word when it takes a value
    for word in rest:
        flag, after = after, ""
        if flag:
            kept += [word] if flag in own else []
            continue
        if word == "--" and head and head[0] == "cargo" and kind == "test":
            break
        if word in words.NARROWING_VALUE:
            after, dropped = word, dropped or word not in own
            kept += [word] if word in own else []
        elif words.NARROWING_ASSIGNED.match(word):
            dropped = True
        elif _decoration(word, kind):
            continue
        elif not word.startswith("-") and _narrowing_target(word, head, kept, kind, wide=wide):
            dropped = True
        else:
            kept.append(word)
    return kept, dropped


def _decoration(word: str, kind: str) -> bool:
    """A switch that only decorates the run (`-q`, `--color`, a server's `--reload`); a
    formatter's `-i` writes the files."""
    if kind == "format" and word in words.IN_PLACE:
        return False
    return bool(words.COSMETIC.match(word)) or (kind == "run" and word in words.AUTO_RELOAD)


def narrowed(command: Sequence[str], program: Sequence[str], normal: Sequence[str]) -> bool:
    """The run was narrowed to a file, a test id or an expression (its normal form is wider)."""
    if programs.runs_script(program):
        return False
    kept = set(normal)
    return any(
        w not in kept
        and w not in ("--", "run")
        and not words.COSMETIC.match(w)
        and not (_TOOLCHAIN_PIN.match(w) or (w.startswith("-") and machine_specific(w)))
        for w in command
    )


def _fixed(head: Sequence[str]) -> int:
    """How many leading words are subcommands (`go test`, `cargo test`, `ruff check`)."""
    return 1 if head and head[0] in words.SUBCOMMAND_PROGRAMS else 0


def _narrowing_target(
    word: str, head: Sequence[str], kept: Sequence[str], kind: str, *, wide: bool = False
) -> bool:
    program = head[0] if head else ""
    if "::" in word or words.SOURCE_FILE.search(word) or "$" in word:
        return True
    if kind in ("test", "lint", "format", "typecheck") and _below_top(word) and not wide:
        return True  # one folder deep in the tree: `golangci-lint run ./cmd/cli/agent/`
    if kind == "test" and programs.project_script(program):
        return True  # `python3 tests/runtests.py admin_views`: one test module
    if kind == "test" and _DOTTED_TEST.fullmatch(word):
        return True  # a module or test id: `python manage.py test accounts.tests.test_x`
    if program == "go" and kind in ("test", "build", "lint"):
        return (
            word != "./..."
            and kept[:1] in (["test"], ["build"], ["vet"])
            and (word.startswith(("./", ".")))
        )
    if program == "cargo" and kind == "test":
        return bool(kept) and word not in ("test", "nextest") and kept[-1:] != ["nextest"]
    if program in ("jest", "vitest", "mocha") and kind == "test":
        return word != "run"
    return False


def _top_folder(word: str) -> bool:
    """One of the project's top-level folders, named as a folder (`tests/`, `./src/`)."""
    path = word.removeprefix("./")
    return path.endswith("/") and "/" not in path[:-1] and path != "/"


def _below_top(word: str) -> bool:
    """A path below a top-level folder of the project (`cmd/cli/agent/`, not `src`)."""
    path = word.removeprefix("./").rstrip("/")
    return "/" in path and not path.endswith("...") and "*" not in path


def _default_target(program: str) -> list[str]:
    if program == "go":
        return ["./..."]
    return [words.DEFAULT_TARGET[program]] if program in words.DEFAULT_TARGET else []


def _script_args(runner: str, rest: Sequence[str]) -> list[str]:
    """`npm run test -- tests/x.test.ts` → `test`: arguments after `--` narrow a script, and
    `run` is left out where the runner means the same without it."""
    plain = runner in ("pnpm", "yarn") or (runner == "npm" and rest[1:2] in (["test"], ["start"]))
    if rest[:1] == ["run"] and len(rest) > 1 and plain:
        rest = rest[1:]
    kept: list[str] = []
    for word in rest:
        if word == "--" or (kept and not word.startswith("-") and words.SOURCE_FILE.search(word)):
            break
        if not words.COSMETIC.match(word):
            kept.append(word)
    return kept
