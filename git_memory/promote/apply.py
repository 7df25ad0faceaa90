"""Apply an approved PromotionPlan: lock, precheck, journaled CAS writes, rollback, finalize.

State machine (docs/guide-review-promote.md): plan `generated → approved → applying → applied |
voided`; `mutation_phase precheck → mutating → rolling_back → done`; per file `pending → intent →
applied | rolled_back`. Every file's intent is committed before its bytes are touched, and a
killed process leaves a journal from which `resume` (the next `promote`) converges:
each file ends with its old or its planned bytes, and the candidates are promoted exactly once.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from git_memory.contracts.canonical import sha256_hex
from git_memory.contracts.extraction import OwnerKeys
from git_memory.contracts.promotion import PromotionPlan
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.paths import ensure_private_dir
from git_memory.promote import plan as planning
from git_memory.promote import retire, tree, writer
from git_memory.promote.kinds import PromotionKinds
from git_memory.promote.prepare import assessment_rows_for
from git_memory.repo.binding import Worktree
from git_memory.repo.blobs import blob_oid
from git_memory.store import candidates as store
from git_memory.store import journal
from git_memory.store.approved import sync_approved
from git_memory.store.db import StateDB
from git_memory.store.journal import PlanRecord

if TYPE_CHECKING:
    from git_memory.store.journal import FileRecord
    from git_memory.store.session import Workspace

PROMOTION_LOCK = "memory-state.sqlite3-promotion.lock"
FORWARD = "forward"
ROLLBACK = "rollback"


@dataclass
class Applied:
    """What apply did: `replayed` when the plan had already been applied."""

    plan_id: str
    plan_digest: str
    files: list[str]
    candidate_ids: list[str]
    replayed: bool = False
    resumed: bool = False
    notes: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    regenerated_index: str | None = None


def plan_not_found(plan_id: str) -> GitMemoryError:
    """`GM_PLAN_NOT_FOUND`."""
    return GitMemoryError(
        "GM_PLAN_NOT_FOUND",
        f"no promotion plan {plan_id!r}",
        hint="`git memory status` lists open plans; `git memory review` makes one",
    )


def load_plan(db: StateDB, plan_id: str, owner: OwnerKeys) -> tuple[PlanRecord, PromotionPlan]:
    """The stored plan, verified: owned by this worktree and untampered."""
    record = journal.get_plan(db, plan_id)
    if record is None:
        raise plan_not_found(plan_id)
    if record.owner != owner:
        raise GitMemoryError(
            "GM_PLAN_OWNER_MISMATCH",
            f"plan {plan_id!r} belongs to another worktree",
            hint="apply a plan in the worktree where it was prepared",
        )
    return record, verified_plan(record)


def verified_plan(record: PlanRecord) -> PromotionPlan:
    """Re-validate the stored plan document and bytes against the stored digest."""
    try:
        plan = PromotionPlan.model_validate(record.plan_json)
        ok = plan.plan_digest() == record.plan_digest and plan.plan_id == record.plan_id
        by_path = {f.target_path: f for f in record.files}
        for item in plan.per_file:
            planning.check_target_path(item.target_path, plan.owner.memory_root)
            stored = by_path.get(item.target_path)
            ok = (
                ok
                and stored is not None
                and stored.operation == item.operation
                and _bound_digest(stored) == item.sanitized_content_digest
                and stored.target_blob_hash == item.target_blob_hash
            )
        ok = ok and len(by_path) == len(plan.per_file)
    except (ValueError, GitMemoryError):
        ok = False
    if not ok:
        raise GitMemoryError(
            "GM_PLAN_TAMPERED",
            f"the stored plan {record.plan_id!r} does not match its digest",
            hint="run `git memory review` again: it prepares a fresh plan",
        )
    return plan


def _bound_digest(stored: FileRecord) -> str | None:
    """The digest a stored file binds: its bytes', or None for a delete."""
    return None if stored.operation == "delete" else sha256_hex(stored.content)


