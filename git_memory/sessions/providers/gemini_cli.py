"""Gemini CLI chat recordings: `<home>/tmp/<project>/chats/session-*.json|jsonl`.

Two encodings of the same conversation record (docs/sessions.md):
- the single JSON object of versions up to 0.38, rewritten on every update;
- the append-only JSON lines of 0.39+: a metadata line, message records re-appended whenever
  they change (the last copy of an id wins, in first-seen order), `$set` metadata updates
  (`$set.messages` replaces the whole list) and `$rewindTo` (drops that message and all
  after it).
Both are read whole (a message can change after it was first written), so positions are
message ordinals. Tool calls sit inline in the `gemini` message with their status and
result; shell exit codes are only in the output text. `user` records that carry only
`functionResponse` parts are tool results sent back to the model, not prompts. A session of
`kind: subagent`, or a file under `chats/<parent>/`, is a sub-agent's and is excluded.

The worktree is not recorded as a path: it comes from the project directory's
`.project_root` (0.29+), from `projects.json`, or from the `sha256` of a root named there
(the older hashed directories), else from `directories` in the record.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Any

from git_memory.formats import bounded_json
from git_memory.sessions.providers.base import Document, Provider, SourceFile, env_home, under, walk
from git_memory.sessions.providers.common import (
    call_pair,
    decode_document,
    decoded_lines,
    function_output,
    mapping,
    objects,
    parts_text,
    person_text,
    read_document,
    state_of,
    string,
)
from git_memory.sessions.records import ASSISTANT, USER, Diagnostic, Event
from git_memory.sessions.source_io import SourceRefused, is_regular

PROVIDER = "gemini-cli"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:\\")
MAX_PATH = 4096  # Linux's PATH_MAX; Windows allows less
ASSISTANT_TYPES = ("gemini", "qwen", "model")  # Qwen Code's inherited recorder says "qwen"
# Slash commands the client handles itself: they carry no request for the model.
LOCAL_COMMANDS = frozenset(
    [
        "/quit",
        "/exit",
        "/clear",
        "/model",
        "/stats",
        "/about",
        "/auth",
        "/theme",
        "/help",
        "/settings",
        "/privacy",
        "/docs",
        "/editor",
        "/vim",
        "/copy",
        "/corgi",
        "/resume",
    ]
)


def find(home: str) -> list[SourceFile]:
    """Main sessions under `<home>/tmp/*/chats/`; sub-agent files listed as excluded; a
    legacy `.json` that was resumed into a `.jsonl` of the same name is a duplicate."""
    return chat_files(os.path.join(home, "tmp"), home, PROVIDER)


def chat_files(tmp: str, home: str, provider: str) -> list[SourceFile]:
    """`session-*.json|jsonl` files of `<tmp>/<project>/chats/` (shared with Qwen Code's
    inherited layout)."""
    out: list[SourceFile] = []
    for path, name, below in walk(tmp):
        parts = below.split("/")
        if len(parts) < 2 or parts[1] != "chats" or not name.endswith((".json", ".jsonl")):
            continue
        stem = name.rsplit(".", 1)[0]
        display = under(path, home)
        if len(parts) > 2:
            out.append(SourceFile(path, provider, stem, display, excluded="subagent"))
        elif name.startswith("session-"):
            duplicate = name.endswith(".json") and os.path.exists(path + "l")
            excluded = "duplicate-session" if duplicate else None
            out.append(SourceFile(path, provider, stem, display, excluded=excluded))
    return out


def read(source: SourceFile) -> Document:
    """The events of one chat recording (either encoding)."""
    diagnostics: list[Diagnostic] = []
    data = read_document(source.path)
    if source.path.endswith(".jsonl"):
        meta, messages = _from_lines(data, diagnostics)
    else:
        record = decode_document(data, diagnostics) or {}
        meta = record
        messages = objects(record.get("messages"))
    cwd = project_root(source.path, meta) or _hashed_root(source.path, meta, messages)
    events: list[Event] = []
    for ordinal, message in enumerate(messages):
        events += message_events(message, ordinal, cwd)
    return Document(events, diagnostics, subagent=meta.get("kind") == "subagent")


def _from_lines(
    data: bytes, diagnostics: list[Diagnostic]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    meta: dict[str, Any] = {}
    order: list[str] = []
    latest: dict[str, dict[str, Any]] = {}
    for _, record in decoded_lines(data, diagnostics):
        _apply(record, meta, order, latest)
    return meta, [latest[key] for key in order]


def _apply(
    record: dict[str, Any],
    meta: dict[str, Any],
    order: list[str],
    latest: dict[str, dict[str, Any]],
) -> None:
    """Fold one JSONL record into the metadata and the message list (in the order the
    agent's own loader tells record kinds apart)."""
    if isinstance(record.get("$rewindTo"), str):
        # Drops that message and all after it; an unknown id drops every message.
        target = record["$rewindTo"]
        cut = order.index(target) if target in latest else 0
        for key in order[cut:]:
            latest.pop(key, None)
        del order[cut:]
    elif isinstance(record.get("id"), str):
        if record["id"] not in latest:
            order.append(record["id"])
        latest[record["id"]] = record
    elif isinstance(record.get("$set"), dict):
        update = record["$set"]
        if isinstance(update.get("messages"), list):
            order.clear()
            latest.clear()
            for message in objects(update["messages"]):
                _apply(message, meta, order, latest)
        meta.update({k: v for k, v in update.items() if k != "messages"})
    else:
        meta.update(record)


def message_events(message: dict[str, Any], offset: int, cwd: str | None) -> list[Event]:
    """Events of one message record (user prompt, assistant text and tool calls)."""
    kind, ts = message.get("type"), string(message.get("timestamp"))
    if kind == "user":
        text = _prompt_text(message)
        return [Event(USER, offset, ts, cwd, text=text)] if text else []
    if kind not in ASSISTANT_TYPES:
        return []  # info / warning / error notices of the UI
    events: list[Event] = []
    text = parts_text(message.get("content"))
    if text.strip():
        events.append(Event(ASSISTANT, offset, ts, cwd, text=text))
    for call in objects(message.get("toolCalls")):
        if isinstance(call.get("name"), str):
            events += _tool_call(call, offset, string(call.get("timestamp")) or ts, cwd)
    return events


def _prompt_text(message: dict[str, Any]) -> str | None:
    content = message.get("content")
    if (
        isinstance(content, list)
        and content
        and all(isinstance(part, dict) and "functionResponse" in part for part in content)
    ):
        return None  # tool results sent back to the model
    shown = message.get("displayContent")
    text = person_text(parts_text(shown) if shown else parts_text(content))
    if text is None:
        return None
    if text.split(" ", 1)[0] in LOCAL_COMMANDS:
        return None
    return text


def _tool_call(call: dict[str, Any], offset: int, ts: str | None, cwd: str | None) -> list[Event]:
    status = string(call.get("status"))
    outputs = [
        function_output(part["functionResponse"].get("response"))
        for part in objects(call.get("result"))
        if isinstance(part.get("functionResponse"), dict)
    ]
    if not outputs and isinstance(call.get("resultDisplay"), str):
        outputs = [call["resultDisplay"]]
    finished = status in ("success", "error", "cancelled")
    text = "\n".join(outputs)
    result = (text, state_of(status, text)) if finished else None
    return call_pair(
        offset, ts, cwd, (string(call.get("id")), call["name"], call.get("args")), result
    )


def project_root(path: str, meta: dict[str, Any]) -> str | None:
    """The worktree of a chat file: `.project_root`, `projects.json`, or `directories`."""
    project = os.path.dirname(os.path.dirname(path))
    home = os.path.dirname(os.path.dirname(project))
    found = _read_small(os.path.join(project, ".project_root"))
    if found and os.path.isabs(found.strip()):
        return found.strip()
    slug = os.path.basename(project)
    hashes = {slug, string(meta.get("projectHash")) or slug}
    for root, short in _projects(home).items():
        if short == slug or hashlib.sha256(root.encode()).hexdigest() in hashes:
            return root
    directories = meta.get("directories")
    if isinstance(directories, list) and directories and isinstance(directories[0], str):
        return directories[0]
    return None


def _hashed_root(path: str, meta: dict[str, Any], messages: list[dict[str, Any]]) -> str | None:
    """For a directory named `sha256(project root)` with nothing naming the root: the one
    ancestor of an absolute path in the session's tool arguments whose digest is that name
    (exact, so never a guess). Each distinct path is hashed once, prefix by prefix, so the
    cost is linear in its length."""
    digest = string(meta.get("projectHash")) or os.path.basename(
        os.path.dirname(os.path.dirname(path))
    )
    if not _HEX64.fullmatch(digest):
        return None
    for candidate in dict.fromkeys(_argument_paths(messages)):
        found = _ancestor_with_digest(candidate, digest)
        if found is not None:
            return found
    return None


def _ancestor_with_digest(candidate: PurePath, digest: str) -> str | None:
    """The path or the ancestor of it whose sha256 is `digest`: ancestors are prefixes of
    the path's text, ending before a separator (the root keeps its own), so one running
    hash serves them all."""
    text = str(candidate)
    separator = "\\" if isinstance(candidate, PureWindowsPath) else "/"
    root = len(candidate.anchor)
    hasher = hashlib.sha256()
    done = 0
    ends = [
        root,
        *(m.start() for m in re.finditer(re.escape(separator), text) if m.start() >= root),
        len(text),
    ]
    for end in ends:
        if end < done:
            continue
        hasher.update(text[done:end].encode())
        done = end
        if hasher.copy().hexdigest() == digest:
            return text[:end]
    return None


def _argument_paths(messages: list[dict[str, Any]]) -> list[PurePath]:
    found: list[PurePath] = []
    for message in messages:
        for call in objects(message.get("toolCalls")):
            for value in mapping(call.get("args")).values():
                if not isinstance(value, str) or len(value) > MAX_PATH:
                    continue  # longer than any path a system accepts
                if value.startswith("/"):
                    found.append(PurePosixPath(value))
                elif _WINDOWS_PATH.match(value):
                    found.append(PureWindowsPath(value))
    return found


def registered_projects(home: str) -> dict[str, str]:
    """`projects.json`: absolute project root → short directory name under `tmp/`."""
    return _projects(home)


def _projects(home: str) -> dict[str, str]:
    """`projects.json`: absolute project root → short directory name."""
    text = _read_small(os.path.join(home, "projects.json"))
    try:
        projects = bounded_json.loads(text or "{}").get("projects")
    except (ValueError, AttributeError):
        return {}
    if not isinstance(projects, dict):
        return {}
    return {k: v for k, v in projects.items() if isinstance(k, str) and isinstance(v, str)}


def _read_small(path: str) -> str | None:
    """A small sidecar's text (None when missing, special or unreadable)."""
    if not is_regular(path):
        return None
    try:
        return read_document(path, 1024 * 1024).decode("utf-8", "replace")
    except (OSError, SourceRefused):
        return None


def home() -> Path:
    """`$GEMINI_CLI_HOME/.gemini` (the variable replaces the home directory), else
    `~/.gemini`; a `GEMINI_CLI_HOME` that itself holds `tmp/` is taken as that directory."""
    value = os.environ.get("GEMINI_CLI_HOME")
    given = os.path.join(value or "", ".gemini")
    if value and not os.path.isdir(given) and os.path.isdir(os.path.join(value, "tmp")):
        return Path(value)
    return env_home("GEMINI_CLI_HOME", "~/.gemini", ".gemini")()


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Gemini CLI",
    variable="GEMINI_CLI_HOME",
    home=home,
    find=find,
    document=read,
)
