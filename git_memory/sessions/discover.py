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
from dataclasses import dataclass
from pathlib import Path

CLAUDE = "claude-code"
CODEX = "codex"

_ROLLOUT_PREFIX = re.compile(r"^rollout-(?:\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-)?")


@dataclass(frozen=True)
class SourceFile:
    """One transcript file; `display` is its path below the source root (no home path)."""

    path: Path
    provider: str
    session_id: str
    display: str
    excluded: str | None = None

    @property
    def compressed(self) -> bool:
        """Whether the file is a zstd-compressed rollout."""
        return str(self.path).endswith(".zst")


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
        if provider == CLAUDE:
            found += _claude(root / "projects", root)
        else:
            found += _codex(root / "sessions", root) + _codex(root / "archived_sessions", root)
    for folder in extra:
        found += _imported(folder)
    return _prefer_plain(found)


def _walk(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    out: list[Path] = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        out += [Path(base) / name for name in sorted(files)]
    return out


def _claude(projects: Path, root: Path) -> list[SourceFile]:
    out = []
    for path in _walk(projects):
        if path.suffix != ".jsonl":
            continue
        rel = path.relative_to(projects)
        display = path.relative_to(root).as_posix()
        if len(rel.parts) == 2 and not path.name.startswith("agent-"):
            out.append(SourceFile(path, CLAUDE, path.stem, display))
        elif len(rel.parts) == 2 or "subagents" in rel.parts:
            out.append(SourceFile(path, CLAUDE, path.stem, display, excluded="subagent"))
    return out


def _codex(directory: Path, root: Path) -> list[SourceFile]:
    out = []
    for path in _walk(directory):
        name = path.name
        if name.startswith("rollout-") and (name.endswith(".jsonl") or name.endswith(".jsonl.zst")):
            stem = name.removesuffix(".zst").removesuffix(".jsonl")
            session_id = _ROLLOUT_PREFIX.sub("", stem) or stem
            out.append(SourceFile(path, CODEX, session_id, path.relative_to(root).as_posix()))
    return out


def _imported(folder: Path) -> list[SourceFile]:
    if (folder / "projects").is_dir() or (folder / "sessions").is_dir():
        return (
            _claude(folder / "projects", folder)
            + _codex(folder / "sessions", folder)
            + _codex(folder / "archived_sessions", folder)
        )
    out = _codex(folder, folder)
    for path in _walk(folder):
        if path.suffix == ".jsonl" and not path.name.startswith("rollout-"):
            rel = path.relative_to(folder)
            subagent = path.name.startswith("agent-") or "subagents" in rel.parts
            out.append(
                SourceFile(
                    path, CLAUDE, path.stem, rel.as_posix(), "subagent" if subagent else None
                )
            )
    return out


def _prefer_plain(found: list[SourceFile]) -> list[SourceFile]:
    """A rollout present both plain and compressed is read once, from the plain file."""
    plain = {str(f.path) for f in found if not f.compressed}
    return [f for f in found if not (f.compressed and str(f.path)[: -len(".zst")] in plain)]
