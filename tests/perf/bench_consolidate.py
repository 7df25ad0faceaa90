"""Benchmark of consolidation against plain file reads of the same approved memory.

Builds a throw-away repository with N approved entries and 14 scenes, then measures in one
process:
- the baseline: reading every entry and scene file once with plain `open()`;
- the first `synthesize` (approved projection synced from scratch, task built and planned)
  and a second one over unchanged memory (stat-only sync);
- staging a ConsolidationPatch (one scene update, host heat, validation, candidate);
- prepare + promote of that patch (plan, lint gate, CAS write, journal, index, re-sync).
Prints one JSON line. `--quick` uses 100 entries (the test suite runs it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a file, only this directory is on the module path: the checkout holds `tests.repos`.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

SCENE = (
    "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
    'summary: "Scene {n}"\nheat: {heat}\n-----META-END-----\n## Scene {n}\n- step one\n'
)


def _build(root: Path, entries: int) -> list[str]:
    from git_memory.formats.entry import Entry, serialize_entry
    from tests.repos import make_repo

    make_repo(root)
    memory = root / ".memory"
    (memory / "entries").mkdir(parents=True)
    (memory / "scenes").mkdir()
    ids = [f"rule-{n:05d}" for n in range(entries)]
    for entry_id in ids:
        body = f"Always run check {entry_id} before tagging a release.\n"
        entry = Entry(id=entry_id, type="work_method", scene="scene-0", body=body)
        (memory / "entries" / f"{entry_id}.md").write_text(serialize_entry(entry))
    for n in range(14):
        (memory / "scenes" / f"scene-{n}.md").write_text(SCENE.format(n=n, heat=n + 1))
    return ids


def _timed(function: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = function()
    return (time.perf_counter() - started) * 1000, value


def _read_all(root: Path) -> None:
    for path in sorted((root / ".memory").rglob("*.md")):
        with open(path, "rb") as handle:
            handle.read()


def _patch(task: Any, ids: list[str]) -> dict[str, Any]:
    content = SCENE.format(n=0, heat=1).replace("- step one", "- step one\n- step two")
    operation = {
        "operationId": "op-1",
        "op": "update",
        "target": "scene",
        "name": "scene-0",
        "newContent": content,
        "basedOnEntryIds": ids[:50],
        "mergeSources": [],
        "rationale": "add the second step",
    }
    return {
        "format": "git-memory-consolidation-patch@v1",
        "taskId": task.task_id,
        "binding": task.binding.to_json(),
        "operations": [operation],
    }


def measure(entries: int) -> dict[str, Any]:
    """Run every measurement; returns the figures."""
    from git_memory.ops.base import OpContext, load_operation
    from tests.review_helpers import prepare_document

    with tempfile.TemporaryDirectory() as temp:
        os.environ["GIT_MEMORY_HOME"] = str(Path(temp) / "state")
        root = Path(temp) / "repo"
        ids = _build(root, entries)

        def op(name: str, request: Any) -> Any:
            return load_operation(name).invoke(OpContext(repository=root), request)

        baseline_ms, _ = _timed(lambda: _read_all(root))
        first_ms, synthesis = _timed(lambda: op("synthesize", {"full": True}))
        again_ms, _ = _timed(lambda: op("synthesize", {"full": True}))
        stage_ms, _ = _timed(lambda: op("stage", _patch(synthesis.task, ids)))

        def promote() -> Any:
            items = op("review", {"kind": "consolidation"}).to_json()["items"]
            plan = op("prepare", prepare_document(items, "consolidation"))
            return op("promote", {"plan": plan.plan_id, "approve": plan.plan_digest})

        promote_ms, result = _timed(promote)
        if result.status != "applied":
            raise SystemExit("the consolidation plan was not applied")
    return {
        "bench": "consolidate",
        "entries": entries,
        "baseline_read_ms": round(baseline_ms, 2),
        "first_synthesize_ms": round(first_ms, 2),
        "second_synthesize_ms": round(again_ms, 2),
        "stage_patch_ms": round(stage_ms, 2),
        "review_prepare_promote_ms": round(promote_ms, 2),
        "second_synthesize_over_baseline": round(again_ms / max(baseline_ms, 0.001), 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: prints one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="100 entries")
    args = parser.parse_args(argv)
    sys.stdout.write(json.dumps(measure(100 if args.quick else 2000)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
