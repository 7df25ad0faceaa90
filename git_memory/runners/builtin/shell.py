"""Shell command lines as the builtin extractor reads them: segments, kinds, one normal form.

A recorded command line (`cd api && uv run pytest tests/test_x.py -q 2>&1 | tail -20`) is
split into `&&`/`;`/`||` segments; pipelines keep their first command and redirections are
dropped. Each segment is classified by its program (after runner wrappers such as `uv run`,
`npx`, `python -m`, `timeout 60`): a *project* command (test, lint, format, typecheck, check,
build, generate, run), a *setup* step (install, services, migrations, environment) or neither
(navigation and everything else). The normal form drops what only narrows or decorates a run
(a test file or id, `-k EXPR`, `-q`, `--color …`), so one memory stands for one command.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from git_memory.runners.builtin import vocabulary

# Tool names that run a shell command, across the agents' transcript formats.
SHELL_TOOLS = frozenset(
    [
        "bash",
        "exec",
        "exec_command",
        "shell",
        "shell_command",
        "terminal",
        "local_shell",
        "run_shell_command",
        "run_terminal_cmd",
        "run_in_terminal",
        "powershell",
    ]
)
# Tools that change files: a failure followed by an edit was fixed in the code, not the setup.
EDIT_TOOLS = frozenset(
    [
        "edit",
        "multiedit",
        "write",
        "notebookedit",
        "apply_patch",
        "str_replace_based_edit_tool",
        "str_replace_editor",
        "write_file",
        "replace",
        "edit_file",
        "create_file",
    ]
)
PROJECT_KINDS = ("test", "lint", "format", "typecheck", "check", "build", "generate", "run")

_OPERATORS = frozenset(["&&", "||", ";", "&", "\n"])
_REDIRECTS = frozenset([">", ">>", "<", ">&", "&>", "<&", ">|", "&>>", "2>", "2>>"])
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_SOURCE_FILE = re.compile(
    r"\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|rs|go|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|ex|exs|"
    r"vue|svelte|md|json|toml|yaml|yml|css|scss|sh)$"
)


@dataclass(frozen=True)
class Segment:
    """One simple command of a command line: its words as typed and its normal form."""

    words: tuple[str, ...]
    kind: str | None
    setup: bool
    normal: str
    env: tuple[str, ...] = ()
    # The run was narrowed to a file, a test id or an expression (its normal form is wider).
    narrowed: bool = False

    @property
    def navigation(self) -> bool:
        """Neither a project command nor a setup step."""
        return self.kind is None and not self.setup


def command_of(call: Any) -> str | None:
    """The shell command line of a tool call, or None when it is not a shell call."""
    if str(getattr(call, "name", "")).lower() not in SHELL_TOOLS:
        return None
    payload = getattr(call, "input", None)
    if isinstance(payload, dict):
        payload = payload.get("command", payload.get("cmd"))
    if isinstance(payload, list) and all(isinstance(part, str) for part in payload):
        if len(payload) == 3 and payload[0].endswith("sh") and payload[1] in ("-c", "-lc"):
            payload = payload[2]
        else:
            payload = shlex.join(payload)
    return " ".join(payload.split()) if isinstance(payload, str) and payload.strip() else None


def is_edit(call: Any) -> bool:
    """The call changed files through an editing tool."""
    return str(getattr(call, "name", "")).lower() in EDIT_TOOLS


def segments(command: str) -> list[Segment]:
    """The simple commands of a command line, in order (pipeline filters left out)."""
    return [_segment(words) for words in _split(command) if words]


def _split(command: str) -> list[list[str]]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        tokens = command.split()
    groups: list[list[str]] = [[]]
    piped = False
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in _OPERATORS:
            groups.append([])
            piped = False
        elif token in ("|", "|&"):
            piped = True
        elif token in _REDIRECTS or re.fullmatch(r"\d?[<>]+&?", token):
            skip_next = True
            if groups[-1] and groups[-1][-1].isdigit():
                groups[-1].pop()
        elif not piped:
            groups[-1].append(token)
    return groups


def _segment(words: list[str]) -> Segment:
    words = list(words)
    env: list[str] = []
    while words and _ASSIGNMENT.fullmatch(words[0]):
        env.append(words.pop(0))
    while words and words[0] in vocabulary.TRANSPARENT:
        words.pop(0)
    if len(words) >= 2 and words[0] == "timeout":
        words = words[2:]
    program = program_words(words)
    kind = _kind(program)
    normal_words = _normal_words(words, program, kind) if kind else words
    setup = kind is None and _is_setup(" ".join(words))
    narrowed = any(
        w not in normal_words and w not in ("--", "run") and not vocabulary.COSMETIC.match(w)
        for w in words
    )
    return Segment(tuple(words), kind, setup, " ".join(normal_words), tuple(env), narrowed)


def program_words(words: Sequence[str]) -> list[str]:
    """The words from the program on: runner wrappers (and their options) removed."""
    rest = list(words)
    changed = True
    while changed:
        changed = False
        for wrapper in vocabulary.WRAPPERS:
            if tuple(rest[: len(wrapper)]) == wrapper and len(rest) > len(wrapper):
                rest = _skip_options(rest[len(wrapper) :], vocabulary.WRAPPER_OPTIONS)
                changed = True
        container = _container_command(rest)
        if container is not None:
            rest, changed = container, True
    return _interpreted(rest)


def _skip_options(words: list[str], valued: frozenset[str]) -> list[str]:
    while words and words[0].startswith("-") and words[0] != "--":
        words = words[2:] if words[0] in valued else words[1:]
    return words


def _container_command(words: list[str]) -> list[str] | None:
    """`docker compose run --rm app pytest` → `pytest`: the command a container runs."""
    for prefix in vocabulary.CONTAINER_RUNS:
        if tuple(words[: len(prefix)]) == prefix:
            rest = _skip_options(words[len(prefix) :], vocabulary.CONTAINER_OPTIONS)
            return rest[1:] if len(rest) > 1 else None
    return None


def _kind(program: Sequence[str]) -> str | None:
    if not program or any(word in vocabulary.INFO_FLAGS for word in program[1:]):
        return None
    head = program[0].rsplit("/", 1)[-1]
    second = next((w for w in program[1:] if not w.startswith(("-", "+"))), "")
    for name in (program[0], head):
        if (name, second) in vocabulary.SUBCOMMANDS:
            return vocabulary.SUBCOMMANDS[(name, second)]
    if head == "ruff" and second not in ("format", "check"):
        return "lint" if second in ("", ".") else None
    if head in ("make", "just", "task") and not _script_words(program[1:]):
        return "build" if head == "make" else None
    if head in vocabulary.SCRIPT_RUNNERS:
        return _script_kind([head, *program[1:]])
    if head == "tsc":
        return "typecheck" if "--noEmit" in program or "-noEmit" in program else "build"
    if head in vocabulary.PROGRAMS and not (
        head in ("build", "flask") and second not in ("", "run")
    ):
        return vocabulary.PROGRAMS[head]
    if head.endswith(".sh") or program[0].startswith(("./scripts/", "scripts/", "bin/", "./bin/")):
        return _words_kind(re.split(r"[-_./:]", head.removesuffix(".sh")))
    return None


def _interpreted(program: Sequence[str]) -> list[str]:
    """`bash scripts/test.sh` → `scripts/test.sh`; `python manage.py test` → `manage.py test`."""
    words = list(program)
    if len(words) > 1 and words[0] in ("bash", "sh", "zsh") and words[1].endswith(".sh"):
        return words[1:]
    if len(words) > 1 and words[0] in ("python", "python3") and words[1] == "manage.py":
        return words[1:]
    return words


def _script_words(rest: Sequence[str]) -> list[str]:
    """A script runner's arguments without its leading options (`--filter pkg`, `-C dir`)."""
    return _skip_options(list(rest), vocabulary.RUNNER_OPTIONS)


