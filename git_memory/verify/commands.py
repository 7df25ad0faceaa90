"""What the commands a memory names in inline code need from the worktree (pure).

A memory names commands in inline code (`make test`, `npm run lint`, `docker compose up db`)
and in shell code blocks. Each is read through the command model (`git_memory/command_line/`):
its simple commands (pipeline members too) as argv, with their environment assignments and
prefixes such as `sudo` or `timeout 60` apart, each in the directory it runs in (`cd DIR &&`
moves it, a subshell's `cd` ends with it). Only what a file
in the worktree can show is required: a make or just target, a package.json script, a script
file, the project manifest of uv, poetry, cargo or go, a compose service. Anything else in
inline code (identifiers, paths, other tools) requires nothing.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from git_memory.command_line.line import CD, Step, join_directory, parse

INLINE_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)")
SHELL_FENCES = frozenset({"", "sh", "bash", "shell", "console", "zsh", "shell-session"})
INTERPRETERS = frozenset({"bash", "sh", "zsh", "python", "python3", "node", "ruby", "perl"})
SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl")
PACKAGE_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
UV_PROJECT = frozenset({"run", "sync", "lock", "add", "remove", "tree", "build", "export"})
POETRY_OUTSIDE = frozenset({"new", "init", "self", "config", "cache", "source", "about", "help"})
CARGO_PROJECT = frozenset(
    {"build", "b", "test", "t", "run", "r", "check", "c", "clippy", "fmt", "bench", "doc",
     "nextest", "tree", "update", "metadata", "fix", "clean"}
)  # fmt: skip
GO_PROJECT = frozenset({"build", "test", "run", "vet", "generate", "mod", "list"})
COMPOSE_ONE_SERVICE = frozenset({"run", "exec", "port", "attach"})
COMPOSE_SERVICES = frozenset(
    {"up", "build", "logs", "start", "stop", "restart", "pull", "push", "rm", "create", "kill",
     "pause", "unpause", "top", "watch", "wait", "events", "images", "ps", "down"}
)  # fmt: skip
# Options that take a separate value, per tool (anything else is a flag).
MAKE_VALUES = frozenset({"-C", "-f", "-I", "-o", "-W", "--directory", "--file", "--makefile"})
JUST_VALUES = frozenset({"-f", "--justfile", "-d", "--working-directory", "--color", "--shell"})
COMPOSE_GLOBAL_VALUES = frozenset(
    {"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory",
     "--ansi", "--progress", "--parallel"}
)  # fmt: skip
COMPOSE_VALUES = frozenset(
    {"-e", "--env", "-u", "--user", "-w", "--workdir", "--name", "--entrypoint", "-p",
     "--publish", "-v", "--volume", "-l", "--label", "--index", "--tail", "-n", "--since",
     "--until", "-t", "--timeout", "--scale", "--exit-code-from", "--attach", "--no-attach",
     "--pull", "--build-arg", "--ssh", "--signal", "-s", "--env-from-file", "--cap-add",
     "--cap-drop", "--format", "--filter"}
)  # fmt: skip


@dataclass(frozen=True)
class Requirement:
    """Something a command needs. `directory` is worktree-relative ("" is the root) and
    `file` a manifest named on the command line (`make -f`, `docker compose -f`)."""

    kind: str  # make-target | just-recipe | package-script | script-file | manifest | service
    name: str  # target, recipe or script ("" = the default one), file path, manifest, service
    directory: str
    command: str
    file: str | None = None
    tool: str = ""


def code_snippets(markdown: str) -> Iterator[str]:
    """Inline code spans and the lines of shell code blocks, in order."""
    fence: str | None = None
    shell = False
    for line in markdown.split("\n"):
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            elif shell and line.strip():
                yield line.strip().removeprefix("$ ")
            continue
        if opened:
            fence, shell = opened.group(1), opened.group(2).lower() in SHELL_FENCES
            continue
        for match in INLINE_CODE.finditer(line):
            yield match.group(2).strip()


def requirements(markdown: str, start: str = "") -> list[Requirement]:
    """Every requirement of every command named in `markdown`, deduplicated, in order; the
    commands run from the worktree-relative directory `start` (a scoped entry's scope)."""
    found: dict[Requirement, None] = {}
    for snippet in code_snippets(markdown):
        for requirement in snippet_requirements(snippet, start):
            found.setdefault(requirement, None)
    return list(found)


# Teams name the same few commands in many memories: each distinct snippet is parsed once.
@functools.lru_cache(maxsize=4096)
def snippet_requirements(snippet: str, start: str = "") -> tuple[Requirement, ...]:
    """Requirements of one command line (possibly several commands), each from the directory
    it runs in (the command model's: `cd DIR &&` prefixes and subshells honoured), the line
    starting in `start`."""
    line = parse(snippet)
    if line.guessed:
        return ()  # unbalanced quotes: not a command this check can read
    base = _start_of(line.steps, start)
    found: list[Requirement] = []
    for step in line.steps:
        directory = _inside(join_directory(base, step.directory or ".") if base else step.directory)
        if step.directory is None or directory is None:
            break  # a `cd` somewhere this check cannot follow
        for command in (step.command, *step.filters):
            if command.words and command.words[0] not in CD:
                found += command_requirements(list(command.words), directory, snippet)
    return tuple(found)


def _start_of(steps: Sequence[Step], start: str) -> str:
    """Where a line of a scoped entry starts: its scope, unless the line's first `cd` names
    the scope (or a directory below it) from the worktree root, as people write a command
    they would run from the top of the repository (`cd web && npm run lint`)."""
    moved = next((step.directory for step in steps if step.directory != ""), "")
    if start and moved and (moved == start or moved.startswith(start + "/")):
        return ""
    return start


def _inside(directory: str | None) -> str | None:
    """A directory of the worktree (None above its root or unknown)."""
    return None if directory is None or directory.startswith("..") else directory


def _moved(directory: str, target: str | None) -> str | None:
    """The directory after `cd target`, or None when it cannot be known from here."""
    return _inside(join_directory(directory, target))


def command_requirements(argv: list[str], directory: str, command: str) -> list[Requirement]:
    """Requirements of one argv run in `directory`."""
    program = posixpath.basename(argv[0])
    if program in ("make", "gmake"):
        return _make(argv[1:], directory, command)
    if program == "just":
        return _just(argv[1:], directory, command)
    if program in PACKAGE_RUNNERS:
        return _package_script(program, argv[1:], directory, command)
    if program == "docker" and len(argv) > 1 and argv[1] == "compose":
        return _compose(argv[2:], directory, command)
    if program == "docker-compose":
        return _compose(argv[1:], directory, command)
    if program in ("uv", "poetry", "cargo", "go"):
        return _project(program, argv[1:], directory, command)
    return _script(argv, directory, command)


def _options(
    args: list[str], values: frozenset[str], *, stop_at_first: bool = False
) -> tuple[dict[str, str], list[str]]:
    """(options with values, positionals): `-C dir`, `-Cdir`, `--dir=x` and `--dir x`."""
    options: dict[str, str] = {}
    positionals: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if positionals and stop_at_first:
            positionals.append(arg)
        elif arg.startswith("--") and "=" in arg:
            key, _, value = arg.partition("=")
            options[key] = value
        elif arg in values and index < len(args):
            options[arg] = args[index]
            index += 1
        elif len(arg) > 2 and arg[:2] in values and not arg.startswith("--"):
            options[arg[:2]] = arg[2:]
        elif not arg.startswith("-") or arg == "-":
            positionals.append(arg)
    return options, positionals


def _within(directory: str, given: str | None) -> str | None:
    return directory if given is None else _moved(directory, given)


def _make(args: list[str], directory: str, command: str) -> list[Requirement]:
    options, positionals = _options(args, MAKE_VALUES)
    where = _within(directory, options.get("-C", options.get("--directory")))
    if where is None:
        return []
    given = options.get("-f") or options.get("--file") or options.get("--makefile")
    targets = [p for p in positionals if "=" not in p and not p.isdigit()] or [""]
    return [Requirement("make-target", t, where, command, given, "make") for t in targets]


def _just(args: list[str], directory: str, command: str) -> list[Requirement]:
    options, positionals = _options(args, JUST_VALUES, stop_at_first=True)
    where = _within(directory, options.get("-d", options.get("--working-directory")))
    recipes = [p for p in positionals if "=" not in p]
    if where is None or (recipes and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", recipes[0])):
        return []
    given = options.get("-f") or options.get("--justfile")
    return [
        Requirement("just-recipe", recipes[0] if recipes else "", where, command, given, "just")
    ]


def _package_script(tool: str, args: list[str], directory: str, command: str) -> list[Requirement]:
    values = frozenset({"--prefix", "-C", "--dir", "--cwd", "--filter", "-F", "-w", "--workspace"})
    options, positionals = _options(args, values, stop_at_first=True)
    if any(key in options for key in ("--filter", "-F", "-w", "--workspace")):
        return []  # a workspace member chosen by name: not a directory this check knows
    moved = options.get("--prefix") or options.get("-C") or options.get("--dir")
    where = _within(directory, moved or options.get("--cwd"))
    if where is None or not positionals:
        return []
    if positionals[0] in ("run", "run-script") and len(positionals) > 1:
        script = positionals[1]
    elif positionals[0] == "test" and tool != "bun":
        script = "test"
    else:
        return []
    if tool == "bun" and ("/" in script or script.endswith(SCRIPT_SUFFIXES)):
        return [Requirement("script-file", _join(where, script), where, command, tool=tool)]
    return [Requirement("package-script", script, where, command, tool=tool)]


def _compose(args: list[str], directory: str, command: str) -> list[Requirement]:
    options, rest = _options(args, COMPOSE_GLOBAL_VALUES, stop_at_first=True)
    where = _within(directory, options.get("--project-directory"))
    if where is None or not rest:
        return []
    given = options.get("-f") or options.get("--file")
    subcommand, tail = rest[0], rest[1:]
    if subcommand not in COMPOSE_ONE_SERVICE | COMPOSE_SERVICES:
        return []
    _sub_options, services = _options(
        tail, COMPOSE_VALUES, stop_at_first=subcommand in COMPOSE_ONE_SERVICE
    )
    if subcommand in COMPOSE_ONE_SERVICE:
        services = services[:1]
    if subcommand in ("down", "ps", "images", "events") or not services:
        services = [""]  # these need only the compose file
    return [Requirement("service", s, where, command, given, "docker compose") for s in services]


def _project(tool: str, args: list[str], directory: str, command: str) -> list[Requirement]:
    values = frozenset({"--directory", "--project", "-C", "-P", "--manifest-path"})
    options, positionals = _options(args, values, stop_at_first=True)
    where = _within(directory, options.get("--directory") or options.get("-C"))
    where = _within(where, options.get("--project") or options.get("-P")) if where else where
    if where is None or not positionals:
        return []
    sub = positionals[0]
    manifest = {
        "uv": "pyproject.toml" if sub in UV_PROJECT else None,
        "poetry": None if sub in POETRY_OUTSIDE else "pyproject.toml",
        "cargo": "Cargo.toml" if sub in CARGO_PROJECT else None,
        "go": "go.mod" if sub in GO_PROJECT else None,
    }[tool]
    if manifest is None:
        return []
    given = options.get("--manifest-path")
    found = [Requirement("manifest", manifest, where, command, given, tool)]
    if tool in ("uv", "poetry") and sub == "run" and len(positionals) > 1:
        found += _script(positionals[1:], where, command)
    if tool == "go" and sub in ("run", "build", "test"):
        found += [
            Requirement("script-file", _join(where, p), where, command, tool=tool)
            for p in positionals[1:]
            if p.startswith("./") and "..." not in p
        ]
    return found


def _script(argv: list[str], directory: str, command: str) -> list[Requirement]:
    """`./scripts/x.sh`, or an interpreter running a script file (`bash scripts/x.sh`)."""
    program = argv[0]
    if program.startswith(("./", "../")) and len(program) > 2:
        return [Requirement("script-file", _join(directory, program), directory, command)]
    if posixpath.basename(program) not in INTERPRETERS:
        return []
    for arg in argv[1:]:
        if arg in ("-m", "-c", "-e", "-"):
            return []  # a module or inline code, not a file
        if arg.startswith("-"):
            continue
        if "/" in arg or arg.endswith(SCRIPT_SUFFIXES):
            return [Requirement("script-file", _join(directory, arg), directory, command)]
        return []
    return []


def _join(directory: str, path: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory or ".", path))
    return "" if joined == "." else joined
