"""Runner profiles (RunnerProfile@v1): fixed argv, limits and environment policy per runner.

The profile digest binds plans and conformance records: changing any argv element, limit or
environment rule changes it, so a stale approval or probe can never be reused.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from git_memory.contracts.runner import RunnerProfile as RunnerProfileContract
from git_memory.errors import GitMemoryError, UsageError

RunnerName = Literal["claude", "codex", "command", "builtin"]
RUNNER_NAMES: tuple[str, ...] = ("claude", "codex", "command", "builtin")

DEFAULT_TIMEOUT_MS = 300_000
DEFAULT_STDOUT_LIMIT = 4 * 1024 * 1024
DEFAULT_STDERR_LIMIT = 64 * 1024

# Host variables a model CLI may need to reach its provider and print text; nothing else
# (no TERM: a runner has no terminal). Proxy URLs lose any user and password on the way.
COMMON_ALLOWLIST: tuple[str, ...] = (
    "ALL_PROXY",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "all_proxy",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_DIR",
    "SSL_CERT_FILE",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "NO_COLOR",
)

CLAUDE_ARGV: tuple[str, ...] = (
    "--tools",
    "",
    "--bare",
    "--safe-mode",
    "--no-session-persistence",
    "--strict-mcp-config",
    "-p",
)

CODEX_DISABLED_FEATURES: tuple[str, ...] = (
    "apps",
    "auth_elicitation",
    "browser_use",
    "browser_use_external",
    "browser_use_full_cdp_access",
    "code_mode_host",
    "computer_use",
    "goals",
    "guardian_approval",
    "hooks",
    "image_generation",
    "in_app_browser",
    "in_app_updates",
    "multi_agent",
    "multi_agent_v2",
    "plugin_sharing",
    "plugins",
    "remote_plugin",
    "shell_snapshot",
    "shell_tool",
    "skill_mcp_dependency_install",
    "skill_search",
    "tool_call_mcp_elicitation",
    "tool_suggest",
    "unified_exec",
    "view_image",
    "workspace_dependencies",
)

CODEX_PROVIDER_ID = "git_memory"
DEFAULT_CODEX_ENDPOINT = "https://api.openai.com/v1"


@dataclass(frozen=True)
class RunnerOptions:
    """What the caller chose: runner name and the optional command/model/endpoint flags."""

    name: str
    command: str | None = None
    model: str | None = None
    endpoint: str | None = None


@dataclass(frozen=True)
class ResolvedProfile:
    """A resolved profile. `document()` is the RunnerProfile@v1 JSON the digest covers."""

    name: str
    adapter: str
    version: str
    binary: str | None
    argv_template: tuple[str, ...]
    provider: str
    model: str
    endpoint: str
    credential_env: str | None
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_output_bytes: int = DEFAULT_STDOUT_LIMIT
    max_stderr_bytes: int = DEFAULT_STDERR_LIMIT

    @property
    def is_builtin(self) -> bool:
        """The builtin runner runs in-process: no binary, no conformance, no approval."""
        return self.name == "builtin"

    @property
    def environment_allowlist(self) -> tuple[str, ...]:
        """Host variables copied into the runner's environment."""
        extra = (self.credential_env,) if self.credential_env else ()
        return COMMON_ALLOWLIST + extra

    def contract(self) -> RunnerProfileContract:
        """The RunnerProfile@v1 document (without a conformance summary).

        For the command runner the program is the first argv element, so the digest changes
        when the configured command line does; the credential variable it may see is part of
        `version` because it changes what reaches the process.
        """
        argv = list(self.argv_template)
        version = self.version
        if self.name == "command":
            argv = [self.binary or "", *argv]
            version += f";credential={self.credential_env or '-'}"
        return RunnerProfileContract(
            adapter=self.adapter,
            version=version,
            argv_template=argv,
            timeout_ms=self.timeout_ms,
            max_output_bytes=self.max_output_bytes,
            max_stderr_bytes=self.max_stderr_bytes,
        )

    @property
    def digest(self) -> str:
        """The profile digest every plan and conformance record is bound to."""
        return self.contract().profile_digest()


