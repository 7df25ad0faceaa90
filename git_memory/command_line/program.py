"""Which program a simple command runs, and what it is run for (its kind).

Wrappers are seen through (`uv run`, `npx`, `python -m`, `mise exec --`, `docker compose
exec svc`, `bundle exec`), task runners are read by the target they run (`make test`,
`npm run typecheck`, `yarn vitest run`, `pnpm --filter db exec prisma generate`), and a
project script is read by its name (`scripts/lint.sh` lints). The tables are `kinds` and
`words`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from git_memory.command_line import kinds, words

# Every program name the tables know (the rule reader takes them as a tool being named).
TOOL_NAMES = frozenset(
    [
        *kinds.PROGRAMS,
        *kinds.SCRIPT_RUNNERS,
        *(wrapper[0] for wrapper in words.WRAPPERS),
        *(name for name, _ in kinds.SUBCOMMANDS),
    ]
)


_DRIVE = re.compile(r"[A-Za-z]:")
_PATH_SEPARATOR = re.compile(r"[\\/]")
# What Windows adds to a program's file name (`python.exe`, `npm.cmd`, `gradlew.bat`).
_WINDOWS_PROGRAM_SUFFIX = re.compile(r"\.(?:exe|cmd|bat)$", re.IGNORECASE)
_NAME_PARTS = re.compile(r"[-_.:/]")
_SESSION_PARTS = re.compile(r"[-_.,]")
_CAMEL = re.compile(r"([a-z])([A-Z])")


def outside(path: str) -> bool:
    """A path of this machine rather than of the repository: absolute (POSIX or Windows) or
    under the home directory."""
    # A Windows drive path (`C:\\Users\\…`) loses its backslashes when read as POSIX words;
    # read as a Windows line it keeps them, and `\x` is the root of the current drive.
    return path.startswith(("/", "~", "$HOME", "\\")) or _DRIVE.match(path) is not None


@functools.lru_cache(maxsize=4096)  # asked of the same word by every wrapper tried
def program_name(word: str) -> str:
    """The name a program is known by wherever it is run from: its path's last part, without
    what Windows adds (`.venv\\Scripts\\python.exe` → `python`, `.venv/bin/pytest` →
    `pytest`)."""
    return _WINDOWS_PROGRAM_SUFFIX.sub("", _PATH_SEPARATOR.split(word)[-1])


def _starts_with(rest: Sequence[str], wrapper: tuple[str, ...]) -> bool:
    """The words start with the wrapper, its program named by any path to it (the project's
    interpreter runs modules as `python` does: `.venv\\Scripts\\python -m pytest`)."""
    if len(rest) <= len(wrapper) or program_name(rest[0]) != wrapper[0]:
        return False
    return tuple(rest[1 : len(wrapper)]) == wrapper[1:]


def skip_options(rest: Sequence[str], valued: frozenset[str]) -> list[str]:
    """The words after the leading options (`valued` ones take the next word as value)."""
    found = list(rest)
    while found and found[0].startswith("-") and found[0] != "--":
        found = found[2:] if found[0] in valued else found[1:]
    return found


def program_words(command: Sequence[str]) -> list[str]:
    """The words from the program on: runner wrappers (and their options) removed."""
    rest = list(command)
    changed = True
    while changed:
        changed = False
        for wrapper in words.WRAPPERS:
            if _starts_with(rest, wrapper):
                rest = rest[len(wrapper) :]
                if wrapper[0] == "mise" and "--" in rest:
                    rest = rest[rest.index("--") :]  # `mise x cargo:cargo-deny -- cargo deny`
                marker = next((w for w in words.COMMAND_AFTER.get(wrapper, ()) if w in rest), None)
                if marker is not None:
                    rest = rest[rest.index(marker) + 1 :]  # `nix develop .#rust -c cargo test`
                elif wrapper in words.COMMAND_AFTER:
                    rest = []  # `nix develop .#rust`: a shell opened, no command run in it
                own = words.OWN_WRAPPER_OPTIONS.get(wrapper, frozenset())
                rest = skip_options(rest, words.WRAPPER_OPTIONS | own)
                if wrapper in words.ENVIRONMENT_NAMED:
                    rest = rest[1:]  # `direnv exec . pytest`: `.` names the folder, not the program
                rest = rest[1:] if rest[:1] == ["--"] else rest
                changed = True
        container = _container_command(rest)
        if container is not None:
            rest, changed = container, True
    return interpreted(rest)


def _container_command(rest: list[str]) -> list[str] | None:
    """`docker compose run --rm app pytest` → `pytest`: the command a container runs."""
    for prefix in words.CONTAINER_RUNS:
        if tuple(rest[: len(prefix)]) == prefix:
            found = skip_options(rest[len(prefix) :], words.CONTAINER_OPTIONS)
            return found[1:] if len(found) > 1 else None
    return None


def project_script(path: str) -> bool:
    """A script file of the repository run by its path: in a tools folder, or a shell script
    (an absolute or home path is this machine's, not the project's, and so is a program
    installed below a home that is the worktree: `AppData/…/code.cmd`)."""
    if outside(path) or path.startswith("$") or ".." in _PATH_SEPARATOR.split(path):
        return False
    relative = project_path(path)
    if relative.startswith(words.INSTALLED_FOLDERS):
        return False
    if relative.startswith(words.SCRIPT_DIRS) and "/" in relative:
        return bool(words.SCRIPT_FILE.search(relative)) or relative.startswith("bin/")
    return relative.endswith((".sh", ".bash", ".ps1", ".cmd", ".bat"))


def project_path(path: str) -> str:
    """A path of the repository as the project names it: forward slashes, no leading `./`
    (`.\\scripts\\build.ps1` → `scripts/build.ps1`)."""
    return path.replace("\\", "/").removeprefix("./")


def interpreted(program: Sequence[str]) -> list[str]:
    """`bash scripts/test.sh` → `scripts/test.sh`; `python manage.py test` → `manage.py test`;
    `php artisan migrate` → `artisan migrate`; `php scripts/migrate.php` →
    `scripts/migrate.php`."""
    found = list(program)
    if (
        len(found) > 1
        and program_name(found[0]) in words.INTERPRETERS
        and (project_path(found[1]) in words.ENTRY_POINTS or project_script(found[1]))
    ):
        return found[1:]
    return found


def kind_of(program: Sequence[str]) -> str | None:
    """What the program words run for: a project kind, or None (setup, navigation, other)."""
    if not program or any(word in words.INFO_FLAGS | words.DRY_FLAGS for word in program[1:]):
        return None
    head = program_name(program[0])
    second = next((w for w in program[1:] if not w.startswith(("-", "+"))), "")
    built = _build_step(head, program[1:])
    if built is not None:
        step, kind = built
        return (kinds.script_kind(_NAME_PARTS.split(step)) if step else None) or kind
    for name in (program[0], head):
        for sub in (second, program[1] if len(program) > 1 else ""):  # `cmake --build`
            if (name, sub) in kinds.SUBCOMMANDS:
                return kinds.SUBCOMMANDS[(name, sub)]
    if head == "ruff" and second not in ("format", "check"):
        return "lint" if second in ("", ".") else None
    if head in ("make", "just", "task") and not runner_words(program[1:]):
        return "build" if head == "make" else None
    if head in kinds.SCRIPT_RUNNERS:
        return _script_kind([head, *program[1:]])
    if head == "tsc":
        return "typecheck" if "--noEmit" in program or "-noEmit" in program else "build"
    found = kinds.kind_of_tool(head, second)
    if found is not None:
        return _session_kind(head, program[1:]) or found
    if project_script(program[0]):
        stem = words.SCRIPT_FILE.sub("", head)
        return kinds.script_kind(_NAME_PARTS.split(stem)) or "script"
    return None


def _build_step(head: str, rest: Sequence[str]) -> tuple[str, str] | None:
    """The step or target a build system is told to run (`zig build test` → `test`,
    `cmake --build build --target test` → `test`, `swift format lint` → `lint`; "" for none)
    and the kind of a run of no step of a known kind; None when `head` is no such system."""
    for (program, sub), (options, kind) in kinds.BUILD_STEPS.items():
        if program != head or (sub and rest[:1] != [sub]):
            continue  # (`swift test --filter format` is a test run, not `swift format`)
        after = list(rest[1:]) if sub else list(rest)
        if options:
            named = [after[i + 1] for i, w in enumerate(after[:-1]) if w in options]
        else:
            named = _positional(after)
        return (named[0] if named else ""), kind
    return None


def _positional(words: Sequence[str]) -> list[str]:
    """The words of a build system's line that are no switch nor a switch's value (`ninja
    -C build -j 8 test` → `test`): a short switch other than `-v` or `-n` takes the word
    after it."""
    found: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith(("-", "+")):
            skip = len(word) == 2 and word not in ("-v", "-n")
        else:
            found.append(word)
    return found


def _session_kind(head: str, rest: Sequence[str]) -> str | None:
    """`nox -s lint` lints, `tox -e typing` type-checks: the session's name says its kind."""
    options = kinds.SESSION_OPTIONS.get(head)
    if options is None:
        return None
    names = [rest[i + 1] for i, word in enumerate(rest[:-1]) if word in options]
    found = {kinds.script_kind(_SESSION_PARTS.split(name)) for name in names}
    return found.pop() if len(found) == 1 else None


