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

from git_memory.extract.builtin import observed, vocabulary
from git_memory.sessions.turns import ToolCall

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
        "run_command",
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
PROJECT_KINDS = (
    "test",
    "lint",
    "format",
    "typecheck",
    "check",
    "build",
    "generate",
    "run",
    "script",
    "deploy",
)

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


def command_of(call: ToolCall) -> str | None:
    """The shell command line of a tool call, or None when it is not a shell call.

    Lines are kept apart (a newline separates commands as `;` does); Codex code mode's
    JavaScript cells give the commands of their `tools.exec_command({cmd: …})` calls."""
    name = call.name.lower()
    if name not in SHELL_TOOLS:
        return None
    payload = call.input
    if isinstance(payload, dict):
        payload = payload.get("command", payload.get("cmd"))
    if isinstance(payload, list) and all(isinstance(part, str) for part in payload):
        if len(payload) == 3 and payload[0].endswith("sh") and payload[1] in ("-c", "-lc"):
            payload = payload[2]
        else:
            payload = shlex.join(payload)
    if name == "exec" and isinstance(payload, str) and "tools." in payload:
        cells = code_mode_commands(payload)
        payload = "\n".join(cells) if cells else None
    if not isinstance(payload, str) or not payload.strip():
        return None
    lines = (" ".join(line.split()) for line in payload.replace("\r\n", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


_CODE_MODE_CALL = re.compile(r"\btools\.exec_command\(\s*\{")
_CMD_KEY = re.compile(r"""(?:^|[{,\s])["']?cmd["']?\s*:\s*(["'`])""")


def code_mode_commands(source: str) -> list[str]:
    """The `cmd` string of each `tools.exec_command({…})` call of a Codex code-mode cell
    (JavaScript); a command built at run time is not known and left out."""
    found: list[str] = []
    for call in _CODE_MODE_CALL.finditer(source):
        key = _CMD_KEY.search(source, call.end() - 1)
        if key is None or source.find("}", call.end(), key.start()) != -1:
            continue
        literal = _js_string(source, key.end() - 1)
        if literal is not None and literal.strip():
            found.append(literal)
    return found


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _js_string(source: str, start: int) -> str | None:
    """The value of the JavaScript string literal opening at `start` (None if unclosed or a
    template literal with substitutions)."""
    quote, index, out = source[start], start + 1, []
    while index < len(source):
        char = source[index]
        if char == "\\" and index + 1 < len(source):
            out.append(_JS_ESCAPES.get(source[index + 1], source[index + 1]))
            index += 2
            continue
        if char == quote:
            return "".join(out)
        if quote == "`" and source.startswith("${", index):
            return None
        out.append(char)
        index += 1
    return None


def is_edit(call: ToolCall) -> bool:
    """The call changed files through an editing tool (a Codex code-mode cell may patch)."""
    name = call.name.lower()
    payload = call.input
    if name == "exec" and isinstance(payload, str):
        return "tools.apply_patch(" in payload
    return name in EDIT_TOOLS


@dataclass(frozen=True)
class Step:
    """A simple command of a command line and how the shell joins it to the next one."""

    segment: Segment
    # The operator after it: `&&`, `||`, `;`, a newline, `&` (sent to the background), or
    # "" for the last one.
    joiner: str
    # Its output went into a pipe: the pipeline's exit status is the last filter's.
    piped: bool = False
    # It runs after a `cd` out of the repository (an absolute path is left once paths inside
    # the worktree are made relative): not one of the project's commands.
    elsewhere: bool = False


@dataclass(frozen=True)
class Line:
    """A command line as a shell reads it."""

    steps: tuple[Step, ...]
    # `set -o pipefail` ran before: a pipeline fails when any of its commands fails.
    pipefail: bool = False


def segments(command: str) -> list[Segment]:
    """The simple commands of a command line, in order (pipeline filters left out)."""
    return [step.segment for step in parse(command).steps]


def parse(command: str) -> Line:
    """The steps of a command line: split on newlines, `;`, `&&`, `||` and `&` outside
    quotes, heredoc bodies and comments left out, pipeline filters and redirections dropped."""
    steps: list[Step] = []
    pipefail = errexit = elsewhere = False
    for raw, separator, piped in _split(command):
        words = _unwrapped(raw)
        if not words:
            continue
        if words[0] in ("cd", "pushd") and len(words) > 1:
            elsewhere = outside(words[-1])
        if words[0] == "set":
            options = " ".join(words[1:])
            pipefail = pipefail or "pipefail" in options
            errexit = errexit or bool(re.search(r"(?:^| )-\w*e", options))
        # Under `set -e` a failure stops the script: a newline or `;` joins as `&&` does.
        joiner = "&&" if errexit and separator in (";", "\n") else separator
        steps.append(Step(_segment(words), joiner, piped, elsewhere))
    if steps and steps[-1].joiner != "&":
        last = steps[-1]
        steps[-1] = Step(last.segment, "", last.piped, last.elsewhere)
    return Line(tuple(steps), pipefail)


def is_assignment(word: str) -> bool:
    """A variable assignment in front of a command (`PYTHONPATH=.`)."""
    return _ASSIGNMENT.fullmatch(word) is not None


def outside(path: str) -> bool:
    """A path of this machine rather than of the repository: absolute (POSIX or Windows) or
    under the home directory."""
    # A Windows drive path (`C:\\Users\\…`) loses its backslashes when read as POSIX words.
    return path.startswith(("/", "~", "$HOME")) or bool(re.match(r"[A-Za-z]:", path))


_KEYWORDS = frozenset(["if", "then", "else", "elif", "do", "while", "until", "!", "{"])
_CLOSERS = frozenset(["fi", "done", "esac", "}"])
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w.-]*)\1")
_PUNCTUATION = re.compile(r"&&|\|\||;;|\|&|&>>|&>|>>|>&|<&|>\||<<-|<<|[;&|()<>\n]")


