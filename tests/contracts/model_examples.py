"""Valid example documents of every flow contract, and a helper to break them one field at a time.

Each builder returns a fresh plain-JSON dict, so a test can mutate it freely.
"""

from __future__ import annotations

import copy
from typing import Any

DELETE = object()


def hx(char: str) -> str:
    """A hex64 made of one repeated digit."""
    return char * 64


def binding() -> dict[str, Any]:
    """A RepositoryBinding@v1 document."""
    return {
        "format": "git-memory-repository-binding@v1",
        "repositoryKey": hx("1"),
        "worktreeKey": hx("2"),
        "publicRepositoryIdentity": "example.com/team/repo",
        "rootRealpathDigest": hx("3"),
        "commonDirectoryIdentity": {"device": "2049", "inode": "131"},
        "memoryRoot": ".memory",
    }


def owner() -> dict[str, Any]:
    return {"repositoryKey": hx("1"), "worktreeKey": hx("2")}


def extraction_request() -> dict[str, Any]:
    return {
        "format": "git-memory-extraction-request@v1",
        "window": {"after": "2026-01-01T00:00:00.000Z", "before": "2026-02-01T00:00:00.000Z"},
        "query": "release tests",
        "filters": {
            "providers": ["claude", "codex"],
            "sessionKeys": [hx("a")],
            "toolCapabilityKeys": [hx("b"), hx("c")],
            "resultEvidence": ["provider-completed"],
            "capabilityTerminalStates": ["completed", "failed"],
        },
    }


def extraction_binding() -> dict[str, Any]:
    return {
        "databaseUuid": "11111111-2222-4333-8444-555555555555",
        "owner": owner(),
        "sourceInputDigest": hx("9"),
        "selection": {
            "requestDigest": hx("4"),
            "resultSetDigest": hx("5"),
            "sourceBindingDigest": hx("6"),
        },
        "turnRevisions": [hx("4"), hx("5")],
        "payloadDigests": [hx("a")],
        "deliveryEdgeRevisions": [],
        "promptVersion": "memory-prompts@2",
        "schemaVersion": "git-memory-candidate-draft-batch@v1",
        "chunkerVersion": "memory-chunker@1",
        "provenance": {"snapshotSeq": "42", "evaluatedAt": "2026-01-15T10:00:00.000Z"},
    }


EV0 = "ev-1-aaaaaaaaaaaa"
EV1 = "ev-2-bbbbbbbbbbbb"


def extraction_task() -> dict[str, Any]:
    return {
        "format": "git-memory-extraction-task@v1",
        "taskId": "extract-" + hx("9"),
        "lease": {"holder": "git-memory-agent", "expiresAt": 1766200000000},
        "binding": extraction_binding(),
        "session": {
            "project": "example.com/team/repo",
            "repositoryKey": hx("1"),
            "timeWindow": {"start": "2026-01-10T09:00:00.000Z", "end": "2026-01-10T10:00:00.000Z"},
        },
        "evidenceCatalog": [
            {"evidenceId": EV0, "kind": "turn", "pointerDigest": hx("d"), "display": "turn 0"},
            {"evidenceId": EV1, "kind": "path", "pointerDigest": hx("e"), "display": "path a.py"},
        ],
        "chunk": {
            "turnRange": {"start": 0, "end": 1},
            "coverage": [
                {"sourceKind": "turn", "ref": "turn:0", "completeness": "full", "bytes": 120},
                {
                    "sourceKind": "tool-payload",
                    "ref": "payload:" + hx("f"),
                    "completeness": "truncated",
                    "bytes": 4096,
                },
            ],
            "turnEvidence": [{"turnIndex": 0, "evidenceId": EV0}],
            "transcript": '<<past-turn index="0">>\n<<past-user>>\nhi\n\n<<end-of-transcript>>',
        },
        "context": {"sceneIndexSummary": None},
        "contract": {
            "draftSchema": "git-memory-candidate-draft-batch@v1",
            "prompts": {"promptVersion": "memory-prompts@2", "extraction": "Extract memories."},
        },
    }


def draft(content: str = "Release tests run with `uv run pytest -q`.") -> dict[str, Any]:
    return {
        "content": content,
        "type": "work_method",
        "priority": 60,
        "confidence": "high",
        "scene": None,
        "statements": [{"statementId": "s1", "text": content, "evidenceIds": [EV0]}],
    }