def resolve_profile(
    options: RunnerOptions,
    *,
    config: Mapping[str, str | None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ResolvedProfile:
    """Build the profile for `options`; `config` holds `memory.runner.*` git config values."""
    env = os.environ if environ is None else environ
    cfg = config or {}
    if options.name not in RUNNER_NAMES:
        raise UsageError(
            "GM_RUNNER_UNKNOWN",
            f"unknown runner {options.name!r}",
            hint="use one of: " + ", ".join(RUNNER_NAMES),
        )
    if options.command is not None and options.name != "command":
        raise UsageError("GM_RUNNER_OPTION_INVALID", "--runner-command needs --runner command")
    limits = _limits(env)
    if options.name == "claude":
        return _claude(options, env, limits)
    if options.name == "codex":
        return _codex(options, env, cfg, limits)
    if options.name == "command":
        return _command(options, cfg, limits)
    return _builtin(options)


def _limits(env: Mapping[str, str]) -> dict[str, int]:
    """Limits, optionally lowered by `GIT_MEMORY_RUNNER_TIMEOUT_MS` / `_OUTPUT_LIMIT`.

    The values are part of the profile, so an override changes the digest and forces a new
    conformance probe under the limits that will actually apply.
    """
    return {
        "timeout_ms": _positive(env, "GIT_MEMORY_RUNNER_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
        "max_output_bytes": _positive(env, "GIT_MEMORY_RUNNER_OUTPUT_LIMIT", DEFAULT_STDOUT_LIMIT),
        "max_stderr_bytes": DEFAULT_STDERR_LIMIT,
    }


def _positive(env: Mapping[str, str], key: str, default: int) -> int:
    raw = env.get(key)
    if not raw:
        return default
    if not raw.isdigit() or int(raw) <= 0 or int(raw) > default:
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID",
            f"{key} must be a positive integer no larger than {default}",
        )
    return int(raw)


def _reject_labels(options: RunnerOptions) -> None:
    if options.model is not None or options.endpoint is not None:
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID",
            f"--runner-model/--runner-endpoint do not apply to the {options.name} runner",
        )


def _claude(
    options: RunnerOptions, env: Mapping[str, str], limits: dict[str, int]
) -> ResolvedProfile:
    _reject_labels(options)
    binary = env.get("GIT_MEMORY_CLAUDE_BIN") or env.get("GIT_MEMORY_RUNNER_BIN") or "claude"
    return ResolvedProfile(
        name="claude",
        adapter="claude-cli",
        version="1",
        binary=binary,
        argv_template=CLAUDE_ARGV,
        provider="anthropic",
        model=env.get("GIT_MEMORY_RUNNER_MODEL") or "claude-latest",
        endpoint="api.anthropic.com",
        credential_env="ANTHROPIC_API_KEY",
        **limits,
    )


def _codex(
    options: RunnerOptions,
    env: Mapping[str, str],
    cfg: Mapping[str, str | None],
    limits: dict[str, int],
) -> ResolvedProfile:
    model = options.model or env.get("GIT_MEMORY_RUNNER_MODEL") or cfg.get("memory.runner.model")
    if not model:
        raise UsageError(
            "GM_RUNNER_MODEL_REQUIRED",
            "the codex runner needs a pinned model",
            hint="pass --runner-model NAME (or set GIT_MEMORY_RUNNER_MODEL)",
        )
    endpoint = (
        options.endpoint
        or env.get("GIT_MEMORY_RUNNER_ENDPOINT")
        or cfg.get("memory.runner.endpoint")
        or DEFAULT_CODEX_ENDPOINT
    )
    _check_model(model)
    _check_endpoint(endpoint)
    binary = env.get("GIT_MEMORY_CODEX_BIN") or env.get("GIT_MEMORY_RUNNER_BIN") or "codex"
    return ResolvedProfile(
        name="codex",
        adapter="codex-cli",
        version="3",
        binary=binary,
        argv_template=codex_argv(model, endpoint),
        provider="openai",
        model=model,
        endpoint=endpoint,
        credential_env="OPENAI_API_KEY",
        **limits,
    )


def codex_argv(model: str, endpoint: str) -> tuple[str, ...]:
    """The Codex argv: ephemeral, read-only sandbox, pinned provider, every extra disabled,
    and no metrics sent anywhere (by default Codex exports them to ab.chatgpt.com, a host
    other than the model endpoint)."""
    prefix = f"model_providers.{CODEX_PROVIDER_ID}"
    argv = [
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
        model,
        "-c",
        f'model_provider="{CODEX_PROVIDER_ID}"',
        "-c",
        f'{prefix}.name="Git Memory"',
        "-c",
        f"{prefix}.base_url={json.dumps(endpoint)}",
        "-c",
        f'{prefix}.wire_api="responses"',
        "-c",
        f"{prefix}.requires_openai_auth=true",
        "-c",
        "mcp_servers={}",
        "-c",
        'otel.metrics_exporter="none"',
    ]
    for feature in CODEX_DISABLED_FEATURES:
        argv += ["--disable", feature]
    argv.append("-")
    return tuple(argv)


def _check_model(model: str) -> None:
    if not 1 <= len(model) <= 200 or any(ch in model for ch in "\r\n\0"):
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID", "the runner model must be 1-200 characters on one line"
        )