@contextlib.contextmanager
def promotion_lock(state_home: Path, *, wait: bool = False) -> Iterator[bool]:
    """The exclusive cross-process promotion lock; yields False when busy and `wait` is off."""
    ensure_private_dir(state_home)
    lock = FileLock(str(state_home / PROMOTION_LOCK), timeout=-1 if wait else 0, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


def busy() -> GitMemoryError:
    """`GM_PROMOTION_BUSY`: another process holds the promotion lock."""
    return GitMemoryError(
        "GM_PROMOTION_BUSY",
        "another git memory process is applying a promotion",
        hint="wait for it to finish, then run the command again",
    )


def os_failure(exc: OSError, plan_id: str, path: str | None = None) -> GitMemoryError:
    """`GM_PROMOTE_OS_ERROR`: the file system refused a write; the plan stays resumable."""
    name = errno.errorcode.get(exc.errno or 0, "OSError")
    where = f" at {path}" if path else ""
    return GitMemoryError(
        "GM_PROMOTE_OS_ERROR",
        f"the file system refused the promotion{where} ({name}: {exc.strerror or exc}); "
        f"plan {plan_id!r} is kept and resumes where it stopped",
        hint="fix the cause (permissions, free space, a read-only mount), then run "
        "the same `git memory promote` again",
        details={"errno": name, "planId": plan_id, "path": path or ""},
    )


def apply_plan(workspace: Workspace, plan_id: str, kinds: PromotionKinds) -> Applied:
    """Apply (or resume, or replay) an approved plan. The caller holds the promotion lock;
    `kinds` checks and finalizes plans of kinds other than entries.

    An OS error (EPERM, ENOSPC, EROFS…) leaves the journal where it was, so the next `promote`
    resumes the plan once the cause is fixed; it is reported as
    `GM_PROMOTE_OS_ERROR`, never as an internal error.
    """
    try:
        return _apply(workspace, plan_id, kinds)
    except OSError as exc:
        raise os_failure(exc, plan_id) from exc


def _apply(workspace: Workspace, plan_id: str, kinds: PromotionKinds) -> Applied:
    worktree, db, owner = workspace.worktree, workspace.db, workspace.owner
    record, plan = load_plan(db, plan_id, owner)
    if record.status == "applied":
        return _post_finalize(worktree, db, owner, record, plan, replayed=True)
    if record.status == "voided":
        raise voided(record)
    if record.status == "generated":
        raise GitMemoryError("GM_APPROVAL_REQUIRED", f"plan {plan_id!r} is not approved")
    resumed = record.status == "applying"
    check_owner(worktree, record, plan)
    if not resumed:
        _kind_precheck(workspace, record, kinds)
        _precheck(worktree, db, record, plan)
    elif record.mutation_phase == "rolling_back":
        _rollback(worktree, db, plan_id, "resumed rollback after an interruption")
        raise voided(journal.require_plan(db, plan_id))
    else:
        _check_candidates(db, record, plan, root=worktree.root)
    _mutate(worktree, db, plan_id)
    failpoint("promote.before-finalize")
    _finalize(worktree, db, owner, plan_id, plan, kinds=kinds)
    result = _post_finalize(worktree, db, owner, journal.require_plan(db, plan_id), plan)
    result.resumed = resumed
    return result


def _without_candidates(kind: str) -> bool:
    """Whether plans of `kind` carry no candidates (a retirement of approved entries)."""
    return kind == retire.KIND


def _kind_precheck(workspace: Workspace, record: PlanRecord, kinds: PromotionKinds) -> None:
    """The kind's own binding check (e.g. a skill's memory context); void on refusal."""
    hooks = kinds.get(record.kind)
    if hooks is None:
        return
    try:
        hooks.precheck(workspace, record)
    except GitMemoryError as exc:
        _void(workspace.db, record.plan_id, f"{exc.code}: {exc.message}")
        raise


def voided(record: PlanRecord) -> GitMemoryError:
    """`GM_PLAN_VOIDED`: a voided plan is never applied or approved."""
    return GitMemoryError(
        "GM_PLAN_VOIDED",
        f"plan {record.plan_id!r} was voided: {record.void_reason or 'no reason recorded'}",
        hint="run `git memory review` again: it prepares a fresh plan",
    )


def _void(db: StateDB, plan_id: str, reason: str) -> None:
    journal.transition(
        db,
        plan_id,
        expected=("generated", "approved", "applying"),
        status="voided",
        phase="done",
        void_reason=reason,
    )


def check_owner(worktree: Worktree, record: PlanRecord, plan: PromotionPlan) -> None:
    """The owner re-resolved now (keys and memory root) must be the plan's; never voids, as
    the plan may still be applied where it belongs."""
    if worktree.binding().owner() != plan.owner.owner():
        raise GitMemoryError(
            "GM_PLAN_OWNER_MISMATCH",
            f"plan {record.plan_id!r} was prepared for another worktree or memory root",
            hint="apply a plan in the worktree (and with the memory root) it was prepared for",
        )


def _precheck(worktree: Worktree, db: StateDB, record: PlanRecord, plan: PromotionPlan) -> None:
    """Policy, assessments and every target's blob OID; void on any mismatch."""
    _check_candidates(db, record, plan, root=None)
    old: dict[str, bytes | None] = {}
    for item in plan.per_file:
        try:
            current = writer.read_target(worktree.root, item.target_path)
        except GitMemoryError as exc:
            _void(db, record.plan_id, f"{exc.code} at {item.target_path}")
            raise
        if (None if current is None else blob_oid(current)) != item.target_blob_hash:
            _void(db, record.plan_id, f"drift at {item.target_path}")
            raise plan_drift(item.target_path)
        old[item.target_path] = current
    with db.write():
        for path, content in old.items():
            journal.set_rollback(
                db, record.plan_id, path, originally_present=content is not None, content=content
            )
        if not journal.transition(
            db, record.plan_id, expected=("approved",), status="applying", phase="mutating"
        ):
            raise busy()  # another process moved the plan on meanwhile


def plan_drift(path: str, preserved: list[str] | None = None) -> GitMemoryError:
    """`GM_PLAN_DRIFT` naming the drifted path."""
    return GitMemoryError(
        "GM_PLAN_DRIFT",
        f"{path} changed since the plan was prepared; the plan is void",
        hint="run `git memory review` again to plan against the current files",
        details={"driftedPath": path, "preservedPaths": preserved or []},
    )


def _check_candidates(
    db: StateDB, record: PlanRecord, plan: PromotionPlan, root: Path | None
) -> None:

    stale = plan.policy_version != planning.POLICY_VERSION
    with db.read():
        # A retirement has no candidates: its files' blob OIDs and its precheck bind it.
        for cid in [] if _without_candidates(record.kind) else plan.candidate_ids:
            found = store.get_candidate(db, cid)
            stale = stale or found is None or found.status != "quarantined"
        if not stale and not _without_candidates(record.kind):
            rows = assessment_rows_for(db, plan.candidate_ids)
            stale = planning.assessment_digest(rows) != plan.assessment_digest
    if not stale:
        return
    reason = "candidates, assessments or policy changed since the plan was prepared"
    if root is not None:  # resuming: undo what was written before voiding
        journal.set_phase(db, record.plan_id, "rolling_back")
        _rollback_files(root, db, record.plan_id)
    _void(db, record.plan_id, reason)
    raise GitMemoryError(
        "GM_PLAN_STALE", reason, hint="run `git memory review` again: it prepares a fresh plan"
    )


def _swap(plan_id: str, file: FileRecord, direction: str) -> writer.Swap:
    old = file.rollback_content if file.originally_present else None
    new = None if file.operation == "delete" else file.content
    expect, install = (old, new) if direction == FORWARD else (new, old)
    return writer.Swap(
        file.target_path,
        expect,
        install,
        writer.artifact_token(plan_id, file.target_path, direction),
    )


def _mutate(worktree: Worktree, db: StateDB, plan_id: str) -> None:
    record = journal.require_plan(db, plan_id)
    for file in record.files:
        if file.intent_state == "applied":
            continue
        if file.intent_state == "pending":
            journal.set_file_state(db, plan_id, file.target_path, "intent")
            failpoint("promote.after-intent")
        try:
            failpoint("promote.before-write")
            writer.conditional_replace(worktree.root, _swap(plan_id, file, FORWARD))
        except OSError as exc:
            raise os_failure(exc, plan_id, file.target_path) from exc
        except writer.TargetDrift as drift:
            preserved = _rollback(worktree, db, plan_id, f"drift at {drift.path}")
            raise plan_drift(drift.path, preserved) from None
        except GitMemoryError as exc:
            _rollback(worktree, db, plan_id, f"{exc.code} at {file.target_path}")
            raise
        failpoint("promote.after-write")
        journal.set_file_state(db, plan_id, file.target_path, "applied")


def _rollback(worktree: Worktree, db: StateDB, plan_id: str, reason: str) -> list[str]:
    """Undo every file written so far (reverse order), keep third-party edits, void."""
    journal.set_phase(db, plan_id, "rolling_back")
    preserved = _rollback_files(worktree.root, db, plan_id)
    _void(db, plan_id, reason + (f"; kept third-party edits: {preserved}" if preserved else ""))
    return preserved


def _rollback_files(root: Path, db: StateDB, plan_id: str) -> list[str]:
    preserved: list[str] = []
    record = journal.require_plan(db, plan_id)
    for file in reversed(record.files):
        if file.intent_state not in ("intent", "applied"):
            continue
        writer.undo_forward(root, _swap(plan_id, file, FORWARD))
        try:
            writer.conditional_replace(root, _swap(plan_id, file, ROLLBACK))
        except writer.TargetDrift as drift:
            if drift.preserved:
                preserved.append(file.target_path)
        except GitMemoryError:
            preserved.append(file.target_path)
        failpoint("promote.during-rollback")
        journal.set_file_state(db, plan_id, file.target_path, "rolled_back")
    return preserved


def _finalize(
    worktree: Worktree,
    db: StateDB,
    owner: OwnerKeys,
    plan_id: str,
    plan: PromotionPlan,
    *,
    kinds: PromotionKinds,
) -> None:
    """One transaction: candidates promoted (revision+1, out of FTS), generation+1, applied."""
    with db.write():
        kind = journal.require_plan(db, plan_id).kind
        for cid in [] if _without_candidates(kind) else plan.candidate_ids:
            current = store.require_candidate(db, cid, owner)
            store.mark_promoted(db, cid, expected_revision=current.revision)
        hooks = kinds.get(kind)
        if hooks is not None:
            hooks.finalize(db, journal.require_plan(db, plan_id))
        store.bump_candidate_generation(db, owner)
        if not journal.transition(
            db, plan_id, expected=("applying",), status="applied", phase="mutating"
        ):
            raise busy()  # another process moved the plan on meanwhile
        journal.clear_rollback(db, plan_id)
    failpoint("promote.after-finalize")


def _post_finalize(
    worktree: Worktree,
    db: StateDB,
    owner: OwnerKeys,
    record: PlanRecord,
    plan: PromotionPlan,
    *,
    replayed: bool = False,
) -> Applied:
    """Regenerate index.json and re-sync the approved projection (idempotent)."""
    regenerated = None
    if record.mutation_phase != "done" or replayed:
        if regenerate_index(worktree):
            regenerated = f"{worktree.memory_root}/index.json"

        sync_approved(db, owner, worktree.root, worktree.memory_root)
        journal.set_phase(db, record.plan_id, "done")
    return Applied(
        plan_id=plan.plan_id,
        plan_digest=record.plan_digest,
        files=[item.target_path for item in plan.per_file],
        candidate_ids=list(plan.candidate_ids),
        replayed=replayed,
        created=[
            item.target_path
            for item in plan.per_file
            if item.target_blob_hash is None and item.operation != "delete"
        ],
        regenerated_index=regenerated,
    )


def regenerate_index(worktree: Worktree) -> bool:
    """Rebuild `index.json` from the memory root (docs/formats.md); True when it changed."""
    data = tree.expected_index(worktree.root, worktree.memory_root)
    return tree.write_index(worktree.root, worktree.memory_root, data)
