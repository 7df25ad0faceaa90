"""Check approved memory against the worktree and repository (read-only).

Each approved entry is `fresh` (everything it relies on that can be checked holds), `stale`
(something it relies on is gone; the reasons say what) or `unverifiable` (it cites nothing
that can be checked). An entry relies on its evidence paths (present in the worktree; an
untracked one is noted), its evidence commits (present and reachable from HEAD; skipped in a
shallow clone) and what the commands it names in inline code need (see `commands`). Scenes
and skills are checked for the commands they name, and reported only when they name any.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.entry import Entry, parse_entry, scope_directory
from git_memory.ids import is_cut, matches, resolve
from git_memory.repo.evidence import RepositoryFacts
from git_memory.repo.memory_tree import worktree_files
from git_memory.repo.remote import public_identity
from git_memory.safefs import read_file_nofollow
from git_memory.store.approved_scan import list_entries
from git_memory.verify.commands import Requirement, requirements
from git_memory.verify.manifests import Manifests
from git_memory.verify.needs import check_requirement

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

State = Literal["fresh", "stale", "unverifiable"]
STATES: tuple[State, ...] = ("fresh", "stale", "unverifiable")


@dataclass(frozen=True)
class Reason:
    """One thing a memory relies on that is gone: `check` names the kind of check."""

    check: str
    subject: str
    message: str


@dataclass(frozen=True)
class Checked:
    """The freshness of one memory file (`kind`: entry, scene or skill)."""

    id: str
    kind: str
    path: str
    state: State
    reasons: tuple[Reason, ...] = ()
    notes: tuple[str, ...] = ()
    entry: Entry | None = field(default=None, compare=False)


def scope_not_a_directory(directory: str) -> str:
    """Why an entry scoped to `directory`, which the worktree does not have, is stale."""
    return f"its scope names {directory}/, which is not a directory of the worktree"


@dataclass
class Verifier:
    """One verify run: the worktree's manifests and the repository facts, cached."""

    manifests: Manifests
    facts: RepositoryFacts
    identity: str | None

    @classmethod
    def for_worktree(cls, worktree: Worktree) -> Verifier:
        """A verifier over `worktree` (reads nothing until asked)."""
        return cls(
            Manifests(worktree.root),
            RepositoryFacts(worktree.repository),
            public_identity(worktree.origin_url()),
        )

    def entry(self, entry: Entry, path: str) -> Checked:
        """The freshness of one parsed entry."""
        reasons: list[Reason] = []
        notes: list[str] = []
        checked = 0
        for cited in entry.evidence.paths:
            checked += self._path(cited, reasons, notes)
        for commit in entry.evidence.commits:
            checked += self._commit(commit.hash, commit.repo, reasons, notes)
        body_checked = self._scoped_commands(entry, reasons)
        state = _state(checked + body_checked, reasons)
        if state == "unverifiable":
            reasons.append(_nothing_to_check(notes))
        return Checked(entry.id, "entry", path, state, tuple(reasons), tuple(notes), entry)

    def document(self, item_id: str, kind: str, path: str, text: str) -> Checked | None:
        """A scene or skill: checked for the commands it names; None when it names none."""
        reasons: list[Reason] = []
        if not self._commands(text, reasons):
            return None
        return Checked(item_id, kind, path, _state(1, reasons), tuple(reasons))

    def _path(self, cited: str, reasons: list[Reason], notes: list[str]) -> int:
        if cited.startswith("/") or ".." in cited.split("/"):
            notes.append(f"path {cited} is outside the worktree; not checked")
            return 0
        if self.manifests.kind(cited.rstrip("/")) is None:
            reasons.append(Reason("path", cited, f"cites {cited}, which is not in the worktree"))
        elif cited.rstrip("/") not in self.facts.tracked:
            notes.append(f"{cited} exists but is not tracked by git")
        return 1

    def _commit(self, hex_id: str, repo: str, reasons: list[Reason], notes: list[str]) -> int:
        short = hex_id[:12]
        state = self.facts.commit_state(hex_id)
        if state == "reachable":
            return 1
        if self.identity is not None and repo and repo != self.identity:
            notes.append(f"commit {short} is from {repo}; not checked here")
            return 0
        if self.facts.shallow:
            notes.append(f"commit {short} not checked: this is a shallow clone")
            return 0
        why = {"missing": "does not exist in this repository"}.get(
            state, "is not reachable from HEAD"
        )
        reasons.append(Reason("commit", hex_id, f"cites commit {short}, which {why}"))
        return 1

    def _scoped_commands(self, entry: Entry, reasons: list[Reason]) -> int:
        """The commands of a scoped entry are checked from its scope directory (the tools
        look there, and in its parents for what they search upward: package.json, a
        justfile, a project manifest); the scope must name a directory of the worktree."""
        start = scope_directory(entry.scope) or ""
        # A scope through a symbolic link ("other") is assemble's to refuse, loudly.
        if start and self.manifests.kind(start) in (None, "file"):
            reasons.append(Reason("scope", start, scope_not_a_directory(start)))
            return 1
        return self._commands(entry.body, reasons, start)

    def _commands(self, text: str, reasons: list[Reason], start: str = "") -> int:
        checked = 0
        for requirement in requirements(text, start):
            outcome = self.requirement(requirement)
            if outcome is None:
                continue
            checked += 1
            if outcome:
                reasons.append(Reason(requirement.kind, requirement.name, outcome))
        return checked

    def requirement(self, need: Requirement) -> str | None:
        """An empty reason when `need` holds, the reason when it does not, None when it
        cannot be told."""
        return check_requirement(self.manifests, need)


