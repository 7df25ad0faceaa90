"""What an extraction or adjudication plan sends, as opaque coverage items.

The human approving a RunnerExecutionPlan sees which inputs are in the bytes (and whether any
was cut) without the plan carrying any of their text: ids, revisions, digests and sizes only.
"""

from __future__ import annotations

from git_memory.contracts.adjudication import AdjudicationTask
from git_memory.contracts.canonical import canonical_json, sha256_hex
from git_memory.contracts.extraction import ExtractionTask
from git_memory.contracts.runner import InputCoverage


def _item(
    kind: str, source: str, data: bytes, *, revision: int | None = None, truncated: bool = False
) -> InputCoverage:
    return InputCoverage(
        source_kind=kind,
        opaque_source_id=source,
        revision=revision,
        content_digest=sha256_hex(data),
        bytes=len(data),
        truncated=truncated,
    )


def _prompt(version: str, text: str) -> InputCoverage:
    return _item("prompt", version, text.encode())


def extraction_coverage(task: ExtractionTask) -> list[InputCoverage]:
    """The chunk's transcript (turn range, cut or whole) and the prompt."""
    chunk = task.chunk
    rng = chunk.turn_range
    truncated = any(item.completeness == "truncated" for item in chunk.coverage)
    prompts = task.contract.prompts
    return [
        _item(
            "transcript",
            f"{task.task_id}:turns:{rng.start}-{rng.end}",
            chunk.transcript.encode(),
            truncated=truncated,
        ),
        _prompt(prompts.prompt_version, prompts.extraction or ""),
    ]


def adjudication_coverage(task: AdjudicationTask) -> list[InputCoverage]:
    """Each draft in full, each pool item as its summary (cut), and the prompt."""
    items = [
        _item("draft", draft.candidate_id, canonical_json(draft.to_json())) for draft in task.drafts
    ]
    for pool in task.pool:
        kind = "approved-entry" if pool.source_kind == "approved" else "candidate-pool"
        items.append(
            _item(kind, pool.id, pool.summary.encode(), revision=pool.revision, truncated=True)
        )
    prompts = task.contract.prompts
    items.append(_prompt(prompts.prompt_version, prompts.adjudication or ""))
    return items
