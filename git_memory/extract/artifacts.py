"""Private per-task records in the state home (`artifacts/agent-recalls/<taskId>.json`).

They hold what the host needs to judge an answer without trusting it: the task as issued and
the internal evidence index with strengths, relations and limitations.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from git_memory.contracts.adjudication import AdjudicationTask
from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.host_records import RecallRecord
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import ARTIFACTS_DIR, read_private, write_private_atomic

# Records hold transcript excerpts (tool inputs nest up to 64 levels on their own): the caps
# refuse only what no record of ours can be.
ARTIFACT_MAX_BYTES = 256 * 1024 * 1024
ARTIFACT_MAX_DEPTH = 256
RECALLS = "agent-recalls"
ADJUDICATIONS = "agent-adjudications"
_Record = TypeVar("_Record", AdjudicationTask, RecallRecord)
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def _path(state_home: Path, kind: str, task_id: str) -> Path:
    if not _SAFE_ID.match(task_id):
        raise GitMemoryError("GM_TASK_NOT_FOUND", f"not a task id: {task_id!r}")
    return state_home / ARTIFACTS_DIR / kind / f"{task_id}.json"


def save_recall(state_home: Path, record: RecallRecord) -> None:
    """Write (or rewrite identically) the host record of one extraction task."""
    _save(_path(state_home, RECALLS, record.task.task_id), record.to_json())


def recalls_holding(state_home: Path, evidence_ids: set[str]) -> dict[str, str]:
    """Evidence id -> the extraction task whose catalog holds it, for those of `evidence_ids`
    some kept recall record holds (ids are unique to a chunk, so one task per id)."""
    folder = state_home / ARTIFACTS_DIR / RECALLS
    wanted = {f'"{e}"'.encode(): e for e in evidence_ids}
    found: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        data = read_private(path)
        for needle, evidence_id in wanted.items():
            if evidence_id not in found and needle in data:
                found[evidence_id] = path.stem
    return found


def save_adjudication(state_home: Path, task: AdjudicationTask) -> None:
    """Keep the adjudication task as issued (its drafts and pool) for the second stage."""
    _save(_path(state_home, ADJUDICATIONS, task.task_id), task.to_json())


def _save(path: Path, document: dict[str, Any]) -> None:
    data = canonical_json(document) + b"\n"
    if path.exists() and read_private(path) == data:
        return
    write_private_atomic(path, data)


def load_adjudication(state_home: Path, task_id: str) -> AdjudicationTask:
    """The adjudication task `task_id` as issued, or `GM_TASK_NOT_FOUND`."""
    document = _load(_path(state_home, ADJUDICATIONS, task_id), task_id)
    return _read(AdjudicationTask, document, task_id)


def load_recall(state_home: Path, task_id: str) -> RecallRecord:
    """The host record of `task_id`, or `GM_TASK_NOT_FOUND`."""
    return _read(RecallRecord, _load(_path(state_home, RECALLS, task_id), task_id), task_id)


def _read(model: type[_Record], document: Any, task_id: str) -> _Record:
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        raise _corrupt(task_id) from exc


def _corrupt(task_id: str) -> GitMemoryError:
    return GitMemoryError(
        "GM_ARTIFACT_CORRUPT", f"the private record of task {task_id!r} is unreadable"
    )


def _load(path: Path, task_id: str) -> dict[str, Any]:
    try:
        document: dict[str, Any] = bounded_json.loads(
            read_private(path), max_bytes=ARTIFACT_MAX_BYTES, max_depth=ARTIFACT_MAX_DEPTH
        )
    except FileNotFoundError as exc:
        raise GitMemoryError(
            "GM_TASK_NOT_FOUND",
            f"no recalled task {task_id!r} in this state home",
            hint="run `git memory recall` and stage the task it returns",
        ) from exc
    except ValueError as exc:
        raise _corrupt(task_id) from exc
    return document