def draft_batch() -> dict[str, Any]:
    return {
        "format": "git-memory-candidate-draft-batch@v1",
        "taskId": "extract-" + hx("9"),
        "binding": extraction_binding(),
        "candidates": [draft(), {**draft("Second."), "scene": "发布流程"}],
    }


def assessment() -> dict[str, Any]:
    return {
        "format": "git-memory-evidence-assessment@v1",
        "candidateId": "extract-x-c1",
        "statementId": "s1",
        "citations": [
            {"evidenceId": EV0, "pointerDigest": hx("d")},
            {"evidenceId": EV1, "pointerDigest": hx("e")},
        ],
        "provenanceStrength": "direct",
        "limitations": ["source-local-only"],
        "claimSupport": "unverified",
        "assessedBy": "deterministic",
        "statementTextDigest": hx("7"),
        "revision": 1,
    }


def adjudication_binding() -> dict[str, Any]:
    return {
        "databaseUuid": "db-uuid",
        "memoryStateUuid": "state-uuid",
        "owner": owner(),
        "draftBatchDigest": hx("8"),
        "approvedProjection": {"generation": 3, "analyzerVersion": "memory-approved@1"},
        "candidateProjection": {"generation": 7, "analyzerVersion": "memory-extraction@1"},
        "recallAlgorithmVersion": "recall-rrf@1",
        "recallQueryDigest": hx("a"),
        "resultSetDigest": hx("b"),
        "poolItemRevisions": [{"sourceKind": "candidate", "id": "old-c1", "revision": 2}],
        "promptVersion": "memory-adjudication@2",
        "schemaVersion": "git-memory-adjudication-result@v1",
    }


def adjudication_task() -> dict[str, Any]:
    return {
        "format": "git-memory-adjudication-task@v1",
        "taskId": "adjudicate-agent-" + hx("c"),
        "lease": {"holder": "git-memory-agent", "expiresAt": 1766200000000},
        "binding": adjudication_binding(),
        "drafts": [{**draft(), "candidateId": "t-c1"}, {**draft("Other."), "candidateId": "t-c2"}],
        "recallSets": [
            {
                "draftRef": "t-c1",
                "ordered": [{"rank": 1, "sourceKind": "candidate", "id": "old-c1"}],
            }
        ],
        "pool": [
            {
                "sourceKind": "candidate",
                "id": "old-c1",
                "revision": 2,
                "contentDigest": hx("d"),
                "state": "quarantined",
                "summary": "Release tests run with pytest.",
            }
        ],
        "contract": {
            "resultSchema": "git-memory-adjudication-result@v1",
            "prompts": {"promptVersion": "memory-adjudication@2", "adjudication": "Decide."},
        },
    }


def adjudication_result() -> dict[str, Any]:
    return {
        "format": "git-memory-adjudication-result@v1",
        "taskId": "adjudicate-agent-" + hx("c"),
        "binding": adjudication_binding(),
        "adjudications": [
            {
                "draftRef": "t-c1",
                "action": "update",
                "targetIds": ["old-c1"],
                "mergedFields": {"content": "Merged.", "scene": None},
            },
            {"draftRef": "t-c2", "action": "skip", "targetIds": ["t-c1"], "mergedFields": None},
            {"draftRef": "t-c3", "action": "store", "targetIds": [], "mergedFields": None},
            {
                "draftRef": "t-c4",
                "action": "merge",
                "targetIds": ["old-c1", "old-c2"],
                "mergedFields": {"occurred": ["2026-01-10"]},
            },
        ],
    }


def runner_profile() -> dict[str, Any]:
    return {
        "format": "git-memory-runner-profile@v1",
        "adapter": "claude-cli",
        "version": "1",
        "argvTemplate": ["--tools", "", "--bare", "-p"],
        "toolPolicy": "none",
        "network": "model-only",
        "ephemeral": "required",
        "timeoutMs": 300000,
        "maxOutputBytes": 4194304,
        "maxStderrBytes": 65536,
        "conformance": {
            "testVersion": "conformance-test@2",
            "passedAt": "2026-01-01T00:00:00.000Z",
            "cliVersionFingerprint": hx("0"),
        },
    }


