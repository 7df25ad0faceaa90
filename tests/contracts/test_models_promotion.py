"""PrepareRequest and PromotionPlan limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contracts.model_examples import EXAMPLES, hx, model_for, mutate, refused

PREPARE = "git-memory-prepare-request@v1"
PLAN = "git-memory-promotion-plan@v1"


def candidate(i: int) -> dict[str, Any]:
    return {
        "candidateId": f"c{i}",
        "expectedRevision": 1,
        "statements": [
            {"statementId": "s1", "statementTextDigest": hx("1"), "citationsDigest": hx("2")}
        ],
    }


def write(path: str) -> dict[str, Any]:
    return {
        "targetPath": path,
        "targetBlobHash": None,
        "sanitizedContentDigest": hx("b"),
        "operation": "write",
    }


PREPARE_CASES: list[tuple[tuple[Any, ...], Any, str]] = [
    (("candidates",), [], "no candidates"),
    (("candidates",), [candidate(i) for i in range(51)], "51 candidates"),
    (("candidates",), [candidate(1), candidate(1)], "duplicate candidates"),
    (("kind",), "scene", "kind enum"),
    (("candidates", 0, "expectedRevision"), 0, "revision starts at 1"),
    (("candidates", 0, "statements"), [], "no statements"),
    (("candidates", 0, "statements", 1, "statementId"), "s1", "duplicate statement"),
    (("candidates", 0, "statements", 0, "citationsDigest"), "00", "citations digest"),
]


@pytest.mark.parametrize(("path", "value", "why"), PREPARE_CASES, ids=[c[2] for c in PREPARE_CASES])
def test_prepare_limits(path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(PREPARE, path, value)


def test_fifty_candidates_and_every_kind_are_accepted() -> None:
    for kind in ("entry", "skill", "consolidation"):
        document = {
            **EXAMPLES[PREPARE](),
            "kind": kind,
            "candidates": [candidate(i) for i in range(50)],
        }
        assert len(model_for(PREPARE).model_validate(document).candidates) == 50


PLAN_CASES: list[tuple[tuple[Any, ...], Any, str]] = [
    (("perFile",), [], "no files"),
    (("perFile",), [write(f".memory/entries/e{i}.md") for i in range(1025)], "1025 files"),
    (("perFile", 0, "sanitizedContentDigest"), None, "write without digest"),
    (("perFile", 1, "sanitizedContentDigest"), hx("b"), "delete with digest"),
    (("perFile", 1, "targetBlobHash"), None, "delete without blob hash"),
    (("perFile", 1, "targetBlobHash"), "c" * 64, "blob hash is hex40"),
    (("perFile", 0, "operation"), "move", "operation enum"),
    (("perFile", 1, "targetPath"), ".memory/entries/release-tests.md", "duplicate target"),
    (("perFile", 0, "targetPath"), "/etc/passwd", "absolute path"),
    (("perFile", 0, "targetPath"), ".memory/../x.md", "dot-dot segment"),
    (("perFile", 0, "targetPath"), ".memory/./x.md", "dot segment"),
    (("perFile", 0, "targetPath"), ".memory//x.md", "empty segment"),
    (("perFile", 0, "targetPath"), ".memory\\x.md", "backslash"),
    (("perFile", 0, "targetPath"), ".memory/c:x.md", "colon"),
    (("perFile", 0, "targetPath"), ".memory/x\n.md", "control character"),
    (("perFile", 0, "targetPath"), ".memory/" + "x" * 1020, "path over 1024 bytes"),
    (("perFile", 0, "targetPath"), "README.md", "outside the memory root"),
    (("perFile", 0, "targetPath"), ".memory", "the root itself"),
    (("perFile", 0, "targetPath"), ".memoryx/e.md", "sibling of the root"),
    (("candidateIds",), [], "no candidates"),
    (("candidateIds",), ["a", "a"], "duplicate candidates"),
    (("policyVersion",), "sanitize@2", "policy"),
    (("owner", "format"), "git-memory-other@v1", "owner is a full binding"),
    (("assessmentDigest",), None, "assessment digest"),
]


@pytest.mark.parametrize(("path", "value", "why"), PLAN_CASES, ids=[c[2] for c in PLAN_CASES])
def test_plan_limits(path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(PLAN, path, value)


def test_1024_files_are_accepted() -> None:
    files = [write(f".memory/entries/e{i}.md") for i in range(1024)]
    plan = model_for(PLAN).model_validate(mutate(EXAMPLES[PLAN](), ("perFile",), files))
    assert len(plan.per_file) == 1024
    assert plan.per_file[0].operation == "write"


def test_operation_defaults_to_write() -> None:
    file = write(".memory/entries/a.md")
    del file["operation"]
    plan = model_for(PLAN).model_validate(mutate(EXAMPLES[PLAN](), ("perFile",), [file]))
    assert plan.to_json()["perFile"][0]["operation"] == "write"
