"""Fake runner copies, a store-backed ledger, and the `live`/`realcli` selection hook.

A `live` test talks to a real model. It runs only when `GIT_MEMORY_LIVE_RUNNER` names its
runner; otherwise it is deselected here (reported as deselected, never as a skip that could
hide a defect). When selected, missing binaries or credentials make it fail. A `realcli` test
runs when its CLI is on PATH.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.runners.ledger import StoreLedger
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions, resolve_profile
from git_memory.runners.sandbox import WRITABLE_SETTING
from git_memory.store.db import open_state
from tests.store.authorization_rows import list_authorizations

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "runners"
# Read at import: the hermetic fixture strips every GIT_* variable before a test body runs.
LIVE_SETTINGS = {
    key: value
    for key, value in os.environ.items()
    if key in ("GIT_MEMORY_LIVE_RUNNER", "GIT_MEMORY_RUNNER_MODEL", "GIT_MEMORY_RUNNER_ENDPOINT")
    or (key.startswith("GIT_MEMORY_") and key.endswith("_BIN"))
}


def _not_selected(item: pytest.Item) -> bool:
    live = item.get_closest_marker("live")
    if live is not None:
        return LIVE_SETTINGS.get("GIT_MEMORY_LIVE_RUNNER") not in live.args
    realcli = item.get_closest_marker("realcli")
    return realcli is not None and shutil.which(realcli.args[0]) is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect `live` tests not named by GIT_MEMORY_LIVE_RUNNER and `realcli` tests whose CLI
    is not on PATH (deselected, not skipped: nothing pretends to have run)."""
    dropped = [item for item in items if _not_selected(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not _not_selected(item)]


@pytest.fixture(autouse=True)
def _runner_may_enter(tmp_path: Path) -> None:
    """Run as root (CI), the sandbox runs a runner as an id that owns nothing here: a
    program a test writes below `tmp_path` (0700 by pytest) must be in a directory others
    may enter, as it must for a user's own runner (`docs/guide-runners.md`)."""
    tmp_path.chmod(0o755)


@pytest.fixture
def fake_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """`fake_runner("conformant")` → an executable copy of that fake runner in tmp.

    Its directory is the one host directory the runner may write in the OS sandbox (its
    spawn marker, heartbeat), named by `GIT_MEMORY_RUNNER_WRITABLE`, and writable by anyone."""
    directory = tmp_path / "fake-runners"
    monkeypatch.setenv(WRITABLE_SETTING, str(directory))

    def make(kind: str) -> Path:
        directory.mkdir(exist_ok=True)
        # Run as root, the sandbox runs the runner as an id that owns nothing here: the one
        # directory it may write must let anyone write (`docs/guide-runners.md`).
        directory.chmod(0o1777)
        shutil.copy(FIXTURES / "_fake.py", directory / "_fake.py")
        source = (FIXTURES / f"{kind.replace('-', '_')}.py").read_text()
        body = source.split("\n", 1)[1]
        target = directory / f"{kind.replace('-', '_')}.py"
        target.write_text(f"#!{sys.executable}\n{body}")
        target.chmod(0o755)
        return target

    return make


def spawn_count(script: Path) -> int:
    """How many times a fake runner was started."""
    marker = script.with_suffix(".spawned")
    return len(marker.read_text().splitlines()) if marker.exists() else 0


def set_mode(script: Path, *modes: str) -> None:
    """Switch a fake runner's behaviour (`<script>.mode`)."""
    script.with_suffix(".mode").write_text("\n".join(modes) + "\n")


def command_profile(script: Path, **env: str) -> ResolvedProfile:
    """The `command` profile running `script`, with optional limit overrides in `env`."""
    return resolve_profile(RunnerOptions("command", command=str(script)), environ=env)


class RecordingLedger(StoreLedger):
    """The real store-backed ledger, with the owner's authorization log at hand."""

    @property
    def approvals(self) -> list[tuple[str, str, str, dict[str, Any]]]:
        """(subject_kind, subject_digest, via, detail) per logged approval, oldest first."""
        return [
            (row.subject_kind, row.subject_digest, row.via, row.detail)
            for row in list_authorizations(self.db, self.owner)
        ]


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[RecordingLedger]:
    """A ledger over a real memory-state DB in a temporary state home."""
    db = open_state(tmp_path / "ledger-state")
    try:
        yield RecordingLedger(db, OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64))
    finally:
        db.close()
