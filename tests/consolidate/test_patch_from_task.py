"""Validating a real ConsolidationPatch@v1 document against its ConsolidationTask@v1."""

from __future__ import annotations

import pytest

from git_memory.consolidate.rules import context_from_task, validate_patch
from git_memory.contracts.consolidation import ConsolidationPatch, ConsolidationTask
from git_memory.errors import GitMemoryError
from tests.consolidate.conftest_helpers import scene_text
from tests.contracts.model_examples import consolidation_patch, consolidation_task


def test_context_comes_from_the_task() -> None:
    context = context_from_task(ConsolidationTask.model_validate(consolidation_task()))
    assert context.scene_heats == {"release-workflow": 2}
    assert context.doctrine_present is True
    assert context.entry_ids == frozenset({"release-tests"})


def test_patch_document_validates_and_materializes() -> None:
    document = consolidation_patch()
    document["operations"][0]["newContent"] = scene_text(heat=50)
    patch = ConsolidationPatch.model_validate(document)
    task = ConsolidationTask.model_validate(consolidation_task())
    validated = validate_patch(patch.operations, context_from_task(task))
    assert [o.heat for o in validated.operations] == [3, None]
    assert [(f.path, f.kind) for f in validated.files] == [
        ("scenes/release-workflow.md", "write"),
        ("doctrine.md", "delete"),
    ]


def test_contract_example_content_without_meta_is_refused() -> None:
    patch = ConsolidationPatch.model_validate(consolidation_patch())
    task = ConsolidationTask.model_validate(consolidation_task())
    with pytest.raises(GitMemoryError) as caught:
        validate_patch(patch.operations, context_from_task(task))
    assert caught.value.details["rule"] == "scene-meta"
