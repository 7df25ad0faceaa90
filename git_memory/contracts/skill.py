"""SkillCandidate@v1: a SKILL.md proposal bound to a recall source and its memory context."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from git_memory.contracts.base import EvidenceId, Hex64, Model, Slug
from git_memory.contracts.extraction import ExtractionBinding, Identifier, NonEmpty, unique_by

MAX_SKILL_STATEMENTS = 64
SkillDescription = Annotated[
    str, StringConstraints(min_length=1, max_length=1024, pattern=r"^[^<>\r\n]+$")
]
SkillBody = Annotated[str, StringConstraints(min_length=1, max_length=65536)]


class SkillDocument(Model):
    """The proposed skill; `update` binds the sha256 of the current SKILL.md."""

    name: Slug
    description: SkillDescription
    body: SkillBody
    action: Literal["create", "update"]
    expected_content_digest: Hex64 | None

    @model_validator(mode="after")
    def _digest_matches_action(self) -> SkillDocument:
        if self.action == "create" and self.expected_content_digest is not None:
            raise ValueError("create needs expectedContentDigest null")
        if self.action == "update" and self.expected_content_digest is None:
            raise ValueError("update needs expectedContentDigest (sha256 of the current file)")
        return self


class SkillStatement(Model):
    """A claim of the skill, citing at least one evidence id of the recall source."""

    statement_id: Identifier
    text: NonEmpty
    evidence_ids: Annotated[list[EvidenceId], Field(min_length=1)]

    @field_validator("evidence_ids")
    @classmethod
    def _unique_ids(cls, value: list[str]) -> list[str]:
        return unique_by(value, lambda item: item, "evidenceId")


class SkillCandidate(Model):
    """Echoes the recall task's taskId and binding and the memory context's bindingDigest."""

    format: Literal["git-memory-skill-candidate@v1"] = "git-memory-skill-candidate@v1"
    task_id: Identifier
    binding: ExtractionBinding
    memory_context_digest: Hex64
    skill: SkillDocument
    statements: Annotated[
        list[SkillStatement], Field(min_length=1, max_length=MAX_SKILL_STATEMENTS)
    ]

    @field_validator("statements")
    @classmethod
    def _unique_statements(cls, value: list[SkillStatement]) -> list[SkillStatement]:
        return unique_by(value, lambda item: item.statement_id, "statementId")


class SkillTaskBinding(Model):
    """The binding of the task a staged skill candidate is recorded under: the recalled task
    it answers, the memory context it was written against, and its exact bytes."""

    extraction_task_id: Identifier
    memory_context_digest: Hex64
    name: Slug
    response_digest: Hex64
