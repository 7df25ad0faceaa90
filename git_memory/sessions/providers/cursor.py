"""Cursor agent transcripts: `<home>/projects/<slug>/agent-transcripts/`.

Layouts (docs/sessions.md): flat `<uuid>.jsonl` and/or `<uuid>.txt`, nested
`<uuid>/<uuid>.jsonl`, sub-agents in `<uuid>/subagents/` (excluded). When a session exists
both as JSON lines and as text, the JSON lines are read. Lines are `{role, message:
{content: [text | tool_use blocks]}}` with no ids, no timestamps and no tool results, so
Cursor turns carry tool calls without results or exit codes (no typed command facts), and
are dated by the transcript's modification time at the sync that first reads them. The
human prompt is the `<user_query>` block; `[REDACTED]` reasoning placeholders are dropped.

No cwd is recorded. The project slug is the workspace path with every non-alphanumeric
character turned into `-`, which is lossy; it is mapped back to a directory only when
exactly one existing directory produces that slug.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from typing import Any

from git_memory.sessions.providers.base import Document, Provider, SourceFile, env_home, under, walk
from git_memory.sessions.providers.common import call_pair, iso_from_ms, person_text, read_document
from git_memory.sessions.records import ASSISTANT, USER, Event

PROVIDER = "cursor"
_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.DOTALL)
_SLUG_CHAR = re.compile(r"[^A-Za-z0-9]")
_ROLE_LINE = re.compile(r"^(user|assistant):\s*$", re.IGNORECASE)
_TOOL_CALL = re.compile(r"^\[Tool call\]\s*([A-Za-z0-9_.:-]+)")
_ARGUMENT = re.compile(r"^  (\w+): ?(.*)$")
# Slug resolution looks at no more directories than this (a slug is a few levels deep).
_MAX_LISTINGS = 256


def find(home: str) -> list[SourceFile]:
    """Transcripts of every project; text renderings of a JSONL session are duplicates."""
    out: list[SourceFile] = []
    projects = os.path.join(home, "projects")
    for path, name, below in walk(projects):
        parts = below.split("/")
        if len(parts) < 2 or parts[1] != "agent-transcripts":
            continue
        stem, dot, extension = name.rpartition(".")
        if not dot or extension not in ("jsonl", "txt"):
            continue
        display = under(path, home)
        nested = parts[2:]
        if "subagents" in nested:
            out.append(SourceFile(path, PROVIDER, stem, display, excluded="subagent"))
        elif not nested or nested == [stem]:
            text_twin = extension == "txt" and os.path.exists(path[: -len("txt")] + "jsonl")
            excluded = "duplicate-session" if text_twin else None
            out.append(SourceFile(path, PROVIDER, stem, display, excluded=excluded))
    return out


def workspace_of(path: str) -> str | None:
    """The directory the transcript's project slug names, when exactly one does."""
    relative = path.split(os.sep + "projects" + os.sep, 1)
    if len(relative) != 2:
        return None
    return resolve_slug(relative[1].split(os.sep, 1)[0])


@lru_cache(maxsize=256)
def resolve_slug(slug: str) -> str | None:
    """The one existing absolute directory whose slug is `slug` (None when none or many)."""
    found: list[str] = []
    budget = [_MAX_LISTINGS]
    _search("/", slug, found, budget)
    return found[0] if len(found) == 1 and budget[0] > 0 else None


def _search(directory: str, rest: str, found: list[str], budget: list[int]) -> None:
    if len(found) > 1 or budget[0] <= 0:
        return
    budget[0] -= 1
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        slug = _SLUG_CHAR.sub("-", name)
        if not rest.startswith(slug):
            continue
        path = os.path.join(directory, name)
        if not os.path.isdir(path) or os.path.islink(path):
            continue
        if rest == slug:
            found.append(path)
        elif rest[len(slug) : len(slug) + 1] == "-":
            _search(path, rest[len(slug) + 1 :], found, budget)


def seed(source: SourceFile) -> dict[str, Any]:
    """The workspace the project slug names (when unambiguous), and the time the lines read
    now are dated with: Cursor records no times, so a turn is dated by the transcript's
    modification time at the sync that first reads it (it was written no later)."""
    return {"cwd": workspace_of(source.path), "observed": observed_time(source.path)}


