"""Promotion contracts: the prepare request (the human's confirmation) and the plan."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Final, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.base import Hex40, Hex64, Model, added_optional
from git_memory.contracts.binding import RepositoryBinding
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import Identifier, PositiveInt, is_absent, unique_by
from git_memory.formats.entry import is_scope
from git_memory.formats.generated_block import AGENT_FILES
from git_memory.lint.directive_keywords import DIRECTIVE_CODES

MAX_PREPARE_CANDIDATES = 50
# A code of `lint.directive_rules.DIRECTIVE_CODES` (checked by `PrepareCandidate`).
DirectiveCode = Annotated[str, StringConstraints(max_length=64)]
# The original engine stopped at 128 files; a team adopting memory in bulk (or re-homing a
# memory root) promotes more at once, and nothing in the writer needs the smaller bound.
MAX_PLAN_FILES = 1024
MAX_PATH_BYTES = 1024
POLICY_VERSION: Final = "sanitize@1"


class ConfirmedStatement(Model):
    """A statement exactly as review showed it (both digests)."""

    statement_id: Identifier
    statement_text_digest: Hex64
    citations_digest: Hex64


class PrepareCandidate(Model):
    """A candidate at its expected revision with its complete current statement set."""

    candidate_id: Identifier
    expected_revision: PositiveInt
    statements: Annotated[list[ConfirmedStatement], Field(min_length=1)]
    scope: str | None = added_optional(
        1024,
        "The entry's `scope` as the reviewer set it: `repo` (its evidence decides), "
        "`path:<dir>` (it applies below that directory) or `path:.` (it applies everywhere).",
    )

    # The codes of the review item's `directives` a person confirmed (docs/contracts.md); no
    # description, so the tool list stays within the MCP budget (tests/mcp/test_mcp_wire.py).
    confirmed_directives: (
        Annotated[list[DirectiveCode], Field(max_length=len(DIRECTIVE_CODES))]
        | SkipJsonSchema[None]
    ) = Field(default=None, exclude_if=is_absent)

    @field_validator("confirmed_directives")
    @classmethod
    def _known_directives(cls, value: list[str] | None) -> list[str] | None:
        unknown = sorted(set(value or ()) - set(DIRECTIVE_CODES))
        if unknown:
            raise ValueError(f"not a directive code: {', '.join(unknown)}")
        return value

    @field_validator("statements")
    @classmethod
    def _unique_statements(cls, value: list[ConfirmedStatement]) -> list[ConfirmedStatement]:
        return unique_by(value, lambda item: item.statement_id, "statementId")

    @field_validator("scope")
    @classmethod
    def _scope(cls, value: str | None) -> str | None:
        if value is not None and not is_scope(value):
            raise ValueError("scope must be repo or path:<dir> (a worktree-relative directory)")
        return value


class PrepareRequest(Model):
    """`git memory prepare`: 1..50 candidates of one review kind."""

    format: Literal["git-memory-prepare-request@v1"] = "git-memory-prepare-request@v1"
    kind: Literal["entry", "skill", "consolidation"] = "entry"
    candidates: Annotated[
        list[PrepareCandidate], Field(min_length=1, max_length=MAX_PREPARE_CANDIDATES)
    ]

    @field_validator("candidates")
    @classmethod
    def _unique_candidates(cls, value: list[PrepareCandidate]) -> list[PrepareCandidate]:
        return unique_by(value, lambda item: item.candidate_id, "candidateId")


def check_relative_path(path: str) -> str:
    """A normalized worktree-relative path: no absolute, `.`, `..` or empty segments, no
    backslash, colon or control character, at most 1024 UTF-8 bytes."""
    if not path or len(path.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise ValueError(f"path must be 1..{MAX_PATH_BYTES} bytes")
    if path.startswith("/") or "\\" in path or ":" in path:
        raise ValueError(f"path must be relative without '\\\\' or ':': {path!r}")
    if any(unicodedata.category(char) == "Cc" for char in path):
        raise ValueError(f"path contains a control character: {path!r}")
    if any(part in ("", ".", "..") for part in path.split("/")):
        raise ValueError(f"path has an empty, '.' or '..' segment: {path!r}")
    return path


PlanOperation = Literal["write", "delete"]


class PlanFile(Model):
    """One target: a write needs the sanitized content digest; a delete needs a null digest
    and the blob OID of the file it removes."""

    target_path: str
    target_blob_hash: Hex40 | None
    sanitized_content_digest: Hex64 | None
    operation: PlanOperation = "write"

    @field_validator("target_path")
    @classmethod
    def _normalized(cls, value: str) -> str:
        return check_relative_path(value)

    @model_validator(mode="after")
    def _operation_shape(self) -> PlanFile:
        if self.operation == "write" and self.sanitized_content_digest is None:
            raise ValueError(f"{self.target_path}: a write needs sanitizedContentDigest")
        if self.operation == "delete" and (
            self.sanitized_content_digest is not None or self.target_blob_hash is None
        ):
            raise ValueError(
                f"{self.target_path}: a delete needs a null sanitizedContentDigest "
                "and a targetBlobHash"
            )
        return self


class PromotionPlan(Model):
    """Exact files bound to their current blob OIDs; approval binds to `plan_digest()`.

    `agent_files`: the agents' files (already holding the generated block) that the approved
    plan brings up to date after its memory files are written, so they never fall behind."""

    format: Literal["git-memory-promotion-plan@v1"] = "git-memory-promotion-plan@v1"
    plan_id: Identifier
    owner: RepositoryBinding
    candidate_ids: Annotated[list[Identifier], Field(min_length=1)]
    assessment_digest: Hex64
    per_file: Annotated[list[PlanFile], Field(min_length=1, max_length=MAX_PLAN_FILES)]
    policy_version: Literal["sanitize@1"] = POLICY_VERSION
    diff: str
    agent_files: list[str] | None = Field(default=None, exclude_if=is_absent)

    @field_validator("agent_files")
    @classmethod
    def _known_agent_files(cls, value: list[str] | None) -> list[str] | None:
        unknown = [name for name in value or [] if name not in AGENT_FILES]
        if unknown:
            raise ValueError(f"not an agent's file assemble writes: {', '.join(unknown)}")
        return value

    @field_validator("candidate_ids")
    @classmethod
    def _unique_candidates(cls, value: list[str]) -> list[str]:
        return unique_by(value, lambda item: item, "candidateId")

    @model_validator(mode="after")
    def _targets_under_memory_root(self) -> PromotionPlan:
        unique_by(self.per_file, lambda item: item.target_path, "targetPath")
        prefix = self.owner.memory_root.rstrip("/") + "/"
        for item in self.per_file:
            if not item.target_path.startswith(prefix):
                raise ValueError(f"{item.target_path}: not under the memory root {prefix}")
        return self

    def plan_digest(self) -> str:
        """Digest of the plan's binding subset (the owner reduced to its three keys; the agents'
        files when the plan lists any, so a plan without them keeps its digest)."""
        bound: dict[str, object] = {
            "format": self.format,
            "planId": self.plan_id,
            "owner": self.owner.owner(),
            "candidateIds": self.candidate_ids,
            "policyVersion": self.policy_version,
            "assessmentDigest": self.assessment_digest,
            "perFile": [item.to_json() for item in self.per_file],
        }
        if self.agent_files:
            bound["agentFiles"] = self.agent_files
        return digest(bound)
