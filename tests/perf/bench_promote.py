"""Benchmark of promotion apply against a raw temp-write + fsync + os.replace loop.

Builds a throw-away repository with N quarantined candidates and stored plans of new entry
files, then measures in one process:
- `apply_s`: approving and applying the plans as `git memory promote` does (lock, precheck
  with no-follow blob reads, journal intent per file, no-follow CAS write + fsync + dir fsync,
  verify, finalize transaction, index.json regeneration, approved projection re-sync);
- `raw_s`: the same bytes written by a plain loop (temp file, fsync, `os.replace`).
One plan holds all N files (PromotionPlan@v1 allows up to 1024).
Prints one JSON line; `--quick` uses 40 files (run by the test suite).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a file, only this directory is on the module path: the checkout holds `tests.repos`.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

PLAN_FILES = 1024


def _entry_bytes(number: int) -> bytes:
    from git_memory.formats.entry import Entry, serialize_entry

    body = f"Fact number {number}: run the build with make before pushing branch {number}.\n"
    entry = Entry(id=f"bench-fact-{number:05d}", claim_support="typed-fact", body=body)
    return serialize_entry(entry).encode()


def _seed(root: Path, files: int) -> tuple[Any, list[str]]:
    """Quarantined candidates (one typed-fact statement each) and their stored plans."""
    from git_memory.contracts.promotion import PromotionPlan
    from git_memory.promote.plan import PlannedFile, assessment_digest
    from git_memory.promote.prepare import assessment_rows_for
    from git_memory.repo.binding import discover_worktree
    from git_memory.store import candidates as store
    from git_memory.store import journal
    from git_memory.store.session import open_workspace

    worktree = discover_worktree(root)
    plan_ids: list[str] = []
    with open_workspace(worktree, sync=False) as workspace, workspace.db.write():
        binding, owner, db = workspace.binding, workspace.owner, workspace.db
        for number in range(files):
            cid = f"bench-{number:05d}"
            store.insert_candidate(
                db,
                candidate_id=cid,
                owner=owner,
                kind="entry",
                payload={"content": cid},
                content=cid,
                status="quarantined",
            )
            store.set_assessment(
                db,
                cid,
                store.Assessment(
                    "s1", "0" * 64, "direct", [], "typed-fact", "deterministic", "0" * 64, 1
                ),
            )
        for start in range(0, files, PLAN_FILES):
            numbers = range(start, min(start + PLAN_FILES, files))
            cids = [f"bench-{n:05d}" for n in numbers]
            planned = [
                PlannedFile(f".memory/entries/bench-fact-{n:05d}.md", None, _entry_bytes(n))
                for n in numbers
            ]
            plan = PromotionPlan(
                plan_id=f"plan-bench-{start:05d}",
                owner=binding,
                candidate_ids=cids,
                assessment_digest=assessment_digest(assessment_rows_for(db, cids)),
                per_file=[p.per_file() for p in planned],
                diff="",
            )
            contents = {p.target_path: p.content for p in planned}
            journal.create_plan(db, plan=plan, owner=owner, contents=contents)
            plan_ids.append(plan.plan_id)
    return worktree, plan_ids


def _apply_all(worktree: Any, plan_ids: list[str]) -> None:
    from git_memory.ops.promotion_kinds import PROMOTION_KINDS
    from git_memory.promote import approval
    from git_memory.promote.apply import apply_plan, promotion_lock
    from git_memory.store.session import open_workspace

    with open_workspace(worktree, sync=False) as workspace:
        db, owner = workspace.db, workspace.owner
        for plan_id in plan_ids:
            with promotion_lock(worktree.state_home) as acquired:
                assert acquired
                approval.approve(db, owner, plan_id, approval.Approval("digest"))
                apply_plan(workspace, plan_id, PROMOTION_KINDS)


def _raw_loop(directory: Path, files: int) -> None:
    directory.mkdir(parents=True)
    for number in range(files):
        target = directory / f"bench-fact-{number:05d}.md"
        temp = directory / f".bench-fact-{number:05d}.md.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, _entry_bytes(number))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)


def measure(files: int) -> dict[str, Any]:
    """Run both measurements in one process; returns the figures."""
    from tests.repos import make_repo

    with tempfile.TemporaryDirectory() as temp:
        os.environ["GIT_MEMORY_HOME"] = str(Path(temp) / "state")
        root = Path(temp) / "repo"
        make_repo(root)
        worktree, plan_ids = _seed(root, files)
        started = time.perf_counter()
        _raw_loop(Path(temp) / "raw", files)
        raw_s = time.perf_counter() - started
        started = time.perf_counter()
        _apply_all(worktree, plan_ids)
        apply_s = time.perf_counter() - started
        written = sorted((root / ".memory/entries").glob("*.md"))
        if len(written) != files or written[0].read_bytes() != _entry_bytes(0):
            raise SystemExit("apply did not write every planned file")
    return {
        "bench": "promote",
        "files": files,
        "plans": len(plan_ids),
        "apply_s": round(apply_s, 3),
        "raw_s": round(raw_s, 3),
        "ratio_to_raw_writes": round(apply_s / max(raw_s, 1e-6), 2),
        "goal_ratio": 5,
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: prints one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="40 files (used by the tests)")
    args = parser.parse_args(argv)
    sys.stdout.write(json.dumps(measure(40 if args.quick else 1000)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