def runner_words(rest: Sequence[str]) -> list[str]:
    """A script runner's arguments without its leading options (`--filter pkg`, `-C dir`)."""
    return skip_options(rest, words.RUNNER_OPTIONS)


def _script_kind(program: Sequence[str]) -> str | None:
    runner, rest = program[0], runner_words(program[1:])
    managers = kinds.PACKAGE_MANAGERS
    if runner in managers and rest[:1] in (["exec"], ["dlx"], ["x"]):
        return kind_of(program_words(rest[1:]))  # `pnpm --filter db exec prisma generate`
    if rest[:1] and rest[0] in kinds.SCRIPT_RUNNERS and rest[0] != runner:
        return _script_kind(rest)  # `pnpm turbo build`
    if runner in ("yarn", "pnpm", "bun") and rest[:1] and runs_program(rest):
        return kind_of(program_words(rest))  # `yarn vitest run x.test.ts`
    if runner == "yarn" and rest[:1] == ["workspace"] and len(rest) > 2:
        return _script_kind([runner, *rest[2:]])  # `yarn workspace web test`
    if runner == "nx" and rest[:1] in (["run-many"], ["affected"]):
        return _target_kind(rest[1:])  # `nx run-many -t test`
    if (runner in ("mise", "turbo", "nx", "lerna", "pixi") and rest[:1] == ["run"]) or (
        runner == "deno" and rest[:1] == ["task"]
    ):
        rest = rest[1:]
    if runner in managers and rest[:1] == ["run"]:
        rest = rest[1:]
    elif runner == "npm" and rest[:1] and rest[0] not in kinds.PM_BUILTINS:
        return None
    if not rest or rest[0].startswith("-"):
        return None
    name = rest[0]
    if runner in managers and name in kinds.PM_BUILTINS and "run" not in program:
        return kinds.PM_BUILTINS[name]
    # Task names in camelCase (`spotlessCheck`) split like kebab-case ones.
    return kinds.script_kind(_NAME_PARTS.split(_CAMEL.sub(r"\1-\2", name).lower()))


