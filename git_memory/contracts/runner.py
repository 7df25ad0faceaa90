"""Runner contracts: the restricted runner profile, execution plans and approval manifests."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, field_validator, model_validator

from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import (
    Identifier,
    NonEmpty,
    NonNegativeInt,
    TaskKind,
    unique_by,
)

TIMEOUT_MS = 300_000
MAX_OUTPUT_BYTES = 4 * 1024 * 1024
MAX_STDERR_BYTES = 64 * 1024
MAX_MANIFEST_PLANS = 8
Authorization = Literal["pending", "approved"]


class ConformanceSummary(Model):
    """The conformance result a profile was last seen with (the signed record lives apart)."""

    test_version: NonEmpty
    passed_at: NonEmpty
    cli_version_fingerprint: NonEmpty


class RunnerProfile(Model):
    """A restricted runner: no tools, network to the model only, no session persistence.

    Limits may be tightened (tests use short timeouts) but never loosened.
    """

    format: Literal["git-memory-runner-profile@v1"] = "git-memory-runner-profile@v1"
    adapter: Literal["claude-cli", "codex-cli", "command", "builtin"]
    version: NonEmpty
    argv_template: list[str]
    tool_policy: Literal["none"] = "none"
    network: Literal["model-only"] = "model-only"
    ephemeral: Literal["required"] = "required"
    timeout_ms: Annotated[int, Field(ge=1, le=TIMEOUT_MS)] = TIMEOUT_MS
    max_output_bytes: Annotated[int, Field(ge=1, le=MAX_OUTPUT_BYTES)] = MAX_OUTPUT_BYTES
    max_stderr_bytes: Annotated[int, Field(ge=1, le=MAX_STDERR_BYTES)] = MAX_STDERR_BYTES
    conformance: ConformanceSummary | None = None

    def profile_digest(self) -> str:
        """Digest of the profile without `conformance`; any argv change changes it."""
        data = self.to_json()
        del data["conformance"]
        return digest(data)


InputSourceKind = Literal[
    "transcript",
    "draft",
    "candidate-pool",
    "approved-entry",
    "scene",
    "doctrine",
    "scene-index",
    "prompt",
]


class InputCoverage(Model):
    """One input that goes to the runner, by opaque id and digest only."""

    source_kind: InputSourceKind
    opaque_source_id: NonEmpty
    revision: NonNegativeInt | None
    content_digest: Hex64
    bytes: NonNegativeInt
    truncated: StrictBool


def _digest_without(model: Model, *names: str) -> str:
    data: dict[str, Any] = model.to_json()
    for name in names:
        del data[name]
    return digest(data)


class RunnerExecutionPlan(Model):
    """Exactly what one delivery sends where; approval binds to `planDigest`."""

    format: Literal["git-memory-runner-execution-plan@v1"] = "git-memory-runner-execution-plan@v1"
    plan_digest: Hex64 | None
    task_kind: TaskKind
    task_id: Identifier
    runner_input_digest: Hex64
    input_coverage_digest: Hex64
    input_coverage: list[InputCoverage]
    runner_profile: Hex64
    provider: NonEmpty
    model: NonEmpty
    endpoint: NonEmpty
    bytes_to_send: NonNegativeInt
    local_session_persistence: Literal["none"] = "none"
    provider_retention: Literal["unknown", "no-retention", "provider-policy"] = "unknown"
    authorization: Authorization = "pending"

    def compute_plan_digest(self) -> str:
        """Digest of the plan without `planDigest` and `authorization`."""
        return _digest_without(self, "planDigest", "authorization")

    def compute_input_coverage_digest(self) -> str:
        """`digest(inputCoverage)`."""
        return digest([item.to_json() for item in self.input_coverage])

    def with_plan_digest(self) -> RunnerExecutionPlan:
        """A copy whose `planDigest` is filled in."""
        return self.model_copy(update={"plan_digest": self.compute_plan_digest()})


class ManifestPlan(Model):
    """One plan covered by a manifest."""

    plan_digest: Hex64
    task_kind: TaskKind
    task_id: Identifier
    bytes_to_send: NonNegativeInt


class AuthorizationManifest(Model):
    """Several plans (1..8) approved by one digest; `totalBytes` is their sum."""

    format: Literal["git-memory-authorization-manifest@v1"] = "git-memory-authorization-manifest@v1"
    manifest_digest: Hex64 | None
    plans: Annotated[list[ManifestPlan], Field(min_length=1, max_length=MAX_MANIFEST_PLANS)]
    total_bytes: NonNegativeInt
    authorization: Authorization = "pending"

    @field_validator("plans")
    @classmethod
    def _unique_plans(cls, value: list[ManifestPlan]) -> list[ManifestPlan]:
        return unique_by(value, lambda item: item.plan_digest, "planDigest")

    @model_validator(mode="after")
    def _total_is_sum(self) -> AuthorizationManifest:
        total = sum(plan.bytes_to_send for plan in self.plans)
        if self.total_bytes != total:
            raise ValueError(f"totalBytes {self.total_bytes} != sum of plan bytes {total}")
        return self

    def compute_manifest_digest(self) -> str:
        """Digest of the manifest without `manifestDigest` and `authorization`."""
        return _digest_without(self, "manifestDigest", "authorization")

    def with_manifest_digest(self) -> AuthorizationManifest:
        """A copy whose `manifestDigest` is filled in."""
        return self.model_copy(update={"manifest_digest": self.compute_manifest_digest()})
