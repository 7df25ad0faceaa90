"""Profiles from a worktree's git config (`memory.runner.*`) and the caller's flags."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.runners.profiles import CONFIG_KEYS, ResolvedProfile, RunnerOptions, resolve_profile

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def profile_for(worktree: Worktree, options: RunnerOptions) -> ResolvedProfile:
    """Resolve `options` with the worktree's `memory.runner.*` settings."""
    config = {key: worktree.config_value(key) for key in CONFIG_KEYS}
    return resolve_profile(options, config=config)
