"""Drive the agent-native flow from the JSON the tool prints, as an agent would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli


def evidence_id(task: dict[str, Any], display_prefix: str) -> str:
    """The evidence id whose display starts with `display_prefix`."""
    for item in task["evidenceCatalog"]:
        if item["display"].startswith(display_prefix):
            return str(item["evidenceId"])
    raise AssertionError(f"no evidence {display_prefix!r} in {task['evidenceCatalog']}")


def draft_batch(task: dict[str, Any], candidates: list[dict[str, Any]]) -> dict[str, Any]:
    """A CandidateDraftBatch answering `task`."""
    return {
        "format": "git-memory-candidate-draft-batch@v1",
        "taskId": task["taskId"],
        "binding": task["binding"],
        "candidates": candidates,
    }


def candidate(
    content: str, statements: list[tuple[str, list[str]]], type_: str = "work_method"
) -> dict[str, Any]:
    """One drafted candidate with (text, evidence ids) statements."""
    return {
        "content": content,
        "type": type_,
        "priority": 60,
        "confidence": "high",
        "scene": "testing",
        "statements": [
            {"statementId": f"s{n}", "text": text, "evidenceIds": ids}
            for n, (text, ids) in enumerate(statements, start=1)
        ],
    }


def decisions(
    adjudication: dict[str, Any], action: str = "store", **overrides: Any
) -> dict[str, Any]:
    """An AdjudicationResult deciding every draft with `action` unless overridden."""
    items = []
    for draft in adjudication["drafts"]:
        ref = draft["candidateId"]
        items.append(
            overrides.get(
                ref, {"draftRef": ref, "action": action, "targetIds": [], "mergedFields": None}
            )
        )
    return {
        "format": "git-memory-adjudication-result@v1",
        "taskId": adjudication["taskId"],
        "binding": adjudication["binding"],
        "adjudications": items,
    }


def stage(root: Path, document: dict[str, Any], tmp: Path) -> Any:
    """`git memory stage --request FILE --format json`."""
    path = tmp / f"stage-{abs(hash(json.dumps(document, sort_keys=True)))}.json"
    path.write_text(json.dumps(document))
    return run_cli(["stage", "--request", str(path), "--format", "json"], cwd=root)


def sample_batch(task: dict[str, Any]) -> dict[str, Any]:
    """Two drafts for the sample Claude session: the test command and the lint command."""
    turn0 = task["chunk"]["turnEvidence"][0]["evidenceId"]
    path = evidence_id(task, "path src/app.py")
    return draft_batch(
        task,
        [
            candidate(
                "Run the test suite with `uv run pytest -q`.",
                [("`uv run pytest -q` runs the whole suite and passed.", [turn0])],
            ),
            candidate(
                "Lint with `uv run ruff check .`; src/app.py had an unused import.",
                [("`uv run ruff check .` is the lint command.", [path])],
                "work_fact",
            ),
        ],
    )
