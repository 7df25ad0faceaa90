"""Requests and responses of fmt, reindex, merge-index and hooks."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Model


class FmtRequest(Model):
    """Files to canonicalize (default: every memory file) and whether to only check."""

    format: Literal["git-memory-fmt-request@v1"] = "git-memory-fmt-request@v1"
    paths: list[str] = Field(default_factory=list)
    check: bool = False


class FmtProblem(Model):
    """A file fmt could not canonicalize because it does not parse."""

    path: str
    code: str
    message: str
    line: int | None = None


class FmtResponse(Model):
    """Files that were (or, with check, would be) rewritten, and files that do not parse."""

    format: Literal["git-memory-fmt@v1"] = "git-memory-fmt@v1"
    check: bool
    changed: list[str]
    invalid: list[FmtProblem]


class ReindexRequest(Model):
    """Regenerate index.json, or only report whether it is current."""

    format: Literal["git-memory-reindex-request@v1"] = "git-memory-reindex-request@v1"
    check: bool = False


class ReindexResponse(Model):
    """Whether index.json changed (or would change) and which files were skipped."""

    format: Literal["git-memory-reindex@v1"] = "git-memory-reindex@v1"
    path: str
    check: bool
    changed: bool
    skipped: list[str]


class MergeIndexRequest(Model):
    """The merge driver's arguments: ancestor, ours (result written here), theirs, path."""

    format: Literal["git-memory-merge-index-request@v1"] = "git-memory-merge-index-request@v1"
    ancestor: str
    current: str
    other: str
    pathname: str = "index.json"


class MergeIndexResponse(Model):
    """Whether the index merged cleanly and how many items it holds."""

    format: Literal["git-memory-merge-index@v1"] = "git-memory-merge-index@v1"
    merged: bool
    entries: int
    scenes: int
    skills: int
    conflicts: list[str]
    # True when the index was rebuilt from the merged tree's memory files (`git merge`, or a
    # cherry-pick, revert or rebase whose commit the driver identified).
    rebuilt: bool = False


class HooksRequest(Model):
    """Options of hooks install/uninstall/status."""

    format: Literal["git-memory-hooks-request@v1"] = "git-memory-hooks-request@v1"
    force: bool = False


class HookState(Model):
    """One hook: our shim (current or outdated), a foreign hook, or absent."""

    name: str
    state: Literal["installed", "outdated", "foreign", "absent"]
    legacy: bool
    action: str = ""


class HooksResponse(Model):
    """The hooks directory git uses, each hook's state, and the merge driver registration."""

    format: Literal["git-memory-hooks@v1"] = "git-memory-hooks@v1"
    hooks_dir: str
    hooks: list[HookState]
    merge_driver: bool
    notes: list[str] = Field(default_factory=list)
