"""Contracts of the session index commands (`git memory sessions …`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from git_memory.contracts.base import Hex64, Model, Timestamp

Provider = Literal[
    "claude-code",
    "codex",
    "gemini-cli",
    "qwen-code",
    "opencode",
    "copilot-cli",
    "cursor",
    "antigravity",
]
Closure = Literal["hard-sealed", "quiescent", "open"]


class SessionsSyncRequest(Model):
    """Extra folders to import besides the agents' own history directories."""

    format: Literal["git-memory-sessions-sync-request@v1"] = "git-memory-sessions-sync-request@v1"
    sources: list[str] = Field(default_factory=list)


class DiagnosticExample(Model):
    """One diagnostic: the file below its source root, the byte offset, what was wrong."""

    file: str
    offset: int
    code: str
    message: str


class SyncSummary(Model):
    """Counts of one sync (or rebuild) and the first diagnostics."""

    format: Literal["git-memory-sessions-sync@v1"] = "git-memory-sessions-sync@v1"
    files_seen: int
    new: int
    resumed: int
    reread: int
    unchanged: int
    removed: int
    excluded: int
    turns_added: int
    diagnostics: int
    examples: list[DiagnosticExample]
    rebuilt: bool = False


class SessionsListRequest(Model):
    """Which sessions to list: this worktree's (default) or every indexed one."""

    format: Literal["git-memory-sessions-list-request@v1"] = "git-memory-sessions-list-request@v1"
    all: bool = False
    since: Timestamp | None = None
    until: Timestamp | None = None
    provider: Provider | None = None


class SessionSummary(Model):
    """One session: no session id and no path (privacy); the opening line of its first
    prompt (at most 200 characters) so people recognise it."""

    session_key: Hex64
    provider: Provider
    started: Timestamp | None
    ended: Timestamp | None
    turns: int
    sealed_turns: int
    first_prompt: str | None = None


class SessionsList(Model):
    """`git memory sessions list`."""

    format: Literal["git-memory-sessions@v1"] = "git-memory-sessions@v1"
    sessions: list[SessionSummary]


class SessionsShowRequest(Model):
    """A sessionKey or turnKey."""

    format: Literal["git-memory-sessions-show-request@v1"] = "git-memory-sessions-show-request@v1"
    key: Hex64


class ShownToolCall(Model):
    """A tool call with its paired result."""

    name: str
    call_id: str | None
    result_state: Literal["completed", "failed", "unknown"]
    input: Any = None
    output: str | None = None


class ShownEdge(Model):
    """An evidence edge of a turn."""

    kind: Literal["path", "commit", "turn"]
    value: str
    strength: Literal["observed", "direct"]


class ShownTurn(Model):
    """A normalized turn, for people debugging the index."""

    turn_key: Hex64
    ordinal: int
    started: Timestamp | None
    ended: Timestamp | None
    closure: Closure
    revision: Hex64
    user_text: str
    assistant_text: str
    tool_calls: list[ShownToolCall]
    skills: list[str]
    evidence: list[ShownEdge]


class SessionShow(Model):
    """`git memory sessions show KEY`."""

    format: Literal["git-memory-session-show@v1"] = "git-memory-session-show@v1"
    session_key: Hex64
    provider: Provider
    # How the session's folder was found when its transcript records none (Antigravity:
    # `history.jsonl`, or the majority of the places it worked in); null otherwise.
    attribution: str | None = None
    turns: list[ShownTurn]
