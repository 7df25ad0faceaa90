"""The runner API a flow uses: plan → approve → run → validate, in one place.

    session = RunnerSession.open(worktree, RunnerOptions("codex", model="gpt-5"), db, owner)
    plan = session.plan("extraction", task.task_id, stdin_bytes)           # pending, stored
    approved = session.approve([plan], approve_plan=digest)                # or manifest / ask
    stdout = session.run(approved[0], stdin_bytes)                         # probe if needed
    batch = validate_answer(stdout, CandidateDraftBatch, task_id=..., binding=...)

Approval order: `approve_plan` (one plan, exact digest), else `approve_manifest` (all plans
listed by the stored manifest), else `ask` (a human at a TTY), else `GM_APPROVAL_REQUIRED`
carrying the pending plans and manifest. A plan is run only after its gates pass; only then
is the conformance probe run when no valid record exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.contracts.runner import AuthorizationManifest, InputCoverage, RunnerExecutionPlan
from git_memory.errors import GitMemoryError
from git_memory.runners import conformance, plans
from git_memory.runners.config import profile_for
from git_memory.runners.deliver import Delivery, deliver
from git_memory.runners.environment import require_credential
from git_memory.runners.ledger import StoreLedger
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys
    from git_memory.repo.binding import Worktree
    from git_memory.repo.secret import OriginSecret
    from git_memory.store.db import StateDB

Ask = Callable[[str, str], bool]


@dataclass
class RunnerSession:
    """One runner profile bound to a state home, its secret and the authorization ledger."""

    profile: ResolvedProfile
    state_home: Path
    secret: OriginSecret
    ledger: StoreLedger
    temp_root: Path | None = None

    @classmethod
    def open(
        cls, worktree: Worktree, options: RunnerOptions, db: StateDB, owner: OwnerKeys
    ) -> RunnerSession:
        """Resolve the profile from flags and `memory.runner.*` config."""
        return cls(
            profile_for(worktree, options),
            worktree.state_home,
            worktree.secret(),
            StoreLedger(db, owner),
        )

    @property
    def needs_approval(self) -> bool:
        """False for builtin: nothing leaves the process."""
        return not self.profile.is_builtin

    def plan(
        self,
        task_kind: str,
        task_id: str,
        stdin: bytes,
        coverage: Sequence[InputCoverage] = (),
    ) -> RunnerExecutionPlan:
        """A pending plan for these exact bytes, stored privately."""
        plan = plans.build_plan(
            self.profile, task_kind=task_kind, task_id=task_id, stdin=stdin, coverage=coverage
        )
        plans.store_plan(self.state_home, plan)
        return plan

    def manifest(self, pending: Sequence[RunnerExecutionPlan]) -> AuthorizationManifest:
        """A pending manifest over several plans, stored privately."""
        manifest = plans.build_manifest(pending)
        plans.store_manifest(self.state_home, manifest)
        return manifest

    def approve(
        self,
        pending: Sequence[RunnerExecutionPlan],
        *,
        approve_plan: str | None = None,
        approve_manifest: str | None = None,
        ask: Ask | None = None,
    ) -> list[RunnerExecutionPlan]:
        """Approved copies of the plans that this approval covers (see module doc)."""
        if approve_plan is not None and approve_manifest is not None:
            raise GitMemoryError(
                "GM_USAGE", "pass either --approve-plan or --approve-manifest, not both"
            )
        if approve_plan is not None:
            return self._approve_one(pending, approve_plan)
        if approve_manifest is not None:
            return self._approve_listed(pending, approve_manifest)
        if ask is not None:
            return plans.approve_interactively(pending, ask, self.ledger)
        raise approval_required(pending, self.manifest(pending) if len(pending) > 1 else None)

    def _approve_one(
        self, pending: Sequence[RunnerExecutionPlan], digest: str
    ) -> list[RunnerExecutionPlan]:
        match = [plan for plan in pending if plan.plan_digest == digest]
        if not match:
            raise GitMemoryError(
                "GM_RUNNER_APPROVAL_MISMATCH",
                "no pending plan has the approved digest; the input may have changed",
                hint="run the command without approval to see the current plans",
                details={"approved": digest, "pending": [p.plan_digest for p in pending]},
            )
        return [plans.approve_plan(match[0], digest, self.ledger)]

    def _approve_listed(
        self, pending: Sequence[RunnerExecutionPlan], digest: str
    ) -> list[RunnerExecutionPlan]:
        stored = plans.load_manifest(self.state_home, digest)
        if stored is None:
            raise GitMemoryError(
                "GM_RUNNER_APPROVAL_MISMATCH",
                "no stored manifest has the approved digest",
                hint="run the command without approval to see the current manifest",
            )
        manifest = plans.approve_manifest(stored, digest, self.ledger)
        listed = {entry.plan_digest for entry in manifest.plans}
        return [
            plans.approve_from_manifest(plan, manifest, self.ledger)
            for plan in pending
            if plan.plan_digest in listed
        ]

    def run(self, plan: RunnerExecutionPlan, stdin: bytes) -> bytes:
        """Send `stdin` under the approved plan; probes conformance first when needed."""
        plans.check_pre_spawn(plan, self.profile, stdin)  # an unapproved plan never probes
        require_credential(self.profile)
        conformance.ensure(self.state_home, self.profile, self.secret, temp_root=self.temp_root)
        delivery = Delivery(
            self.state_home, self.secret, self.profile, self.ledger, temp_root=self.temp_root
        )
        return deliver(delivery, plan, stdin)


def approval_required(
    pending: Sequence[RunnerExecutionPlan], manifest: AuthorizationManifest | None
) -> GitMemoryError:
    """`GM_APPROVAL_REQUIRED` with every pending plan (and the manifest) in its details."""
    details: dict[str, Any] = {"plans": [plan.to_json() for plan in pending]}
    hint: str | None
    if manifest is not None:
        details["manifest"] = manifest.to_json()
        hint = f"approve all with --approve-manifest {manifest.manifest_digest}"
    else:
        hint = f"approve with --approve-plan {pending[0].plan_digest}" if pending else None
    return GitMemoryError(
        "GM_APPROVAL_REQUIRED",
        f"{len(pending)} runner plan(s) need approval before anything is sent:\n"
        + plans.describe(pending),
        hint=hint,
        details=details,
    )
