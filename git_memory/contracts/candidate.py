"""What a candidate row keeps as its payload (the `payload_json` column of the state database).

The payload is private (the unsanitized document the host promotes from); these models are
how the code reads and writes it, and `to_json()` is what the column holds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.extraction import DraftCandidate, Identifier, NonEmpty, is_absent
from git_memory.contracts.skill import SkillDocument, SkillStatement


class EntryPayload(DraftCandidate):
    """An entry candidate: the draft as staged (or merged), the task it answers, the dates it
    happened on, and for an update or merge of approved entries the entries it rewrites."""

    candidate_kind: Literal["entry"] = "entry"
    task_id: Identifier | None = Field(default=None, exclude_if=is_absent)
    occurred: list[NonEmpty] | None = Field(default=None, exclude_if=is_absent)
    action: Literal["store", "update", "merge"] | None = Field(default=None, exclude_if=is_absent)
    target_entry_ids: list[NonEmpty] | None = Field(default=None, exclude_if=is_absent)
    # Candidates an update or merge folded in: [{candidateId, content}] as they were.
    replaced_candidates: list[dict[str, str]] | None = Field(default=None, exclude_if=is_absent)
    # The agent-memory item a harvested entry came from: {store, item, digest}.
    source: dict[str, str] | None = Field(default=None, exclude_if=is_absent)


class SkillPayload(Model):
    """A skill candidate: the rendered SKILL.md, where it goes, and the memory context and
    recalled task it was written against."""

    candidate_kind: Literal["skill"] = "skill"
    task_id: Identifier
    memory_context_digest: Hex64
    skill: SkillDocument
    target_path: NonEmpty
    content: NonEmpty
    type: None = None
    statements: list[SkillStatement]
