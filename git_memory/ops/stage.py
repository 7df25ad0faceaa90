"""`git memory stage`: submit what the agent drafted or decided, by the document's format."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from git_memory.consolidate.stage import stage_patch
from git_memory.contracts.adjudication import AdjudicationResult
from git_memory.contracts.consolidation import ConsolidationPatch
from git_memory.contracts.extraction import CandidateDraftBatch
from git_memory.contracts.requests import StageRequest
from git_memory.contracts.skill import SkillCandidate
from git_memory.contracts.stage import AgentStage
from git_memory.errors import GitMemoryError, UsageError
from git_memory.extract.adjudicate import stage_adjudication
from git_memory.extract.skill_stage import stage_skill
from git_memory.extract.stage_drafts import stage_drafts
from git_memory.extract.stage_response import batch_response, result_response
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.store.session import Workspace, open_workspace


def stage(ctx: OpContext, request: StageRequest) -> AgentStage:
    """Stage a CandidateDraftBatch (answer to a recalled ExtractionTask) or the
    AdjudicationResult the first stage asked for.

    The batch must echo the task's taskId and binding; statements citing unknown evidence ids
    reject their candidate; statements are assessed by the host (`unverified` until a human
    confirms them). The response of a batch carries an AdjudicationTask: decide every draft
    (store, skip, update, merge) against the recalled pool and stage the result; candidates
    then wait in quarantine for `git memory review`. Identical bytes replay the first outcome;
    different bytes for the same task are refused (GM_SUBMISSION_CONFLICT).
    """
    document = request.root
    target = STAGE_HANDLERS.get(document.format)
    if target is None:
        raise GitMemoryError(
            "GM_STAGE_UNSUPPORTED",
            f"staging {document.format!r} is not supported by this version",
            hint="stage a CandidateDraftBatch or an AdjudicationResult",
        )
    with open_workspace(ctx.worktree) as workspace:
        return target(workspace, document)


def _stage_batch(workspace: Workspace, batch: CandidateDraftBatch) -> AgentStage:
    return batch_response(workspace, stage_drafts(workspace, batch))


def _stage_result(workspace: Workspace, result: AdjudicationResult) -> AgentStage:
    return result_response(workspace, stage_adjudication(workspace, result))


# format -> handler taking (workspace, document) and returning its AgentStage.
STAGE_HANDLERS: dict[str, Callable[[Workspace, Any], AgentStage]] = {
    "git-memory-candidate-draft-batch@v1": _stage_batch,
    "git-memory-adjudication-result@v1": _stage_result,
    "git-memory-consolidation-patch@v1": stage_patch,
    "git-memory-skill-candidate@v1": stage_skill,
}


def _render(response: AgentStage, ids: ShortIds) -> str:
    shown = ids.of("candidate", (candidate.candidate_id for candidate in response.candidates))
    lines = [
        f"{response.status}: {len(response.candidates)} candidate(s)"
        + (" (no-op)" if response.no_op else "")
    ]
    for candidate in response.candidates:
        lines.append(f"  {shown[candidate.candidate_id]} r{candidate.revision} {candidate.status}")
    for rejected in response.rejected:
        lines.append(
            f"  rejected candidate {rejected.candidate}: {rejected.reason} "
            f"{rejected.detail}".rstrip()
        )
    if response.adjudication_task is not None:
        lines.append(f"adjudication task {ids.one('task', response.adjudication_task.task_id)}")
    lines.append(response.next)
    return "\n".join(lines)


def _from_cli(ctx: OpContext, values: Any) -> Any:
    raise UsageError(
        "GM_USAGE",
        "stage needs the document to stage: --request FILE (or - for stdin)",
        hint="the document is the CandidateDraftBatch, AdjudicationResult, SkillCandidate or "
        "ConsolidationPatch you wrote for a recalled task",
    )


OPERATION = Operation(
    spec=spec("stage"),
    request_model=StageRequest,
    response_model=AgentStage,
    handler=stage,
    from_cli=_from_cli,
    render_text_with_ids=_render,
    mcp_variant_models={
        "git-memory-candidate-draft-batch@v1": CandidateDraftBatch,
        "git-memory-adjudication-result@v1": AdjudicationResult,
        "git-memory-skill-candidate@v1": SkillCandidate,
        "git-memory-consolidation-patch@v1": ConsolidationPatch,
    },
)
