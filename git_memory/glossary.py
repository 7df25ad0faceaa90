"""The words git memory's screens use, in plain words: one row per term.

`git memory help glossary` prints this table and docs/glossary.md holds the same rows (a
test keeps them in step); the demo and review say the plain words of the terms they show
first (`plain`), so a newcomer meets each term once with its meaning.
"""

from __future__ import annotations

import textwrap

from git_memory.records import Record


class Term(Record):
    """One term as the screens print it, and what it means."""

    term: str
    plain: str


GLOSSARY: tuple[Term, ...] = (
    Term(
        "candidate",
        "a memory proposed from your agents' sessions or their own notes; nothing of it is in"
        " the repository until you confirm it and promote it",
    ),
    Term(
        "quarantine",
        "the private review queue, outside the repository, where candidates wait until you"
        " confirm or discard them (`quarantined`: waiting there)",
    ),
    Term(
        "typed-fact",
        "a memory read from what a tool observed (a command that ran, and its result), written"
        " in a fixed sentence the host re-checks: no one's opinion, so review lets you confirm"
        " them together",
    ),
    Term(
        "unverified",
        "someone's words (a person's, or an agent's) that no person has confirmed yet; they"
        " reach the repository only after you confirm them in review",
    ),
    Term("human-confirmed", "a statement a person confirmed in review (what unverified becomes)"),
    Term(
        "direct, observed, contextual",
        "how close the evidence is to a statement: the turn or commit itself (direct), a file"
        " a tool touched (observed), a note or a file it names (contextual)",
    ),
    Term(
        "promotion plan",
        "the exact files a promotion will write into the memory root, with their diff;"
        " nothing is written until you approve it",
    ),
    Term(
        "plan digest",
        "a fingerprint (SHA-256) of a plan's exact bytes: approving a digest approves those"
        " bytes and no others, so a changed plan needs a new approval",
    ),
    Term(
        "promote",
        "write an approved plan's files into the memory root (`.memory/`); git memory never"
        " commits them",
    ),
    Term(
        "assemble",
        "put approved memory into the agents' own files (CLAUDE.md, AGENTS.md, …) as one"
        " generated block",
    ),
    Term(
        "fresh, stale, unverifiable",
        "what `git memory verify` found: everything an entry cites still holds; something it"
        " cites is gone; it cites nothing that can be checked",
    ),
    Term(
        "harvest",
        "read what agents keep in their own memory stores and offer each item for review",
    ),
    Term(
        "state home",
        "the private folder outside every repository that holds the transcript index,"
        " candidates, plans and logs",
    ),
)


def plain(term: str) -> str:
    """The plain words of `term` (a term of the table)."""
    return next(row.plain for row in GLOSSARY if row.term == term)


def render(width: int = 80) -> str:
    """The glossary as `git memory help glossary` prints it: each term, then its meaning
    wrapped below it (a definition list, as a man page shows one)."""
    lines = ["The words git memory's screens use, in plain words:"]
    for row in GLOSSARY:
        meaning = row.plain[:1].upper() + row.plain[1:] + "."
        lines += [
            "",
            f"  {row.term}",
            textwrap.fill(meaning, width, initial_indent=" " * 6, subsequent_indent=" " * 6),
        ]
    return "\n".join(lines)
