"""`git memory verify --changed BASE`: the response and its renderings (people, GitHub).

GitHub workflow annotations are lines `::warning file=F,line=N,title=T::MESSAGE` that a
workflow step prints; GitHub shows them on those lines of the pull request's diff. Values
are escaped the way the runner reads them back (`%`, CR and LF in the message; also `:` and
`,` in the properties).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.contracts.lifecycle import (
    DriftedMemory,
    DriftLocation,
    DriftReport,
    FreshnessCounts,
    VerifiedMemory,
    VerifyReason,
    VerifyResponse,
)
from git_memory.repo.changes import changes_since
from git_memory.verify.check import Checked, counts
from git_memory.verify.drift import touched_entries

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def drift_response(worktree: Worktree, base: str) -> VerifyResponse:
    """The entries whose evidence BASE...HEAD touches, each with its state now."""
    changes = changes_since(worktree.repository, base)
    touched = touched_entries(worktree, changes)
    checked = [item.checked for item in touched]
    return VerifyResponse(
        entries=[verified_memory(item) for item in checked],
        counts=FreshnessCounts(**counts(checked)),
        drift=DriftReport(
            base=changes.base,
            merge_base=changes.merge_base,
            head=changes.head,
            changed_paths=len(changes.files),
            touched=[
                DriftedMemory(
                    id=item.checked.id,
                    paths=list(item.paths),
                    locations=[DriftLocation(file=at.file, line=at.line) for at in item.locations],
                )
                for item in touched
            ],
        ),
    )


def verified_memory(item: Checked) -> VerifiedMemory:
    """The contract of one checked memory."""
    return VerifiedMemory(
        id=item.id,
        kind=item.kind,
        path=item.path,
        state=item.state,
        reasons=[VerifyReason(**vars(reason)) for reason in item.reasons],
        notes=list(item.notes),
    )


def render_drift(response: VerifyResponse) -> str:
    """One line per touched entry (its state, the changed paths it relies on, the reasons
    when stale), then a summary line."""
    assert response.drift is not None
    by_id = {item.id: item for item in response.drift.touched}
    lines = []
    for entry in response.entries:
        where = ", ".join(_located(at) for at in by_id[entry.id].locations)
        line = f"{entry.path}: {entry.state}: relies on {where}"
        if entry.state == "stale":
            line += ": " + "; ".join(reason.message for reason in entry.reasons)
        lines.append(line)
    lines.append(_summary(response))
    return "\n".join(lines)


def _located(at: DriftLocation) -> str:
    return at.file if at.line is None else f"{at.file}:{at.line}"


def _summary(response: VerifyResponse) -> str:
    assert response.drift is not None
    drift = response.drift
    touched = len(drift.touched)
    stale = response.counts.stale
    paths = f"{drift.changed_paths} changed path{'' if drift.changed_paths == 1 else 's'}"
    since = f"since {drift.merge_base[:12]}"
    if not touched:
        return f"{paths} {since}; no approved entry relies on them"
    entries = f"{touched} entr{'y' if touched == 1 else 'ies'}"
    return f"{paths} {since} touch the evidence of {entries}; {stale} of them stale now"


def github_annotations(response: VerifyResponse) -> str:
    """Workflow annotation lines: a warning on each changed location a stale entry relies on,
    a notice on each one a still-fresh entry relies on (review that it still reads true).
    Without `--changed`, a warning on each stale memory file."""
    if response.drift is None:
        return "\n".join(
            [
                f"::warning {_properties(DriftLocation(file=item.path), item.id)}::"
                + _escape(
                    f"memory {item.id} is stale: " + "; ".join(r.message for r in item.reasons)
                )
                for item in response.entries
                if item.state == "stale"
            ]
            + [
                f"::warning {_properties(DriftLocation(file=d.path, line=d.line), d.code)}::"
                + _escape(f"{d.message}: {d.excerpt} (no one reviewed it on this machine)")
                for d in response.directives or []
            ]
        )
    by_id = {item.id: item for item in response.entries}
    lines = []
    for touched in response.drift.touched:
        entry = by_id[touched.id]
        level = "warning" if entry.state == "stale" else "notice"
        if entry.state == "stale":
            why = "; ".join(reason.message for reason in entry.reasons)
            message = f"memory {entry.id} ({entry.path}) is stale after this change: {why}"
        else:
            message = f"memory {entry.id} ({entry.path}) relies on this; check it still holds"
        for at in touched.locations:
            lines.append(f"::{level} {_properties(at, entry.id)}::{_escape(message)}")
    lines.append(f"::notice::{_escape(_summary(response))}")
    return "\n".join(lines)


def _properties(at: DriftLocation, entry_id: str) -> str:
    found = [f"file={_escape_property(at.file)}"]
    if at.line is not None:
        found.append(f"line={at.line}")
    found.append(f"title={_escape_property('git memory: ' + entry_id)}")
    return ",".join(found)


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape(text).replace(":", "%3A").replace(",", "%2C")
