"""`git memory reverify-runner --runner NAME`: run the conformance probe again, now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import click

from git_memory.contracts.base import Model
from git_memory.errors import UsageError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.runners import conformance
from git_memory.runners.config import profile_for
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.sandbox import describe_layers


class ReverifyRunnerRequest(Model):
    """Which runner to probe; the command line, model and endpoint as for extraction."""

    format: Literal["git-memory-reverify-runner-request@v1"] = (
        "git-memory-reverify-runner-request@v1"
    )
    runner: Literal["claude", "codex", "command", "builtin"]
    runner_command: str | None = None
    runner_model: str | None = None
    runner_endpoint: str | None = None


class ConformanceFailure(Model):
    """One failed check."""

    code: str
    detail: str


class ReverifyRunnerResponse(Model):
    """The probe's verdict; on a pass the record is signed and cached."""

    format: Literal["git-memory-runner-conformance@v1"] = "git-memory-runner-conformance@v1"
    runner: str
    profile_digest: str
    test_version: str
    passed: bool
    failures: list[ConformanceFailure]
    passed_at: str | None
    cli_version_fingerprint: str | None
    # Each forbidden attempt the OS sandbox contained, and each of its layers with "held"
    # or why not (both empty without the OS sandbox).
    contained: list[str]
    sandbox_layers: dict[str, str]


def reverify_runner(ctx: OpContext, request: ReverifyRunnerRequest) -> ReverifyRunnerResponse:
    """Run the deny-all conformance probe (conformance-test@2) against a runner with its
    production argv and environment, replacing the cached record. Exits 1 when any check
    fails, naming each as GM_RUNNER_CONFORMANCE_<CHECK>, and each thing the runner tried that
    its profile denies as GM_RUNNER_NONCONFORMANT with the layer that stopped it, contained or
    not; such a runner cannot be used until this passes. Names each isolation layer of the
    OS sandbox that held and each attempt it contained."""
    options = RunnerOptions(
        request.runner, request.runner_command, request.runner_model, request.runner_endpoint
    )
    profile = profile_for(ctx.worktree, options)
    outcome = conformance.reprobe(ctx.worktree.state_home, profile, ctx.worktree.secret())
    failures = [ConformanceFailure(code=f.code, detail=f.detail) for f in outcome.failures]
    record = outcome.record or {}
    return ReverifyRunnerResponse(
        runner=profile.name,
        profile_digest=profile.digest,
        test_version=conformance.TEST_VERSION,
        passed=not failures,
        failures=failures,
        passed_at=record.get("passedAt"),
        cli_version_fingerprint=record.get("cliVersionFingerprint"),
        contained=outcome.contained,
        sandbox_layers=outcome.layers,
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> ReverifyRunnerRequest:
    if not values.get("runner"):
        raise UsageError("GM_USAGE", "--runner NAME is required", hint="e.g. --runner claude")
    return ReverifyRunnerRequest(
        runner=values["runner"],
        runner_command=values.get("runner_command"),
        runner_model=values.get("runner_model"),
        runner_endpoint=values.get("runner_endpoint"),
    )


def _render(response: ReverifyRunnerResponse) -> str:
    if response.passed:
        lines = [f"{response.runner}: conformance passed ({response.test_version})"]
    else:
        lines = [f"{response.runner}: conformance FAILED ({response.test_version})"]
        lines += [f"  {failure.code}: {failure.detail}" for failure in response.failures]
    if response.sandbox_layers:
        lines.append(f"  sandbox layers: {describe_layers(response.sandbox_layers)}")
        lines += [f"  contained: {attempt}" for attempt in response.contained]
    else:
        lines.append("  no OS sandbox: the runner is isolated by its environment only")
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("reverify-runner"),
    request_model=ReverifyRunnerRequest,
    response_model=ReverifyRunnerResponse,
    handler=reverify_runner,
    cli_params=[
        click.Option(
            ["--runner"],
            type=click.Choice(["claude", "codex", "command", "builtin"]),
            help="The runner to probe.",
        ),
        click.Option(["--runner-command"], help="Command line of the command runner."),
        click.Option(["--runner-model"], help="Pinned model (codex, command)."),
        click.Option(["--runner-endpoint"], help="https endpoint (codex, command)."),
    ],
    from_cli=_from_cli,
    render_text=_render,
    exit_code=lambda response: 0 if response.passed else 1,
)
