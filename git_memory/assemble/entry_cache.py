"""Approved entries as the block needs them, kept privately by content digest.

Deriving an entry from its projection row (its one line, group and scope: the scope reads
every command the entry names) is the larger part of rendering ten thousand entries. Each
entry depends on its file's content only, so `<state home>/artifacts/context-blocks/
entries-<worktreeKey>.json` keeps every derived entry under its file's content digest, for
the version that derived it: after one entry changed, only that one is derived again
(docs/performance.md). A record of another version, an unreadable one or an item of an
unknown shape is not used: the entry is derived again, which is always correct.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import git_memory
from git_memory.assemble.entries import ApprovedEntry, entry_from_row
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import read_private, write_private_atomic

ENTRY_CACHE_FORMAT = "git-memory-approved-entries@1"
# A larger record is taken as corrupt: every entry is derived again.
MAX_BYTES = 256 * 1024 * 1024
# The shape of a kept entry: ApprovedEntry's fields in order.
_SHAPE: tuple[type | tuple[type, ...], ...] = (
    str,
    str,
    (str, type(None)),
    int,
    str,
    str,
    bool,
    str,
    str,
    (str, type(None)),
)


def approved_entries(rows: Iterable[Any], path: Path | None, *, save: bool) -> list[ApprovedEntry]:
    """The entries of projection `rows` (`list_approved_entries`), each taken from the record
    at `path` when kept there under its content digest, else derived (and, with `save`, the
    record rewritten to hold exactly these rows' entries)."""
    kept = _load(path)
    entries: list[ApprovedEntry] = []
    current: dict[str, list[Any]] = {}
    derived = 0
    for row in rows:
        content = row["content_digest"]
        entry = _entry(kept.get(content))
        if entry is None:
            entry = entry_from_row(row)
            derived += 1
        entries.append(entry)
        current[content] = _fields(entry)
    if save and path is not None and (derived or len(current) != len(kept)):
        document: dict[str, Any] = {
            "format": ENTRY_CACHE_FORMAT,
            "version": git_memory.__version__,
            "entries": current,
        }
        write_private_atomic(path, json.dumps(document, separators=(",", ":")).encode("utf-8"))
    return entries


def _load(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        document = bounded_json.loads(read_private(path), max_bytes=MAX_BYTES)
    except (OSError, ValueError, GitMemoryError):
        return {}  # absent, unreadable or corrupt: every entry is derived again
    if not isinstance(document, dict) or document.get("format") != ENTRY_CACHE_FORMAT:
        return {}
    entries = document.get("entries")
    if document.get("version") != git_memory.__version__ or not isinstance(entries, dict):
        return {}
    return entries


def _fields(entry: ApprovedEntry) -> list[Any]:
    return [
        entry.id, entry.type, entry.scene, entry.priority, entry.claim_support, entry.occurred,
        entry.superseded, entry.text, entry.group, entry.scope,
    ]  # fmt: skip


def _entry(fields: Any) -> ApprovedEntry | None:
    if not isinstance(fields, list) or len(fields) != len(_SHAPE):
        return None
    if not all(isinstance(value, kind) for value, kind in zip(fields, _SHAPE, strict=True)):
        return None
    return ApprovedEntry(*fields)
