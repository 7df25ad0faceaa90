"""Antigravity conversations (the `agy` CLI, the Antigravity IDE and app), read like the others.

Each conversation keeps a log of its steps under
`<home>/<product>/brain/<conversation id>/.system_generated/logs/`, `<product>` being
`antigravity-cli` (the CLI), `antigravity` or `antigravity-ide` (the IDE and app), `<home>`
`~/.gemini`. The log exists in two variants and two layouts, read in this order of preference:
`transcript_full.jsonl`, its byte chunks `chunks/transcript_full/00000000.jsonl, …` (later
builds; a chunk may end inside a record, so chunks are joined before they are read), then
`transcript.jsonl` and `chunks/transcript/…`, whose tool arguments are JSON-encoded a second
time and whose long fields are cut in the middle (`<truncated N bytes>`, `truncated_fields`).

One record per line: `{step_index, source, type, status, created_at, content, thinking,
tool_calls, error}` (`antigravity_steps.py` turns them into events). Records are put in
`step_index` order (a later copy of a step replaces an earlier one); a torn line is skipped
with a diagnostic. Nothing records the workspace: the conversation's folder is found by
`antigravity_place.py` and stands for every event, and how it was found is kept for
`sessions show`. A conversation is read whole (its folder, and a background command's result
that arrives steps later, depend on all of it) whenever its log changes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from git_memory.sessions.providers.antigravity_place import (
    Place,
    history_workspace,
    voted_place,
    within,
)
from git_memory.sessions.providers.antigravity_steps import Steps
from git_memory.sessions.providers.base import Document, Provider, SourceFile, env_home, under
from git_memory.sessions.providers.common import (
    MAX_DOCUMENT_BYTES,
    decoded_lines,
    mapping,
    read_document,
    tree_identity,
)
from git_memory.sessions.records import Diagnostic

PROVIDER = "antigravity"
# `<home>/<product>/brain/`: the CLI's, the app's and the IDE's (Antigravity 2.0 names its
# own folder `antigravity`; the IDE extension `antigravity-ide`).
PRODUCTS = ("antigravity-cli", "antigravity", "antigravity-ide")
LOGS = os.path.join(".system_generated", "logs")
# The log variants, best first: (file, chunk folder, arguments JSON-encoded twice).
VARIANTS = (
    ("transcript_full.jsonl", os.path.join("chunks", "transcript_full"), False),
    ("transcript.jsonl", os.path.join("chunks", "transcript"), True),
)


def find(home: str) -> list[SourceFile]:
    """One source per conversation of each product: its best log (a file, or a folder of
    chunks whose identity covers every chunk)."""
    out: list[SourceFile] = []
    for product in PRODUCTS:
        brain = os.path.join(home, product, "brain")
        try:
            conversations = sorted(os.listdir(brain))
        except OSError:
            continue
        for conversation in conversations:
            source = _log(home, os.path.join(brain, conversation, LOGS), conversation)
            if source is not None:
                out.append(source)
    return out


def _log(home: str, logs: str, conversation: str) -> SourceFile | None:
    for file, chunks, _ in VARIANTS:
        path = os.path.join(logs, file)
        if os.path.lexists(path):
            return SourceFile(path, PROVIDER, conversation, under(path, home))
        folder = os.path.join(logs, chunks)
        parts = _chunks(folder)
        if parts:
            identity = tree_identity(folder, parts)
            display = under(folder, home)
            return SourceFile(folder, PROVIDER, conversation, display, identity=identity)
    return None


def _chunks(folder: str) -> list[str]:
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".jsonl"))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names]


def read(source: SourceFile) -> Document:
    """The events of one conversation, at the folder it was attributed to."""
    diagnostics: list[Diagnostic] = []
    steps = Steps(_encoded_twice(source.path))
    for step, record in _ordered(_log_bytes(source.path), diagnostics):
        steps.read(step, record)
    logs = _logs_folder(source.path)
    conversation = os.path.basename(os.path.dirname(os.path.dirname(logs)))
    place = _place(os.path.dirname(os.path.dirname(os.path.dirname(logs))), conversation, steps)
    return Document(steps.events(place.cwd), diagnostics, attribution=place.how)


def _encoded_twice(path: str) -> bool:
    """Whether the log is of the `transcript.jsonl` variant."""
    return any(
        os.path.basename(path) == file or path.endswith(chunks)
        for file, chunks, encoded in VARIANTS
        if encoded
    )


def _log_bytes(path: str) -> bytes:
    """The log file, or its chunks joined in order (at most `MAX_DOCUMENT_BYTES` in all)."""
    if not os.path.isdir(path) or os.path.islink(path):
        return read_document(path)
    data, left = [], MAX_DOCUMENT_BYTES
    for part in _chunks(path):
        data.append(read_document(part, left))
        left -= len(data[-1])
    return b"".join(data)


def _ordered(data: bytes, diagnostics: list[Diagnostic]) -> list[tuple[int, dict[str, Any]]]:
    """(step index, record) in step order, the last copy of a step winning; records without
    a step index are skipped (one diagnostic, at the first of them)."""
    steps: dict[int, dict[str, Any]] = {}
    stray: list[int] = []
    for at, value in decoded_lines(data, diagnostics):
        record = mapping(value)
        index = record.get("step_index")
        if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
            steps[index] = record
        else:
            stray.append(at)
    if stray:
        message = f"{len(stray)} record(s) without a step index"
        diagnostics.append(Diagnostic("unknown-record-type", stray[0], message))
    return sorted(steps.items())


def _logs_folder(path: str) -> str:
    """The `.system_generated/logs` folder of a log file or chunk folder."""
    head = path
    while head and not head.endswith(LOGS):
        parent = os.path.dirname(head)
        if parent == head:
            return os.path.dirname(path)
        head = parent
    return head


def _place(brain: str, conversation: str, steps: Steps) -> Place:
    voted = voted_place(steps.clues)
    workspace = history_workspace(brain, conversation, steps.prompts)
    return voted if workspace is None else within(workspace, voted)


def home() -> Path:
    """`$ANTIGRAVITY_HOME` (it replaces `~/.gemini`, the folder holding Antigravity's
    product folders), else `~/.gemini`."""
    return env_home("ANTIGRAVITY_HOME", "~/.gemini")()


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Antigravity",
    variable="ANTIGRAVITY_HOME",
    home=home,
    find=find,
    document=read,
)
