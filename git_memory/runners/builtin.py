"""The `builtin` runner's deterministic extraction: typed facts and quoted user rules.

Nothing here calls a model or leaves the process. Typed facts come only from fixed renderers
over what the session index recorded (`command-exit@1`: a build/test/lint/format command whose
tool call completed, i.e. exited 0; `commit-changed-path@1`: a commit cited in a session and
the paths it changed), so their text is a function of the facts: `verify_typed_fact`
re-renders and compares, which is how a host refuses `typed-fact` for any other text.
User-stated rules ("always …", "never …", "use X instead of Y", "don't …") are quoted
verbatim and stay `unverified`; a quote that trips the secret scan is dropped.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

RENDERER_COMMAND_EXIT = "command-exit@1"
RENDERER_COMMIT_PATHS = "commit-changed-path@1"
RENDERER_USER_RULE = "user-rule@1"
SHELL_TOOLS = frozenset(
    ["bash", "exec", "exec_command", "shell", "shell_command", "terminal", "local_shell"]
)
MAX_PATHS = 20
MAX_RULE_CHARS = 300

# What makes a command a build/test/lint/format step: the program of the command's first
# `&&`/`;`/`|` segment, after runner wrappers (`uv run pytest -q`, `npm run lint`, …).
_WRAPPERS: tuple[tuple[str, ...], ...] = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("hatch", "run"),
    ("pdm", "run"),
    ("pnpm", "exec"),
    ("python", "-m"),
    ("python3", "-m"),
    ("npx",),
    ("bunx",),
)
_PM = r"(npm|pnpm|yarn|bun|make|just)\s+(run\s+)?"
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "test",
        re.compile(
            r"^(pytest|tox|nox|jest|vitest|mocha|rspec|phpunit|ctest)\b"
            r"|^(cargo|go|mix|dotnet|mvn|gradle)\s+test\b|^" + _PM + r"test\b"
        ),
    ),
    (
        "lint",
        re.compile(
            r"^(ruff\s+check|flake8|pylint|mypy|pyright|eslint|golangci-lint|shellcheck|tsc)\b"
            r"|^cargo\s+clippy\b|^" + _PM + r"(lint|typecheck)\b"
        ),
    ),
    (
        "format",
        re.compile(
            r"^(ruff\s+format|black|isort|prettier|gofmt|rustfmt)\b|^cargo\s+fmt\b"
            r"|^" + _PM + r"(format|fmt)\b"
        ),
    ),
    (
        "build",
        re.compile(
            r"^(cargo|go|gradle|uv)\s+build\b|^mvn\s+package\b|^cmake\s+--build\b|^build\b"
            r"|^" + _PM + r"build\b|^make$"
        ),
    ),
)
_RULE = re.compile(
    r"(?i)(?<![\w'])(always\s+\S.*|never\s+\S.*|don'?t\s+\S.*|do\s+not\s+\S.*"
    r"|use\s+\S.*?\s+instead\s+of\s+\S.*)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class BuiltinFact:
    """One extracted fact with the turns (and commit/paths) it rests on."""

    renderer: str
    claim_support: Literal["typed-fact", "unverified"]
    text: str
    turn_keys: tuple[str, ...]
    parameters: tuple[tuple[str, str], ...] = ()


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


def command_kind(command: str) -> str | None:
    """build | test | lint | format, judged on the program of the first segment."""
    first = re.split(r"&&|\|\||;|\|", command, maxsplit=1)[0].strip()
    head = _program(first)
    for kind, pattern in _KINDS:
        if pattern.search(head):
            return kind
    return None


def _program(segment: str) -> str:
    """The segment from its program on: leading `VAR=value` and runner wrappers removed."""
    words = segment.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words = words[1:]
    stripped = True
    while stripped:
        stripped = False
        for wrapper in _WRAPPERS:
            if tuple(words[: len(wrapper)]) == wrapper and len(words) > len(wrapper):
                words = words[len(wrapper) :]
                stripped = True
    return " ".join(words)


def render_command_exit(command: str, kind: str) -> str:
    """The only text a `command-exit@1` fact can have."""
    return f"The {kind} command `{command}` succeeded (exit 0) in this repository."


def render_commit_paths(commit: str, paths: Sequence[str]) -> str:
    """The only text a `commit-changed-path@1` fact can have."""
    shown = ", ".join(f"`{path}`" for path in sorted(paths)[:MAX_PATHS])
    more = f" and {len(paths) - MAX_PATHS} more" if len(paths) > MAX_PATHS else ""
    return f"Commit {commit} changed {shown}{more}."


def command_facts(records: Iterable[Any]) -> list[BuiltinFact]:
    """One `command-exit@1` fact per distinct successful build/test/lint/format command."""
    turns: dict[tuple[str, str], list[str]] = {}
    for record in records:
        for call in record.tool_calls:
            command = command_of(call)
            kind = command_kind(command) if command else None
            if command and kind and call.state == "completed":
                keys = turns.setdefault((command, kind), [])
                if record.turn_key not in keys:
                    keys.append(record.turn_key)
    return [
        BuiltinFact(
            RENDERER_COMMAND_EXIT,
            "typed-fact",
            render_command_exit(command, kind),
            tuple(keys),
            (("command", command), ("kind", kind)),
        )
        for (command, kind), keys in turns.items()
    ]


def commit_facts(
    records: Iterable[Any], changed_paths: Callable[[str], Sequence[str] | None]
) -> list[BuiltinFact]:
    """One `commit-changed-path@1` fact per cited commit that exists (`changed_paths` → None
    when it does not) and changed at least one path."""
    cited: dict[str, list[str]] = {}
    for record in records:
        for edge in record.evidence:
            if edge.kind == "commit":
                keys = cited.setdefault(edge.value, [])
                if record.turn_key not in keys:
                    keys.append(record.turn_key)
    facts = []
    for commit, keys in cited.items():
        paths = changed_paths(commit)
        if paths:
            facts.append(
                BuiltinFact(
                    RENDERER_COMMIT_PATHS,
                    "typed-fact",
                    render_commit_paths(commit, paths),
                    tuple(keys),
                    (("commit", commit), *(("path", path) for path in sorted(paths))),
                )
            )
    return facts


def user_rules(records: Iterable[Any]) -> list[BuiltinFact]:
    """User-stated rules quoted verbatim as `unverified` statements (secret-scanned)."""
    from git_memory.lint.engine import scan_secrets

    found: dict[str, list[str]] = {}
    for record in records:
        for sentence in _SENTENCE_END.split(record.user_text or ""):
            match = _RULE.search(sentence.strip())
            if not match or len(match.group(1)) > MAX_RULE_CHARS:
                continue
            quote = match.group(1).strip()
            if any(f.severity == "block" for f in scan_secrets(quote)):
                continue
            keys = found.setdefault(quote, [])
            if record.turn_key not in keys:
                keys.append(record.turn_key)
    return [
        BuiltinFact(RENDERER_USER_RULE, "unverified", f'The user said: "{quote}"', tuple(keys))
        for quote, keys in found.items()
    ]


def verify_typed_fact(renderer: str, text: str, parameters: Sequence[tuple[str, str]]) -> bool:
    """True only when `text` is exactly what the renderer makes of `parameters`."""
    values = dict(parameters)
    if renderer == RENDERER_COMMAND_EXIT:
        if set(values) != {"command", "kind"} or command_kind(values["command"]) != values["kind"]:
            return False
        return text == render_command_exit(values["command"], values["kind"])
    if renderer == RENDERER_COMMIT_PATHS:
        paths = [value for key, value in parameters if key == "path"]
        commit = values.get("commit", "")
        return (
            bool(re.fullmatch(r"[0-9a-f]{40}", commit))
            and bool(paths)
            and (text == render_commit_paths(commit, paths))
        )
    return False