def runner_plan() -> dict[str, Any]:
    return {
        "format": "git-memory-runner-execution-plan@v1",
        "planDigest": None,
        "taskKind": "consolidation",
        "taskId": "consolidate-" + hx("1"),
        "runnerInputDigest": hx("2"),
        "inputCoverageDigest": hx("3"),
        "inputCoverage": [
            {
                "sourceKind": "approved-entry",
                "opaqueSourceId": "entry-a",
                "revision": 3,
                "contentDigest": hx("4"),
                "bytes": 300,
                "truncated": False,
            },
            {
                "sourceKind": "prompt",
                "opaqueSourceId": "memory-consolidation@3",
                "revision": None,
                "contentDigest": hx("5"),
                "bytes": 2000,
                "truncated": False,
            },
        ],
        "runnerProfile": hx("6"),
        "provider": "openai",
        "model": "gpt-test",
        "endpoint": "https://api.example.com/v1",
        "bytesToSend": 12345,
        "localSessionPersistence": "none",
        "providerRetention": "unknown",
        "authorization": "pending",
    }


def manifest() -> dict[str, Any]:
    return {
        "format": "git-memory-authorization-manifest@v1",
        "manifestDigest": None,
        "plans": [
            {
                "planDigest": hx("a"),
                "taskKind": "extraction",
                "taskId": "extract-a",
                "bytesToSend": 10,
            },
            {
                "planDigest": hx("b"),
                "taskKind": "extraction",
                "taskId": "extract-b",
                "bytesToSend": 32,
            },
        ],
        "totalBytes": 42,
        "authorization": "pending",
    }


def prepare_request() -> dict[str, Any]:
    return {
        "format": "git-memory-prepare-request@v1",
        "kind": "entry",
        "candidates": [
            {
                "candidateId": "extract-x-c1",
                "expectedRevision": 2,
                "statements": [
                    {
                        "statementId": "s1",
                        "statementTextDigest": hx("7"),
                        "citationsDigest": hx("8"),
                    },
                    {
                        "statementId": "s2",
                        "statementTextDigest": hx("9"),
                        "citationsDigest": hx("8"),
                    },
                ],
            },
        ],
    }


def promotion_plan() -> dict[str, Any]:
    return {
        "format": "git-memory-promotion-plan@v1",
        "planId": "0f8e3c1a-1111-4222-8333-444455556666",
        "owner": binding(),
        "candidateIds": ["extract-x-c1", "patch-consolidate-y"],
        "assessmentDigest": hx("a"),
        "perFile": [
            {
                "targetPath": ".memory/entries/release-tests.md",
                "targetBlobHash": None,
                "sanitizedContentDigest": hx("b"),
                "operation": "write",
            },
            {
                "targetPath": ".memory/scenes/old.md",
                "targetBlobHash": "c" * 40,
                "sanitizedContentDigest": None,
                "operation": "delete",
            },
        ],
        "policyVersion": "sanitize@1",
        "diff": "--- a\n+++ b\n",
    }


def consolidation_binding() -> dict[str, Any]:
    return {
        "databaseUuid": "db-uuid",
        "memoryStateUuid": "state-uuid",
        "owner": owner(),
        "approvedProjection": {
            "generation": 4,
            "analyzerVersion": "memory-approved@1",
            "coverage": "complete",
            "sourceTreeDigest": hx("1"),
        },
        "entrySetDigest": hx("2"),
        "entryRevisions": [{"entryId": "release-tests", "revision": 5, "contentDigest": hx("3")}],
        "sceneIndexDigest": hx("4"),
        "sceneRevisions": [{"name": "release-workflow", "contentDigest": hx("5"), "heat": 2}],
        "doctrineDigest": None,
        "replay": {"mode": "incremental", "afterSuccessfulRunId": None},
        "promptVersion": "memory-consolidation@3",
        "schemaVersion": "git-memory-consolidation-task@v1",
        "policyVersion": "consolidation-policy@1",
    }


