"""Entry ids and names (docs/formats.md): slugify with NFKD folding, fallback and collision
suffixes."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

MAX_SLUG = 60
NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
NON_ALNUM = re.compile(r"[^a-z0-9]+")
# An apostrophe inside a word ("don't", "team’s") joins it rather than splitting it.
APOSTROPHE = re.compile(r"(?<=[a-z0-9])['\u2019](?=[a-z0-9])")
# A parenthetical remark closing a statement, with the sentence's end: "… (worked in 3
# sessions)." An id names the statement, not the remark, which may not stay true.
CLOSING_REMARK = re.compile(r"\s*\([^()]*\)\s*[.!;:]?\s*$")
# A hex run of 12+ characters with a digit in it, standing alone between dashes.
LONG_HEX = re.compile(r"(?<![0-9a-z])(?=[0-9a-f]*[0-9])[0-9a-f]{12,}(?![0-9a-z])")


def slugify(text: str) -> str:
    """Lowercase, fold accents (NFKD, marks dropped), drop apostrophes inside words,
    non-alphanumerics → `-`, ≤ 60 chars.

    Returns "" when nothing alphanumeric remains (CJK-only text, punctuation).
    """
    folded = unicodedata.normalize("NFKD", text.lower())
    ascii_only = "".join(ch for ch in folded if not unicodedata.combining(ch))
    slug = NON_ALNUM.sub("-", APOSTROPHE.sub("", ascii_only.lower())).strip("-")
    # A commit hash in the text would fill the id with 40 random-looking characters: keep
    # git's 7-character abbreviation, which names the commit as well in a slug.
    slug = LONG_HEX.sub(lambda match: match.group(0)[:7], slug)
    return slug[:MAX_SLUG].rstrip("-")


def fallback_id(content_digest: str) -> str:
    """The id of an entry whose text slugifies to nothing: `entry-<8 hex of its digest>`."""
    return f"entry-{content_digest[:8].lower()}"


def allocate_entry_id(text: str, existing_ids: Collection[str], content_digest: str) -> str:
    """A new entry's id that names no existing entry: the slug of its text (without a closing
    parenthetical remark), else `-2`, `-3`, ….

    `existing_ids` are the ids already taken (files in the tree plus ids planned in the same
    promotion). The result stays within 60 characters: the base is cut to make room.
    """
    base = slugify(CLOSING_REMARK.sub("", text)) or slugify(text) or fallback_id(content_digest)
    if base not in existing_ids:
        return base
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = base[: MAX_SLUG - len(suffix)].rstrip("-") + suffix
        if candidate not in existing_ids:
            return candidate
        number += 1


def is_name(value: str) -> bool:
    """Whether `value` is a scene/skill name: a lowercase slug of 1–64 characters."""
    return NAME.fullmatch(value) is not None