def _target_kind(options: Sequence[str]) -> str | None:
    """The kind of the one target `nx run-many` or `nx affected` runs (`-t test`,
    `--target=lint`); None for several (`-t lint test`)."""
    for index, word in enumerate(options):
        if word in ("-t", "--target", "--targets") and index + 1 < len(options):
            named = [options[index + 1]]
        elif word.startswith(("--target=", "--targets=")):
            named = [word.split("=", 1)[1]]
        else:
            continue
        targets = [t for part in named for t in part.split(",") if t]
        if len(targets) == 1:
            return kinds.script_kind(_NAME_PARTS.split(_CAMEL.sub(r"\1-\2", targets[0]).lower()))
        return None
    return None


def tool_words(program: Sequence[str]) -> list[str]:
    """The tool a package manager runs, seen through its options (`pnpm --filter api exec tsc
    --noEmit` → `tsc --noEmit`, `yarn vitest run` → `vitest run`); the words as they are
    otherwise."""
    if not program or program[0] not in kinds.PACKAGE_MANAGERS:
        return list(program)
    rest = runner_words(program[1:])
    if rest[:1] in (["exec"], ["dlx"], ["x"]):
        return program_words(rest[1:])
    return program_words(rest) if rest and runs_program(rest) else list(program)


def runs_script(program: Sequence[str]) -> bool:
    """A script of the project's package manifest run with arguments (`npm test -- a.test.ts`):
    the script itself ran, so the run counts for it."""
    if not program or program[0] not in kinds.PACKAGE_MANAGERS:
        return False
    rest = runner_words(program[1:])
    rest = rest[1:] if rest[:1] == ["run"] else rest
    return bool(rest) and not runs_program(rest) and rest[0] not in ("exec", "dlx", "x")


def runs_program(rest: Sequence[str]) -> bool:
    """`yarn vitest …`, `pnpm tsc --noEmit`: a package manager running a known tool."""
    second = next((w for w in rest[1:] if not w.startswith("-")), "")
    return rest[0] in kinds.PROGRAMS or (rest[0], second) in kinds.SUBCOMMANDS


def is_setup(text: str) -> bool:
    """A setup step: an install, a service started, a migration, an environment change."""
    return any(pattern.search(text) for pattern in words.SETUP)


def category(program: Sequence[str], kind: str | None, setup: bool) -> str:
    """The kind, or `setup`, `navigation`, `vcs`, `other` for a command of none."""
    if kind is not None:
        return kind
    if setup:
        return "setup"
    head = program_name(program[0]) if program else ""
    if head in kinds.VCS:
        return "vcs"
    return "navigation" if head in kinds.NAVIGATION else "other"