def _script_kind(program: Sequence[str]) -> str | None:
    runner, rest = program[0], _script_words(program[1:])
    if runner in ("npm", "pnpm", "yarn", "bun") and rest[:1] in (["exec"], ["dlx"], ["x"]):
        return _kind(program_words(rest[1:]))  # `pnpm --filter db exec prisma generate`
    if rest[:1] and rest[0] in vocabulary.SCRIPT_RUNNERS and rest[0] != runner:
        return _script_kind(rest)  # `pnpm turbo build`
    if runner in ("mise", "turbo", "nx") and rest[:1] == ["run"]:
        rest = rest[1:]
    if runner in ("npm", "pnpm", "yarn", "bun") and rest[:1] == ["run"]:
        rest = rest[1:]
    elif runner == "npm" and rest[:1] and rest[0] not in vocabulary.PM_BUILTINS:
        return None
    if not rest or rest[0].startswith("-"):
        return None
    name = rest[0]
    if (
        runner in ("npm", "pnpm", "yarn", "bun")
        and name in vocabulary.PM_BUILTINS
        and "run" not in program
    ):
        return vocabulary.PM_BUILTINS[name]
    # Task names in camelCase (`spotlessCheck`) split like kebab-case ones.
    return _words_kind(re.split(r"[-_.:/]", re.sub(r"([a-z])([A-Z])", r"\1-\2", name).lower()))


def _words_kind(parts: Sequence[str]) -> str | None:
    found = set(parts)
    for kind, words in vocabulary.SCRIPT_WORDS:
        if found & words:
            return kind
    return None


