"""Approved entries as the context block shows them: one line each, ranked (pure).

An entry is shown as its content on one line, or its first sentence when the content is
longer than `MAX_LINE_CHARS`; inline code spans are never split. Ranking: priority (high
first), then human-confirmed before the others, then the most recent `occurred` date, then the
id, so the order is total and a second run renders the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from git_memory.assemble.groups import group_of
from git_memory.assemble.scope import entry_scope

MAX_LINE_CHARS = 320
ELLIPSIS = "…"
# Claim support, most trusted first; anything else ranks after these.
SUPPORT_RANK: Mapping[str, int] = {"human-confirmed": 0, "typed-fact": 1, "mixed": 2}
_LINE_MARK = re.compile(r"^(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)")
_CODE = re.compile(r"`[^`]*`")


@dataclass(frozen=True)
class ApprovedEntry:
    """What the block needs of one approved entry."""

    id: str
    type: str
    scene: str | None
    priority: int
    claim_support: str
    occurred: str  # the latest `occurred` date, "" when none
    superseded: bool
    text: str  # one line
    group: str
    scope: str | None = None  # the directory it applies below; None: everywhere

    @property
    def rank(self) -> tuple[int, int, str, str]:
        """Sort key: priority desc, support, latest occurred desc (via inverted chars), id."""
        inverted = "".join(chr(0x7F - ord(c)) for c in self.occurred) if self.occurred else "~"
        return (-self.priority, SUPPORT_RANK.get(self.claim_support, 9), inverted, self.id)


def entry_from_row(row: Any) -> ApprovedEntry:
    """An entry from an approved-projection row (`list_approved_entries`)."""
    front: dict[str, Any] = json.loads(row["frontmatter_json"])
    text = one_line(row["body_text"])
    occurred = max(front.get("occurred") or [""])
    return ApprovedEntry(
        id=row["entry_id"],
        type=row["type"],
        scene=row["scene"] or None,
        priority=int(row["priority"] or 0),
        claim_support=str(front.get("claim_support", "")),
        occurred=occurred,
        superseded=front.get("superseded_by") is not None,
        text=text,
        group=group_of(row["type"], text),
        scope=entry_scope(
            str(front.get("scope", "repo")),
            (front.get("evidence") or {}).get("paths", []),
            row["body_text"],
        ),
    )


def _plain_lines(body: str) -> Iterable[str]:
    for line in body.split("\n"):
        stripped = _LINE_MARK.sub("", line.strip())
        if stripped:
            yield stripped


def _neutralized(text: str) -> str:
    # An HTML comment opened inside the block could hide the END marker from renderers.
    return text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def one_line(body: str) -> str:
    """The entry body on one line: whole when short enough, else its first sentence."""
    text = _neutralized(" ".join(" ".join(_plain_lines(body)).split()))
    if len(text) <= MAX_LINE_CHARS:
        return text
    sentence = first_sentence(text)
    if len(sentence) <= MAX_LINE_CHARS:
        return sentence
    return _cut(sentence)


def _code_spans(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in _CODE.finditer(text)]


def _inside(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def first_sentence(text: str) -> str:
    """Up to the first `.`, `!` or `?` followed by a space, outside inline code."""
    spans = _code_spans(text)
    for match in re.finditer(r"[.!?](?=\s)", text):
        if not _inside(match.start(), spans):
            return text[: match.end()]
    return text


def _cut(text: str) -> str:
    """About `MAX_LINE_CHARS`, cut at a space outside inline code, with an ellipsis.

    A code span that straddles the limit is kept whole (the line grows past the limit) when no
    space outside code is found in the second half of the line.
    """
    spans = _code_spans(text)
    limit = MAX_LINE_CHARS - len(ELLIPSIS)
    for position in range(limit, limit // 2, -1):
        if text[position] == " " and not _inside(position, spans):
            return text[:position].rstrip() + ELLIPSIS
    for start, end in spans:
        if start <= limit < end:
            return text[:end] + ELLIPSIS
    return text[:limit] + ELLIPSIS
