"""Scene heat (`scene-heat@1`): owned by the host, never by the model.

Create = 1, update = old + 1, merge = 1 + the sum of the sources' heats. Any `heat:` a patch
carries is discarded and recomputed here. Results are checked against the signed 32-bit
maximum the original tool enforces, so a heat file written here reads there.
"""

from __future__ import annotations

from collections.abc import Sequence

from git_memory.errors import GitMemoryError

HEAT_ALGORITHM = "scene-heat@1"
HEAT_MAX = 2_147_483_647


def _checked(heat: int, scene: str) -> int:
    if heat > HEAT_MAX:
        raise GitMemoryError(
            "GM_HEAT_OVERFLOW",
            f"heat of scene {scene!r} would be {heat}, above the maximum {HEAT_MAX}",
            hint="merge fewer hot scenes at once",
            details={"scene": scene, "heat": heat, "max": HEAT_MAX},
        )
    return heat


def create_heat() -> int:
    """Heat of a newly created scene."""
    return 1


def update_heat(old: int, scene: str) -> int:
    """Heat of an updated scene: one more than before."""
    return _checked(old + 1, scene)


def merge_heat(source_heats: Sequence[int], scene: str) -> int:
    """Heat of a merge target: one plus every source's heat."""
    return _checked(1 + sum(source_heats), scene)
