"""`git memory sessions list [--all] [--since --until --provider]`."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.sessions import SessionsList, SessionsListRequest, SessionSummary
from git_memory.formats.controls import escape_controls
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.ops.timeflags import utc_timestamp
from git_memory.sessions.listing import list_sessions
from git_memory.sessions.providers.base import NAMES as PROVIDER_NAMES


def sessions_list(ctx: OpContext, request: SessionsListRequest) -> SessionsList:
    """List indexed sessions with turns attributed to this worktree (--all: every session).

    A turn belongs to the worktree when its cwd is the worktree root or inside it, unless a
    nested repository or linked worktree owns that directory. Shows keys, never session ids or
    paths; run `git memory sessions sync` first.
    """
    rows = list_sessions(
        ctx.worktree,
        all_worktrees=request.all,
        since=request.since,
        until=request.until,
        provider=request.provider,
    )
    return SessionsList(
        sessions=[
            SessionSummary(
                session_key=row.session_key,
                provider=row.provider,
                started=row.started,
                ended=row.ended,
                turns=row.turns,
                sealed_turns=row.sealed_turns,
                first_prompt=row.first_prompt,
            )
            for row in rows
        ]
    )


def render(response: SessionsList, ids: ShortIds) -> str:
    """A header, then one line per session: key, date, provider, turns, first prompt (cut to
    the terminal width)."""
    if not response.sessions:
        return (
            "no sessions of this worktree in the index (run `git memory sessions sync`; "
            "`--all` lists the sessions of every directory)"
        )
    width = shutil.get_terminal_size((100, 24)).columns
    keys = ids.of("session", (s.session_key for s in response.sessions))
    column = max(len(key) for key in keys.values())
    lines = [f"{'SESSION':<{column}}  {'DATE':<16}  {'PROVIDER':<11}  {'TURNS':<18}  FIRST PROMPT"]
    for s in response.sessions:
        turns = f"{s.turns} turn{'' if s.turns == 1 else 's'} ({s.sealed_turns} sealed)"
        key = keys[s.session_key]
        head = f"{key:<{column}}  {_date(s.started):<16}  {s.provider:<11}  {turns:<18}  "
        lines.append(head + _fit(s.first_prompt or "", max(width - len(head), 10)))
    return "\n".join(lines)


def _date(timestamp: str | None) -> str:
    return timestamp[:16].replace("T", " ") if timestamp else "-"


def _fit(text: str, width: int) -> str:
    shown = escape_controls(text)  # measured as it will be printed
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SessionsListRequest:
    return SessionsListRequest(
        all=values["all_sessions"],
        since=utc_timestamp(values.get("since"), "--since"),
        until=utc_timestamp(values.get("until"), "--until"),
        provider=values.get("provider"),
    )


OPERATION = Operation(
    spec=spec("sessions-list"),
    request_model=SessionsListRequest,
    response_model=SessionsList,
    handler=sessions_list,
    cli_params=[
        click.Option(["--all", "all_sessions"], is_flag=True, help="Every indexed session."),
        click.Option(
            ["--since"],
            default=None,
            help="Only sessions active at or after this time (2026-11-01, an ISO time, 7d).",
        ),
        click.Option(["--until"], default=None, help="Only sessions started before this time."),
        click.Option(
            ["--provider"],
            type=click.Choice(list(PROVIDER_NAMES)),
            default=None,
            help="Only this provider's sessions.",
        ),
    ],
    from_cli=_from_cli,
    render_text_with_ids=render,
)
