"""`git memory lint` request and the `git-memory-lint@v1` document.

Kept apart from the other memory-file contracts: the pre-commit hook loads only these.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr

from git_memory.contracts.base import Model


class LintRequest(Model):
    """What to lint: PATHs (default: the whole memory root) or the staged blobs.

    `memoryFilesOnly` passes over PATHs outside the memory root (nothing to check there)
    instead of refusing them, for callers such as the pre-commit framework that pass every
    matching file of a commit."""

    format: Literal["git-memory-lint-request@v1"] = "git-memory-lint-request@v1"
    paths: list[str] = Field(default_factory=list)
    staged: bool = False
    memory_files_only: bool = False


class LintFinding(Model):
    """One finding; `excerpt` never shows a whole secret."""

    code: str
    severity: Literal["block", "warn"]
    line: int
    column: int
    excerpt: str
    message: str


class LintFile(Model):
    """The findings of one file (path relative to the worktree root)."""

    path: str
    findings: list[LintFinding]


class LintResponse(Model):
    """`git-memory-lint@v1`: files with findings, and whether anything blocks."""

    format: Literal["git-memory-lint@v1"] = "git-memory-lint@v1"
    files: list[LintFile]
    blocked: bool
    # How the CLI asked to render it (text or sarif); not part of the document.
    _rendering: str = PrivateAttr(default="text")
    _staged: bool = PrivateAttr(default=False)
