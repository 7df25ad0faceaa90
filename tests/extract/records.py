"""Turn records as the session index gives them, built directly for the extractor's tests."""

from __future__ import annotations

from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall


def turn_record(
    key: str,
    *calls: ToolCall,
    user: str = "",
    session: str = "s" * 64,
    cwd: str | None = None,
) -> TurnRecord:
    """A sealed turn of `session` with the person's text `user` and these tool calls."""
    return TurnRecord(
        turn_key=key,
        session_key=session,
        provider="claude-code",
        ordinal=0,
        started="2026-01-01T00:00:00.000Z",
        ended=None,
        cwd=cwd,
        revision="r" * 64,
        closure="hard-sealed",
        user_text=user,
        assistant_text="",
        tool_calls=calls,
        skills=(),
        evidence=(),
    )
