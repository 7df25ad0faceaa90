"""Profiles: exact argv, limits, digests, and how each runner is configured."""

from __future__ import annotations

import pytest

from git_memory.contracts.runner import RunnerProfile as ProfileContract
from git_memory.errors import GitMemoryError
from git_memory.runners.profiles import (
    CODEX_DISABLED_FEATURES,
    RunnerOptions,
    resolve_profile,
)


def _codes(options: RunnerOptions, **kwargs: object) -> str:
    with pytest.raises(GitMemoryError) as caught:
        resolve_profile(options, **kwargs)  # type: ignore[arg-type]
    return caught.value.code


def test_claude_argv_is_exact() -> None:
    profile = resolve_profile(RunnerOptions("claude"), environ={})
    assert profile.argv_template == (
        "--tools",
        "",
        "--bare",
        "--safe-mode",
        "--no-session-persistence",
        "--strict-mcp-config",
        "-p",
    )
    assert (profile.binary, profile.provider, profile.endpoint) == (
        "claude",
        "anthropic",
        "api.anthropic.com",
    )
    contract = ProfileContract.model_validate(profile.contract().to_json())
    assert contract.tool_policy == "none"
    assert (contract.timeout_ms, contract.max_output_bytes, contract.max_stderr_bytes) == (
        300_000,
        4 * 1024 * 1024,
        64 * 1024,
    )


def test_codex_argv_order() -> None:
    profile = resolve_profile(
        RunnerOptions("codex", model="gpt-x", endpoint="https://llm.example/v1"), environ={}
    )
    argv = list(profile.argv_template)
    assert argv[:11] == [
        "exec",
        "--ephemeral",
        "--ignore-user-config",
        "--ignore-rules",
        "--skip-git-repo-check",
        "--sandbox",
        "read-only",
        "--color",
        "never",
        "--model",
        "gpt-x",
    ]
    assert argv[11:25:2] == ["-c"] * 7
    assert argv[12] == 'model_provider="git_memory"'
    assert argv[16] == 'model_providers.git_memory.base_url="https://llm.example/v1"'
    assert argv[22] == "mcp_servers={}"
    # No metrics to ab.chatgpt.com: the only host a runner reaches is its model endpoint.
    assert argv[24] == 'otel.metrics_exporter="none"'
    assert argv[25:-1:2] == ["--disable"] * 27
    assert argv[26::2] == list(CODEX_DISABLED_FEATURES)
    assert len(CODEX_DISABLED_FEATURES) == 27
    assert argv[-1] == "-"


def test_codex_needs_a_model_and_a_clean_endpoint() -> None:
    assert _codes(RunnerOptions("codex"), environ={}) == "GM_RUNNER_MODEL_REQUIRED"
    for endpoint in ("http://x.example", "https://u:p@x.example", "https://x.example/?q=1"):
        options = RunnerOptions("codex", model="m", endpoint=endpoint)
        assert _codes(options, environ={}) == "GM_RUNNER_OPTION_INVALID"
    assert _codes(RunnerOptions("codex", model="a\nb"), environ={}) == "GM_RUNNER_OPTION_INVALID"
    assert _codes(RunnerOptions("claude", model="m"), environ={}) == "GM_RUNNER_OPTION_INVALID"


def test_command_runner_from_flag_or_config() -> None:
    flag = resolve_profile(RunnerOptions("command", command="llm -m 'local model'"), environ={})
    assert (flag.binary, flag.argv_template) == ("llm", ("-m", "local model"))
    configured = resolve_profile(
        RunnerOptions("command"), config={"memory.runner.command": "ollama run x"}, environ={}
    )
    assert (configured.binary, configured.argv_template) == ("ollama", ("run", "x"))
    assert flag.digest != configured.digest
    assert _codes(RunnerOptions("command"), environ={}) == "GM_RUNNER_COMMAND_REQUIRED"
    assert _codes(RunnerOptions("command", command="  "), environ={}) == (
        "GM_RUNNER_COMMAND_REQUIRED"
    )
    assert _codes(RunnerOptions("command", command="'open"), environ={}) == (
        "GM_RUNNER_OPTION_INVALID"
    )
    assert _codes(RunnerOptions("claude", command="x"), environ={}) == "GM_RUNNER_OPTION_INVALID"
    bad_credential = {"memory.runner.command": "x", "memory.runner.credentialenv": "A B"}
    assert _codes(RunnerOptions("command"), config=bad_credential, environ={}) == (
        "GM_RUNNER_OPTION_INVALID"
    )


def test_unknown_runner() -> None:
    assert _codes(RunnerOptions("gpt"), environ={}) == "GM_RUNNER_UNKNOWN"


def test_digest_follows_argv_and_limits() -> None:
    base = resolve_profile(RunnerOptions("codex", model="a"), environ={})
    other_model = resolve_profile(RunnerOptions("codex", model="b"), environ={})
    shorter = resolve_profile(
        RunnerOptions("codex", model="a"), environ={"GIT_MEMORY_RUNNER_TIMEOUT_MS": "500"}
    )
    assert len({base.digest, other_model.digest, shorter.digest}) == 3
    assert shorter.timeout_ms == 500
    assert resolve_profile(RunnerOptions("codex", model="a"), environ={}).digest == base.digest


def test_limits_can_only_be_tightened() -> None:
    for value in ("0", "-1", "x", str(10**9)):
        env = {"GIT_MEMORY_RUNNER_OUTPUT_LIMIT": value}
        assert _codes(RunnerOptions("claude"), environ=env) == "GM_RUNNER_OPTION_INVALID"


def test_builtin_profile_has_no_process() -> None:
    profile = resolve_profile(RunnerOptions("builtin"), environ={})
    assert profile.is_builtin
    assert profile.binary is None
    assert profile.contract().adapter == "builtin"
