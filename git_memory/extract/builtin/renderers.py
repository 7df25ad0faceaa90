"""The fixed renderers of typed facts, and the host's check that a text is theirs.

A typed fact's text is a function of its parameters, so `verify_typed_fact` re-renders and
compares: that is how the host refuses `typed-fact` support to any other text. The texts are
written for a teammate and keep a recognisable shape (docs/guide-runners.md lists them):

- `command-exit@1`: "`uv run pytest` runs the tests (worked in 3 sessions)."
- `command-fix@1`: "Trap: `pytest` fails with "…"; run `uv run pytest` instead." — every
  trap starts with `Trap: `.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from git_memory.command_line.line import join_directory, located
from git_memory.command_line.signature import ANSI
from git_memory.command_line.syntax import joined
from git_memory.command_line.words import COSMETIC, INTERPRETERS, SCRIPT_FILE, UNPLAIN_FOLDER
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.globbed import quoted_again
from git_memory.extract.builtin.missing import missing_and_alternative
from git_memory.extract.builtin.pointed import pointed_by
from git_memory.extract.builtin.unknown_option import dropped_switch
from git_memory.lint.engine import scan_secrets

RENDERER_COMMAND_EXIT = "command-exit@1"
RENDERER_COMMAND_FIX = "command-fix@1"
RENDERER_USER_RULE = "user-rule@1"
TRAP_PREFIX = "Trap: "
MAX_ERROR_CHARS = 120
FIX_MODES = ("variant", "prerequisite", "hook", "file")

_KIND_PHRASES = {
    "test": "runs the tests",
    "lint": "lints the code",
    "format": "formats the code",
    "typecheck": "type-checks the code",
    "check": "runs the project checks",
    "syntax": "checks the syntax",
    "build": "builds the project",
    "generate": "regenerates the generated code",
    "migrate": "applies the database migrations",
    "run": "starts the application",
    "script": "runs a project script",
    "deploy": "deploys the project",
}
_FORMAT_CHECK = re.compile(r"--check\b|--diff\b|(?<=[a-z])Check\b|:check\b|\bcheck-format\b")
MAX_RESULT_CHARS = 240
_RESULT = re.compile(
    r"(?i)\b(?:passed|failed|errors?|ok|success(?:ful)?|succeeded|finished|done|built|"
    r"compiled|no issues|all checks|clean|warnings?|exit(?:ed)? (?:code|with)|tests? run"
    # a server's "up" (`command_line/reports_servers.py`)
    r"|ready in|(?:running|listening|serving) (?:on|at)|started server)\b"
    r"|✓|✔|\bPASS\b|\bFAIL\b"
)


@dataclass(frozen=True)
class Quote:
    """Words of one turn that back a fact, exactly as the transcript holds them: the person's
    sentence for a rule, the command as run and its observed result line for a command."""

    turn_key: str
    text: str
    part: Literal["user", "assistant", "tool"] = "tool"


@dataclass(frozen=True)
class BuiltinFact:
    """One extracted memory: its content, the statement that backs it, the turns it rests
    on, and (for typed facts) the parameters its renderer was given.

    `content` is what a teammate reads; `statement` is the checkable text (the rendered fact
    itself, or a user's exact words for a rule). `key` identifies the memory across sessions
    and against approved memory; `sessions` and `people` are what corroborates it.
    """

    renderer: str
    claim_support: Literal["typed-fact", "unverified"]
    content: str
    statement: str
    turn_keys: tuple[str, ...]
    key: str
    parameters: tuple[tuple[str, str], ...] = ()
    quotes: tuple[Quote, ...] = ()
    # Its corroboration over the window: the sessions that show it and their people.
    sessions: tuple[str, ...] = ()
    people: tuple[str, ...] = ()


def render_command_exit(command: str, kind: str, sessions: int) -> str:
    """The only text a `command-exit@1` fact can have."""
    plural = "session" if sessions == 1 else "sessions"
    phrase = _KIND_PHRASES[kind]
    if kind == "format" and _FORMAT_CHECK.search(command):
        phrase = "checks the formatting"
    return f"`{command}` {phrase} (worked in {sessions} {plural})."


def render_command_fix(mode: str, failing: str, error: str, fix: str) -> str:
    """The only text a `command-fix@1` fact can have."""
    failure = f' with "{error}"' if error else ""
    if mode == "variant":
        return f"{TRAP_PREFIX}`{failing}` fails{failure}; run `{fix}` instead."
    if mode == "prerequisite":
        return f"{TRAP_PREFIX}`{failing}` fails{failure} unless `{fix}` runs first."
    if mode == "file":
        return f"{TRAP_PREFIX}`{failing}` fails{failure} until the file `{fix}` is written."
    hook = f"{TRAP_PREFIX}`{failing}` is refused by the repository's hook"
    return f"{hook}{failure} until `{fix}` has run."


def sanitize_error(line: str) -> str:
    """An error line fit for a memory: no colour codes or backticks, one line, short.

    Idempotent, so the host can check a fact's error parameter by sanitizing it again.
    """
    text = ANSI.sub("", line).replace("`", "'").replace('"', "'")
    text = re.sub(r"\.{4,}", "...", text)
    text = " ".join(text.split())
    if len(text) > MAX_ERROR_CHARS:
        cut = text[:MAX_ERROR_CHARS]  # one more character: a cut on a space keeps the word
        end = cut.rfind(" ")
        if end < MAX_ERROR_CHARS // 2:  # one long token (a path, a URL): end at a separator
            end = max(cut.rfind(c) + 1 for c in "/\\:.,;=)]}") or end
        text = cut[: max(end, 0)].rstrip(" ,;:-–—(") + "…"
    return text


def weakens_safety(command: str) -> bool:
    """Whether a command works by turning a safeguard off (`--break-system-packages`,
    `--no-verify`, `sudo`, `chmod 777`, skipped or deleted tests, `rm -rf` outside build
    directories, `git push --force`, disabled lint rules or TLS checks): never a fix to
    hand a teammate."""
    if _UNSAFE.search(command):
        return True
    for match in _REMOVAL.finditer(command):
        targets = [w for w in match.group(1).split() if not w.startswith("-")]
        if not targets or any(not _BUILD_DIR.match(w.strip("'\"")) for w in targets):
            return True
    return False


_UNSAFE = re.compile(
    r"--break-system-packages|--no-verify\b|\bgit\s+commit\b[^;&|]*\s-n\b|(?:^|[\s;&|(])sudo\s"
    r"|\bchmod\s+(?:-\w+\s+)*(?:0?777|a\+rwx|o\+w)\b"
    r"|\bgit\s+push\b[^;&|]*\s(?:--force(?:-with-lease)?|-f)\b"
    r"|\s--(?:skip|deselect|ignore(?:-glob)?|exclude|no-tests|passWithNoTests"
    r"|testPathIgnorePatterns)\b|\s-k\s+['\"]?not\s|\bSKIP(?:_\w+)?="
    r"|\.skip\(|mark\.skip|\brm\s+(?:-\w+\s+)*\S*tests?\b"
    r"|eslint-disable|\bnoqa\b|type:\s*ignore|--no-lint\b|--disable(?:-\w+)?\b|--no-eslintrc"
    r"|\s-A\s+clippy::|--cap-lints|--allow-dirty\b|--insecure\b|--trusted-host\b"
    r"|--no-check-certificate|GIT_SSL_NO_VERIFY|NODE_TLS_REJECT_UNAUTHORIZED=0",
    re.IGNORECASE,
)
_REMOVAL = re.compile(r"\brm\s+((?:-\w*[rR]\w*\s+|-\w+\s+)*-\w*[rR]\w*(?:\s+[^;&|]+)?)")
# What a clean rebuild may delete: build outputs, caches, installed dependencies.
_BUILD_DIR = re.compile(
    r"^(?:\./)?(?:[\w.-]+/)*(?:node_modules|target|dist|build|out|\.next|\.nuxt|\.turbo"
    r"|\.venv|venv|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.cache|coverage"
    r"|\.gradle|\.tox|\.parcel-cache|\.svelte-kit|\.angular|bin|obj|pkg|_build|deps|\.eggs"
    r"|[\w.-]+\.egg-info)/?$|^-"
)


def result_line(output: str) -> str:
    """The line of a command's output that shows its result: the last one naming passes,
    failures or completion, else the last non-empty line ("" without output)."""
    lines = [ANSI.sub("", line).strip() for line in output.splitlines()]
    lines = [line for line in lines if line]
    for line in reversed(lines):
        if _RESULT.search(line):
            return line[:MAX_RESULT_CHARS]
    return lines[-1][:MAX_RESULT_CHARS] if lines else ""


def verify_typed_fact(renderer: str, text: str, parameters: Sequence[tuple[str, str]]) -> bool:
    """True only when `text` is exactly what the renderer makes of `parameters`."""
    values = dict(parameters)
    if len(values) != len(parameters):
        return False
    if renderer == RENDERER_COMMAND_EXIT:
        return _verify_exit(text, values)
    if renderer == RENDERER_COMMAND_FIX:
        return _verify_fix(text, values)
    return False


def _verify_exit(text: str, values: dict[str, str]) -> bool:
    if set(values) != {"command", "kind", "sessions"} or not values["sessions"].isdigit():
        return False
    command, kind, sessions = values["command"], values["kind"], int(values["sessions"])
    here = _here(command)
    if here is None:
        return False
    # Assignments the successful runs carried stay in front of the normal form.
    words = command.removeprefix(located("", here)).split(" ")
    env = list(itertools.takewhile(shell.is_assignment, words))
    normal = " ".join(words[len(env) :])
    if sessions < 1 or not normal:
        return False
    if " && " in normal:  # project commands chained: each in its normal form, together a check
        parts = normal.split(" && ")
        if env or kind != "check" or any(shell.normal_command(p) != p for p in parts):
            return False
    elif shell.normal_command(normal) != normal or shell.command_kind(normal) != kind:
        return False
    return text == render_command_exit(command, kind, sessions)


_LOCATED = re.compile(r"^cd ('[^']*'|[^\s']+) && ")


def _here(command: str) -> str | None:
    """The project folder a command runs in (`cd web && npm test` → `web`; "" the root), or
    None when it names one outside the project."""
    found = _LOCATED.match(command)
    if found is None:
        return ""
    directory = shlex.split(found.group(1))[0]
    plain = join_directory("", directory) == directory and not UNPLAIN_FOLDER.search(directory)
    return directory if plain and not directory.startswith("..") else None


def trap_subject(command: str) -> str | None:
    """What a trap can be about: a project command, a repository file an interpreter runs
    (`python3 convert.py`, `node tools/seed.js`), else a setup step (normal forms)."""
    found = shell.trap_subject(command)
    main, _ = shell.main_segment(command)
    if main is not None:
        return found
    scripts = [s for s in shell.segments(command) if script_run(s)]
    return plain_words(scripts[-1]) if scripts else found


def script_run(segment: shell.Segment) -> bool:
    """An interpreter running a file of the repository (not inline code, not a path outside)."""
    words = segment.words
    if not words or words[0] not in INTERPRETERS or len(words) < 2:
        return False
    target = next((w for w in words[1:] if not w.startswith("-")), "")
    inline = any(w in ("-c", "-e", "--eval") for w in words[1:])
    return bool(SCRIPT_FILE.search(target)) and not inline and not shell.outside(target)


# A Python interpreter called bare, by the name the shell finds first (`python3`, `py`): what
# a trap about running the project's Python outside its environment is about.
_BARE_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?|py")


def bare_python(word: str) -> bool:
    """Whether a command word is a Python interpreter called by its bare name."""
    return _BARE_PYTHON.fullmatch(word) is not None


# The tools whose `-q`, `-v`, `-s`, `-x`, `-r…` only change how they report. Elsewhere they
# change what is done: `rm -rf`, `docker run -v …`, `sed -i`, `tar -x`, `grep -v`.
_REPORTING_TOOLS = frozenset(
    {
        *("pytest", "py.test", "pip", "pip3", "uv", "poetry", "pdm", "pipenv", "conda", "tox"),
        *("nox", "ruff", "mypy", "pyright", "npm", "npx", "pnpm", "yarn", "bun", "deno", "jest"),
        *("vitest", "mocha", "playwright", "eslint", "tsc", "prettier", "biome", "cargo", "go"),
        *("make", "mvn", "mvnw", "gradle", "gradlew", "dotnet", "msbuild", "composer", "bundle"),
        *("gem", "rspec", "rake", "mix", "swift", "flutter", "dart"),
    }
)


def plain_words(segment: shell.Segment) -> str:
    """A command's words without what only changes how a tool reports (`pip install -q`,
    `pytest -x`), typed back as its shell reads them (`pip install 'bcrypt<4.0'`: unquoted,
    `<` redirects)."""
    program = (segment.program or segment.words or ("",))[0]
    name = program.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".cmd").removesuffix(".exe")
    if name.casefold() not in _REPORTING_TOOLS:
        return joined(list(segment.words), segment.dialect)
    return joined([w for w in segment.words if not COSMETIC.match(w)], segment.dialect)


def _verify_fix(text: str, values: dict[str, str]) -> bool:
    if set(values) != {"mode", "failing", "error", "fix"} or values["mode"] not in FIX_MODES:
        return False
    mode, failing, error, fix = (values[k] for k in ("mode", "failing", "error", "fix"))
    hooked = mode == "hook"
    here = _here(failing)
    core = failing.removeprefix(located("", here)) if here is not None else ""
    variant = mode == "variant"
    subject = trap_subject(core) == core or (
        variant
        and (
            bare_python(failing)
            or missing_and_alternative(failing, fix)
            or dropped_switch(failing, fix)
            or quoted_again(failing, fix)
            or pointed_by(error, core, fix.removeprefix(located("", here)))
        )
    )
    eligible = shell.is_hooked_git(failing) if hooked else subject
    if not eligible or not fix or "`" in fix or sanitize_error(error) != error:
        return False
    if weakens_safety(fix):
        return False
    if _blocked(f"{failing} {fix} {error}"):
        return False
    return text == render_command_fix(mode, failing, error, fix)


def _blocked(text: str) -> bool:
    """The secret scan blocks the text (such a text never becomes a memory)."""
    return any(f.severity == "block" for f in scan_secrets(text))
