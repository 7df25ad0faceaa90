"""Host-only records of extraction: never shown to a model, never in a public schema.

The private record kept beside each recalled task (an artifact in the state home: the task as
issued, its evidence catalog with strengths, the turns it covers) and the digest inputs of a
selection. Kept apart from `contracts.extraction`, which `status` imports at start-up, so the
commands that never extract do not build these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.extraction import ExtractionTask, NonEmpty, NonNegativeInt, is_absent

# The host's private record of a recalled task (an artifact in the state home, never shown
# to a model): what stage needs to judge an answer without trusting it.

EvidenceStrength = Literal["direct", "observed", "candidate", "contextual"]
# Where an evidence item points, by kind: `{kind: turn, turnIndex}`, `{kind: commit,
# commitHash, repository?}`, `{kind: path, path}`, `{kind: memory, store, item, digest}`. It is
# the digest input of the item's `pointerDigest`, so it stays the plain mapping that is hashed.
EvidencePointer = dict[str, str | int]


class CatalogItem(Model):
    """One evidence item with its host-only assessment inputs."""

    evidence_id: NonEmpty
    pointer: EvidencePointer
    pointer_digest: Hex64
    strength: EvidenceStrength
    relations: tuple[str, ...]
    limitations: tuple[str, ...]

    @property
    def kind(self) -> str:
        """commit, turn, path or memory."""
        return str(self.pointer["kind"])


class CitedTurn(Model):
    """What review shows of a turn a task covers, and what `occurred` dates come from."""

    turn_index: NonNegativeInt
    session_key: NonEmpty
    turn_key: NonEmpty
    revision: NonEmpty
    started: str | None
    excerpt: str


class ObservedStatement(Model):
    """A statement the builtin extractor rendered from what the task's chunk shows, as the
    task's `builtinDrafts` hand it out: staged with this text and these evidence ids, it is
    the host's own typed fact (its renderer checks the text against `parameters` again)."""

    text: NonEmpty
    evidence_ids: list[NonEmpty]
    renderer: NonEmpty
    parameters: list[tuple[str, str]]


class RecallRecord(Model):
    """The task as issued, with its evidence catalog (strengths included) and turns; and the
    statements of its `builtinDrafts`, when it was handed out with some."""

    task: ExtractionTask
    session_key: NonEmpty
    chunk_ref: NonEmpty
    catalog: list[CatalogItem]
    turns: list[CitedTurn]
    observed: list[ObservedStatement] | SkipJsonSchema[None] = Field(
        default=None, exclude_if=is_absent
    )


# Digest inputs of a selection (`resultSetDigest`, `sourceBindingDigest`).


class SelectedTurn(Model):
    """What `resultSetDigest` covers for one selected turn."""

    session_key: str
    turn_key: str
    revision: str
    observed_timestamp: str


class SelectionResultSet(Model):
    """The request and the turns it selected, sorted by session and turn key."""

    request_digest: Hex64
    turns: list[SelectedTurn]


class SelectionSources(Model):
    """The revisions of the selected turns and of their delivery edges, sorted."""

    turn_revisions: list[str]
    delivery_edge_revisions: list[Hex64]
