"""`git memory demo [--keep DIR]`: the whole flow on bundled sample sessions."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import click
from pydantic import Field

from git_memory.contracts.base import Model
from git_memory.demo.declaration import DEMO
from git_memory.demo.environment import sandbox
from git_memory.demo.run import run_demo
from git_memory.ops.base import OpContext, Operation


class DemoRequest(Model):
    """Where to keep the demo repository (a new or empty directory), or nowhere."""

    format: Literal["git-memory-demo-request@v1"] = "git-memory-demo-request@v1"
    keep: str | None = None


class DemoReport(Model):
    """What the demo did and wrote."""

    format: Literal["git-memory-demo@v1"] = "git-memory-demo@v1"
    kept: str | None
    steps: list[str]
    files: list[str] = Field(default_factory=list)
    claude_md: str


def demo(ctx: OpContext, request: DemoRequest) -> DemoReport:
    """Build a throw-away repository and state home, load bundled sample Claude Code and
    Codex sessions of it, and run sessions sync → extract with the builtin runner → review →
    prepare → promote → assemble, printing each step and the files written.

    Nothing of yours is read or written: the demo has its own state home, transcripts and git
    config. --keep DIR leaves the repository and state there for inspection.
    """
    steps: list[str] = []
    keep = Path(request.keep) if request.keep else None
    with sandbox(keep) as box:
        result = run_demo(box, steps.append)
    if keep is not None:
        steps.append(
            f"kept: {box.base} (cd {box.repository} && GIT_MEMORY_HOME="
            f"{box.state_home} git memory status)"
        )
    else:
        steps.append(
            "the demo repository and its state are removed now; run `git memory demo --keep DIR`"
            " to keep them and look around"
        )
    return DemoReport(
        kept=str(box.base) if keep else None,
        steps=steps,
        files=result["files"],
        claude_md=result["claudeMd"],
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    return {"keep": values.get("keep")}


OPERATION = Operation(
    spec=DEMO,
    request_model=DemoRequest,
    response_model=DemoReport,
    handler=demo,
    cli_params=[
        click.Option(
            ["--keep"],
            metavar="DIR",
            type=click.Path(file_okay=False),
            help="Keep the demo repository and state in DIR.",
        )
    ],
    from_cli=_from_cli,
    render_text=lambda report: "\n".join(report.steps),
)
