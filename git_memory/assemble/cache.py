"""The last rendering of a block, kept privately so an unchanged run skips rendering.

`<state home>/artifacts/context-blocks/<name>-<worktreeKey>.json` holds the inputs key the
rendering was made from (see `MemorySnapshot.inputs_key`) and the rendering itself. A record
of another key, an unreadable one or one of an unknown shape is simply not used: the block is
rendered again, which is always correct.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from git_memory.assemble.render import Rendered
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import ARTIFACTS_DIR, read_private, write_private_atomic

CACHE_FORMAT = "git-memory-context-cache@v1"


def cache_path(state_home: Path, name: str, worktree_key: str) -> Path:
    """Where the rendering `name` (e.g. `claude`) of one worktree is kept."""
    return state_home / ARTIFACTS_DIR / "context-blocks" / f"{name}-{worktree_key}.json"


def _ids(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of ids")
    return value


def _pair(value: Any) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise ValueError("not a pair of counts")
    return value[0], value[1]


def _rendered(document: Any) -> Rendered:
    text = document["text"]
    if not isinstance(text, str) or sha256_hex(text.encode("utf-8")) != document["textDigest"]:
        raise ValueError("text does not match its digest")
    doctrine = document["doctrine"]
    if doctrine is not None and not isinstance(doctrine, bool):
        raise ValueError("doctrine")
    return Rendered(
        text=text,
        shown=_ids(document["shown"]),
        via_scenes=_ids(document["viaScenes"]),
        left_out=_ids(document["leftOut"]),
        held_back=_ids(document["heldBack"]),
        scenes=_pair(document["scenes"]),
        skills=_pair(document["skills"]),
        doctrine=doctrine,
        known=_ids(document.get("known", [])),
    )


def load_cached(path: Path, key: str) -> Rendered | None:
    """The rendering recorded for `key`, or None."""
    try:
        document = bounded_json.loads(read_private(path))
        if document.get("format") != CACHE_FORMAT or document.get("key") != key:
            return None
        return _rendered(document)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, GitMemoryError):
        return None


def save_cached(path: Path, key: str, rendered: Rendered) -> None:
    """Record `rendered` as the rendering of `key` (private, atomic)."""
    document = {
        "format": CACHE_FORMAT,
        "key": key,
        "textDigest": sha256_hex(rendered.text.encode("utf-8")),
        "text": rendered.text,
        "shown": rendered.shown,
        "viaScenes": rendered.via_scenes,
        "leftOut": rendered.left_out,
        "heldBack": rendered.held_back,
        "scenes": list(rendered.scenes),
        "skills": list(rendered.skills),
        "doctrine": rendered.doctrine,
        "known": rendered.known,
    }
    write_private_atomic(path, json.dumps(document).encode("utf-8"))
