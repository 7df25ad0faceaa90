"""Pure promotion planning: target path rules, the assessment and plan digests, the diff.

No I/O: the caller reads the current bytes of each target (no-follow) and passes them in, so
the plan is a function of its inputs and can be rebuilt to check a stored one.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.contracts.promotion import MAX_PLAN_FILES, PlanFile, PlanOperation
from git_memory.errors import GitMemoryError
from git_memory.formats.controls import escape_controls

POLICY_VERSION = "sanitize@1"
MAX_FILES = MAX_PLAN_FILES
MAX_FILE_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 8 * 1024 * 1024
MAX_PATH_BYTES = 1024


@dataclass(frozen=True)
class PlannedFile:
    """One target of a plan: where, what is there now (blob OID or None), what goes there."""

    target_path: str
    target_blob_hash: str | None
    content: bytes
    old_content: bytes | None = None
    operation: PlanOperation = "write"  # "delete": the target is removed (content is b"")

    @property
    def content_digest(self) -> str | None:
        """sha256 of the exact planned bytes (None for a delete)."""
        return None if self.operation == "delete" else sha256_hex(self.content)

    def per_file(self) -> PlanFile:
        """The `perFile` item the plan digest binds."""
        return PlanFile(
            target_path=self.target_path,
            target_blob_hash=self.target_blob_hash,
            sanitized_content_digest=self.content_digest,
            operation=self.operation,
        )


def path_invalid(path: str, why: str) -> GitMemoryError:
    """`GM_PLAN_PATH_INVALID` for a target path a plan may not name."""
    return GitMemoryError(
        "GM_PLAN_PATH_INVALID",
        f"plan target {path!r} is not allowed: {why}",
        hint="plan targets are normalized relative paths inside the memory root",
    )


def check_target_path(path: str, memory_root: str) -> str:
    """Refuse anything but a normalized relative path strictly inside the memory root."""
    if not path or len(path.encode("utf-8")) > MAX_PATH_BYTES:
        raise path_invalid(path, "empty or longer than 1024 bytes")
    if path.startswith("/"):
        raise path_invalid(path, "absolute path")
    if any(ch in path for ch in "\\:") or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path):
        raise path_invalid(path, "backslash, colon or control character")
    segments = path.split("/")
    if any(segment in ("", ".", "..") for segment in segments):
        raise path_invalid(path, "empty, '.' or '..' segment")
    root = memory_root.split("/")
    if segments[: len(root)] != root or len(segments) <= len(root):
        raise path_invalid(path, f"outside the memory root {memory_root}/")
    return path


def check_sizes(files: Sequence[PlannedFile]) -> None:
    """The plan limits: 1..1024 files, ≤ 1 MiB each, ≤ 8 MiB in total."""
    if not 1 <= len(files) <= MAX_FILES:
        raise GitMemoryError("GM_PLAN_TOO_LARGE", f"a plan has 1..{MAX_FILES} files")
    if any(len(item.content) > MAX_FILE_BYTES for item in files):
        raise GitMemoryError("GM_PLAN_TOO_LARGE", "a planned file is larger than 1 MiB")
    if sum(len(item.content) for item in files) > MAX_TOTAL_BYTES:
        raise GitMemoryError("GM_PLAN_TOO_LARGE", "the planned files exceed 8 MiB in total")


def assessment_digest(assessments: Iterable[Mapping[str, Any]]) -> str:
    """Digest of the confirmed assessments a plan is built on (order-independent)."""
    rows = sorted(
        (dict(item) for item in assessments),
        key=lambda item: (str(item["candidateId"]), str(item["statementId"])),
    )
    return digest(rows)


def unified_diff(files: Sequence[PlannedFile]) -> str:
    """A git-style unified diff of every planned file against its current bytes."""
    chunks: list[str] = []
    for item in files:
        old = _text(item.old_content)
        deleted = item.operation == "delete"
        new = "" if deleted else _text(item.content)
        before = "/dev/null" if item.old_content is None else f"a/{item.target_path}"
        lines = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=before,
            tofile="/dev/null" if deleted else f"b/{item.target_path}",
        )
        body = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        chunks.append(f"diff --git a/{item.target_path} b/{item.target_path}\n{body}")
    return "".join(chunks)


def _text(data: bytes | None) -> str:
    """Decoded for a human: control characters escaped, so `\x1b[8m` cannot hide a line."""
    return "" if data is None else escape_controls(data.decode("utf-8", errors="replace"))
