"""The plan kinds prepare and promote know beyond entries, by the request's `kind`."""

from __future__ import annotations

from git_memory.consolidate import promotion as consolidation
from git_memory.promote import retire
from git_memory.promote.kinds import PromotionKinds
from git_memory.skills import promotion as skill

PROMOTION_KINDS: PromotionKinds = {
    "skill": skill,
    "consolidation": consolidation,
    "retirement": retire,
}
