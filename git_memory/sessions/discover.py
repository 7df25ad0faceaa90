"""Find transcript files: Claude Code projects, Codex sessions and archives, imported folders.

Subagent transcripts are recognised on purpose in all three Claude layouts (inline sidechain
records are dropped by the reader; `agent-*.jsonl` siblings and `<session>/subagents/` files
are excluded here). Codex rollouts are found under `sessions/` and `archived_sessions/`,
plain or zstd-compressed, including resumed `_`-suffixed names.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

CLAUDE = "claude-code"
CODEX = "codex"

_ROLLOUT_PREFIX = re.compile(r"^rollout-(?:\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-)?")


class SourceFile(NamedTuple):
    """One transcript file; `display` is its path below the source root (no home path)."""

    path: str
    provider: str
    session_id: str
    display: str
    excluded: str | None = None

    @property
    def compressed(self) -> bool:
        """Whether the file is a zstd-compressed rollout."""
        return self.path.endswith(".zst")


def default_roots() -> list[tuple[str, Path]]:
    """(provider, directory) of the tools' own homes (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`)."""
    claude = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~/.claude")
    codex = os.environ.get("CODEX_HOME") or os.path.expanduser("~/.codex")
    return [(CLAUDE, Path(claude)), (CODEX, Path(codex))]


def discover(
    roots: list[tuple[str, Path]] | None = None, extra: Sequence[Path] = ()
) -> list[SourceFile]:
    """Every transcript under the provider homes and the imported `extra` folders."""
    found: list[SourceFile] = []
    for provider, root in roots if roots is not None else default_roots():
        base = str(root)
        if provider == CLAUDE:
            found += _claude(os.path.join(base, "projects"), base)
        else:
            found += _codex(os.path.join(base, "sessions"), base)
            found += _codex(os.path.join(base, "archived_sessions"), base)
    for folder in extra:
        found += _imported(str(folder))
    return _prefer_plain(found)


def _walk(directory: str) -> list[tuple[str, str, str]]:
    """(full path, name, directory below `directory`) of every file, in sorted order.

    Plain strings throughout: a no-op sync of a large history is mostly this walk."""
    if not os.path.isdir(directory):
        return []
    out: list[tuple[str, str, str]] = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        below = _below(base, directory)
        prefix = base if base.endswith("/") else base + "/"
        out += [(prefix + name, name, below) for name in sorted(files)]
    return out


def _below(path: str, root: str) -> str:
    """`path` relative to `root` (a prefix of it), as a posix string."""
    return path[len(root) :].lstrip("/")


def _claude(projects: str, root: str) -> list[SourceFile]:
    out = []
    for path, name, below in _walk(projects):
        if not name.endswith(".jsonl") or name == ".jsonl":
            continue
        parts = below.split("/") if below else []
        stem, display = name[: -len(".jsonl")], _below(path, root)
        if len(parts) == 1 and not name.startswith("agent-"):
            out.append(SourceFile(path, CLAUDE, stem, display))
        elif len(parts) == 1 or "subagents" in parts:
            out.append(SourceFile(path, CLAUDE, stem, display, excluded="subagent"))
    return out


def _codex(directory: str, root: str) -> list[SourceFile]:
    out = []
    for path, name, _ in _walk(directory):
        if name.startswith("rollout-") and (name.endswith(".jsonl") or name.endswith(".jsonl.zst")):
            stem = name.removesuffix(".zst").removesuffix(".jsonl")
            session_id = _ROLLOUT_PREFIX.sub("", stem) or stem
            out.append(SourceFile(path, CODEX, session_id, _below(path, root)))
    return out


def _imported(folder: str) -> list[SourceFile]:
    join = os.path.join
    if os.path.isdir(join(folder, "projects")) or os.path.isdir(join(folder, "sessions")):
        return (
            _claude(join(folder, "projects"), folder)
            + _codex(join(folder, "sessions"), folder)
            + _codex(join(folder, "archived_sessions"), folder)
        )
    out = _codex(folder, folder)
    for path, name, below in _walk(folder):
        if name.endswith(".jsonl") and name != ".jsonl" and not name.startswith("rollout-"):
            parts = below.split("/") if below else []
            subagent = name.startswith("agent-") or "subagents" in parts
            rel = f"{below}/{name}" if below else name
            stem = name[: -len(".jsonl")]
            out.append(SourceFile(path, CLAUDE, stem, rel, "subagent" if subagent else None))
    return out


def _prefer_plain(found: list[SourceFile]) -> list[SourceFile]:
    """A rollout present both plain and compressed is read once, from the plain file."""
    plain = {f.path for f in found if not f.path.endswith(".zst")}
    return [f for f in found if not (f.path.endswith(".zst") and f.path[: -len(".zst")] in plain)]
