"""Requests run through both front ends by the parity test, per MCP tool.

The MCP call runs first; the private state and the worktree files are then put back as they
were, and the CLI runs the same request, so both start from the same state. A case's `setup`
runs before that snapshot. Add cases as operations land.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.repos import Repo


@dataclass(frozen=True)
class Case:
    """One request: MCP arguments, and the CLI words when `--request FILE` cannot carry it."""

    tool: str
    arguments: dict[str, Any]
    label: str
    cli_args: tuple[str, ...] | None = None
    setup: Callable[[Any, Repo, dict[str, Path]], None] | None = field(default=None)


def _synced(gm: Any, repo: Repo, env: dict[str, Path]) -> None:
    # A first sync, so that the compared syncs both find nothing new.
    result = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr


def _initialized(gm: Any, repo: Repo, env: dict[str, Path]) -> None:
    result = gm(["init"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr


CASES: tuple[Case, ...] = (
    Case("memory_status", {}, "empty", cli_args=()),
    Case("memory_status", {}, "initialized", cli_args=(), setup=_initialized),
    Case("memory_sessions_sync", {}, "nothing-new", setup=_synced),
    Case("memory_sessions_sync", {"sources": ["/nonexistent/transcripts"]}, "missing-source"),
    Case("memory_sessions_list", {}, "empty"),
    Case("memory_sessions_list", {"all": True, "provider": "codex"}, "filtered"),
    Case("memory_sessions_list", {"since": "last tuesday"}, "bad-time"),
    Case("memory_assemble", {"provider": "claude", "dryRun": True}, "dry-run"),
    Case("memory_assemble", {"provider": "codex", "dryRun": True}, "dry-run-codex"),
    Case("memory_assemble", {"provider": "nobody"}, "bad-provider"),
    Case("memory_context", {}, "no-memory-root"),
    Case("memory_context", {"budget": 2000}, "initialized", setup=_initialized),
    Case("memory_context", {"query": "pytest", "budget": 5}, "budget-too-small"),
    Case("memory_search", {"query": "pytest"}, "no-memory"),
    Case("memory_search", {"query": ""}, "empty-query"),
    Case("memory_review", {}, "nothing-to-review"),
    Case("memory_review", {"kind": "skill"}, "by-kind"),
    Case(
        "memory_recall",
        {
            "request": {
                "window": {
                    "after": "2026-11-01T00:00:00.000Z",
                    "before": "2026-11-02T00:00:00.000Z",
                }
            }
        },
        "empty-window",
    ),
    Case(
        "memory_recall",
        {
            "request": {
                "window": {
                    "after": "2026-11-02T00:00:00.000Z",
                    "before": "2026-11-01T00:00:00.000Z",
                }
            }
        },
        "reversed-window",
    ),
    Case(
        "memory_stage_drafts",
        {"format": "git-memory-candidate-draft-batch@v1", "taskId": "no-such-task"},
        "incomplete-batch",
    ),
    Case("memory_synthesize", {"ifDue": True}, "not-due"),
    Case("memory_synthesize", {"ifDue": True, "full": True}, "both-flags"),
    Case("memory_consolidate_preview", {"runner": "nobody"}, "unknown-runner"),
    Case(
        "memory_prepare",
        {
            "format": "git-memory-prepare-request@v1",
            "kind": "entry",
            "candidates": [
                {
                    "candidateId": "no-such-candidate",
                    "expectedRevision": 1,
                    "statements": [
                        {
                            "statementId": "s1",
                            "statementTextDigest": "0" * 64,
                            "citationsDigest": "0" * 64,
                        }
                    ],
                }
            ],
        },
        "unknown-candidate",
    ),
    Case("memory_promote", {"plan": "no-such-plan", "approve": "0" * 64}, "unknown-plan"),
    Case("memory_verify", {}, "no-memory"),
    Case("memory_verify", {"ids": ["no-such-entry"]}, "unknown-id"),
    Case("memory_retire", {"ids": ["no-such-entry"], "reason": "gone"}, "unknown-entry"),
)
