"""Structural adjudication rules and the adjudication task's limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contracts.model_examples import EXAMPLES, draft, model_for, mutate, refused

TASK = "git-memory-adjudication-task@v1"
RESULT = "git-memory-adjudication-result@v1"
FIELDS = {"content": "Merged."}


def decision(action: str, targets: list[str], fields: Any, ref: str = "t-c1") -> dict[str, Any]:
    return {"draftRef": ref, "action": action, "targetIds": targets, "mergedFields": fields}


BAD_DECISIONS = [
    (decision("store", ["old-c1"], None), "store with a target"),
    (decision("store", [], FIELDS), "store with fields"),
    (decision("skip", [], None), "skip without target"),
    (decision("skip", ["old-c1"], FIELDS), "skip with fields"),
    (decision("update", [], FIELDS), "update without target"),
    (decision("update", ["old-c1", "old-c2"], FIELDS), "update with 2 targets"),
    (decision("update", ["old-c1"], None), "update without fields"),
    (decision("merge", [], FIELDS), "merge without target"),
    (decision("merge", ["old-c1"], None), "merge without fields"),
    (decision("merge", ["old-c1", "old-c1"], FIELDS), "duplicate targets"),
    (decision("skip", ["t-c1"], None), "self target"),
    (decision("delete", [], None), "unknown action"),
    (decision("update", ["old-c1"], {"content": ""}), "empty merged content"),
    (decision("update", ["old-c1"], {"content": None}), "null merged content"),
    (decision("update", ["old-c1"], {"priority": 101}), "merged priority"),
    (decision("update", ["old-c1"], {"scene": "x" * 201}), "merged scene"),
    (decision("update", ["old-c1"], {"heat": 3}), "unknown merged field"),
]


@pytest.mark.parametrize(("bad", "why"), BAD_DECISIONS, ids=[b[1] for b in BAD_DECISIONS])
def test_structural_rules(bad: dict[str, Any], why: str) -> None:
    assert refused(RESULT, ("adjudications", 0), bad)


def test_each_draft_is_decided_at_most_once() -> None:
    twice = [decision("store", [], None), decision("store", [], None)]
    assert "duplicate draftRef" in refused(RESULT, ("adjudications",), twice)


def test_valid_shapes_are_accepted() -> None:
    result = model_for(RESULT).model_validate(EXAMPLES[RESULT]())
    assert [a.action for a in result.adjudications] == ["update", "skip", "store", "merge"]


def test_merged_fields_keep_absent_and_null_apart() -> None:
    result = model_for(RESULT).model_validate(EXAMPLES[RESULT]())
    update, merge = result.adjudications[0], result.adjudications[3]
    assert update.to_json()["mergedFields"] == {"content": "Merged.", "scene": None}
    assert merge.to_json()["mergedFields"] == {"occurred": ["2026-01-10"]}


TASK_CASES: list[tuple[tuple[Any, ...], Any, str]] = [
    (("drafts",), [], "no drafts"),
    (("drafts",), [{**draft(), "candidateId": f"c{i}"} for i in range(65)], "65 drafts"),
    (("drafts", 1, "candidateId"), "t-c1", "duplicate candidate id"),
    (("drafts", 0, "statements"), [draft()["statements"][0]] * 2, "duplicate statement id"),
    (("drafts", 0, "candidateId"), "..", "candidate id pattern"),
    (("recallSets", 0, "ordered", 0, "rank"), 0, "rank starts at 1"),
    (("recallSets", 0, "ordered", 0, "sourceKind"), "draft", "pool source kind"),
    (("pool", 0, "contentDigest"), "abc", "pool digest"),
    (("pool",), EXAMPLES[TASK]()["pool"] * 2, "duplicate pool item"),
    (("binding", "poolItemRevisions", 0, "revision"), -1, "negative revision"),
    (("contract", "resultSchema"), "git-memory-candidate-draft-batch@v1", "result schema"),
]


@pytest.mark.parametrize(("path", "value", "why"), TASK_CASES, ids=[c[2] for c in TASK_CASES])
def test_task_limits(path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(TASK, path, value)


def test_sixty_four_drafts_are_accepted() -> None:
    drafts = [{**draft(), "candidateId": f"c{i}"} for i in range(64)]
    task = model_for(TASK).model_validate(mutate(EXAMPLES[TASK](), ("drafts",), drafts))
    assert len(task.drafts) == 64