def _nothing_to_check(notes: Sequence[str]) -> Reason:
    """Why an entry is unverifiable: what it cites could not be checked here, or it cites
    nothing a check can hold it to."""
    if notes:
        return Reason("unverifiable", "", "; ".join(notes))
    return Reason(
        "unverifiable",
        "",
        "nothing it cites could be checked here (a file, commit or project command whose"
        " make target, package script, script file or manifest can be read)",
    )


def _state(checked: int, reasons: Sequence[Reason]) -> State:
    if reasons:
        return "stale"
    return "fresh" if checked else "unverifiable"


def verify_memory(
    worktree: Worktree, ids: Sequence[str] = (), verifier: Verifier | None = None
) -> list[Checked]:
    """Every approved entry (then scenes and skills naming commands), checked; only the
    items named by `ids` (entry ids, `scene:NAME`, `skill:NAME`) when given."""
    verifier = verifier or Verifier.for_worktree(worktree)
    wanted = set(ids)
    found: list[Checked] = []
    for item in memory_items(worktree):
        if wanted and item[0] not in wanted:
            continue
        checked = _check_item(verifier, worktree.memory_root, item)
        if checked is not None:
            found.append(checked)
    return found


def _check_item(
    verifier: Verifier, memory_root: str, item: tuple[str, str, str, object]
) -> Checked | None:
    item_id, kind, relpath, parsed = item
    path = f"{memory_root}/{relpath}"
    if kind == "entry":
        assert isinstance(parsed, Entry)
        return verifier.entry(parsed, path)
    return verifier.document(item_id, kind, path, str(parsed))


def check_file(verifier: Verifier, memory_root: str, relpath: str, data: bytes) -> Checked | None:
    """The freshness of one memory file (memory-root-relative `relpath`) as `verify_memory`
    reports it; None when it reports nothing for it (not an approved entry, a scene or skill
    naming no command, a file that does not parse)."""
    item = _parsed(relpath, data)
    return None if item is None else _check_item(verifier, memory_root, item)


def memory_items(worktree: Worktree) -> list[tuple[str, str, str, object]]:
    """(id, kind, memory-root-relative path, parsed entry or document text) of every
    approved entry, scene and skill that parses; deprecated entries are left out."""
    items: list[tuple[str, str, str, object]] = []
    for memory_file in worktree_files(worktree.root, worktree.memory_root):
        if memory_file.data is None:
            continue
        item = _parsed(memory_file.relpath, memory_file.data)
        if item is not None:
            items.append(item)
    return items


