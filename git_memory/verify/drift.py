"""Drift in review: which approved entries a change touches, and which it leaves stale.

An entry relies on every worktree path its check looks at: the paths it cites, the manifests
its commands need (the Makefile a `make deploy` reads, the files that Makefile includes, the
package.json of `npm run lint`, a script file) and the places a missing manifest was looked
for. `touched_entries` checks every approved entry once through a `Verifier` whose manifests
record those paths per entry, and keeps the entries whose paths the change touches (a
changed path equal to one, or inside a cited directory). Each one's state is as the check
finds the worktree now; an annotation points at the changed lines of the file it relies on,
preferring a hunk that names what the entry needs (the removed `deploy:` rule).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from git_memory.formats.entry import Entry
from git_memory.repo.evidence import RepositoryFacts
from git_memory.repo.remote import public_identity
from git_memory.verify.check import Checked, Verifier, memory_items
from git_memory.verify.manifests import Manifests, Names

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.repo.changes import ChangedFile, Changes


class RecordingManifests(Manifests):
    """Manifests that also note every path a check looked at, per recording.

    A parse is cached once per run, so the paths read while parsing (a Makefile's includes)
    are kept with it and added to every later recording that uses the parse."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._open: list[set[str]] = []
        self._parse_paths: dict[tuple[str, str], frozenset[str]] = {}

    @contextmanager
    def recording(self) -> Iterator[set[str]]:
        """Collect the paths looked at inside the block."""
        seen: set[str] = set()
        self._open.append(seen)
        try:
            yield seen
        finally:
            self._open.pop()
            if self._open:
                self._open[-1].update(seen)

    def _note(self, relpath: str) -> None:
        if self._open:
            self._open[-1].add(relpath)

    def kind(self, relpath: str) -> str | None:
        """As `Manifests.kind`, noted."""
        self._note(relpath)
        return super().kind(relpath)

    def text(self, relpath: str) -> str | None:
        """As `Manifests.text`, noted."""
        self._note(relpath)
        return super().text(relpath)

    def names(self, kind: str, relpath: str) -> Names | None:
        """As `Manifests.names`, noting the files its parse read."""
        key = (kind, relpath)
        if key not in self._parse_paths:
            with self.recording() as seen:
                found = super().names(kind, relpath)
            self._parse_paths[key] = frozenset(seen)
            return found
        for path in self._parse_paths[key]:
            self._note(path)
        return super().names(kind, relpath)


@dataclass(frozen=True)
class Location:
    """Where an annotation goes: a file at HEAD and, when known, a line in it."""

    file: str
    line: int | None


@dataclass(frozen=True)
class Touched:
    """An approved entry whose evidence the change touches."""

    checked: Checked
    paths: tuple[str, ...]
    locations: tuple[Location, ...]


def touched_entries(worktree: Worktree, changes: Changes) -> list[Touched]:
    """Approved entries whose evidence `changes` touches, each checked against the worktree
    (scenes and skills are not entries and are left out)."""
    manifests = RecordingManifests(worktree.root)
    verifier = Verifier(
        manifests, RepositoryFacts(worktree.repository), public_identity(worktree.origin_url())
    )
    changed = _changed_paths(changes.files, worktree.memory_root)
    found: list[Touched] = []
    for _id, kind, relpath, parsed in memory_items(worktree):
        if kind != "entry" or not isinstance(parsed, Entry):
            continue
        with manifests.recording() as seen:
            checked = verifier.entry(parsed, f"{worktree.memory_root}/{relpath}")
        hits = sorted({path for path in changed if _relies_on(path, seen)})
        if hits:
            locations = tuple(_locations(changed, hits, checked))
            found.append(Touched(checked, tuple(hits), locations))
    return found


def _changed_paths(files: Iterable[ChangedFile], memory_root: str) -> dict[str, ChangedFile]:
    """Changed paths (both sides of a rename) outside the memory root: editing memory itself
    is not drift."""
    found: dict[str, ChangedFile] = {}
    for changed in files:
        for path in {changed.path, changed.old_path}:
            if path != memory_root and not path.startswith(memory_root + "/"):
                found[path] = changed
    return found


def _relies_on(changed: str, seen: Iterable[str]) -> bool:
    for path in seen:
        relied = path.rstrip("/")
        if relied and (changed == relied or changed.startswith(relied + "/")):
            return True
    return False


def _locations(
    changed: dict[str, ChangedFile], hits: list[str], checked: Checked
) -> Iterator[Location]:
    subjects = [reason.subject for reason in checked.reasons if reason.subject]
    for path in hits:
        file = changed[path]
        if file.status == "deleted" or not file.hunks or path != file.path:
            yield Location(path, None)
            continue
        named = [h for h in file.hunks if any(s in h.removed + h.added for s in subjects)]
        yield Location(path, (named or list(file.hunks))[0].line)
