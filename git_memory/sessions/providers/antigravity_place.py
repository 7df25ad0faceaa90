"""Which folder an Antigravity conversation worked in: no record of it names its workspace.

First `history.jsonl` beside the `brain/` folder (Antigravity's prompt history, one line per
prompt: `{display, timestamp, workspace, conversationId}`): the workspace of the lines that
name this conversation, or of the lines without an id whose `display` is one of the
conversation's prompts (a conversation's first prompt is written before its id exists). When
the vote below finds a folder inside that workspace, that folder is taken: `agy` started in
the home folder names it as the workspace while the conversation works in one project.

Else a vote of the places the conversation worked in (`Clue`s): each `run_command`'s `Cwd`,
each absolute path a file tool named, each `file:///` link in what the agent or its tools
wrote, each `Active Document:` line the IDE added to a prompt. A file votes for its folder,
and a folder inside a git worktree of this machine for that worktree's root. The workspace is
the deepest folder holding more than half of the votes at or below it; places inside
Antigravity's own home (its brain folder, its settings) do not vote. So the commands of a
turn that ran elsewhere (`/tmp`, another checkout) never make the conversation belong there.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from urllib.parse import unquote

from git_memory.formats import bounded_json
from git_memory.sessions.providers.common import mapping, read_document, string
from git_memory.sessions.source_io import SourceRefused, is_regular

HISTORY = "history.jsonl"
MAX_HISTORY_BYTES = 64 * 1024 * 1024
MAX_PATH = 4096  # Linux's PATH_MAX; Windows allows less
# A folder's enclosing worktree is looked for this many levels up, at most.
MAX_LEVELS = 64
_WINDOWS = re.compile(r"^[A-Za-z]:[\\/]")
_LINK = re.compile(r"file:///([^\s)\]>`'\"|]+)")
_ACTIVE = re.compile(r"^Active Document: (.+?)(?: \([A-Z_]+\))?\s*$", re.MULTILINE)
# Folders of Antigravity's own data below a `.gemini` folder: its brain (artifacts, task
# logs), its MCP and CLI settings (`c:\Users\NETCOM\.gemini\config\mcp_config.json` was the
# IDE's active document in one real conversation).
_OWN = ("antigravity", "antigravity-cli", "antigravity-ide", "config")


@dataclass(frozen=True)
class Clue:
    """One place the conversation worked in: what named it, the path, and whether it names
    a folder (a file votes for the folder holding it)."""

    kind: str  # command cwd | file path | link | active document
    path: str
    folder: bool = False


@dataclass(frozen=True)
class Place:
    """The folder a conversation is attributed to, and how it was found."""

    cwd: str | None
    how: str


def history_workspace(brain: str, conversation: str, prompts: list[str]) -> str | None:
    """The workspace `history.jsonl` gives the conversation (the most frequent one)."""
    path = os.path.join(os.path.dirname(brain), HISTORY)
    if not is_regular(path):
        return None
    try:
        data = read_document(path, MAX_HISTORY_BYTES)
    except (OSError, SourceRefused):
        return None
    asked = {" ".join(prompt.split()) for prompt in prompts}
    found: Counter[str] = Counter()
    for line in data.decode("utf-8", "replace").splitlines():
        entry = _entry(line)
        workspace, named = string(entry.get("workspace")), entry.get("conversationId")
        if not workspace or not _absolute(workspace):
            continue
        display = " ".join((string(entry.get("display")) or "").split())
        if named == conversation or (not named and display and display in asked):
            found[workspace] += 1
    return found.most_common(1)[0][0] if found else None


def _entry(line: str) -> dict[str, object]:
    if not line.strip():
        return {}
    try:
        return mapping(bounded_json.loads(line))
    except ValueError:
        return {}  # a torn line of a history being written


def voted_place(clues: list[Clue]) -> Place:
    """The deepest folder holding more than half of the clues' votes."""
    votes: Counter[PurePath] = Counter()
    kinds: Counter[str] = Counter()
    seen: dict[PurePath, PurePath] = {}
    for clue in clues:
        folder = _folder(clue)
        if folder is not None:
            votes[_worktree_of(folder, seen)] += 1
            kinds[clue.kind] += 1
    total = sum(votes.values())
    if not total:
        return Place(None, "no clue to its workspace")
    below: Counter[PurePath] = Counter()
    for folder, count in votes.items():
        for level in (folder, *folder.parents):
            below[level] += count
    winner = max(
        (folder for folder, count in below.items() if 2 * count > total),
        key=lambda folder: len(folder.parts),
    )
    detail = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return Place(str(winner), f"majority: {below[winner]} of {total} ({detail})")


def within(workspace: str, voted: Place) -> Place:
    """The workspace `history.jsonl` names, or the voted folder when it lies below it (`agy`
    started in the home folder and working in a project of it belongs to the project)."""
    outer, inner = _parsed(workspace), _parsed(voted.cwd or "")
    if outer is not None and inner is not None and inner != outer and inner.is_relative_to(outer):
        return Place(str(inner), f"history.jsonl, narrowed by {voted.how}")
    return Place(workspace, "history.jsonl")


def _folder(clue: Clue) -> PurePath | None:
    path = _parsed(clue.path)
    if path is None or _own(path):
        return None
    return path if clue.folder else path.parent


def _parsed(text: str) -> PurePath | None:
    text = text.strip()
    if not text or len(text) > MAX_PATH or "\n" in text:
        return None
    if _WINDOWS.match(text):
        path: PurePath = PureWindowsPath(text[0].upper() + text[1:])
    elif text.startswith("/"):
        path = PurePosixPath(os.path.normpath(text))
    else:
        return None
    return path if ".." not in path.parts else None


def _own(path: PurePath) -> bool:
    """Whether `path` is inside Antigravity's own data (`.gemini/antigravity*`, `config`)."""
    parts = [part.lower() for part in path.parts]
    return any(first == ".gemini" and second in _OWN for first, second in pairwise(parts))


def _worktree_of(folder: PurePath, seen: dict[PurePath, PurePath]) -> PurePath:
    """The root of the git worktree holding `folder` on this machine, else the folder (a
    Windows path is never looked up here); `seen` keeps the answers of one conversation."""
    if not isinstance(folder, PurePosixPath):
        return folder
    if folder not in seen:
        seen[folder] = _git_root(folder)
    return seen[folder]


def _git_root(folder: PurePath) -> PurePath:
    for level in [folder, *folder.parents][:MAX_LEVELS]:
        if os.path.lexists(os.path.join(str(level), ".git")):
            return level
    return folder


def _absolute(text: str) -> bool:
    return text.startswith("/") or bool(_WINDOWS.match(text))


def link_clues(text: str) -> list[Clue]:
    """The `file:///` links of a text (percent-decoded, without a `#L12` fragment)."""
    clues = []
    for match in _LINK.finditer(text):
        target = unquote(match.group(1).split("#", 1)[0])
        clues.append(Clue("link", target if _WINDOWS.match(target) else "/" + target))
    return clues


def active_document_clues(text: str) -> list[Clue]:
    """The IDE's `Active Document: <path> (LANGUAGE_…)` lines of a prompt's metadata."""
    return [Clue("active document", match.group(1)) for match in _ACTIVE.finditer(text)]
