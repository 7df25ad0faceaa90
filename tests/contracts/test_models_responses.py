"""Limits of the consolidation, skill, recall, review and stage contracts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contracts.model_examples import (
    DELETE,
    EV0,
    EXAMPLES,
    adjudication_result,
    draft_batch,
    hx,
    model_for,
    mutate,
    refused,
    skill_candidate,
)

CTASK = "git-memory-consolidation-task@v1"
PATCH = "git-memory-consolidation-patch@v1"
SKILL = "git-memory-skill-candidate@v1"
RECALL = "git-memory-agent-recall@v1"
REVIEW = "git-memory-review@v1"
STAGE = "git-memory-agent-stage@v1"
SYNTH = "git-memory-synthesis@v1"


def statement(i: int) -> dict[str, Any]:
    return {"statementId": f"s{i}", "text": "A claim.", "evidenceIds": [EV0]}


CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    (CTASK, ("policy", "maxScenes"), 16, "max scenes const"),
    (CTASK, ("policy", "heatAlgorithm"), "scene-heat@2", "heat algorithm"),
    (CTASK, ("binding", "approvedProjection", "coverage"), "partial", "coverage complete"),
    (CTASK, ("binding", "schemaVersion"), PATCH, "schema version const"),
    (CTASK, ("binding", "replay", "mode"), "partial", "replay mode"),
    (CTASK, ("binding", "sceneRevisions", 0, "heat"), 0, "heat >= 1"),
    (CTASK, ("entries", 0, "revision"), 0, "entry revision >= 1"),
    (CTASK, ("entries",), EXAMPLES[CTASK]()["entries"] * 2, "duplicate entry"),
    (CTASK, ("scenes", 0, "name"), "-bad-", "scene slug"),
    (CTASK, ("doctrine", "content"), "", "empty doctrine"),
    (PATCH, ("operations", 0, "op"), "rename", "op enum"),
    (PATCH, ("operations", 0, "target"), "entry", "target enum"),
    (PATCH, ("operations", 0, "name"), "Release", "name slug"),
    (PATCH, ("operations", 0, "name"), "a" * 65, "name too long"),
    (PATCH, ("operations", 0, "rationale"), "", "empty rationale"),
    (PATCH, ("operations", 1, "operationId"), "op-1", "duplicate operation id"),
    (PATCH, ("operations", 0, "basedOnEntryIds"), ["e", "e"], "duplicate entry refs"),
    (PATCH, ("operations", 0, "heat"), 3, "no heat from the model"),
    (SKILL, ("skill", "name"), "Release_Check", "skill name slug"),
    (SKILL, ("skill", "name"), "a" * 65, "skill name > 64"),
    (SKILL, ("skill", "description"), "", "empty description"),
    (SKILL, ("skill", "description"), "d" * 1025, "description > 1024"),
    (SKILL, ("skill", "description"), "two\nlines", "newline in description"),
    (SKILL, ("skill", "description"), "<b>bold</b>", "angle bracket in description"),
    (SKILL, ("skill", "body"), "", "empty body"),
    (SKILL, ("skill", "body"), "b" * 65537, "body > 65536"),
    (SKILL, ("skill", "expectedContentDigest"), hx("1"), "create with digest"),
    (SKILL, ("skill", "action"), "delete", "action enum"),
    (SKILL, ("statements",), [], "no statements"),
    (SKILL, ("statements",), [statement(i) for i in range(65)], "65 statements"),
    (SKILL, ("statements",), [statement(1), statement(1)], "duplicate statement ids"),
    (SKILL, ("statements", 0, "evidenceIds"), [], "statement without evidence"),
    (SKILL, ("statements", 0, "evidenceIds"), [EV0, EV0], "duplicate evidence ids"),
    (SKILL, ("memoryContextDigest",), None, "memory context digest"),
    (RECALL, ("tasks",), [EXAMPLES["git-memory-extraction-task@v1"]()] * 9, "9 tasks"),
    (RECALL, ("memoryContext", "bindingDigest"), hx("0"), "binding digest mismatch"),
    (RECALL, ("memoryContext", "returned"), 2, "returned != items"),
    (RECALL, ("memoryContext", "total"), 2, "returned > total"),
    (RECALL, ("memoryContext", "returnedBytes"), 128 * 1024 + 1, "memory bytes > 128 KiB"),
    (RECALL, ("memoryContext", "priority"), ["scene"], "priority order"),
    (RECALL, ("memoryContext", "items", 0, "kind"), "skill", "item kind"),
    (RECALL, ("memoryContext", "items", 1, "name"), "other", "doctrine name"),
    (RECALL, ("memoryContext", "items", 2, "priority"), 101, "entry priority"),
    (RECALL, ("skillContext", "returnedBytes"), 128 * 1024 + 1, "skill bytes > 128 KiB"),
    (RECALL, ("skillContext", "selection"), "random", "skill selection"),
    (RECALL, ("guidance", "nextAction"), "promote", "next action"),
    (REVIEW, ("items", 0, "statements", 0, "evidence", 0, "excerpt"), "x" * 481, "excerpt > 480"),
    (REVIEW, ("items", 0, "statements", 0, "claimSupport"), "mixed", "claim support"),
    (REVIEW, ("items", 0, "kind"), "scene", "review kind"),
    (REVIEW, ("items", 0, "revision"), 0, "review revision"),
    (REVIEW, ("items",), [EXAMPLES[REVIEW]()["items"][0]] * 2, "duplicate review items"),
    (STAGE, ("status",), "done", "stage status"),
    (STAGE, ("action",), "recall", "stage action"),
    (STAGE, ("candidates", 0, "status"), "approved", "candidate status"),
    (STAGE, ("next",), "", "empty next"),
    (STAGE, ("adjudicationTask", "drafts"), [], "embedded task is validated"),
    (SYNTH, ("entryCount",), -1, "negative entry count"),
    (SYNTH, ("guidance", "rule"), "", "empty rule"),
    (SYNTH, ("task", "lease"), DELETE, "embedded task is validated"),
]


@pytest.mark.parametrize(("name", "path", "value", "why"), CASES, ids=[c[3] for c in CASES])
def test_limit_is_enforced(name: str, path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(name, path, value)


def test_skill_update_needs_the_current_digest() -> None:
    assert "update needs expectedContentDigest" in refused(SKILL, ("skill", "action"), "update")
    document = mutate(skill_candidate(), ("skill", "action"), "update")
    document["skill"]["expectedContentDigest"] = hx("f")
    assert model_for(SKILL).model_validate(document).skill.action == "update"


def test_skill_limits_at_the_edge_are_accepted() -> None:
    document = skill_candidate()
    document["skill"].update(name="a" * 64, description="d" * 1024, body="b" * 65536)
    document["statements"] = [statement(i) for i in range(64)]
    assert len(model_for(SKILL).model_validate(document).statements) == 64


def test_patch_with_no_operations_is_a_valid_no_op() -> None:
    document = mutate(EXAMPLES[PATCH](), ("operations",), [])
    assert model_for(PATCH).model_validate(document).operations == []


def test_task_entries_and_scenes_are_kept_sorted() -> None:
    document = EXAMPLES[CTASK]()
    second = {**document["entries"][0], "entryId": "a-first"}
    document["entries"].append(second)
    task = model_for(CTASK).model_validate(document)
    assert [e.entry_id for e in task.entries] == ["a-first", "release-tests"]


@pytest.mark.parametrize(
    "builder", [draft_batch, adjudication_result, skill_candidate, EXAMPLES[PATCH]]
)
def test_stage_document_is_chosen_by_format(builder: Any) -> None:
    from git_memory.contracts.requests import StageRequest

    document = builder()
    parsed = StageRequest.model_validate(document).root
    assert parsed.to_json() == model_for(document["format"]).model_validate(document).to_json()


def test_unknown_stage_document_is_a_validation_error() -> None:
    from pydantic import ValidationError

    from git_memory.contracts.requests import StageRequest

    with pytest.raises(ValidationError):
        StageRequest.model_validate({**draft_batch(), "format": "git-memory-review@v1"})
    with pytest.raises(ValidationError):
        StageRequest.model_validate(mutate(draft_batch(), ("candidates", 0, "priority"), 500))
