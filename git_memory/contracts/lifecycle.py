"""Keeping memory true: `verify`, `list` and `retire` requests and responses."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, PrivateAttr, StringConstraints, field_validator
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.base import Model, Priority, unique
from git_memory.contracts.extraction import is_absent

Freshness = Literal["fresh", "stale", "unverifiable"]
MemoryId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
EntryType = Literal["work_fact", "work_task", "work_method", "work_artifact"]
MAX_REASON = 500
# An entry file's id (formats/entry.py allows 128 characters).
EntrySlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=128)]


class VerifyRequest(Model):
    """Which memories to check: entry ids, `scene:NAME` or `skill:NAME`; none means all."""

    format: Literal["git-memory-verify-request@v1"] = "git-memory-verify-request@v1"
    ids: Annotated[list[MemoryId], Field(max_length=1000)] = Field(default_factory=list)
    # A commit or branch: only the entries whose evidence BASE...HEAD touches are checked.
    changed: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = None


class VerifyReason(Model):
    """Something a memory relies on that is gone. `check`: path, commit, make-target,
    just-recipe, package-script, script-file, manifest or service."""

    check: str
    subject: str
    message: str


class VerifiedMemory(Model):
    """One memory's freshness; `notes` say what was seen but does not make it stale (an
    untracked path, a commit skipped in a shallow clone)."""

    id: str
    kind: Literal["entry", "scene", "skill"]
    path: str
    state: Freshness
    reasons: list[VerifyReason]
    notes: list[str] = Field(default_factory=list)


class VerifyDirective(Model):
    """Text in a memory file that tells agents to act beyond a memory's role
    (`GM_DIRECTIVE_<CLASS>`), in a file whose bytes no promotion reviewed on this machine
    wrote (it arrived by a pull, or was written by hand)."""

    path: str
    line: int = Field(ge=1)
    code: str
    message: str
    excerpt: str


class FreshnessCounts(Model):
    """How many memories are in each state."""

    fresh: int = Field(ge=0)
    stale: int = Field(ge=0)
    unverifiable: int = Field(ge=0)
    total: int = Field(ge=0)


class DriftLocation(Model):
    """A changed file an entry relies on, and the line at HEAD where the change is (None
    when the file is gone or the line is not known)."""

    file: str
    line: int | None = Field(default=None, ge=1)


class DriftedMemory(Model):
    """An entry whose evidence the change touches: the changed paths it relies on and where
    in them the change is; the entry's state is in `entries`."""

    id: str
    paths: list[str]
    locations: list[DriftLocation]


class DriftReport(Model):
    """`verify --changed BASE`: the range (full commit ids; the diff runs from the merge
    base to HEAD), how many paths it changed, and the entries it touches."""

    base: str
    merge_base: str
    head: str
    changed_paths: int = Field(ge=0)
    touched: list[DriftedMemory]


class VerifyResponse(Model):
    """`git-memory-verify@v1`: every checked memory and the counts per state; with
    `--changed`, only the entries the change touches, and `drift` says how."""

    format: Literal["git-memory-verify@v1"] = "git-memory-verify@v1"
    entries: list[VerifiedMemory]
    counts: FreshnessCounts
    drift: DriftReport | None = None
    directives: list[VerifyDirective] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=is_absent,
        description="Instructions to agents no one reviewed here (a pull, a hand edit).",
    )
    _rendering: str = PrivateAttr(default="text")


class ListRequest(Model):
    """`git memory list [--type T] [--stale] [--impact]`."""

    format: Literal["git-memory-list-request@v1"] = "git-memory-list-request@v1"
    type: EntryType | None = None
    stale: bool = False
    impact: bool = False


class ListedEntry(Model):
    """One approved entry as the table shows it."""

    id: str
    short_id: str
    type: EntryType
    priority: Priority
    claim_support: str
    last_occurred: str | None
    freshness: Freshness
    first_line: str
    path: str
    reasons: list[VerifyReason] = Field(default_factory=list)
    # With --impact: the entry's verdict as `git memory impact` gives it (None: not a
    # trap, rule or command, so not measured).
    impact: str | None = None


class ListResponse(Model):
    """`git-memory-list@v1`: approved entries (by priority, then id) and freshness counts;
    with --impact, each entry's impact verdict and the team's summary line."""

    format: Literal["git-memory-list@v1"] = "git-memory-list@v1"
    entries: list[ListedEntry]
    counts: FreshnessCounts
    impact_summary: str | None = None


class RetireRequest(Model):
    """Retire approved entries: a promotion plan sets `status: deprecated` (and
    `superseded_by` when `by` is given) and records `reason` in each entry."""

    format: Literal["git-memory-retire-request@v1"] = "git-memory-retire-request@v1"
    ids: Annotated[list[EntrySlug], Field(min_length=1, max_length=50)]
    reason: Annotated[str, StringConstraints(min_length=1, max_length=MAX_REASON)]
    by: EntrySlug | None = None

    @field_validator("ids")
    @classmethod
    def _unique_ids(cls, value: list[str]) -> list[str]:
        return unique(value)

    @field_validator("reason")
    @classmethod
    def _one_line(cls, value: str) -> str:
        value = value.strip()
        if not value or any(ch in value for ch in "\r\n"):
            raise ValueError("the reason is one non-empty line")
        return value
