"""Cutting an agent's memory file into items: one bullet, or one section's prose.

Agents keep memories as Markdown: Claude Code's `MEMORY.md` and topic files (YAML front
matter, then sections), Gemini CLI's `## Gemini Added Memories` bullets, Serena's free prose.
An item is a top-level bullet with its continuation lines, or the prose of a section that
has no bullets. Its key is the file, the heading path and its ordinal there, so an edited
bullet keeps its key and shows up as changed; its digest is over its normalized text.
Lines that only link to another file of the store (Claude Code's `MEMORY.md` index) are not
items: the linked file is read itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from git_memory.contracts.canonical import sha256_hex

MAX_ITEM_CHARS = 2000
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_INDEX_LINE = re.compile(r"^\[[^\]]*\]\([^)\s]+\.md\)\s*(?:[-—–:].*)?$")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


@dataclass(frozen=True)
class MemoryItem:
    """One memory of one store file: where it sits, its text and the digest of that text."""

    store: str
    file: str  # the file's name inside the store, never an absolute path
    key: str  # file, heading path and ordinal: stable while the item is edited in place
    text: str
    # Ids of the agent's sessions the store says the item was learned in (Codex's handbook
    # names them); not part of the digest.
    threads: tuple[str, ...] = ()
    # What the store itself files the item as (rule, fact or trap: the section of Codex's
    # handbook it sits in); None when only its words say (`extract/builtin/harvest.kind_of`).
    kind: str | None = None
    # The agent's session files the store names for the item (Codex's rollout paths): matched
    # against the sessions index, never shown.
    rollouts: tuple[str, ...] = ()
    # The person's own words the store quotes as theirs (a Codex preference's `the user
    # asked / corrected: "<quote>"`): the statement cites them as typed by a person.
    said: str | None = None
    # What is offered when it is not the store's text itself (a Codex preference's situation
    # and default without the quote); the digest stays over the store's text.
    offered: str | None = None

    @property
    def digest(self) -> str:
        """sha256 of the whitespace-normalized text."""
        return sha256_hex(" ".join(self.text.split()).encode())

    @property
    def content(self) -> str:
        """The text offered for review."""
        return self.offered or self.text


def split_items(store: str, file: str, text: str, section: str | None = None) -> list[MemoryItem]:
    """The items of one file; with `section`, only those under that heading (any level)."""
    text = _FRONT_MATTER.sub("", text.replace("\r\n", "\n"), count=1)
    items: list[MemoryItem] = []
    seen: dict[str, int] = {}
    for heading, block in _sections(text):
        if section is not None and heading.rsplit(" / ", 1)[-1] != section:
            continue
        # A heading repeated in one file names its later sections apart (`~2`, `~3`…).
        seen[heading] = seen.get(heading, 0) + 1
        place = (heading or "-") + (f"~{seen[heading]}" if seen[heading] > 1 else "")
        bodies = _bullets(block) or _prose(block)
        for ordinal, body in enumerate(bodies, start=1):
            key = f"{file}#{place}#{ordinal}"
            items.append(MemoryItem(store, file, key, body[:MAX_ITEM_CHARS]))
    return items


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading path, lines) of every section, the lines before any heading first."""
    path: list[tuple[int, str]] = []
    found: list[tuple[str, list[str]]] = [("", [])]
    fenced = False
    for line in text.split("\n"):
        fenced ^= bool(_FENCE.match(line))
        match = None if fenced else _HEADING.match(line)
        if match is None:
            found[-1][1].append(line)
            continue
        level = len(match.group(1))
        path = [(lvl, name) for lvl, name in path if lvl < level] + [(level, match.group(2))]
        found.append((" / ".join(name for _, name in path), []))
    return found


def _bullets(lines: list[str]) -> list[str]:
    """Top-level bullets with their indented continuation lines (index lines dropped)."""
    bodies: list[list[str]] = []
    for line in lines:
        match = _BULLET.match(line)
        if match:
            bodies.append([match.group(1).strip()])
        elif bodies and line.startswith((" ", "\t")) and line.strip():
            bodies[-1].append(line.strip())
        elif bodies and line.strip():
            bodies.append([])  # prose after a list ends the last bullet
    joined = [" ".join(body).strip() for body in bodies if body]
    return [body for body in joined if body and not _INDEX_LINE.match(body)]


def _prose(lines: list[str]) -> list[str]:
    """The section's text as one item (blank lines kept between paragraphs)."""
    body = "\n".join(lines).strip()
    body = re.sub(r"\n{3,}", "\n\n", body)
    return [body] if body and not _INDEX_LINE.match(body) else []
