"""Offers: what corroborates each builtin candidate, and whether review has been offered it.

The builtin extractor stages every memory a window shows, each with its corroboration (the
sessions and people that show it) and its rank. An `extract` run then offers review at most
`memory.extractLimit` candidates not offered before, the highest rank first; the others stay
quarantined but wait here, and a later run (or the same one with a higher limit) offers
them. A later window that shows a waiting or offered memory again adds its sessions and
people to it. Candidates without a row here (staged by an agent or a model runner,
harvested from an agent's own memory) are offered as soon as they are quarantined.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from git_memory.contracts.extraction import OwnerKeys
from git_memory.records import Record
from git_memory.store.db import StateDB, now_ms


class Corroboration(Record):
    """What shows one memory: its key, the sessions and people, its rank and kind weight."""

    fact_key: str
    sessions: tuple[str, ...]
    people: tuple[str, ...]
    rank: int
    weight: int


def record_offers(db: StateDB, owner: OwnerKeys, rows: Sequence[tuple[str, Corroboration]]) -> None:
    """Keep the corroboration of newly staged candidates (candidate id, corroboration); each
    waits until an extract run offers it."""
    with db.write():
        for candidate_id, found in rows:
            db.execute(
                "INSERT OR IGNORE INTO candidate_offers (candidate_id, repository_key,"
                " worktree_key, fact_key, sessions_json, people_json, rank, weight)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    candidate_id,
                    owner.repository_key,
                    owner.worktree_key,
                    found.fact_key,
                    _listed(found.sessions),
                    _listed(found.people),
                    found.rank,
                    found.weight,
                ),
            )


def held(db: StateDB, owner: OwnerKeys) -> dict[str, tuple[str, Corroboration]]:
    """Fact key → (candidate id, corroboration) of every builtin candidate still in
    quarantine, offered or waiting."""
    rows = db.rows(
        "SELECT o.candidate_id, o.fact_key, o.sessions_json, o.people_json, o.rank, o.weight"
        " FROM candidate_offers o JOIN candidates c ON c.candidate_id = o.candidate_id"
        " WHERE o.repository_key = ? AND o.worktree_key = ? AND c.status = 'quarantined'",
        (owner.repository_key, owner.worktree_key),
    )
    found: dict[str, tuple[str, Corroboration]] = {}
    for row in rows:
        sessions, people = json.loads(row[2]), json.loads(row[3])
        found[row[1]] = (
            row[0],
            Corroboration(row[1], tuple(sessions), tuple(people), row[4], row[5]),
        )
    return found


def set_support(db: StateDB, candidate_id: str, found: Corroboration) -> None:
    """Replace a candidate's corroboration (a later window showed its memory again)."""
    with db.write():
        db.execute(
            "UPDATE candidate_offers SET sessions_json = ?, people_json = ?, rank = ?"
            " WHERE candidate_id = ?",
            (
                json.dumps(sorted(found.sessions)),
                json.dumps(sorted(found.people)),
                found.rank,
                candidate_id,
            ),
        )


_WAITING = (
    " FROM candidate_offers o JOIN candidates c ON c.candidate_id = o.candidate_id"
    " WHERE o.repository_key = ? AND o.worktree_key = ? AND c.status = 'quarantined'"
    " AND o.offered_at IS NULL"
)


def offer_waiting(db: StateDB, owner: OwnerKeys, limit: int) -> list[str]:
    """Offer review the `limit` waiting candidates of highest rank; their ids, in that order."""
    keys = (owner.repository_key, owner.worktree_key)
    with db.write():
        chosen = [
            str(row[0])
            for row in db.rows(
                "SELECT o.candidate_id"
                + _WAITING
                + " ORDER BY o.rank DESC, o.weight DESC, o.candidate_id LIMIT ?",
                (*keys, limit),
            )
        ]
        stamp = now_ms()
        for candidate_id in chosen:
            db.execute(
                "UPDATE candidate_offers SET offered_at = ? WHERE candidate_id = ?",
                (stamp, candidate_id),
            )
    return chosen


def waiting_count(db: StateDB, owner: OwnerKeys) -> int:
    """How many quarantined candidates wait to be offered."""
    return int(db.scalar("SELECT count(*)" + _WAITING, (owner.repository_key, owner.worktree_key)))


def _listed(values: Sequence[str]) -> str:
    return json.dumps(sorted(values))