def _check_endpoint(endpoint: str) -> None:
    parts = urlsplit(endpoint)
    if (
        parts.scheme != "https"
        or not parts.hostname
        or parts.username is not None
        or parts.query
        or parts.fragment
    ):
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID",
            "the runner endpoint must be an https URL without credentials, query or fragment",
        )


def _command(
    options: RunnerOptions, cfg: Mapping[str, str | None], limits: dict[str, int]
) -> ResolvedProfile:
    raw = options.command or cfg.get("memory.runner.command")
    if not raw:
        raise UsageError(
            "GM_RUNNER_COMMAND_REQUIRED",
            "the command runner needs a command line",
            hint='pass --runner-command "PROGRAM ARGS…" or git config memory.runner.command',
        )
    try:
        argv = shlex.split(raw)
    except ValueError as exc:
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID", f"cannot split the runner command: {exc}"
        ) from exc
    if not argv:
        raise UsageError("GM_RUNNER_COMMAND_REQUIRED", "the runner command is empty")
    credential = cfg.get("memory.runner.credentialenv") or None
    if credential is not None and not credential.replace("_", "").isalnum():
        raise UsageError(
            "GM_RUNNER_OPTION_INVALID", "memory.runner.credentialEnv must be a variable name"
        )
    return ResolvedProfile(
        name="command",
        adapter="command",
        version="1",
        binary=argv[0],
        argv_template=tuple(argv[1:]),
        provider=cfg.get("memory.runner.provider") or "command",
        model=options.model or cfg.get("memory.runner.model") or "unspecified",
        endpoint=options.endpoint or cfg.get("memory.runner.endpoint") or "local",
        credential_env=credential,
        **limits,
    )


def _builtin(options: RunnerOptions) -> ResolvedProfile:
    _reject_labels(options)
    return ResolvedProfile(
        name="builtin",
        adapter="builtin",
        version="1",
        binary=None,
        argv_template=(),
        provider="builtin",
        model="builtin-extractor@1",
        endpoint="in-process",
        credential_env=None,
    )


CONFIG_KEYS: tuple[str, ...] = (
    "memory.runner.command",
    "memory.runner.model",
    "memory.runner.endpoint",
    "memory.runner.provider",
    "memory.runner.credentialenv",
)


def require_model_runner(profile: ResolvedProfile) -> None:
    """Refuse operations that only make sense for an external runner process."""
    if profile.is_builtin:
        raise GitMemoryError(
            "GM_RUNNER_NOT_PROBED",
            "the builtin runner runs inside git memory; it has no process to verify",
            hint="conformance applies to claude, codex and command runners",
        )
