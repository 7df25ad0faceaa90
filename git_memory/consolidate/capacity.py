"""Scene capacity policy (`consolidation-policy@1`): at most 15 scenes.

From 12 scenes on, a create must say why its content cannot fit an existing scene; from 14 on
no create is allowed; at 15 (or more, after hand edits) every patch must bring the count
below 15 by merging or deleting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from git_memory.errors import GitMemoryError

if TYPE_CHECKING:
    from git_memory.consolidate.operation import PatchOperationFields

MAX_SCENES = 15
MERGE_PREFERRED_AT = 12
CREATE_FORBIDDEN_AT = 14

# A create at 12+ scenes must say why the content fits no existing scene. English or Chinese,
# as the original; a typographic apostrophe in "can’t" is accepted too.
CREATE_RATIONALE = re.compile(
    r"(?:cannot|can['’]t|unable to).{0,100}(?:fit|merge|fold|incorporat)"
    r"|(?:无法|不能).{0,60}(?:并入|合并|纳入)",
    re.IGNORECASE,
)


def capacity_error(rule: str, message: str, hint: str) -> GitMemoryError:
    """A rejection by the scene capacity policy (`GM_SCENE_CAPACITY`)."""
    return GitMemoryError("GM_SCENE_CAPACITY", message, hint=hint, details={"rule": rule})


def final_scene_count(
    operations: Sequence[PatchOperationFields], current: Mapping[str, int]
) -> int:
    """Scenes after the patch: creates and new merge targets add, deletes and sources remove."""
    names = set(current)
    for operation in operations:
        if operation.target != "scene":
            continue
        if operation.op == "delete":
            names.discard(operation.name)
        elif operation.op == "merge":
            names -= set(operation.merge_sources)
            names.add(operation.name)
        else:
            names.add(operation.name)
    return len(names)


def _check_create(creates: Sequence[PatchOperationFields], count: int) -> None:
    if creates and count >= CREATE_FORBIDDEN_AT:
        raise capacity_error(
            "create-forbidden",
            f"{count} scenes exist; from {CREATE_FORBIDDEN_AT} on a patch may not create one",
            "update or merge existing scenes instead",
        )
    if (
        creates
        and count >= MERGE_PREFERRED_AT
        and not CREATE_RATIONALE.search(creates[0].rationale)
    ):
        raise capacity_error(
            "create-rationale-required",
            f"{count} scenes exist; a create must explain why the content cannot fit an "
            "existing scene",
            "say in the rationale why it cannot be merged into or fit an existing scene",
        )


def check_capacity(operations: Sequence[PatchOperationFields], current: Mapping[str, int]) -> int:
    """Apply the capacity policy to a patch over the `current` scenes; the final count."""
    count = len(current)
    _check_create([o for o in operations if o.target == "scene" and o.op == "create"], count)
    final = final_scene_count(operations, current)
    if final > MAX_SCENES:
        raise capacity_error(
            "scene-capacity-exceeded",
            f"the patch would leave {final} scenes; at most {MAX_SCENES} are allowed",
            "merge or delete scenes in the same patch",
        )
    reduces = any(o.target == "scene" and o.op in ("merge", "delete") for o in operations)
    if count >= MAX_SCENES and (final >= MAX_SCENES or not reduces):
        raise capacity_error(
            "scene-reduction-required",
            f"{count} scenes exist; the patch must merge or delete below {MAX_SCENES}",
            "add a merge or delete of scenes to the patch",
        )
    return final