def _unwrapped(words: list[str]) -> list[str]:
    """The command of a segment with shell keywords (`if`, `do`, …) around it left out."""
    while words and words[0] in _KEYWORDS:
        words = words[1:]
    return [] if words[:1] and words[0] in _CLOSERS else words


def _without_heredocs(command: str) -> str:
    """The command line without heredoc bodies and line continuations."""
    lines = command.replace("\\\n", " ").split("\n")
    kept: list[str] = []
    delimiter: str | None = None
    for line in lines:
        if delimiter is not None:
            if line.strip() == delimiter:
                delimiter = None
            continue
        kept.append(line)
        found = _HEREDOC.search(line)
        if found:
            delimiter = found.group(2)
    return "\n".join(kept)


def _split(command: str) -> list[tuple[list[str], str, bool]]:
    """(words, joiner, piped) of each simple command of a command line."""
    try:
        lexer = shlex.shlex(_without_heredocs(command), posix=True, punctuation_chars="();<>|&\n")
        lexer.whitespace = " \t\r"
        lexer.commenters = ""
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        tokens = command.split()
    groups: list[tuple[list[str], str, bool]] = []
    words: list[str] = []
    piped = filtering = comment = skip_next = False
    depth = 0
    for token in tokens:
        operators = _PUNCTUATION.findall(token) if not token.strip("();<>|&\n") else []
        if comment and "\n" not in operators:
            continue
        if skip_next and not operators:
            skip_next = False
            continue
        if depth and not operators:
            continue
        if not operators:
            if token.startswith("#") and not filtering:
                comment = True
            elif not filtering:
                words.append(token)
            continue
        for op in operators:
            if depth:
                depth += {"(": 1, ")": -1}.get(op, 0)
            elif op == "(" and words and words[-1].endswith("$"):
                depth = 1  # command substitution: `$(…)` stays inside its word
            elif op in ("&&", "||", ";", ";;", "&", "\n"):
                comment = False
                if words:  # an empty one is a line continued after its operator
                    groups.append((words, ";" if op == ";;" else op, piped))
                words, piped, filtering = [], False, False
            elif op in ("|", "|&"):
                piped = filtering = True
            elif op in ("(", ")"):
                continue
            else:
                skip_next = True
                if words and words[-1].isdigit():
                    words.pop()
    if words:
        groups.append((words, "", piped))
    return groups


