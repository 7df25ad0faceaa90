"""Render confirmed candidates into sanitized entry files (docs/formats.md).

Pure: the caller gives the candidates with their confirmed statements and a view of the tree
(existing entry bytes, the repository identity, which commits exist); this module returns the
exact bytes of every file the plan will write. A new entry gets a fresh id (collision suffix,
never another entry's file); an `update` rewrites its target entry; a `merge` rewrites the
first target and turns every other target into `status: deprecated` with `superseded_by`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats.entry import Commit, Entry, Evidence, parse_entry, serialize_entry
from git_memory.formats.slug import allocate_entry_id

STRENGTH_RANK = {"direct": 0, "observed": 1, "candidate": 2, "contextual": 3, "unknown": 4}
PROMOTABLE_SUPPORT = ("typed-fact", "human-confirmed")


@dataclass(frozen=True)
class CitedEvidence:
    """The public side of one cited evidence item (only what may reach a committed file)."""

    kind: str  # commit | path | turn
    commit_hash: str | None = None
    path: str | None = None
    occurred: str | None = None  # YYYY-MM-DD of a cited turn


@dataclass(frozen=True)
class StatementToRender:
    """A statement whose assessment the human confirmed (or a typed fact)."""

    statement_id: str
    provenance_strength: str
    limitations: tuple[str, ...]
    claim_support: str
    citations: tuple[CitedEvidence, ...] = ()


@dataclass(frozen=True)
class CandidateInput:
    """A quarantined candidate as promotion sees it."""

    candidate_id: str
    content: str
    statements: tuple[StatementToRender, ...]
    type: str = "work_fact"
    priority: int = 50
    confidence: str = "medium"
    scene: str | None = None
    action: str = "store"  # store | update | merge
    target_ids: tuple[str, ...] = ()
    scope: str | None = None  # set by the reviewer; None: `repo`, or what an updated entry had


@dataclass(frozen=True)
class TreeView:
    """What rendering needs to know about the worktree."""

    memory_root: str
    existing: Mapping[str, bytes]  # entry id -> current bytes of entries/<id>.md
    repository_identity: str | None
    commit_exists: Callable[[str], bool] = field(default=lambda _hash: False)

    def entry_path(self, entry_id: str) -> str:
        """`<memory root>/entries/<id>.md`."""
        return f"{self.memory_root}/entries/{entry_id}.md"


@dataclass(frozen=True)
class RenderedFile:
    """One file of the plan: its path, the bytes there now (or None) and the planned bytes."""

    target_path: str
    content: bytes
    old_content: bytes | None
    entry_id: str


def plan_conflict(message: str) -> GitMemoryError:
    """`GM_PLAN_CONFLICT`: the candidates cannot be promoted together as given."""
    return GitMemoryError("GM_PLAN_CONFLICT", message, hint="prepare the candidates separately")


def render_candidates(candidates: Sequence[CandidateInput], tree: TreeView) -> list[RenderedFile]:
    """Every file the candidates produce, in candidate order."""
    taken = set(tree.existing)
    touched: set[str] = set()
    files: list[RenderedFile] = []
    for candidate in candidates:
        for entry in _entries_of(candidate, tree, taken):
            if entry.id in touched:
                raise plan_conflict(f"entry {entry.id!r} is changed twice in one plan")
            touched.add(entry.id)
            taken.add(entry.id)
            files.append(
                RenderedFile(
                    target_path=tree.entry_path(entry.id),
                    content=serialize_entry(entry).encode("utf-8"),
                    old_content=tree.existing.get(entry.id),
                    entry_id=entry.id,
                )
            )
    return files


def _entries_of(candidate: CandidateInput, tree: TreeView, taken: set[str]) -> list[Entry]:
    _require_confirmed(candidate)
    if candidate.action == "store":
        digest_hex = sha256_hex(candidate.content.encode("utf-8"))
        entry_id = allocate_entry_id(candidate.content, taken, digest_hex)
        return [_fresh_entry(entry_id, candidate, tree)]
    if candidate.action not in ("update", "merge") or not candidate.target_ids:
        raise plan_conflict(f"candidate {candidate.candidate_id!r}: unknown action or no target")
    if candidate.action == "update" and len(candidate.target_ids) != 1:
        raise plan_conflict(f"candidate {candidate.candidate_id!r}: update has one target")
    targets = [_existing(tree, target) for target in candidate.target_ids]
    survivor = _merged_entry(targets, candidate, tree)
    deprecated = [
        target._replace(status="deprecated", superseded_by=survivor.id) for target in targets[1:]
    ]
    return [survivor, *deprecated]


def _require_confirmed(candidate: CandidateInput) -> None:
    if not candidate.statements:
        raise plan_conflict(f"candidate {candidate.candidate_id!r} has no statements")
    for statement in candidate.statements:
        if statement.claim_support not in PROMOTABLE_SUPPORT:
            raise GitMemoryError(
                "GM_UNVERIFIED_CLAIM",
                f"statement {statement.statement_id!r} of {candidate.candidate_id!r} "
                f"is {statement.claim_support}",
                hint="review and confirm the statement before preparing a plan",
            )


def _existing(tree: TreeView, entry_id: str) -> Entry:
    data = tree.existing.get(entry_id)
    if data is None:
        raise GitMemoryError(
            "GM_PLAN_TARGET_MISSING",
            f"approved entry {entry_id!r} does not exist in this worktree",
            hint="sync the approved projection and adjudicate again",
        )
    return parse_entry(data.decode("utf-8"))


def _fresh_entry(entry_id: str, candidate: CandidateInput, tree: TreeView) -> Entry:
    statements = candidate.statements
    return Entry(
        id=entry_id,
        type=candidate.type,
        status="approved",
        priority=candidate.priority,
        confidence=candidate.confidence,
        provenance_strength=weakest(s.provenance_strength for s in statements),
        claim_support=shared_support(s.claim_support for s in statements),
        limitations=tuple(sorted({lim for s in statements for lim in s.limitations})),
        scope=candidate.scope or "repo",
        scene=candidate.scene,
        occurred=_occurred(statements),
        evidence=public_evidence(statements, tree),
        body=candidate.content.strip() + "\n",
    )


def _merged_entry(targets: list[Entry], candidate: CandidateInput, tree: TreeView) -> Entry:
    """The surviving entry: the candidate's fields, and nothing the targets held is lost."""
    fresh = _fresh_entry(targets[0].id, candidate, tree)
    every = [fresh, *targets]
    commits = {(c.repo, c.hash): c for e in every for c in e.evidence.commits}
    return fresh._replace(
        scope=candidate.scope or targets[0].scope,
        provenance_strength=weakest(e.provenance_strength for e in every),
        claim_support=shared_support(e.claim_support for e in every),
        limitations=tuple(sorted({lim for e in every for lim in e.limitations})),
        occurred=tuple(sorted({day for e in every for day in e.occurred})),
        evidence=Evidence(
            commits=tuple(commits[key] for key in sorted(commits, key=lambda k: (k[1], k[0]))),
            paths=tuple(sorted({p for e in every for p in e.evidence.paths})),
        ),
    )


