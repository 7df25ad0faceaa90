"""`index.json`: the generated navigation index (SPEC §4.6).

Deterministic: items sorted, one item per line, so two branches that each add an entry merge
without conflict in most cases (and the merge driver rebuilds it when they do conflict).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

INDEX_FORMAT = "git-memory-index@v1"
INDEX_SECTIONS: tuple[tuple[str, str], ...] = (
    ("entries", "id"),
    ("scenes", "name"),
    ("skills", "name"),
)


def render_index(
    entries: Sequence[Mapping[str, Any]] = (),
    scenes: Sequence[Mapping[str, Any]] = (),
    skills: Sequence[Mapping[str, Any]] = (),
) -> bytes:
    """Serialize the index: sorted by id/name, one compact JSON object per line."""
    lines = ["{", f'  "format": {json.dumps(INDEX_FORMAT)},']
    sections = {"entries": entries, "scenes": scenes, "skills": skills}
    for position, (section, key) in enumerate(INDEX_SECTIONS):
        items = sorted(sections[section], key=lambda item, k=key: str(item[k]))  # type: ignore[misc]
        comma = "," if position < len(INDEX_SECTIONS) - 1 else ""
        if not items:
            lines.append(f'  "{section}": []{comma}')
            continue
        lines.append(f'  "{section}": [')
        for number, item in enumerate(items):
            text = json.dumps(dict(item), ensure_ascii=False, separators=(", ", ": "))
            lines.append(f"    {text}{',' if number < len(items) - 1 else ''}")
        lines.append(f"  ]{comma}")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")
