"""Approved memory written as real files, and the CLI steps of the consolidation flow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import CliResult, run_cli


def write_entry(
    root: Path,
    entry_id: str,
    body: str,
    *,
    scene: str | None = "release",
    type_: str = "work_method",
) -> Path:
    """An approved entry in canonical form under `.memory/entries/`."""
    entry = Entry(
        id=entry_id,
        type=type_,
        priority=60,
        confidence="high",
        provenance_strength="direct",
        claim_support="human-confirmed",
        scene=scene,
        body=body if body.endswith("\n") else body + "\n",
    )
    path = root / ".memory" / "entries" / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialize_entry(entry), encoding="utf-8")
    return path


def write_entries(root: Path, count: int, prefix: str = "rule") -> list[str]:
    """`count` approved entries `<prefix>-<n>`; their ids."""
    ids = []
    for n in range(1, count + 1):
        entry_id = f"{prefix}-{n}"
        write_entry(root, entry_id, f"Always run the release check number {n} before tagging.")
        ids.append(entry_id)
    return ids


def scene_content(summary: str, bullets: list[str], heat: int | None = None) -> str:
    """Scene text as a model writes it (META without heat unless `heat`)."""
    heat_line = f"heat: {heat}\n" if heat is not None else ""
    items = "\n".join(f"- {b}" for b in bullets)
    return (
        "-----META-START-----\ncreated: 2026-11-20\nupdated: 2026-11-21\n"
        f'summary: "{summary}"\n{heat_line}-----META-END-----\n## {summary}\n{items}\n'
    )


def write_scene(root: Path, name: str, summary: str, heat: int) -> Path:
    """An approved scene file with `heat`."""
    path = root / ".memory" / "scenes" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(scene_content(summary, [f"{summary} step"], heat), encoding="utf-8")
    return path


def cli_json(args: list[str], root: Path) -> Any:
    """Run `git memory ARGS --format json`, assert success, return the JSON."""
    result = run_cli([*args, "--format", "json"], cwd=root)
    assert result.exit_code == 0, result.stderr + result.stdout
    return result.json()


def stage_doc(root: Path, document: dict[str, Any], tmp: Path) -> CliResult:
    """`git memory stage --request FILE --format json`."""
    path = tmp / f"doc-{abs(hash(json.dumps(document, sort_keys=True)))}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return run_cli(["stage", "--request", str(path), "--format", "json"], cwd=root)


def operation(
    op: str,
    name: str,
    content: str | None,
    entries: list[str],
    *,
    op_id: str = "op-1",
    target: str = "scene",
    sources: list[str] | None = None,
    rationale: str = "group the release rules",
) -> dict[str, Any]:
    """One PatchOperation document."""
    return {
        "operationId": op_id,
        "op": op,
        "target": target,
        "name": name,
        "newContent": content,
        "basedOnEntryIds": entries,
        "mergeSources": sources or [],
        "rationale": rationale,
    }


def patch(task: dict[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    """A ConsolidationPatch answering `task`."""
    return {
        "format": "git-memory-consolidation-patch@v1",
        "taskId": task["taskId"],
        "binding": task["binding"],
        "operations": operations,
    }


def prepare_and_promote(root: Path, kind: str, tmp: Path) -> dict[str, Any]:
    """review --kind KIND → prepare (confirm every statement) → promote --approve."""
    from tests.review_helpers import prepare_document

    review = cli_json(["review", "--kind", kind], root)
    assert review["items"], review
    request = tmp / f"prepare-{kind}.json"
    request.write_text(json.dumps(prepare_document(review["items"], kind)), encoding="utf-8")
    plan = cli_json(["prepare", "--request", str(request)], root)
    return cli_json(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], root)


def prepare_plan(root: Path, kind: str, tmp: Path) -> CliResult:
    """review --kind KIND → `git memory prepare` (not asserted)."""
    from tests.review_helpers import prepare_document

    review = cli_json(["review", "--kind", kind], root)
    request = tmp / f"prepare-{kind}.json"
    request.write_text(json.dumps(prepare_document(review["items"], kind)), encoding="utf-8")
    return run_cli(["prepare", "--request", str(request), "--format", "json"], cwd=root)


def error_code(result: CliResult) -> str:
    """The `GM_*` code of a failed `--format json` command."""
    assert result.exit_code != 0, result.stdout
    return str(json.loads(result.stdout)["error"]["code"])