def weakest(strengths: Iterable[str]) -> str:
    """The weakest provenance strength (direct strongest … unknown weakest)."""
    return max(strengths, key=lambda s: STRENGTH_RANK.get(s, len(STRENGTH_RANK)), default="unknown")


def shared_support(supports: Iterable[str]) -> str:
    """The claim support all share, else `mixed`."""
    values = set(supports)
    return values.pop() if len(values) == 1 else "mixed"


def _occurred(statements: Sequence[StatementToRender]) -> tuple[str, ...]:
    return tuple(sorted({c.occurred for s in statements for c in s.citations if c.occurred}))


def public_evidence(statements: Sequence[StatementToRender], tree: TreeView) -> Evidence:
    """Cited commits that exist here (with the repository identity) and relative paths."""
    hashes: set[str] = set()
    paths: set[str] = set()
    for citation in (c for s in statements for c in s.citations):
        if citation.kind == "commit" and citation.commit_hash and tree.repository_identity:
            if tree.commit_exists(citation.commit_hash):
                hashes.add(citation.commit_hash)
        elif citation.kind == "path" and citation.path and is_worktree_relative(citation.path):
            paths.add(citation.path)
    identity = tree.repository_identity or ""
    return Evidence(
        commits=tuple(Commit(repo=identity, hash=h) for h in sorted(hashes)),
        paths=tuple(sorted(paths)),
    )


def is_worktree_relative(path: str) -> bool:
    """A plain relative path that stays inside the worktree (no `..`, no absolute, no `\\`)."""
    if not path or path.startswith(("/", "~")) or "\\" in path or ":" in path:
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))
