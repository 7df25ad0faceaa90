"""What the extraction benchmarks share: a hermetic environment, one builtin extraction of a
repository's sessions, and the matching of the candidates it proposed to labelled memories.

A label names a memory by robust keys, not by wording:
- `command`: the candidate's first backticked command (spaces normalized), with or without a
  leading `cd DIR &&`, is `command` or one of `aliases`;
- `trap`: a `Trap:` candidate whose failing command is `failing` (a string or a list of
  alternatives) and whose text holds every `fix` word;
- `rule` (and `fact`, which review shows among the stated rules): the text holds every keyword.
Words match case-insensitively.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_BACKTICKED = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Candidate:
    """A proposed memory as review shows it."""

    project: str
    content: str
    statement: str

    @property
    def kind(self) -> str:
        if self.content.startswith("Trap: "):
            return "trap"
        if self.content.startswith("`") and "(worked in " in self.content:
            return "command"
        return "rule"

    @property
    def commands(self) -> list[str]:
        return [normalized(c) for c in _BACKTICKED.findall(self.content)]


def normalized(command: str) -> str:
    """A command with its runs of white space made single spaces."""
    return " ".join(command.split())


# A leading change of directory, which the command model keeps apart from the command.
_CD_PREFIX = re.compile(r"^cd\s+(?:\"[^\"]*\"|'[^']*'|\S+)\s*&&\s*")


def _alternatives(value: str | Iterable[str]) -> set[str]:
    """A label's command(s) as written, without a leading `cd X &&`, and each in the normal
    form of the command model."""
    from git_memory.extract.builtin.shell import normal_command

    written = {normalized(value)} if isinstance(value, str) else {normalized(v) for v in value}
    written |= {_CD_PREFIX.sub("", w) for w in written}
    return written | {n for n in map(normal_command, written) if n}


# Inline Python run by the interpreter's bare name (`python3 -c "…"`, `python - <<'PY'`): a
# trap about it names the interpreter, the code being the moment's.
_INLINE_PYTHON = re.compile(r"^(?P<python>\S+)\s+(?:-c\b|-\s+<<)")


def _interpreter(value: str | Iterable[str]) -> set[str]:
    """The interpreter of a label's inline Python command, as a trap about it names it."""
    from git_memory.extract.builtin.renderers import bare_python

    written = [value] if isinstance(value, str) else list(value)
    found = (_INLINE_PYTHON.match(normalized(w)) for w in written)
    return {m.group("python") for m in found if m and bare_python(m.group("python"))}


def _words(text: str) -> str:
    """Text compared by its words: case and apostrophes aside ("dont" is "Don't")."""
    return text.casefold().replace("'", "").replace("\u2019", "")


def matches(label: dict[str, Any], candidate: Candidate, shown: Callable[[str], str] = str) -> bool:
    """Whether a candidate is the memory a label describes. `shown` rewrites a label's words
    as review shows the session's text: a label copied a path as the transcript spells it
    (`rm -rf /Users/ana/app/.next`), review shows it inside the worktree made relative and a
    home as `~` (`rm -rf .next`); either spelling matches."""
    kind = "rule" if label["kind"] == "fact" else label["kind"]
    if kind != candidate.kind:
        return False
    text = _words(candidate.content)

    def spellings(value: str | Iterable[str]) -> list[str]:
        written = [value] if isinstance(value, str) else list(value)
        return list(dict.fromkeys([*written, *map(shown, written)]))

    def holds(word: str) -> bool:
        if _words(word) in text:
            return True
        # as review shows it, a whole path: `cd .` is no part of `cd ./services/api`, and a
        # word that was only the worktree's folder (shown `.`) names nothing
        form = _words(shown(word))
        whole = re.compile(re.escape(form) + r"(?![\w./\\-])")
        return form != _words(word) and bool(re.search(r"\w", form) and whole.search(text))

    # The folder a command ran in is kept apart on both sides: a label written from a call
    # the agent ran in `backend/` names `uv run pytest`, the candidate `cd backend && …`.
    first = {form for c in candidate.commands[:1] for form in (c, _CD_PREFIX.sub("", c))}
    if kind == "command":
        named = spellings([label["command"], *label.get("aliases", [])])
        return bool(first & _alternatives(named))
    if kind == "trap":
        failing = spellings(label["failing"])
        return bool(first & (_alternatives(failing) | _interpreter(failing))) and all(
            holds(word) for word in label["fix"]
        )
    return all(holds(word) for word in label["keywords"])


def hermetic(base: Path) -> dict[str, Path]:
    """Point every home, config and transcript directory at `base` (never the real ones)."""
    for key in list(os.environ):
        if key.startswith("GIT_"):
            del os.environ[key]
    names = ("home", "state", "claude", "codex", "gemini", "qwen", "copilot", "cursor", "xdg")
    dirs = {name: base / name for name in names}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    os.environ.update(
        {
            "HOME": str(dirs["home"]),
            "GIT_MEMORY_HOME": str(dirs["state"]),
            "CLAUDE_CONFIG_DIR": str(dirs["claude"]),
            "CODEX_HOME": str(dirs["codex"]),
            "GEMINI_CLI_HOME": str(dirs["gemini"]),
            "QWEN_RUNTIME_DIR": str(dirs["qwen"]),
            "COPILOT_HOME": str(dirs["copilot"]),
            "CURSOR_CONFIG_DIR": str(dirs["cursor"]),
            "XDG_STATE_HOME": str(dirs["xdg"]),
            "XDG_CONFIG_HOME": str(dirs["xdg"]),
            "GIT_CONFIG_GLOBAL": str(dirs["home"] / ".gitconfig"),
        }
    )
    return dirs


def extract(
    project: str,
    root: Path,
    *,
    since: str | None = None,
    until: str | None = None,
    limit: int | None = None,
) -> list[Candidate]:
    """One builtin extraction for the worktree at `root` over the window `since`..`until` (the
    default window when neither is given), every pending task or the first `limit`, through
    the `extract` operation as `git memory extract --runner builtin` runs it; the candidates
    it offered, as review shows them."""
    from git_memory.extract.window import resolve_window, utc_now
    from git_memory.ops.base import OpContext, load_operation
    from git_memory.repo.binding import discover_worktree
    from git_memory.store.candidates import review_queue
    from git_memory.store.session import open_workspace

    window = resolve_window(since, until, last_until=None, now=utc_now())
    selection = {
        "format": "git-memory-extraction-request@v1",
        "window": window.time_window().to_json(),
    }
    request = {"runner": "builtin", "request": selection, "limit": limit}
    load_operation("extract").invoke(OpContext(repository=root), request)
    with open_workspace(discover_worktree(root), sync=False) as workspace:
        found = review_queue(workspace.db, workspace.owner)  # what review shows, in order
        return [Candidate(project, str(c.payload["content"]), _statement(c.payload)) for c in found]


def _statement(payload: dict[str, Any]) -> str:
    statements = payload.get("statements") or [{}]
    return str(statements[0].get("text", ""))
