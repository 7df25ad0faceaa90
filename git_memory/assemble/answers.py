"""The last answer of `git memory context`, `status` and `list`, kept so a session starts at once.

`<state home>/artifacts/context-answers/<worktree's CRC-32>-<form>.json` (private, written
atomically) holds the text a command printed (control characters escaped, as printed) and the
key it was made under (`repo/answer_key.py`), whole: the memory files' stat signatures,
configuration, HEAD and environment, compared value for value (no digest: hashing would load
OpenSSL on every session start, docs/performance.md). Beside the key: the paths the freshness
check looked at and the state databases the command read (`state_files`, for `status`) with
their signatures, and the content digest of every file changed just before the answer was
recorded. The console script's fast path (`cli/entry.py`) prints the text when all of them are
unchanged, before click, pydantic or pygit2 load; anything else, including a record it cannot
read, runs the command in full, which records the answer again. A printed answer for which git
had to be asked about the configuration keeps git's answer as a snapshot
(`repo/answer_key.py`), so the next one asks none.
"""

from __future__ import annotations

import json
import os
import time

from git_memory.paths import state_home_text, write_private_atomic
from git_memory.repo.answer_key import (
    WorktreeKey,
    content_digest,
    is_racy,
    load_json,
    path_signatures,
    short_name,
    worktree_key,
    write_config_snapshot,
)

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of a warm
# `context` answer's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

ANSWER_FORMAT = "git-memory-context-answer@3"
ANSWERS_DIR = ("artifacts", "context-answers")


# The state databases `status` counts from (sessions index, memory state), with their WAL.
STATUS_STATE_FILES = (
    "sessions.sqlite3",
    "sessions.sqlite3-wal",
    "memory-state.sqlite3",
    "memory-state.sqlite3-wal",
)


def answer_settings(name: str) -> tuple[object, ...]:
    """The settings an answer is recorded for: `name` is the command's form, e.g.
    `context-claude` (no query, no --budget), `status`, `list-stale`."""
    return ("answer", name)


def answer_path(state_home: str, root: str, name: str) -> str:
    """Where the answer `name` (a command's form: a plain file name) for worktree `root` is kept."""
    return os.path.join(state_home, *ANSWERS_DIR, f"{short_name(root)}-{name}.json")


def cached_answer(cwd: str, name: str) -> str | None:
    """The recorded text of answer `name` for the worktree containing `cwd`, when nothing it
    depends on changed; None otherwise (including any error: the full command decides)."""
    try:
        key = worktree_key(cwd, answer_settings(name))
        if key is None:
            return None
        home = state_home_text(key.home_setting)
        document = _load(answer_path(home, key.root, name))
        text = None if document is None else _still_valid(document, key, home)
    except Exception:
        return None
    if text is not None and key.config_snapshot is not None:
        # Git was asked for the configuration: keep its answer, so the next start asks none.
        _keep_config_snapshot(key)
    return text


def _keep_config_snapshot(key: WorktreeKey) -> None:
    try:
        write_config_snapshot(key, time.time_ns())
    except Exception:  # a cache only: the answer stands without it
        return


def _load(path: str) -> dict[str, Any] | None:
    document = load_json(path)
    return document if isinstance(document, dict) else None


def _still_valid(document: dict[str, Any], key: WorktreeKey, home: str) -> str | None:
    if document.get("format") != ANSWER_FORMAT or document.get("key") != key.facts:
        return None
    state: dict[str, Any] = document["stateFiles"]
    if path_signatures(home, sorted(state)) != state:
        return None
    memory_dir = os.path.join(key.root, key.memory_root)
    for relpath, digest in document["racyFiles"].items():
        if content_digest(os.path.join(memory_dir, relpath)) != digest:
            return None
    watched: dict[str, Any] = document["watched"]
    if path_signatures(key.root, sorted(watched)) != watched:
        return None
    for relpath, digest in document["racyWatched"].items():
        if content_digest(os.path.join(key.root, relpath)) != digest:
            return None
    text = document["text"]
    return text if isinstance(text, str) else None


def state_signatures(state_home: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """Signatures of the state files `names` (taken before a command reads them)."""
    return path_signatures(str(state_home), list(names))


def record_answer(
    state_home: Path,
    key: WorktreeKey,
    name: str,
    text: str,
    watched: list[str],
    *,
    state: dict[str, Any] | None = None,
) -> None:
    """Keep `text` as the answer `name` made under `key` (computed before the answer was
    made); `watched` are the worktree paths the freshness check looked at, `state` the
    signatures of the state files read (`state_signatures`, taken before)."""
    now = time.time_ns()
    memory_dir = os.path.join(key.root, key.memory_root)
    signatures = path_signatures(key.root, sorted(watched))
    document = {
        "format": ANSWER_FORMAT,
        "key": key.facts,
        "racyFiles": _racy(memory_dir, key.files, now),
        "watched": signatures,
        "racyWatched": _racy(key.root, signatures, now),
        "stateFiles": state or {},
        "text": text,
    }
    path = answer_path(str(state_home), key.root, name)
    # Start-up seam (docs/architecture.md): reading a recorded answer never needs pathlib.
    from pathlib import Path  # noqa: PLC0415

    write_private_atomic(Path(path), json.dumps(document).encode("utf-8"))
    write_config_snapshot(key, now)


def _racy(base: str, signatures: dict[str, Any], now: int) -> dict[str, str | None]:
    return {
        relpath: content_digest(os.path.join(base, relpath))
        for relpath, signature in signatures.items()
        if is_racy(signature, now)
    }
