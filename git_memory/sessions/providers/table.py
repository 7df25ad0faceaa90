"""The one table of transcript readers: every registered agent, by name."""

from __future__ import annotations

from git_memory.sessions.providers import (
    antigravity,
    claude_code,
    codex,
    copilot_cli,
    cursor,
    gemini_cli,
    opencode,
    qwen_code,
)
from git_memory.sessions.providers.base import LineReader, Provider

PROVIDERS: dict[str, Provider] = {
    provider.name: provider
    for provider in (
        claude_code.PROVIDER_INFO,
        codex.PROVIDER_INFO,
        gemini_cli.PROVIDER_INFO,
        qwen_code.PROVIDER_INFO,
        opencode.PROVIDER_INFO,
        copilot_cli.PROVIDER_INFO,
        cursor.PROVIDER_INFO,
        antigravity.PROVIDER_INFO,
    )
}


def providers() -> dict[str, Provider]:
    """Every registered provider by name, in registration order."""
    return PROVIDERS


def provider(name: str) -> Provider:
    """The provider called `name`."""
    return PROVIDERS[name]


def line_reader(name: str) -> LineReader:
    """The JSON-lines reader of a provider that has one."""
    reader = provider(name).lines
    if reader is None:
        raise KeyError(name)
    return reader
