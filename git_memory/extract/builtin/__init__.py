"""The `builtin` runner: a deterministic extractor that needs no model and sends nothing.

It reads the session index's turns (the common turn model, any agent) and proposes what a
team keeps: commands that work (`command-exit@1`), traps with their fix (`command-fix@1`) and
rules the user stated (`user-rule@1`). Typed facts come only from the fixed renderers in
`renderers`, whose text the host re-renders before granting `typed-fact`; rules keep the
user's words as an `unverified` statement.
"""

from __future__ import annotations

from git_memory.extract.builtin.renderers import (
    RENDERER_COMMAND_EXIT,
    RENDERER_COMMAND_FIX,
    RENDERER_USER_RULE,
    BuiltinFact,
    render_command_exit,
    render_command_fix,
    verify_typed_fact,
)
from git_memory.extract.builtin.shell import command_kind, command_of, normal_command

__all__ = [
    "RENDERER_COMMAND_EXIT",
    "RENDERER_COMMAND_FIX",
    "RENDERER_USER_RULE",
    "BuiltinFact",
    "command_kind",
    "command_of",
    "normal_command",
    "render_command_exit",
    "render_command_fix",
    "verify_typed_fact",
]
