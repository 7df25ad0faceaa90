"""`git memory discard CANDIDATE_ID [--revision N]`: drop a quarantined candidate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.requests import DiscardRequest, DiscardResponse
from git_memory.errors import GitMemoryError, UsageError
from git_memory.ids import resolve
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds, namespace
from git_memory.store.candidates import discard as discard_candidate
from git_memory.store.candidates import require_candidate
from git_memory.store.session import open_workspace


def discard(ctx: OpContext, request: DiscardRequest) -> DiscardResponse:
    """Discard one quarantined candidate (any unique abbreviation of its id).

    The revision is a compare-and-set: if the candidate changed since the revision you
    reviewed (GM_REVISION_CONFLICT) nothing happens; review again. Without --revision the
    current revision is discarded.
    """
    with open_workspace(ctx.worktree, sync=False) as workspace:
        candidate_id = resolve(
            request.candidate_id,
            namespace(workspace.db, workspace.owner, "candidate"),
            what="candidate",
            code="GM_CANDIDATE_NOT_FOUND",
            listed_by="git memory review",
        )
        current = require_candidate(workspace.db, candidate_id, workspace.owner)
        if current.status != "quarantined":
            raise GitMemoryError(
                "GM_CANDIDATE_STATE_INVALID",
                f"candidate {request.candidate_id!r} is {current.status}, not quarantined",
            )
        revision = current.revision if request.revision is None else request.revision
        changed = discard_candidate(workspace.db, candidate_id, expected_revision=revision)
        return DiscardResponse(candidate_id=changed.candidate_id, revision=changed.revision)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    if not values.get("candidate_id"):
        raise UsageError("GM_USAGE", "give CANDIDATE_ID (or --request FILE)")
    return {"candidateId": values["candidate_id"], "revision": values["revision"]}


def _render(response: DiscardResponse, ids: ShortIds) -> str:
    return f"discarded {ids.one('candidate', response.candidate_id)} (now r{response.revision})"


OPERATION = Operation(
    spec=spec("discard"),
    request_model=DiscardRequest,
    response_model=DiscardResponse,
    handler=discard,
    cli_params=[
        click.Argument(["candidate_id"], metavar="CANDIDATE_ID", required=False),
        click.Option(
            ["--revision"],
            type=int,
            help="The revision you reviewed (compare-and-set; default: the current one).",
        ),
    ],
    from_cli=_from_cli,
    render_text_with_ids=_render,
)
