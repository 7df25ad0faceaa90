"""Limits of the extraction request, task, draft batch and assessment contracts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contracts.model_examples import (
    DELETE,
    EV0,
    EXAMPLES,
    draft,
    hx,
    model_for,
    mutate,
    refused,
)

REQ = "git-memory-extraction-request@v1"
TASK = "git-memory-extraction-task@v1"
BATCH = "git-memory-candidate-draft-batch@v1"
ASSESS = "git-memory-evidence-assessment@v1"

CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    # window: canonical UTC, ordered, at most 366 days
    (REQ, ("window",), DELETE, "window required"),
    (REQ, ("window", "after"), "2026-01-01T00:00:00Z", "no milliseconds"),
    (REQ, ("window", "after"), "2026-01-01T00:00:00.000+00:00", "offset not Z"),
    (REQ, ("window", "after"), "2026-02-30T00:00:00.000Z", "not a date"),
    (REQ, ("window", "before"), "2026-01-01T00:00:00.000Z", "after == before"),
    (REQ, ("window", "before"), "2025-12-31T00:00:00.000Z", "after > before"),
    (
        REQ,
        ("window",),
        {"after": "2025-01-01T00:00:00.000Z", "before": "2026-01-02T00:00:00.001Z"},
        "366 days + 1 ms",
    ),
    (REQ, ("query",), "q" * 8193, "query too long"),
    (REQ, ("projectKeys",), [hx("1")], "caller scope refused"),
    (REQ, ("filters", "providers"), ["claude", "gemini"], "unknown provider"),
    (REQ, ("filters", "providers"), ["claude", "claude"], "duplicate provider"),
    (REQ, ("filters", "sessionKeys"), [hx("a"), hx("a")], "duplicate key"),
    (REQ, ("filters", "sessionKeys"), ["A" * 64], "uppercase hex"),
    (REQ, ("filters", "skillCapabilityKeys"), [f"{i:064x}" for i in range(65)], "65 keys"),
    (REQ, ("filters", "resultEvidence"), ["crashed"], "unknown result evidence"),
    (REQ, ("filters", "capabilityTerminalStates"), ["done"], "unknown terminal state"),
    (REQ, ("filters", "toolCapabilityKeys"), DELETE, "terminal states need a capability key"),
    (REQ, ("filters", "closureStates"), ["hard-sealed"], "closure states refused"),
    # task
    (TASK, ("taskId",), "-starts-with-dash", "identifier pattern"),
    (TASK, ("taskId",), "x" * 129, "identifier too long"),
    (TASK, ("lease", "expiresAt"), -1, "negative lease"),
    (TASK, ("lease", "holder"), "", "empty holder"),
    (TASK, ("binding", "selection"), DELETE, "selection required"),
    (TASK, ("binding", "turnRevisions"), ["xyz"], "revision not hex64"),
    (TASK, ("binding", "provenance", "snapshotSeq"), "042", "decimal string"),
    (TASK, ("binding", "provenance", "evaluatedAt"), "yesterday", "timestamp"),
    (TASK, ("session", "timeWindow", "start"), "2026-01-10 09:00", "timestamp"),
    (TASK, ("evidenceCatalog", 0, "evidenceId"), "ev-1-AAAAAAAAAAAA", "evidence id pattern"),
    (TASK, ("evidenceCatalog", 0, "evidenceId"), "ev-x-aaaaaaaaaaaa", "evidence id number"),
    (TASK, ("evidenceCatalog", 1, "evidenceId"), EV0, "duplicate evidence id"),
    (TASK, ("evidenceCatalog", 0, "kind"), "file", "evidence kind"),
    (TASK, ("chunk", "turnRange"), {"start": 3, "end": 2}, "reversed turn range"),
    (TASK, ("chunk", "coverage", 0, "completeness"), "partial", "completeness enum"),
    (TASK, ("chunk", "turnEvidence", 0, "evidenceId"), "turn-0", "turn evidence id"),
    (TASK, ("contract", "draftSchema"), "other@v1", "draft schema const"),
    # draft batch
    (BATCH, ("candidates",), [draft()] * 9, "9 candidates"),
    (BATCH, ("candidates", 0, "priority"), 101, "priority > 100"),
    (BATCH, ("candidates", 0, "priority"), -1, "priority < 0"),
    (BATCH, ("candidates", 0, "priority"), True, "bool is not a priority"),
    (BATCH, ("candidates", 0, "priority"), "60", "string is not a priority"),
    (BATCH, ("candidates", 0, "priority"), 60.0, "float is not a priority"),
    (BATCH, ("candidates", 0, "scene"), "", "empty scene"),
    (BATCH, ("candidates", 0, "scene"), "s" * 201, "scene > 200"),
    (BATCH, ("candidates", 0, "type"), "fact", "type enum"),
    (BATCH, ("candidates", 0, "confidence"), "certain", "confidence enum"),
    (BATCH, ("candidates", 0, "content"), "", "empty content"),
    (BATCH, ("candidates", 0, "strength"), "direct", "no strength field"),
    (BATCH, ("candidates", 0, "statements", 0, "text"), "", "empty statement"),
    (BATCH, ("candidates", 0, "statements", 0, "evidenceIds"), ["turn 0"], "evidence id"),
    (BATCH, ("binding", "owner", "worktreeKey"), "x", "binding echo shape"),
    # assessment
    (ASSESS, ("citations", 1), {"evidenceId": EV0, "pointerDigest": hx("d")}, "dup citation"),
    (ASSESS, ("provenanceStrength",), "strong", "strength enum"),
    (ASSESS, ("claimSupport",), "mixed", "claim support enum"),
    (ASSESS, ("assessedBy",), "model", "assessed by enum"),
    (ASSESS, ("limitations",), ["a", "a"], "duplicate limitation"),
    (ASSESS, ("statementTextDigest",), hx("g"), "digest not hex"),
    (ASSESS, ("revision",), -1, "negative revision"),
    (ASSESS, ("revision",), "1", "string revision"),
]


@pytest.mark.parametrize(("name", "path", "value", "why"), CASES, ids=[c[3] for c in CASES])
def test_limit_is_enforced(name: str, path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(name, path, value)


def test_window_of_exactly_366_days_is_accepted() -> None:
    document = mutate(
        EXAMPLES[REQ](),
        ("window",),
        {"after": "2025-01-01T00:00:00.000Z", "before": "2026-01-02T00:00:00.000Z"},
    )
    assert model_for(REQ).model_validate(document).window.before.startswith("2026-01-02")


def test_filter_lists_are_sorted_and_absent_fields_omitted() -> None:
    from git_memory.contracts.extraction import MemoryExtractionRequest

    request = MemoryExtractionRequest.model_validate(
        {
            "window": EXAMPLES[REQ]()["window"],
            "filters": {"providers": ["codex", "claude"], "sessionKeys": [hx("b"), hx("a")]},
        }
    )
    assert request.to_json() == {
        "format": REQ,
        "window": EXAMPLES[REQ]()["window"],
        "filters": {"providers": ["claude", "codex"], "sessionKeys": [hx("a"), hx("b")]},
    }
    # null and absent are the same request, so they have the same digest
    explicit = MemoryExtractionRequest.model_validate({**request.to_json(), "query": None})
    assert explicit.digest() == request.digest()


def test_draft_batch_leaves_duplicate_statement_ids_to_the_host() -> None:
    # The host rejects only the offending candidate, so the batch parses.
    batch = EXAMPLES[BATCH]()
    batch["candidates"][0]["statements"] *= 2
    parsed = model_for(BATCH).model_validate(batch)
    assert len(parsed.candidates[0].statements) == 2


def test_eight_candidates_are_accepted() -> None:
    document = mutate(EXAMPLES[BATCH](), ("candidates",), [draft()] * 8)
    assert len(model_for(BATCH).model_validate(document).candidates) == 8


def test_citations_are_kept_sorted() -> None:
    document = EXAMPLES[ASSESS]()
    document["citations"].reverse()
    parsed = model_for(ASSESS).model_validate(document)
    assert [c.evidence_id for c in parsed.citations] == sorted(
        c["evidenceId"] for c in document["citations"]
    )


def test_timestamp_pattern_is_published_in_the_schema() -> None:
    from git_memory.contracts.extraction import MemoryExtractionRequest

    schema = MemoryExtractionRequest.model_json_schema()
    window = schema["$defs"]["TimeWindow"]["properties"]
    assert window["after"]["pattern"] == r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"