def _segment(words: list[str]) -> Segment:
    words = list(words)
    env: list[str] = []
    while words:
        if _ASSIGNMENT.fullmatch(words[0]):
            env.append(words.pop(0))
        elif words[0] in vocabulary.TRANSPARENT:
            words.pop(0)
        elif len(words) >= 2 and words[0] == "timeout":
            words = _skip_options(words[1:], frozenset(["-s", "--signal", "-k"]))[1:]
        else:
            break
    if words and outside(words[0]) and "/bin/" in words[0]:
        words[0] = words[0].rsplit("/", 1)[-1]  # `/opt/venv/bin/pytest` is `pytest`
    program = program_words(words)
    kind = _kind(program)
    normal_words = _normal_words(words, program, kind) if kind else words
    setup = kind is None and _is_setup(" ".join(words))
    narrowed = not _runs_script(program) and any(
        w not in normal_words
        and w not in ("--", "run")
        and not vocabulary.COSMETIC.match(w)
        and not (_TOOLCHAIN_PIN.match(w) or (w.startswith("-") and _machine_specific(w)))
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
                rest = rest[len(wrapper) :]
                if wrapper[0] == "mise" and "--" in rest:
                    rest = rest[rest.index("--") :]  # `mise x cargo:cargo-deny -- cargo deny`
                rest = _skip_options(rest, vocabulary.WRAPPER_OPTIONS)
                rest = rest[1:] if rest[:1] == ["--"] else rest
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
    if project_script(program[0]):
        stem = vocabulary.SCRIPT_FILE.sub("", head)
        return _words_kind(re.split(r"[-_./:]", stem)) or "script"
    return None


def project_script(path: str) -> bool:
    """A script file of the repository run by its path: in a tools folder, or a shell script
    (an absolute or home path is this machine's, not the project's)."""
    if outside(path) or path.startswith("$") or ".." in path.split("/"):
        return False
    relative = path.removeprefix("./")
    if relative.startswith(vocabulary.SCRIPT_DIRS) and "/" in relative:
        return bool(vocabulary.SCRIPT_FILE.search(relative)) or relative.startswith("bin/")
    return relative.endswith((".sh", ".bash"))


def _interpreted(program: Sequence[str]) -> list[str]:
    """`bash scripts/test.sh` → `scripts/test.sh`; `python manage.py test` → `manage.py test`;
    `php scripts/migrate.php` → `scripts/migrate.php`."""
    words = list(program)
    if (
        len(words) > 1
        and words[0] in vocabulary.INTERPRETERS
        and (words[1] == "manage.py" or project_script(words[1]))
    ):
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
    if runner in ("yarn", "pnpm", "bun") and rest[:1] and _runs_program(rest):
        return _kind(program_words(rest))  # `yarn vitest run x.test.ts`
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


def _runs_script(program: Sequence[str]) -> bool:
    """A script of the project's package manifest run with arguments (`npm test -- a.test.ts`):
    the script itself ran, so the run counts for it."""
    if not program or program[0] not in ("npm", "pnpm", "yarn", "bun"):
        return False
    rest = _script_words(program[1:])
    rest = rest[1:] if rest[:1] == ["run"] else rest
    return bool(rest) and not _runs_program(rest) and rest[0] not in ("exec", "dlx", "x")


def _runs_program(rest: Sequence[str]) -> bool:
    """`yarn vitest …`, `pnpm tsc --noEmit`: a package manager running a known tool."""
    second = next((w for w in rest[1:] if not w.startswith("-")), "")
    return rest[0] in vocabulary.PROGRAMS or (rest[0], second) in vocabulary.SUBCOMMANDS


def _words_kind(parts: Sequence[str]) -> str | None:
    found = set(parts)
    if found & {"verify", "validate", "check"} and found & {"spec", "specs"}:
        return "check"  # `verify_spec.py` checks a specification
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
    head, rest = list(program[:1]), [w for w in program[1:] if not _machine_specific(w)]
    if head and head[0] in vocabulary.SCRIPT_RUNNERS:
        return prefix + head + _script_args(head[0], rest)
    if kind == "script":  # its options stay, what it is run on does not
        return prefix + head + [w for w in rest if w.startswith("-")]
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


def _machine_specific(word: str) -> bool:
    """Arguments that belong to one machine or one moment, never to the project's command:
    a toolchain pin (`+1.96.0`, `+nightly`), an absolute or home path, a shell variable."""
    value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
    return bool(_TOOLCHAIN_PIN.match(word)) or outside(value) or value.startswith("$")


_TOOLCHAIN_PIN = re.compile(r"\+[\w.-]+$")


def _fixed(head: Sequence[str]) -> int:
    """How many leading words are subcommands (`go test`, `cargo test`, `ruff check`)."""
    return 1 if head and head[0] in ("go", "cargo", "ruff", "biome", "dotnet", "mvn", "deno") else 0


def _narrowing_target(word: str, head: Sequence[str], kept: Sequence[str], kind: str) -> bool:
    program = head[0] if head else ""
    if "::" in word or _SOURCE_FILE.search(word) or "$" in word:
        return True
    if kind == "test" and project_script(program):
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


def script_path(segment: Segment) -> str | None:
    """The repository script a project segment runs (`scripts/x.py`), if it runs one."""
    program = program_words(segment.words)
    if program and project_script(program[0]):
        return program[0].removeprefix("./")
    return None


def main_segment(command: str) -> tuple[Segment | None, list[Segment]]:
    """The last project segment of a command line and the setup segments before it."""
    found = segments(command)
    index = main_index(found)
    if index is None:
        return None, [s for s in found if s.setup]
    return found[index], [s for s in found[:index] if s.setup]


def main_index(found: Sequence[Segment]) -> int | None:
    """Index of the last project segment of a command line's segments (None without one)."""
    return next((i for i in range(len(found) - 1, -1, -1) if found[i].kind is not None), None)


def worked_segments(command: str, state: str = "completed", output: str = "") -> list[Segment]:
    """The project segments a command line is shown to have run successfully, given the
    state its call ended in and its output (`observed.segment_outcomes`)."""
    line = parse(command)
    outcomes = observed.segment_outcomes(
        line.steps, observed.of_state(state), output, pipefail=line.pipefail
    )
    return [
        step.segment
        for step, outcome in zip(line.steps, outcomes, strict=True)
        if outcome is observed.Outcome.WORKED and step.segment.kind is not None
    ]


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