def _is_setup(line: str) -> bool:
    return any(pattern.search(line) for pattern in vocabulary.SETUP)


_DOTTED_TEST = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _normal_words(words: Sequence[str], program: Sequence[str], kind: str) -> list[str]:
    """The command with narrowing and cosmetic arguments removed (wrappers kept)."""
    prefix = list(words[: len(words) - len(program)])
    head, rest = list(program[:1]), list(program[1:])
    if head and head[0] in vocabulary.SCRIPT_RUNNERS:
        return prefix + head + _script_args(head[0], rest)
    kept: list[str] = []
    dropped = False
    skip = False
    for word in rest:
        if skip:
            skip = False
            continue
        if word == "--" and head and head[0] == "cargo" and kind == "test":
            break
        if word in vocabulary.NARROWING_VALUE:
            skip, dropped = True, True
        elif re.match(r"^(-k|--deselect|-run|--testNamePattern|--grep|--test|-t)=", word):
            dropped = True
        elif vocabulary.COSMETIC.match(word):
            continue
        elif not word.startswith("-") and _narrowing_target(word, head, kept, kind):
            dropped = True
        else:
            kept.append(word)
    targets = [w for w in kept[_fixed(head) :] if not w.startswith("-")]
    if head and not targets and (dropped or head[0] in vocabulary.DEFAULT_TARGET):
        kept += _default_target(head[0], kind)
    return prefix + head + kept


def _fixed(head: Sequence[str]) -> int:
    """How many leading words are subcommands (`go test`, `cargo test`, `ruff check`)."""
    return 1 if head and head[0] in ("go", "cargo", "ruff", "biome", "dotnet", "mvn", "deno") else 0


def _narrowing_target(word: str, head: Sequence[str], kept: Sequence[str], kind: str) -> bool:
    program = head[0] if head else ""
    if "::" in word or _SOURCE_FILE.search(word):
        return True
    if kind == "test" and _DOTTED_TEST.fullmatch(word):
        return True  # a module or test id: `python manage.py test accounts.tests.test_x`
    if program == "go" and kind == "test":
        return word != "./..." and kept[:1] == ["test"] and word.startswith(("./", "."))
    if program == "cargo" and kind == "test":
        return bool(kept) and word not in ("test", "nextest") and kept[-1:] != ["nextest"]
    if program in ("jest", "vitest", "mocha") and kind == "test":
        return word != "run"
    return False


def _default_target(program: str, kind: str) -> list[str]:
    if program == "go":
        return ["./..."]
    return [vocabulary.DEFAULT_TARGET[program]] if program in vocabulary.DEFAULT_TARGET else []


def _script_args(runner: str, rest: Sequence[str]) -> list[str]:
    """`npm run test -- tests/x.test.ts` → `test`: arguments after `--` narrow a script, and
    `run` is left out where the runner means the same without it."""
    plain = runner in ("pnpm", "yarn") or (runner == "npm" and rest[1:2] in (["test"], ["start"]))
    if rest[:1] == ["run"] and len(rest) > 1 and plain:
        rest = rest[1:]
    kept: list[str] = []
    for word in rest:
        if word == "--" or (kept and not word.startswith("-") and _SOURCE_FILE.search(word)):
            break
        if not vocabulary.COSMETIC.match(word):
            kept.append(word)
    return kept


def main_segment(command: str) -> tuple[Segment | None, list[Segment]]:
    """The last project segment of a command line and the setup segments before it."""
    found = segments(command)
    for index in range(len(found) - 1, -1, -1):
        if found[index].kind is not None:
            return found[index], [s for s in found[:index] if s.setup]
    return None, [s for s in found if s.setup]


def worked_segments(command: str) -> list[Segment]:
    """The project segments a successful command line shows to have worked: every one of an
    `&&` chain, otherwise only the main one (`;`/`||` hide earlier exit statuses)."""
    found = [s for s in segments(command) if s.kind is not None]
    if re.search(r"\|\||;", command):
        return found[-1:]
    return found


def trap_subject(command: str) -> str | None:
    """What a trap can be about: a project command, else a setup step (normal forms)."""
    main, setups = main_segment(command)
    if main is not None:
        return main.normal
    return setups[-1].normal if setups else None


def command_kind(command: str) -> str | None:
    """The kind of a command line's main project segment (None when it has none)."""
    main, _ = main_segment(command)
    return main.kind if main else None


def normal_command(command: str) -> str | None:
    """The normal form of a command line's main project segment."""
    main, _ = main_segment(command)
    return main.normal if main else None


def is_hooked_git(command: str) -> bool:
    """`git commit` / `git push`: commands a repository's hooks can refuse."""
    found = segments(command)
    return any(s.words[:2] in (("git", "commit"), ("git", "push")) for s in found)
