"""An operation opens its workspace once and never a second one while the first is open.

Every opening goes through `store.session.open_workspace`, which opens the state DB with
`open_state`; counting those openings and closings around real commands shows how many
workspaces each command held at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from git_memory.store import session
from git_memory.store.db import StateDB
from tests.assemble.test_assemble_command import write_entry
from tests.repos import Repo


@dataclass
class Openings:
    """How many state DBs a command opened, and the most it held open at once."""

    opened: int = 0
    open_now: int = 0
    most_at_once: int = 0


@pytest.fixture
def openings(monkeypatch: pytest.MonkeyPatch) -> Openings:
    seen = Openings()
    real_open = session.open_state

    def counted(state_home: Path) -> StateDB:
        db = real_open(state_home)
        seen.opened += 1
        seen.open_now += 1
        seen.most_at_once = max(seen.most_at_once, seen.open_now)
        real_close = db.close

        def close() -> None:
            seen.open_now -= 1
            real_close()

        db.close = close  # type: ignore[method-assign]
        return db

    monkeypatch.setattr(session, "open_state", counted)
    return seen


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_entry(repo, "no-pip", "Never pip install into the system interpreter.")
    write_entry(repo, "db-first", "Start the `db` container before the integration tests.")
    # A first command creates the state every later one reads.
    assert gm(["search", "pip"], cwd=repo.root).exit_code == 0
    return repo


@pytest.mark.parametrize(
    "argv",
    [
        ["status", "--format", "json"],
        ["context", "pip"],
        ["assemble", "--provider", "claude", "--dry-run"],
        ["search", "container"],
        ["synthesize", "--format", "json"],
    ],
)
def test_a_command_opens_one_workspace(
    memory: Repo, gm: Any, openings: Openings, argv: list[str]
) -> None:
    result = gm(argv, cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    assert (openings.opened, openings.most_at_once, openings.open_now) == (1, 1, 0)
