"""Digest helpers against the documented subsets, recomputed here with canonical JSON + sha256."""

from __future__ import annotations

import hashlib
from typing import Any

from git_memory.contracts.canonical import canonical_json
from tests.contracts.model_examples import EXAMPLES, model_for, mutate


def sha(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def parsed(name: str, document: dict[str, Any] | None = None) -> Any:
    return model_for(name).model_validate(document or EXAMPLES[name]())


PLAN = "git-memory-promotion-plan@v1"


def test_promotion_plan_digest_covers_the_documented_subset() -> None:
    raw = EXAMPLES[PLAN]()
    expected = sha(
        {
            "format": raw["format"],
            "planId": raw["planId"],
            "owner": {
                key: raw["owner"][key] for key in ("repositoryKey", "worktreeKey", "memoryRoot")
            },
            "candidateIds": raw["candidateIds"],
            "policyVersion": raw["policyVersion"],
            "assessmentDigest": raw["assessmentDigest"],
            "perFile": raw["perFile"],
        }
    )
    assert parsed(PLAN).plan_digest() == expected


def test_promotion_plan_digest_ignores_the_diff_and_public_owner_fields() -> None:
    base = parsed(PLAN).plan_digest()
    assert parsed(PLAN, mutate(EXAMPLES[PLAN](), ("diff",), "other")).plan_digest() == base
    moved = mutate(EXAMPLES[PLAN](), ("owner", "publicRepositoryIdentity"), None)
    assert parsed(PLAN, moved).plan_digest() == base
    drifted = mutate(EXAMPLES[PLAN](), ("perFile", 1, "targetBlobHash"), "d" * 40)
    assert parsed(PLAN, drifted).plan_digest() != base
    elsewhere = mutate(EXAMPLES[PLAN](), ("owner", "worktreeKey"), "9" * 64)
    assert parsed(PLAN, elsewhere).plan_digest() != base


def test_default_operation_is_part_of_the_plan_digest() -> None:
    raw = EXAMPLES[PLAN]()
    del raw["perFile"][0]["operation"]
    plan = parsed(PLAN, raw)
    assert plan.plan_digest() == parsed(PLAN).plan_digest()


RUNNER = "git-memory-runner-execution-plan@v1"
MANIFEST = "git-memory-authorization-manifest@v1"


def test_runner_plan_digest_excludes_digest_and_authorization() -> None:
    raw = EXAMPLES[RUNNER]()
    expected = sha({k: v for k, v in raw.items() if k not in ("planDigest", "authorization")})
    plan = parsed(RUNNER)
    assert plan.compute_plan_digest() == expected
    approved = parsed(RUNNER, {**raw, "authorization": "approved", "planDigest": expected})
    assert approved.compute_plan_digest() == expected
    assert plan.with_plan_digest().plan_digest == expected
    assert parsed(RUNNER, {**raw, "bytesToSend": 12346}).compute_plan_digest() != expected
    assert plan.compute_input_coverage_digest() == sha(raw["inputCoverage"])


def test_manifest_digest_excludes_digest_and_authorization() -> None:
    raw = EXAMPLES[MANIFEST]()
    expected = sha({k: v for k, v in raw.items() if k not in ("manifestDigest", "authorization")})
    manifest = parsed(MANIFEST)
    assert manifest.compute_manifest_digest() == expected
    assert manifest.with_manifest_digest().manifest_digest == expected
    approved = parsed(MANIFEST, {**raw, "authorization": "approved", "manifestDigest": expected})
    assert approved.compute_manifest_digest() == expected


def test_profile_digest_excludes_conformance() -> None:
    raw = EXAMPLES["git-memory-runner-profile@v1"]()
    expected = sha({k: v for k, v in raw.items() if k != "conformance"})
    profile = parsed("git-memory-runner-profile@v1")
    assert profile.profile_digest() == expected
    unprobed = parsed("git-memory-runner-profile@v1", {**raw, "conformance": None})
    assert unprobed.profile_digest() == expected
    changed = parsed("git-memory-runner-profile@v1", {**raw, "argvTemplate": ["-p"]})
    assert changed.profile_digest() != expected


ASSESS = "git-memory-evidence-assessment@v1"


def test_citations_and_statement_text_digests() -> None:
    from git_memory.contracts.assessment import statement_text_digest

    raw = EXAMPLES[ASSESS]()
    assessment = parsed(ASSESS)
    expected = sha(sorted(raw["citations"], key=lambda c: (c["evidenceId"], c["pointerDigest"])))
    assert assessment.citations_digest() == expected
    reordered = mutate(raw, ("citations",), list(reversed(raw["citations"])))
    assert parsed(ASSESS, reordered).citations_digest() == expected
    text = "Release tests run with `uv run pytest -q` — ok."
    assert statement_text_digest(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert (assessment.statement_id, assessment.statement_text_digest) == (
        "s1",
        raw["statementTextDigest"],
    )


TASK = "git-memory-extraction-task@v1"


def test_source_input_digest_covers_inputs_not_lease_or_provenance() -> None:
    raw = EXAMPLES[TASK]()
    b = raw["binding"]
    expected = sha(
        {
            "chunk": raw["chunk"],
            "evidenceCatalog": raw["evidenceCatalog"],
            "session": raw["session"],
            "context": raw["context"],
            "selection": b["selection"],
            "turnRevisions": b["turnRevisions"],
            "payloadDigests": b["payloadDigests"],
            "deliveryEdgeRevisions": b["deliveryEdgeRevisions"],
            "promptVersion": b["promptVersion"],
            "schemaVersion": b["schemaVersion"],
            "chunkerVersion": b["chunkerVersion"],
        }
    )
    assert parsed(TASK).compute_source_input_digest() == expected
    other = mutate(raw, ("lease", "holder"), "someone-else")
    other = mutate(other, ("binding", "provenance", "snapshotSeq"), "43")
    other = mutate(other, ("taskId",), "extract-other")
    assert parsed(TASK, other).compute_source_input_digest() == expected
    edited = mutate(raw, ("chunk", "transcript"), "changed")
    assert parsed(TASK, edited).compute_source_input_digest() != expected


def test_draft_batch_digest() -> None:
    raw = EXAMPLES["git-memory-candidate-draft-batch@v1"]()
    batch = parsed("git-memory-candidate-draft-batch@v1")
    assert batch.draft_batch_digest() == sha({"candidates": raw["candidates"]})


def test_consolidation_task_id_and_set_digests() -> None:
    from git_memory.contracts.consolidation import (
        EntryRevision,
        SceneRevision,
        entry_set_digest,
        scene_index_digest,
    )

    raw = EXAMPLES["git-memory-consolidation-task@v1"]()
    task = parsed("git-memory-consolidation-task@v1")
    assert task.binding.expected_task_id() == "consolidate-" + sha(raw["binding"])
    entries = [
        {"entryId": "b-entry", "revision": 2, "contentDigest": "2" * 64},
        {"entryId": "a-entry", "revision": 1, "contentDigest": "1" * 64},
    ]
    assert entry_set_digest([EntryRevision(**e) for e in entries]) == sha(entries[::-1])
    scenes = [
        {"name": "zeta", "contentDigest": "3" * 64, "heat": 1},
        {"name": "alpha", "contentDigest": "4" * 64, "heat": 5},
    ]
    assert scene_index_digest([SceneRevision(**s) for s in scenes]) == sha(scenes[::-1])


def test_memory_context_binding_digest() -> None:
    raw = EXAMPLES["git-memory-agent-recall@v1"]()
    recall = parsed("git-memory-agent-recall@v1")
    expected = sha(raw["memoryContext"]["binding"])
    assert recall.memory_context is not None
    assert recall.memory_context.binding.digest() == expected
    assert recall.memory_context.binding_digest == expected
