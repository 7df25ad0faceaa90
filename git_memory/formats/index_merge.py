"""Three-way merge of index.json documents (the merge driver's pure core).

Items are keyed by id/name, and each field is merged three ways: a side that changed a
field wins over one that kept the ancestor's value. Because each side's index is generated
from its own tree, the result is the index of the merged tree whenever the memory files
themselves merged cleanly. A field both sides changed differently keeps ours and is
reported, so the caller can tell the user to run `git memory reindex` after resolving.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from git_memory.formats.index_json import INDEX_SECTIONS, MemoryIndex, render_index

_GONE: Any = None


@dataclass(frozen=True)
class IndexMerge:
    """The merged index bytes, item counts and the (section:key) items that conflicted."""

    data: bytes
    counts: dict[str, int]
    conflicts: tuple[str, ...]


def merge_indexes(base: MemoryIndex, ours: MemoryIndex, theirs: MemoryIndex) -> IndexMerge:
    """Merge `ours` and `theirs` relative to their common ancestor `base`."""
    merged: dict[str, list[dict[str, Any]]] = {}
    conflicts: list[str] = []
    for section, key in INDEX_SECTIONS:
        o, a, b = (_keyed(getattr(doc, section), key) for doc in (base, ours, theirs))
        items: list[dict[str, Any]] = []
        for name in sorted(set(o) | set(a) | set(b)):
            item, clash = _merge_item(o.get(name), a.get(name), b.get(name))
            if clash:
                conflicts.append(f"{section}:{name}")
            if item is not None:
                items.append(item)
        merged[section] = items
    data = render_index(merged["entries"], merged["scenes"], merged["skills"])
    counts = {section: len(items) for section, items in merged.items()}
    return IndexMerge(data, counts, tuple(conflicts))


def _keyed(items: tuple[dict[str, Any], ...], key: str) -> dict[str, dict[str, Any]]:
    return {str(item.get(key)): item for item in items}


def _merge_item(
    o: dict[str, Any] | None, a: dict[str, Any] | None, b: dict[str, Any] | None
) -> tuple[dict[str, Any] | None, bool]:
    if a == b:
        return a, False
    if o == a:
        return b, False
    if o == b:
        return a, False
    if a is None or b is None:
        # Deleted on one side, changed on the other: keep the changed item.
        return (a if a is not None else b), True
    merged: dict[str, Any] = {}
    clash = False
    for field in [*a, *(f for f in b if f not in a)]:
        base_value = (o or {}).get(field, _GONE)
        ours_value, theirs_value = a.get(field, _GONE), b.get(field, _GONE)
        if theirs_value in (ours_value, base_value):
            merged[field] = ours_value
        elif ours_value == base_value:
            merged[field] = theirs_value
        else:
            merged[field] = ours_value
            clash = True
    return {k: v for k, v in merged.items() if v is not _GONE}, clash
