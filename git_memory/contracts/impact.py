"""Does the memory help: `impact` request and response (docs/guide-verify.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from git_memory.contracts.base import Model, Timestamp
from git_memory.contracts.lifecycle import MemoryId

Verdict = Literal["helped", "no change", "not relevant since", "too little data", "uncommitted"]
SubjectKind = Literal["trap", "rule", "command"]


class ImpactRequest(Model):
    """Which entries to measure (none means every approved trap, rule and command), and the
    earliest session start to count (canonical UTC)."""

    format: Literal["git-memory-impact-request@v1"] = "git-memory-impact-request@v1"
    ids: Annotated[list[MemoryId], Field(max_length=1000)] = Field(default_factory=list)
    since: Timestamp | None = None


class ImpactWindow(Model):
    """Sessions on one side of the landing commit and what they did. `hits`: sessions that
    hit what the entry warns about (a trap's failure, a rule's forbidden command or the same
    rule asked again, a variant the command replaced); `followed`: sessions that did what it
    says (ran the trap's fix first, used the command); `relevant`: sessions that touched its
    subject at all (every session, for a rule)."""

    sessions: int = Field(ge=0)
    days: int = Field(ge=0)
    hits: int = Field(ge=0)
    followed: int = Field(ge=0)
    relevant: int = Field(ge=0)


class EntryImpact(Model):
    """One entry's windows and verdict. `landed`: the first commit on the current branch
    that added its file (None while uncommitted) and its time."""

    id: str
    kind: SubjectKind
    path: str
    landed_commit: str | None
    landed_at: str | None
    before: ImpactWindow | None
    after: ImpactWindow | None
    verdict: Verdict


class ImpactResponse(Model):
    """`git-memory-impact@v1`: every measured entry, the counts per verdict, the session
    threshold under which no verdict but `too little data` (and no rate) is given, and one
    summary line for the team."""

    format: Literal["git-memory-impact@v1"] = "git-memory-impact@v1"
    entries: list[EntryImpact]
    sessions: int = Field(ge=0)
    min_sessions: int = Field(ge=1)
    verdicts: dict[str, int]
    summary: str