def consolidation_task() -> dict[str, Any]:
    return {
        "format": "git-memory-consolidation-task@v1",
        "taskId": "consolidate-" + hx("6"),
        "lease": {"holder": "git-memory-agent", "expiresAt": 0},
        "binding": consolidation_binding(),
        "entries": [
            {
                "entryId": "release-tests",
                "revision": 5,
                "contentDigest": hx("3"),
                "type": "work_method",
                "scene": "release-workflow",
                "priority": 60,
                "confidence": "high",
                "body": "Run tests.",
            },
        ],
        "scenes": [
            {
                "name": "release-workflow",
                "contentDigest": hx("5"),
                "heat": 2,
                "content": "# Release\n- run tests\n",
            }
        ],
        "doctrine": {"contentDigest": hx("7"), "content": "# Doctrine\n"},
        "policy": {
            "maxScenes": 15,
            "mergePreferredAt": 12,
            "createForbiddenAt": 14,
            "dueEntryCount": 20,
            "heatAlgorithm": "scene-heat@1",
        },
        "contract": {
            "patchSchema": "git-memory-consolidation-patch@v1",
            "prompts": {"promptVersion": "memory-consolidation@3", "consolidation": "Consolidate."},
        },
    }


def consolidation_patch() -> dict[str, Any]:
    return {
        "format": "git-memory-consolidation-patch@v1",
        "taskId": "consolidate-" + hx("6"),
        "binding": consolidation_binding(),
        "operations": [
            {
                "operationId": "op-1",
                "op": "update",
                "target": "scene",
                "name": "release-workflow",
                "newContent": "# Release\n- run tests\n- tag\n",
                "basedOnEntryIds": ["release-tests"],
                "mergeSources": [],
                "rationale": "Adds the tagging step.",
            },
            {
                "operationId": "op-2",
                "op": "delete",
                "target": "doctrine",
                "name": "doctrine",
                "newContent": None,
                "basedOnEntryIds": [],
                "mergeSources": [],
                "rationale": "Obsolete.",
            },
        ],
    }


def synthesis() -> dict[str, Any]:
    return {
        "format": "git-memory-synthesis@v1",
        "task": consolidation_task(),
        "entryCount": 1,
        "dueAt": 20,
        "pendingRunId": None,
        "guidance": {
            "nextAction": "stage",
            "requestFormat": "git-memory-consolidation-patch@v1",
            "rule": "Answer with one ConsolidationPatch.",
        },
        "note": None,
    }


def skill_candidate() -> dict[str, Any]:
    return {
        "format": "git-memory-skill-candidate@v1",
        "taskId": "extract-" + hx("9"),
        "binding": extraction_binding(),
        "memoryContextDigest": hx("c"),
        "skill": {
            "name": "release-check",
            "description": "Run the release checks.",
            "body": "# Release check\n1. run tests\n",
            "action": "create",
            "expectedContentDigest": None,
        },
        "statements": [
            {"statementId": "s1", "text": "Tests pass first.", "evidenceIds": [EV0, EV1]}
        ],
    }


def memory_context() -> dict[str, Any]:
    from git_memory.contracts.canonical import digest

    context_binding = {
        "policyVersion": "skill-memory-first@1",
        "entrySetDigest": hx("1"),
        "sceneIndexDigest": hx("2"),
        "doctrineDigest": None,
    }
    return {
        "format": "git-memory-skill-context@v1",
        "strategy": "memory-first",
        "priority": ["existing-skill", "scene", "doctrine", "approved-entry", "historical-turn"],
        "binding": context_binding,
        "bindingDigest": digest(context_binding),
        "total": 5,
        "returned": 3,
        "returnedBytes": 900,
        "truncated": True,
        "selection": "query-ranked",
        "items": [
            {
                "kind": "scene",
                "name": "release-workflow",
                "heat": 2,
                "summary": "Releases",
                "contentDigest": hx("3"),
                "document": "# Release\n",
            },
            {"kind": "doctrine", "name": "doctrine", "contentDigest": hx("4"), "document": "# D\n"},
            {
                "kind": "approved-entry",
                "entryId": "release-tests",
                "revision": 5,
                "contentDigest": hx("5"),
                "type": "work_method",
                "scene": None,
                "priority": 60,
                "confidence": "high",
                "limitations": ["source-local-only"],
                "body": "Run tests.",
            },
        ],
    }


def skill_context() -> dict[str, Any]:
    return {
        "total": 1,
        "returned": 1,
        "returnedBytes": 80,
        "truncated": False,
        "selection": "all",
        "items": [
            {
                "name": "release-check",
                "description": "Run checks.",
                "contentDigest": hx("6"),
                "document": "---\nname: release-check\n---\n",
            }
        ],
    }