def observed_time(path: str) -> str | None:
    """The file's modification time as an ISO-8601 UTC timestamp."""
    try:
        return iso_from_ms(os.stat(path).st_mtime_ns // 1_000_000)
    except OSError:
        return None


def new_state() -> dict[str, Any]:
    """Reader state of a file read from its start."""
    return {"cwd": None, "observed": None}


def read_record(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    """Events of one transcript line."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return []
    cwd, role, ts = state.get("cwd"), record.get("role"), state.get("observed")
    texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    if role == "user":
        prompt = user_text("\n".join(texts))
        return [Event(USER, offset, ts, cwd, text=prompt)] if prompt else []
    if role != "assistant":
        return []
    events: list[Event] = []
    text = "\n".join(texts).replace("[REDACTED]", "").strip()
    if text:
        events.append(Event(ASSISTANT, offset, ts, cwd, text=text))
    for block in content:
        if (
            isinstance(block, dict)
            and block.get("type") == "tool_use"
            and isinstance(block.get("name"), str)
        ):
            events += call_pair(offset, ts, cwd, (None, block["name"], block.get("input")), None)
    return events


def user_text(text: str) -> str | None:
    """The human prompt of a user message: its `<user_query>` blocks, else the text unless
    it is injected context."""
    queries = _QUERY.findall(text)
    if queries:
        return "\n\n".join(q for q in queries if q.strip()) or None
    typed = person_text(text)
    return None if typed is None else typed.strip()


def unknown_type(record: dict[str, Any], state: dict[str, Any]) -> str | None:
    """The line's role when it is neither user nor assistant."""
    role = record.get("role")
    return None if role in ("user", "assistant") else str(role)


def deferred_result(record: dict[str, Any], call_id: str | None) -> tuple[str, str] | None:
    """Cursor transcripts hold no tool results."""
    return None


def read_text(source: SourceFile) -> Document:
    """A plain-text transcript: `user:` / `assistant:` blocks, `[Tool call] Name` followed by
    indented `key: value` arguments; `[Tool result]` lines carry nothing."""
    data = read_document(source.path).decode("utf-8", "replace")
    cwd, ts = workspace_of(source.path), observed_time(source.path)
    events: list[Event] = []
    offset, role, start = 0, None, 0
    body: list[str] = []
    for line in data.splitlines(keepends=True):
        matched = _ROLE_LINE.match(line.rstrip("\r\n"))
        if matched:
            events += _block(role, body, start, cwd, ts)
            role, start, body = matched.group(1).lower(), offset, []
        else:
            body.append(line.rstrip("\r\n"))
        offset += len(line.encode("utf-8"))
    events += _block(role, body, start, cwd, ts)
    return Document(events)


def _block(
    role: str | None, body: list[str], offset: int, cwd: str | None, ts: str | None
) -> list[Event]:
    if role == "user":
        prompt = user_text("\n".join(body))
        return [Event(USER, offset, ts, cwd, text=prompt)] if prompt else []
    if role != "assistant":
        return []
    events: list[Event] = []
    texts: list[str] = []
    mode = "text"  # text | thinking | arguments | patch
    arguments: dict[str, str] = {}
    for line in body:
        tool = _TOOL_CALL.match(line)
        if tool:
            arguments = {}
            events += call_pair(offset, ts, cwd, (None, tool.group(1), arguments), None)
            rest = line[tool.end() :]
            mode = "patch" if rest.startswith("***") else "arguments"
            if mode == "patch":
                arguments["patch"] = rest
        elif mode == "patch":
            arguments["patch"] += "\n" + line
            mode = "text" if line.startswith("*** End Patch") else "patch"
        elif mode == "arguments" and (argument := _ARGUMENT.match(line)):
            arguments[argument.group(1)] = argument.group(2)
        elif line.startswith("[Thinking]"):
            mode = "thinking"
        elif not line.strip():
            mode = "text"
        elif mode == "text" and not line.startswith("[Tool result]"):
            texts.append(line)
    text = "\n".join(texts).replace("[REDACTED]", "").strip()
    if text:
        events.insert(0, Event(ASSISTANT, offset, ts, cwd, text=text))
    return events


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Cursor",
    variable="CURSOR_CONFIG_DIR",
    home=env_home("CURSOR_CONFIG_DIR", "~/.cursor"),
    find=find,
    lines=sys.modules[__name__],
    document=read_text,
    seed=seed,
)
