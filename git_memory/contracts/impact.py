"""Does the memory help: `impact` request and response (docs/guide-verify.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from git_memory.contracts.base import Model, Timestamp
from git_memory.contracts.lifecycle import MemoryId

Verdict = Literal[
    "helped",
    "worse",
    "not read",
    "no change",
    "too rare to tell",
    "not relevant",
    "not relevant since",
    "too little data",
    "uncommitted",
]
LandingFound = Literal["commit", "content", "author date"]
SubjectKind = Literal["trap", "rule", "command"]


class ImpactRequest(Model):
    """Which entries to measure (none means every approved trap, rule and command), and the
    earliest session start to count (canonical UTC); `worktree`: only this worktree's
    sessions (by default those of every worktree of the repository count)."""

    format: Literal["git-memory-impact-request@v1"] = "git-memory-impact-request@v1"
    ids: Annotated[list[MemoryId], Field(max_length=1000)] = Field(default_factory=list)
    since: Timestamp | None = None
    # Left out of the document when false, so a request written before keeps its bytes.
    worktree: bool = Field(default=False, exclude_if=lambda value: not value)


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
    """One entry's windows and verdict. `landed`: the commit on the current branch that
    introduced the entry's current text (None while uncommitted) and its time;
    `firstLandedAt`: when the file first landed, if an edit moved the landing since;
    `landingFound`: `commit` (its commit time), `content` (rewritten history: an older
    commit with the same text from before the rewrite) or `author date` (rewritten
    history: the rewritten commit's author time); `split`: the verdict of each worktree's
    sessions alone, and `personSplit` of each person's (`you`, `teammate N`), each given
    only when one differs from the verdict."""

    id: str
    kind: SubjectKind
    path: str
    landed_commit: str | None
    landed_at: str | None
    before: ImpactWindow | None
    after: ImpactWindow | None
    verdict: Verdict
    first_landed_at: str | None = None
    landing_found: LandingFound | None = None
    split: dict[str, Verdict] = Field(default_factory=dict)
    person_split: dict[str, Verdict] = Field(default_factory=dict)


class ImpactResponse(Model):
    """`git-memory-impact@v1`: every measured entry, the counts per verdict, the session
    threshold under which no verdict but `too little data` (and no rate) is given, and one
    summary line for the team. `worktrees`: the worktrees whose sessions were read;
    `people`: how many people ran them (known by the home directories their sessions show);
    `undated`: the keys of sessions no window can hold (no turn has a start time)."""

    format: Literal["git-memory-impact@v1"] = "git-memory-impact@v1"
    entries: list[EntryImpact]
    sessions: int = Field(ge=0)
    min_sessions: int = Field(ge=1)
    verdicts: dict[str, int]
    summary: str
    worktrees: list[str] = Field(default_factory=list)
    people: int = Field(default=0, ge=0)
    undated: list[str] = Field(default_factory=list)
