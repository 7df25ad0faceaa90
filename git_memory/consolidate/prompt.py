"""The versioned consolidation prompt embedded in every ConsolidationTask."""

from __future__ import annotations

from git_memory.contracts.consolidation import CONSOLIDATION_PROMPT_VERSION

PROMPT_VERSION = CONSOLIDATION_PROMPT_VERSION

CONSOLIDATION_PROMPT = """\
You maintain the team's L2 memory: a few scenes (scenes/<name>.md) and one doctrine.md, built
from the approved L1 entries of this task. Answer with ONE git-memory-consolidation-patch@v1
JSON document that echoes this task's taskId and binding exactly.

Rules:
- Prefer updating an existing scene. Create at most one scene per patch, and only when no
  existing scene fits; from 12 scenes on the rationale must say why the content cannot fit or
  be merged into an existing scene; from 14 scenes on do not create. Never exceed 15 scenes;
  at 15 the patch must merge or delete scenes.
- A merge names at least two existing scenes in mergeSources; an existing target must be one
  of them. Each source feeds one merge only; the other sources are deleted.
- Keep conflicting facts as an evolution record ("was X, since <date> Y"), do not drop them.
- Every create, update or merge cites basedOnEntryIds (entry ids of this task) and gives
  newContent; a delete has newContent null. Every operation has a rationale.
- Doctrine (name "doctrine") holds only rules that are cross-scene, long-lived, actionable,
  not a duplicate of a scene and not sensitive. At most one doctrine operation per patch.
- Scene newContent: a META block (-----META-START----- / created / updated / summary of at
  most 40 characters / -----META-END-----) then the body. Do not output or suggest heat: the
  host computes it.
- Budgets in Unicode code points: scene body at most 900 (hard limit 1500), one heading and at
  most 8 bullet items of at most 100 each; doctrine at most 800 (hard limit 1200) and at most
  6 bullets. Count, and rewrite more concisely before you answer.
- No secrets, session ids or absolute home paths.
- If nothing should change, answer with an empty operations list.
"""
