"""A two-file promotion scenario shared by the crash, attack and expiry tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from git_memory.ops.base import run
from git_memory.promote.writer import ARTIFACT_PREFIX
from tests.promote.helpers import prepare_request, seed_candidate
from tests.repos import Repo

NEW_PATH = ".memory/entries/alpha-fact-about-the-build.md"
OLD_PATH = ".memory/entries/old-entry.md"
OLD_BYTES = serialize_entry(Entry(id="old-entry", body="The old text\n")).encode()


@dataclass
class Scenario:
    """A prepared plan creating NEW_PATH and updating OLD_PATH."""

    repo: Repo
    plan_id: str
    plan_digest: str
    planned: dict[str, bytes]
    old: dict[str, bytes | None]

    @property
    def root(self) -> Path:
        """The worktree root."""
        return self.repo.root

    def current(self) -> dict[str, bytes | None]:
        """What each target holds now."""
        return {
            path: (self.root / path).read_bytes() if (self.root / path).is_file() else None
            for path in self.planned
        }

    def artifacts(self) -> list[Path]:
        """Promotion artifacts left anywhere in the worktree."""
        return sorted(self.root.rglob(f"{ARTIFACT_PREFIX}*"))

    def promote_args(self) -> list[str]:
        """`promote --plan ID --approve DIGEST`."""
        return ["promote", "--plan", self.plan_id, "--approve", self.plan_digest]


def build(repo: Repo) -> Scenario:
    """Seed two candidates (one new entry, one update of an approved entry) and prepare."""
    repo.write(OLD_PATH, OLD_BYTES.decode())
    first = seed_candidate(repo.root, "cand-new", "Alpha fact about the build")
    second = seed_candidate(
        repo.root,
        "cand-upd",
        "The new text",
        action="update",
        targetEntryIds=["old-entry"],
    )
    plan = prepare(repo, prepare_request(first, second))
    planned = {item.target_path: b"" for item in plan.per_file}
    scenario = Scenario(repo, plan.plan_id, plan.plan_digest, planned, {})
    scenario.planned = _planned_bytes(repo.root, plan.plan_id)
    scenario.old = {NEW_PATH: None, OLD_PATH: OLD_BYTES}
    assert set(scenario.planned) == {NEW_PATH, OLD_PATH}
    return scenario


def prepare(repo: Repo, request: dict[str, Any]) -> Any:
    """Run the prepare operation in-process."""
    return run("prepare", request, repository=repo.root)


def _planned_bytes(root: Path, plan_id: str) -> dict[str, bytes]:
    from git_memory.repo.binding import discover_worktree
    from git_memory.store import journal
    from git_memory.store.db import open_state

    with open_state(discover_worktree(root).state_home) as db:
        record = journal.require_plan(db, plan_id)
    return {f.target_path: f.content for f in record.files}