def agent_recall() -> dict[str, Any]:
    return {
        "format": "git-memory-agent-recall@v1",
        "selection": {
            "requestDigest": hx("4"),
            "resultSetDigest": hx("5"),
            "matchedSessions": 2,
            "rejectedSessions": 1,
            "pendingChunks": 3,
        },
        "tasks": [extraction_task()],
        "memoryContext": memory_context(),
        "skillContext": skill_context(),
        "guidance": {
            "nextAction": "stage",
            "requestFormat": "git-memory-candidate-draft-batch@v1",
            "skillRequestFormat": "git-memory-skill-candidate@v1",
            "rules": ["Cite evidence ids from the catalog."],
        },
        "note": "1 of 3 pending chunks returned",
    }


def review_item() -> dict[str, Any]:
    return {
        "candidateId": "extract-x-c1",
        "revision": 2,
        "kind": "entry",
        "type": "work_method",
        "content": "Release tests run with pytest.",
        "statements": [
            {
                "statementId": "s1",
                "text": "Release tests run with pytest.",
                "claimSupport": "unverified",
                "provenanceStrength": "direct",
                "limitations": ["source-local-only"],
                "statementTextDigest": hx("7"),
                "citationsDigest": hx("8"),
                "evidence": [
                    {"evidenceId": EV0, "display": "turn 0", "excerpt": "user: run the tests"}
                ],
            }
        ],
    }


def review() -> dict[str, Any]:
    return {"format": "git-memory-review@v1", "kind": "entry", "items": [review_item()]}


def agent_stage() -> dict[str, Any]:
    task = adjudication_task()
    return {
        "format": "git-memory-agent-stage@v1",
        "action": "stage",
        "taskId": "extract-" + hx("9"),
        "adjudicationTaskId": task["taskId"],
        "status": "adjudication-required",
        "noOp": False,
        "candidates": [{"candidateId": "t-c1", "revision": 1, "kind": "entry", "status": "draft"}],
        "reviewItems": [review_item()],
        "adjudicationTask": task,
        "recallComparison": {
            "recallAlgorithmVersion": "recall-rrf@1",
            "recallSets": task["recallSets"],
            "pool": task["pool"],
            "resultSetDigest": hx("b"),
        },
        "next": "Answer the adjudication task with an AdjudicationResult.",
        "skill": False,
    }


EXAMPLES = {
    "git-memory-extraction-request@v1": extraction_request,
    "git-memory-extraction-task@v1": extraction_task,
    "git-memory-candidate-draft-batch@v1": draft_batch,
    "git-memory-evidence-assessment@v1": assessment,
    "git-memory-adjudication-task@v1": adjudication_task,
    "git-memory-adjudication-result@v1": adjudication_result,
    "git-memory-runner-profile@v1": runner_profile,
    "git-memory-runner-execution-plan@v1": runner_plan,
    "git-memory-authorization-manifest@v1": manifest,
    "git-memory-prepare-request@v1": prepare_request,
    "git-memory-promotion-plan@v1": promotion_plan,
    "git-memory-consolidation-task@v1": consolidation_task,
    "git-memory-consolidation-patch@v1": consolidation_patch,
    "git-memory-synthesis@v1": synthesis,
    "git-memory-skill-candidate@v1": skill_candidate,
    "git-memory-agent-recall@v1": agent_recall,
    "git-memory-agent-stage@v1": agent_stage,
    "git-memory-review@v1": review,
}


def mutate(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of `document` with the item at `path` replaced (or removed by DELETE)."""
    out = copy.deepcopy(document)
    parent: Any = out
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return out


def model_for(name: str) -> Any:
    """The model class whose `format` literal is `name`."""
    from git_memory.contracts.catalog import contract_models, format_of

    return next(model for model in contract_models() if format_of(model) == name)


def refused(name: str, path: tuple[Any, ...], value: Any) -> str:
    """Validate the example of `name` with one change; return the ValidationError text."""
    from pydantic import ValidationError

    document = mutate(EXAMPLES[name](), path, value)
    try:
        model_for(name).model_validate(document)
    except ValidationError as exc:
        return str(exc)
    raise AssertionError(f"{name}: {path}={value!r} was accepted")
