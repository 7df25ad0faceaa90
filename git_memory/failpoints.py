"""Crash points for tests: `GIT_MEMORY_FAILPOINT=<name>` kills the process at that point.

The process exits at once with status 86 (`os._exit`: no cleanup, no atexit, no flush), as a
power cut or `kill -9` would. Every name used in the code is listed in `FAILPOINTS` with where
it sits, so tests can iterate them and a typo is caught. `<name>:raise` raises
`FailpointError` instead, which stands for an unexpected bug (exit 3 with a crash log).
`<name>:eperm`, `:enospc`, `:erofs` and `:eio` raise the `OSError` the file system would (a
permission change, a full disk, a read-only mount) at that point.
"""

from __future__ import annotations

import errno
import os

FAILPOINT_EXIT_STATUS = 86
OS_ERRORS = {
    "eperm": errno.EPERM,
    "enospc": errno.ENOSPC,
    "erofs": errno.EROFS,
    "eio": errno.EIO,
}

# name -> where it fires. Subsystems add their names here.
FAILPOINTS: dict[str, str] = {
    "status.start": "ops/status.py: before anything is read (used with :raise)",
    "lint.staged.start": "cli/lint_staged.py: the hook's lint, before git is asked (:raise)",
    # --- extraction (issue 6) ---
    "extract.plan.before-commit": "extract/recall_flow.py: chunk + task planned, before COMMIT",
    "extract.plan.after-commit": "extract/recall_flow.py: chunk + task planned, after COMMIT",
    # --- promotion (issue 7): promote/apply.py ---
    "promote.after-intent": "a file's journal intent committed, its bytes not yet touched",
    "promote.before-write": "every attempt (resumes too) to write one file's planned bytes",
    "promote.after-write": "a file's bytes installed and verified, not yet marked applied",
    "promote.during-rollback": "a file rolled back on disk, not yet marked rolled_back",
    "promote.write.staged": "writer.py: new bytes staged beside the target, the target as it was",
    "promote.write.swapped": "writer.py: the target holds the new bytes, artifacts not yet dropped",
    "promote.write.held": "writer.py: a target to remove moved aside, not yet checked or dropped",
    "promote.before-finalize": "every file applied, the finalize transaction not yet begun",
    "promote.after-finalize": "finalize committed; index.json and projection not yet redone",
    # --- assemble (issue 9) ---
    "assemble.before-manifest": "assemble/run.py: block and projections written, manifest not yet",
    # --- session index (issue 4) ---
    "sessions.sync.file-written": "a file's rows written, its savepoint not yet released",
    "sessions.sync.after-file": "after a file is indexed, its batch not yet committed",
    "sessions.sync.before-commit": "sessions/sync.py: a batch of files, before COMMIT",
    "sessions.sync.after-commit": "sessions/sync.py: a batch of files, after COMMIT",
    # --- memory state (issue 5): store/db.py write(boundary=B) fires B.before-commit and
    # B.after-commit around the COMMIT of each writer transaction ---
    "store.migrate.before-commit": "migrations.py: one migration, before COMMIT",
    "store.migrate.after-commit": "migrations.py: one migration, after COMMIT",
    "store.claim.before-commit": "tasks.py claim_task, before COMMIT",
    "store.claim.after-commit": "tasks.py claim_task, after COMMIT",
    "store.abandon.before-commit": "tasks.py abandon_task, before COMMIT",
    "store.abandon.after-commit": "tasks.py abandon_task, after COMMIT",
    "store.mark-stale.before-commit": "tasks.py mark_stale, before COMMIT",
    "store.mark-stale.after-commit": "tasks.py mark_stale, after COMMIT",
    "store.submit.before-commit": "tasks.py submit_task, before COMMIT",
    "store.submit.after-commit": "tasks.py submit_task, after COMMIT",
    "store.sync-approved.before-commit": "approved.py rows replaced, before COMMIT",
    "store.sync-approved.after-commit": "approved.py rows replaced, after COMMIT",
    "store.sync-approved-partial.before-commit": "approved.py drift: partial, before COMMIT",
    "store.sync-approved-partial.after-commit": "approved.py drift: partial, after COMMIT",
    "store.sync-approved-verified.before-commit": "approved.py racy re-hash, before COMMIT",
    "store.sync-approved-verified.after-commit": "approved.py racy re-hash, after COMMIT",
    "store.journal.before-commit": "journal.py: plan/journal/file rows, before COMMIT",
    "store.journal.after-commit": "journal.py: plan/journal/file rows, after COMMIT",
    "store.consolidation.before-commit": "consolidation_runs.py: a run row, before COMMIT",
    "store.consolidation.after-commit": "consolidation_runs.py: a run row, after COMMIT",
    "store.authorization.before-commit": "authorization.py record_authorization, before COMMIT",
    "store.authorization.after-commit": "authorization.py record_authorization, after COMMIT",
    "store.delivery.before-commit": "authorization.py begin/finish_delivery, before COMMIT",
    "store.delivery.after-commit": "authorization.py begin/finish_delivery, after COMMIT",
    "store.submit.after-apply": "store/tasks.py: apply() wrote its rows, no submission yet",
    "store.sync-approved.after-delete": "store/approved.py: old rows deleted, new not inserted",
    # --- runners (issue 8) ---
    "runner-delivery-begun": "runners/deliver.py: write-ahead record committed, nothing sent yet",
    "runner-delivery-returned": "runners/deliver.py: the runner answered, record not closed",
    # --- worktree writes ---
    "safefs.before-rename": "safefs.py: a temp file written and fsynced, not yet renamed",
}


def failpoint(name: str) -> None:
    """Die here when `GIT_MEMORY_FAILPOINT` names this point (comma-separated list allowed)."""
    wanted = os.environ.get("GIT_MEMORY_FAILPOINT")
    if not wanted:
        return
    if name not in FAILPOINTS:
        raise KeyError(f"undeclared failpoint {name!r}")
    selected = wanted.split(",")
    if f"{name}:raise" in selected:
        raise FailpointError(f"failpoint {name} fired")
    for suffix, number in OS_ERRORS.items():
        if f"{name}:{suffix}" in selected:
            raise OSError(number, os.strerror(number), f"failpoint {name}")
    if name in selected:
        os._exit(FAILPOINT_EXIT_STATUS)


class FailpointError(RuntimeError):
    """Raised by a `<name>:raise` failpoint: a stand-in for an unexpected internal error."""
