"""`doctrine.md`: free Markdown, non-empty, ≤ 1200 code points after normalization."""

from __future__ import annotations

from dataclasses import dataclass

from git_memory.errors import FormatError
from git_memory.formats.normalize import code_points, normalize_text

MAX_DOCTRINE = 1200


@dataclass(frozen=True)
class Doctrine:
    """The team doctrine (L3); `text` is normalized."""

    text: str


def parse_doctrine(text: str) -> Doctrine:
    """Normalize and validate doctrine text (`GM_FORMAT_DOCTRINE_*`)."""
    normalized = normalize_text(text)
    if normalized.strip() == "":
        raise FormatError("GM_FORMAT_DOCTRINE_EMPTY", "doctrine.md is empty", line=1)
    if code_points(normalized) > MAX_DOCTRINE:
        raise FormatError(
            "GM_FORMAT_DOCTRINE_TOO_LONG",
            f"doctrine has {code_points(normalized)} code points (limit {MAX_DOCTRINE})",
            line=1,
        )
    return Doctrine(normalized)


def serialize_doctrine(doctrine: Doctrine) -> str:
    """The canonical text of the doctrine (its normalized form)."""
    return normalize_text(doctrine.text)
