"""Retiring approved entries through a promotion plan (plan kind `retirement`).

A retirement rewrites each entry with `status: deprecated`, `superseded_by` when a
replacement is named, and a last paragraph `Retired: <reason>`; the entry is kept, never
deleted (docs/guide-verify.md). The plan is built like every other: each file is lint-gated,
bound to the blob OID of what it holds now, stored in the journal as `generated`, and
approved and applied by `git memory promote`. It has no candidates: its `candidateIds` are
the retired entry ids, and its assessment digest binds the retirement itself (ids, reason,
replacement), so apply checks the files by blob OID and the replacement by `precheck`.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from git_memory.assemble.in_step import agents_in_plan
from git_memory.contracts.canonical import digest
from git_memory.contracts.lifecycle import RetireRequest
from git_memory.contracts.promotion import PromotionPlan
from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.entry import Entry, parse_entry, serialize_entry
from git_memory.promote import plan as planning
from git_memory.promote.gate import lint_gate
from git_memory.promote.prepare import bound_file
from git_memory.promote.render import RenderedFile
from git_memory.promote.writer import read_target
from git_memory.repo.binding import Worktree
from git_memory.store import journal
from git_memory.store.candidates import Candidate
from git_memory.store.db import StateDB
from git_memory.verify.check import entry_not_found

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PlanOperation
    from git_memory.store.journal import PlanRecord
    from git_memory.store.session import Workspace

KIND = "retirement"
# Apply skips the candidate checks and the promoted-candidate bookkeeping for this kind.
WITHOUT_CANDIDATES = True
REASON_PREFIX = "Retired: "


def entry_path(worktree: Worktree, entry_id: str) -> str:
    """The worktree-relative path of entry `entry_id`."""
    return f"{worktree.memory_root}/entries/{entry_id}.md"


def read_entry(worktree: Worktree, entry_id: str) -> tuple[bytes, Entry] | None:
    """(bytes, parsed entry) of an entry file read no-follow; None when absent."""
    path = planning.check_target_path(entry_path(worktree, entry_id), worktree.memory_root)
    data = read_target(worktree.root, path)
    if data is None:
        return None
    try:
        return data, parse_entry(data.decode("utf-8"))
    except (FormatError, UnicodeDecodeError) as exc:
        raise GitMemoryError(
            "GM_RETIRE_INVALID",
            f"{path} does not parse, so it cannot be retired through a plan: {exc}",
            hint="fix it (`git memory lint`, `git memory fmt`) or remove it by hand",
        ) from exc


def approved_entry(worktree: Worktree, entry_id: str) -> tuple[bytes, Entry]:
    """The approved entry `entry_id`, or `GM_ENTRY_NOT_FOUND` / `GM_RETIRE_INVALID`."""

    found = read_entry(worktree, entry_id)
    if found is None:
        raise entry_not_found([entry_id])
    if found[1].status != "approved":
        raise GitMemoryError(
            "GM_RETIRE_INVALID",
            f"entry {entry_id!r} is already {found[1].status}",
            hint="`git memory list` shows the approved entries",
        )
    return found


def retired(entry: Entry, reason: str, by: str | None) -> Entry:
    """The entry deprecated, pointing at `by`, with the reason as its last paragraph."""
    body = entry.body.rstrip("\n")
    body = f"{body}\n\n{REASON_PREFIX}{reason}\n" if body else f"{REASON_PREFIX}{reason}\n"
    return entry._replace(status="deprecated", superseded_by=by, body=body)


def plan_retirement(workspace: Workspace, request: RetireRequest) -> PromotionPlan:
    """Build, lint-gate and store a `generated` retirement plan; returns it."""

    worktree = workspace.worktree
    if request.by is not None:
        if request.by in request.ids:
            raise GitMemoryError(
                "GM_RETIRE_INVALID",
                f"entry {request.by!r} cannot supersede itself",
                hint="--by names the entry that replaces the retired ones",
            )
        approved_entry(worktree, request.by)
    planned = []
    for entry_id in request.ids:
        data, entry = approved_entry(worktree, entry_id)
        content = serialize_entry(retired(entry, request.reason, request.by)).encode("utf-8")
        planned.append(bound_file(entry_path(worktree, entry_id), data, content))
    planning.check_sizes(planned)
    lint_gate(
        [RenderedFile(p.target_path, p.content, p.old_content, "") for p in planned], worktree
    )
    plan = PromotionPlan(
        plan_id=f"plan-{uuid.uuid4().hex}",
        owner=workspace.binding,
        candidate_ids=list(request.ids),
        assessment_digest=_basis(request),
        per_file=[item.per_file() for item in planned],
        diff=planning.unified_diff(planned),
        agent_files=agents_in_plan(worktree) or None,
    )
    contents = {p.target_path: p.content for p in planned}
    with workspace.db.write():
        journal.create_plan(
            workspace.db, plan=plan, owner=workspace.owner, contents=contents, kind=KIND
        )
    return plan


def _basis(request: RetireRequest) -> str:
    """The digest a retirement plan binds in place of confirmed assessments."""
    return digest({"retire": request.ids, "reason": request.reason, "by": request.by})


def precheck(workspace: Workspace, record: PlanRecord) -> None:
    """Before promote writes: the replacement each retired entry names is still approved."""
    for file in record.files:
        replacement = parse_entry(file.content.decode("utf-8")).superseded_by
        if replacement is None:
            continue
        found = read_entry(workspace.worktree, replacement)
        if found is None or found[1].status != "approved":
            raise GitMemoryError(
                "GM_RETIRE_INVALID",
                f"the replacement entry {replacement!r} is no longer approved",
                hint="retire again with a current --by entry",
            )


def finalize(db: StateDB, record: PlanRecord) -> None:
    """Nothing beyond promote's own finalize: a retirement has no candidates."""
    del db, record


def plan_files(
    workspace: Workspace, candidates: list[Candidate], /
) -> list[tuple[str, PlanOperation, str | None]]:
    """A retirement is planned from approved entries by `git memory retire`, never from
    candidates: a prepare request of this kind is refused."""
    del workspace, candidates
    raise GitMemoryError(
        "GM_RETIRE_INVALID",
        "a retirement is not prepared from candidates",
        hint="git memory retire ID --reason TEXT",
    )