def _parsed(relpath: str, data: bytes) -> tuple[str, str, str, object] | None:
    parts = relpath.split("/")
    try:
        text = data.decode("utf-8")
        if len(parts) == 2 and parts[0] == "entries" and parts[1].endswith(".md"):
            entry = parse_entry(text)
            return None if entry.status != "approved" else (entry.id, "entry", relpath, entry)
    except (FormatError, UnicodeDecodeError):
        return None  # lint reports a file that does not parse
    if len(parts) == 2 and parts[0] == "scenes" and parts[1].endswith(".md"):
        return (f"scene:{parts[1][:-3]}", "scene", relpath, text)
    if len(parts) == 3 and parts[0] == "skills" and parts[2] == "SKILL.md":
        return (f"skill:{parts[1]}", "skill", relpath, text)
    return None


def check_entries(worktree: Worktree, entries: Iterable[tuple[Entry, str]]) -> list[Checked]:
    """Freshness of already parsed entries, each with its worktree-relative path."""
    verifier = Verifier.for_worktree(worktree)
    return [verifier.entry(entry, path) for entry, path in entries]


def freshness_by_path(worktree: Worktree, paths: Iterable[str]) -> dict[str, str]:
    """The freshness of the entry files at these worktree-relative paths (as search shows
    them): a state, `deprecated` for a retired entry, `unverifiable` for one that does not
    read or parse (lint reports it)."""
    verifier = Verifier.for_worktree(worktree)
    found: dict[str, str] = {}
    for path in paths:
        try:
            data = read_file_nofollow(worktree.root, path)
            entry = None if data is None else parse_entry(data.decode("utf-8"))
        except (GitMemoryError, FormatError, UnicodeDecodeError):
            entry = None
        if entry is None:
            found[path] = "unverifiable"
        elif entry.status != "approved":
            found[path] = entry.status
        else:
            found[path] = verifier.entry(entry, path).state
    return found


def stale_entry_ids(worktree: Worktree, entries: Iterable[Entry] | None = None) -> frozenset[str]:
    """Ids of the approved entries that are stale: what assembled context leaves out.

    Pass the entries a caller already parsed to skip reading the memory root again.
    """
    if entries is None:
        checked = [c for c in verify_memory(worktree) if c.kind == "entry"]
    else:
        root = worktree.memory_root
        checked = check_entries(worktree, ((e, f"{root}/entries/{e.id}.md") for e in entries))
    return frozenset(c.id for c in checked if c.state == "stale")


def expand_short_ids(worktree: Worktree, ids: Sequence[str]) -> list[str]:
    """Ids as given, with a short id (as `git memory list` shows it, `prefix…`, or any
    unique prefix) replaced by the one entry id it starts: `GM_ENTRY_NOT_FOUND` when a marked
    prefix starts none, `GM_ID_AMBIGUOUS` (listing them) when several. Whole entry ids,
    `scene:NAME` and `skill:NAME` pass unchanged, and so does an unmarked id that starts no
    entry (the operation reports it)."""
    if all(":" in given for given in ids):
        return list(ids)
    known = {
        p.removeprefix("entries/")[:-3] for p in list_entries(worktree.root, worktree.memory_root)
    }
    expanded = []
    for given in ids:
        if ":" in given or given in known:
            expanded.append(given)
        elif is_cut(given) or any(matches(given, entry_id) for entry_id in known):
            expanded.append(
                resolve(
                    given,
                    known,
                    what="approved memory",
                    code="GM_ENTRY_NOT_FOUND",
                    listed_by="git memory list",
                )
            )
        else:
            expanded.append(given)
    return expanded


def entry_not_found(ids: list[str]) -> GitMemoryError:
    """`GM_ENTRY_NOT_FOUND` for ids that name no approved memory."""
    return GitMemoryError(
        "GM_ENTRY_NOT_FOUND",
        "no approved memory with id " + ", ".join(repr(i) for i in ids),
        hint="`git memory list` shows the ids; scenes and skills are `scene:NAME`, `skill:NAME`"
        " (checked only when they name a command)",
        details={"ids": ids},
    )


def counts(checked: Iterable[Checked]) -> dict[str, int]:
    """How many items are in each state, and the total."""
    found: dict[str, int] = dict.fromkeys(STATES, 0)
    for item in checked:
        found[item.state] += 1
    found["total"] = sum(found.values())
    return found
