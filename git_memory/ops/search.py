"""`git memory search QUERY [--limit N]`: BM25 search over approved memory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click
from pydantic import ValidationError

from git_memory.contracts.search import SearchRequest, SearchResponse, SearchResult
from git_memory.ops.base import OpContext, Operation, request_invalid
from git_memory.ops.registry import spec
from git_memory.store.fts_queries import search_approved
from git_memory.store.session import open_workspace
from git_memory.verify.check import freshness_by_path

SCORE_DIGITS = 6
# Fresh and unverifiable results are shown plainly; the others carry a warning.
FRESHNESS_MARKS = {"stale": " (stale: see `git memory verify`)", "deprecated": " (retired)"}


def search(ctx: OpContext, request: SearchRequest) -> SearchResponse:
    """Search approved memory (the committed entries of this worktree) by relevance.

    The query is split into words (any of them may match); results are ranked by BM25, ties by
    entry id. The approved projection is re-synced first, so entries edited on disk are found.
    Each result says its freshness (as `git memory verify` checks it): a stale entry relies on
    a file, commit, target or script that is gone, so it may no longer be true.
    `coverage: partial` means files changed during the sync and some results may be missing.
    """

    state = open_workspace(ctx.worktree, sync=True)
    try:
        rows = search_approved(state.db, state.owner, request.query, request.limit)
    finally:
        state.close()
    assert state.sync is not None
    freshness = freshness_by_path(ctx.worktree, [row.path for row in rows])
    return SearchResponse(
        generation=state.sync.generation,
        coverage=state.sync.coverage,
        results=[
            SearchResult(
                id=row.id,
                type=row.type,
                scene=row.scene or None,
                score=round(-row.score, SCORE_DIGITS) + 0.0,
                summary=row.summary,
                path=row.path,
                freshness=freshness[row.path],
            )
            for row in rows
        ],
    )


def render(response: SearchResponse) -> str:
    """One line per result with its file; a note only when the results may be incomplete."""
    lines = [
        f"{result.id}  [{result.type}{'/' + result.scene if result.scene else ''}]"
        f"{FRESHNESS_MARKS.get(result.freshness, '')}  {result.summary[:100]}\n    {result.path}"
        for result in response.results
    ]
    if not lines:
        lines.append("no approved memory matches")
    if response.coverage == "partial":
        lines.append("(memory files changed while they were read: results may be incomplete)")
    return "\n".join(lines)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SearchRequest:
    try:
        return SearchRequest(query=" ".join(values["query"]), limit=values["limit"])
    except ValidationError as exc:
        raise request_invalid(exc, SearchRequest) from exc


OPERATION = Operation(
    spec=spec("search"),
    request_model=SearchRequest,
    response_model=SearchResponse,
    handler=search,
    cli_params=[
        click.Argument(["query"], nargs=-1, metavar="QUERY"),
        click.Option(
            ["--limit"],
            type=click.IntRange(1, 100),
            default=10,
            show_default=True,
            help="Most results to return.",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
)
