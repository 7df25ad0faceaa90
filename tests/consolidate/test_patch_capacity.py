"""Scene capacity: 15 at most, a reason to create from 12, no create from 14, reduce at 15."""

from __future__ import annotations

import pytest

from git_memory.errors import GitMemoryError
from tests.consolidate.conftest_helpers import context, many_scenes, op, validate

NO_REASON = "a new topic"


def _capacity_rule(count: int, *operations: object) -> str:
    with pytest.raises(GitMemoryError) as caught:
        validate(list(operations), context(scenes=many_scenes(count)))
    assert caught.value.code == "GM_SCENE_CAPACITY"
    return str(caught.value.details["rule"])


def _create(rationale: str = NO_REASON) -> object:
    return op(op="create", name="fresh", rationale=rationale)


def test_create_below_12_needs_no_reason() -> None:
    assert validate([_create()], context(scenes=many_scenes(11))).scene_count_after == 12


@pytest.mark.parametrize("count", [12, 13])
def test_create_from_12_needs_a_reason(count: int) -> None:
    assert _capacity_rule(count, _create()) == "create-rationale-required"


@pytest.mark.parametrize(
    "rationale",
    [
        "This cannot fit any existing scene: it is about billing.",
        "We can't merge it into release-flow or testing.",
        "We can’t fold it into another scene.",
        "Unable to incorporate this into the current scenes.",
        "这些内容无法并入现有场景",
        "不能合并到任何已有场景",
    ],
)
def test_a_stated_reason_allows_the_create(rationale: str) -> None:
    patch = validate([_create(rationale)], context(scenes=many_scenes(13)))
    assert patch.scene_count_after == 14


def test_reason_must_say_it_cannot_fit() -> None:
    assert _capacity_rule(12, _create("it fits nowhere we cannot say")) == (
        "create-rationale-required"
    )


@pytest.mark.parametrize("count", [14, 15])
def test_no_create_from_14(count: int) -> None:
    assert _capacity_rule(count, _create("cannot fit anywhere")) == "create-forbidden"


def test_at_15_the_patch_must_reduce() -> None:
    update = op(name="s00")
    assert _capacity_rule(15, update) == "scene-reduction-required"
    doctrine = op(target="doctrine", name="doctrine", newContent="- x")
    assert _capacity_rule(15, doctrine) == "scene-reduction-required"
    delete = op(op="delete", name="s01", newContent=None, operationId="d")
    assert validate([update, delete], context(scenes=many_scenes(15))).scene_count_after == 14
    merge = op(op="merge", name="s00", mergeSources=["s00", "s02"])
    assert validate([merge], context(scenes=many_scenes(15))).scene_count_after == 14


def test_final_count_above_15_is_refused() -> None:
    # 16 scenes can exist after hand edits; a patch may not leave more than 15.
    assert _capacity_rule(16, op(name="s00")) == "scene-capacity-exceeded"
    one = op(op="delete", name="s01", newContent=None)
    assert _capacity_rule(16, one) == "scene-reduction-required"
    two = op(op="merge", name="s01", mergeSources=["s01", "s02", "s03"])
    assert validate([two], context(scenes=many_scenes(16))).scene_count_after == 14
