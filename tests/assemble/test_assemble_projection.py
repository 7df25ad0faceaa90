"""Projection planning (pure) and the re-check right before a projection is touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from git_memory.assemble.projection import (
    ProjectionStep,
    apply_step,
    plan_projection,
)
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError

A, B, EDIT = b"skill a\n", b"skill a v2\n", b"edited\n"


def _actions(plan: object) -> dict[str, str]:
    return {step.name: step.action for step in plan.steps}  # type: ignore[attr-defined]


def test_plan_covers_every_case() -> None:
    sources = {"new": A, "same": A, "ours": B, "theirs": B, "adopt": A}
    projected = {
        "new": None,
        "same": A,
        "ours": A,
        "theirs": EDIT,
        "adopt": A,
        "gone": A,
        "gone-edited": EDIT,
        "gone-missing": None,
    }
    recorded = sha256_hex(A)
    manifest = dict.fromkeys(
        ("same", "ours", "theirs", "gone", "gone-edited", "gone-missing"), recorded
    )
    plan = plan_projection(sources, projected, manifest)
    assert plan.conflicts == ["theirs"]
    assert _actions(plan) == {
        "adopt": "unchanged",
        "new": "create",
        "ours": "update",
        "same": "unchanged",
        "gone": "remove",
        "gone-edited": "kept-edited",
        "gone-missing": "forget",
    }
    assert plan.manifest == {
        "adopt": recorded,
        "new": recorded,
        "ours": sha256_hex(B),
        "same": recorded,
        "theirs": recorded,
        "gone-edited": recorded,
    }
    assert [s.name for s in plan.changes] == ["new", "ours", "gone"]


def test_a_file_edited_after_planning_is_still_a_conflict(tmp_path: Path) -> None:
    target = tmp_path / ".claude/skills/x/SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_bytes(A)
    step = ProjectionStep("x", "update", B, expected=sha256_hex(A))
    target.write_bytes(EDIT)
    with pytest.raises(GitMemoryError) as caught:
        apply_step(tmp_path, ".claude/skills", step)
    assert caught.value.code == "GM_ASSEMBLY_CONFLICT"
    assert target.read_bytes() == EDIT
    with pytest.raises(GitMemoryError):
        apply_step(
            tmp_path, ".claude/skills", ProjectionStep("x", "remove", expected=sha256_hex(A))
        )
    assert target.read_bytes() == EDIT


def test_a_file_that_appeared_after_planning_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / ".codex/skills/y/SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_bytes(EDIT)
    with pytest.raises(GitMemoryError) as caught:
        apply_step(tmp_path, ".codex/skills", ProjectionStep("y", "create", A))
    assert caught.value.code == "GM_ASSEMBLY_CONFLICT"
    assert target.read_bytes() == EDIT
