"""The impact of approved entries: their landing commits, the sessions on either side, the
verdicts and the team's summary line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from git_memory.bulk import collection_paused
from git_memory.contracts.impact import EntryImpact, ImpactResponse, ImpactWindow, Verdict
from git_memory.extract.builtin.people import ActivityPeople, person_labels
from git_memory.formats.entry import Entry
from git_memory.impact.delivery import Deliveries, Marks
from git_memory.impact.measure import MIN_SESSIONS, LandingSide, SessionIndex, measure
from git_memory.impact.subjects import Subject, subject_of
from git_memory.repo.landing import Landing, entry_landings
from git_memory.sessions.activity import (
    Activity,
    SessionActivity,
    session_activity,
    worktree_roots,
)
from git_memory.verify.check import memory_items

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

VERDICTS: tuple[str, ...] = get_args(Verdict)
# Verdicts that say the entry had an effect: only when something delivered it (`delivery.py`).
MOVED = ("helped", "worse")


def measurable_entries(
    worktree: Worktree, ids: Sequence[str] = ()
) -> list[tuple[Entry, str, Subject]]:
    """(entry, worktree path, subject) of every approved trap, rule and command; only those
    named by `ids` when given."""
    wanted = set(ids)
    found = []
    for item_id, kind, relpath, parsed in memory_items(worktree):
        if kind != "entry" or not isinstance(parsed, Entry) or (wanted and item_id not in wanted):
            continue
        subject = subject_of(parsed.body)
        if subject is not None:
            found.append((parsed, f"{worktree.memory_root}/{relpath}", subject))
    return found


def impact(
    worktree: Worktree,
    ids: Sequence[str] = (),
    since: str | None = None,
    *,
    only_this_worktree: bool = False,
) -> ImpactResponse:
    """Every measured entry of `worktree` (or those named by `ids`) from the session index:
    the sessions of every worktree of the repository, or of this one alone."""
    with collection_paused():
        return _impact(worktree, ids, since, only_this_worktree)


def _impact(
    worktree: Worktree, ids: Sequence[str], since: str | None, only_this_worktree: bool
) -> ImpactResponse:
    entries = measurable_entries(worktree, ids)
    landings = entry_landings(worktree.repository, f"{worktree.memory_root}/entries")
    activity = (
        session_activity(worktree, since, every_worktree=not only_this_worktree)
        if entries
        else Activity([], [])
    )
    sessions = activity.sessions
    subjects = [subject for _, _, subject in entries]
    people = _people(worktree, sessions)
    index = SessionIndex(
        sessions,
        rule_keys=(key for subject in subjects for key in subject.rule_keys),
        people=people,
    )
    measured = []
    unread = _Unread(worktree, sessions, landings, index)
    for entry, path, subject in entries:
        landing = landings.get(f"{entry.id}.md")
        result = measure(index, subject, landing.time if landing else None)
        told = [result.verdict, *result.split.values(), *result.person_split.values()]
        # A move nothing delivered is not the entry's effect, for everyone or for some.
        read = (
            landing is None or not any(v in MOVED for v in told) or unread.reached(entry, landing)
        )
        measured.append(
            EntryImpact(
                id=entry.id,
                kind=subject.kind,
                path=path,
                landed_commit=landing.commit if landing else None,
                landed_at=_moment(landing.time) if landing else None,
                before=_window(result.before),
                after=_window(result.after),
                verdict=result.verdict if read else _unread(result.verdict),
                first_landed_at=_moment(landing.first_time)
                if landing and landing.first_time
                else None,
                landing_found=landing.found if landing else None,
                split=result.split if read else _unread_split(result.split),
                person_split=result.person_split if read else _unread_split(result.person_split),
            )
        )
    verdicts = {name: sum(1 for m in measured if m.verdict == name) for name in VERDICTS}
    return ImpactResponse(
        entries=measured,
        sessions=len(sessions),
        min_sessions=MIN_SESSIONS,
        verdicts=verdicts,
        summary=summary_line(measured),
        worktrees=sorted({session.worktree for session in sessions}),
        people=len(set(people)),
        undated=activity.undated,
    )


@dataclass
class _Unread:
    """Whether the entries reached the agents (`delivery.py`), the files' history read on
    the first question: only an entry whose rate moved asks."""

    worktree: Worktree
    sessions: Sequence[SessionActivity]
    landings: dict[str, Landing]
    index: SessionIndex
    deliveries: Deliveries | None = None

    def reached(self, entry: Entry, landing: Landing) -> bool:
        if self.deliveries is None:
            earliest = min(found.time for found in self.landings.values())
            self.deliveries = Deliveries.read(
                self.worktree.repository, self.sessions, self.worktree.memory_root, earliest
            )
        return self.deliveries.reached(Marks.of(entry.body), landing.time, self.index)


def _unread(verdict: str) -> str:
    return "not read" if verdict in MOVED else verdict


def _unread_split(split: dict[str, str]) -> dict[str, str]:
    return {name: _unread(verdict) for name, verdict in split.items()}


def _people(worktree: Worktree, sessions: Sequence[SessionActivity]) -> list[str]:
    """Who ran each session (`you`, `teammate N`), by the homes its tools reached outside
    its worktree (`extract/builtin/people.py`)."""
    if not sessions:
        return []
    roots = worktree_roots(worktree)
    readers: dict[str, ActivityPeople] = {}
    home = str(Path.home())
    people = []
    for session in sessions:
        if session.worktree not in readers:
            root = roots.get(session.worktree, worktree.root)
            readers[session.worktree] = ActivityPeople(str(root), home)
        people.append(readers[session.worktree].person(session.calls, session.asks))
    return person_labels(people)


def _moment(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _window(window: LandingSide | None) -> ImpactWindow | None:
    return None if window is None else ImpactWindow(**vars(window))


def summary_line(measured: Sequence[EntryImpact]) -> str:
    """One line for the team: what helped, what is no longer relevant, what cannot be told."""
    if not measured:
        return "no approved trap, rule or command to measure"
    parts = []
    helped = [m for m in measured if m.verdict == "helped"]
    if helped:
        after = max(m.after.sessions for m in helped if m.after)
        parts.append(
            f"{_count(len(helped), 'entry', 'entries')} helped (hit less or followed more "
            f"since landing, up to {after} sessions after)"
        )
    worse = [m for m in measured if m.verdict == "worse"]
    if worse:
        parts.append(f"{_count(len(worse), 'entry', 'entries')} worse since landing")
    unread = sum(1 for m in measured if m.verdict == "not read")
    if unread:
        parts.append(
            f"{_count(unread, 'entry', 'entries')} not read (moved, but nothing put it in "
            "front of the agents): run `git memory assemble` and commit what it writes"
        )
    untouched = sum(1 for m in measured if m.verdict == "not relevant")
    if untouched:
        parts.append(
            f"{_count(untouched, 'entry', 'entries')} not relevant (no session touched it): "
            "consider `git memory retire`"
        )
    stale = [m for m in measured if m.verdict == "not relevant since"]
    if stale:
        days = min(m.after.days for m in stale if m.after)
        parts.append(
            f"{_count(len(stale), 'entry', 'entries')} not relevant in {days}+ days since "
            "landing: consider `git memory retire`"
        )
    for verdict in ("no change", "too rare to tell", "too little data", "uncommitted"):
        count = sum(1 for m in measured if m.verdict == verdict)
        if count:
            parts.append(f"{count} {verdict}")
    return "; ".join(parts)


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
