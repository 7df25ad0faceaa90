"""assemble refuses a worktree without a memory root instead of writing an empty block."""

from __future__ import annotations

from typing import Any

from tests.repos import Repo


def test_assemble_without_memory_root(gm: Any, repo: Repo) -> None:
    result = gm(["assemble", "--provider", "claude"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_NO_MEMORY_ROOT]" in result.stderr
    assert not (repo.root / "CLAUDE.md").exists()
