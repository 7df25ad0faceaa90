"""Stale entry ids for assembled context, recorded so an unchanged worktree is not re-checked.

Assembly and `git memory context` run often (a session-start hook runs context every time),
so their freshness answer is recorded in the state home with everything it depends on: the
approved projection's source tree digest (content digests of every entry file), HEAD, whether
history is shallow, the origin identity, the kind of every path a check looked at and the
content digest of every manifest it read. The record answers only while all of these are
unchanged; checking that costs an lstat per path and one read per manifest, never a parse
of the entries. `git memory verify` itself always checks from scratch and writes nothing.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.contracts.canonical import canonical_json, digest, sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import read_private, write_private_atomic
from git_memory.verify import check
from git_memory.verify.check import Verifier

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace
    from git_memory.verify.check import Verifier
    from git_memory.verify.manifests import Manifests

RECORD_FORMAT = "git-memory-freshness-record@2"
RECORD_DIR = ("artifacts", "freshness")
# A larger (or deeper) record is taken as corrupt: checked again, never an internal error.
RECORD_MAX_BYTES = 64 * 1024 * 1024


def context_stale_ids(workspace: Workspace) -> frozenset[str]:
    """What assembly and `git memory context` leave out: stale entry ids, recorded."""
    return frozenset(context_freshness(workspace)["stale"])


def context_counts(workspace: Workspace) -> dict[str, int]:
    """Memories per freshness state (as `git memory verify` counts them), recorded."""
    counts: dict[str, int] = context_freshness(workspace)["counts"]
    return counts


def context_freshness(workspace: Workspace) -> dict[str, Any]:
    """`{"stale": [entry ids], "counts": {state: n}}` for the worktree as it is now.

    Reads the approved projection as this operation synced it (stat-only when no entry file
    changed); when the sync saw files change under it (coverage partial) the answer is
    checked, not recorded.
    """
    sync = workspace.synced()
    if sync.coverage != "complete":
        return _checked(workspace.worktree, None)[0]
    return recorded_freshness(workspace.worktree, sync.source_tree_digest)


def recorded_freshness(worktree: Worktree, tree_digest: str) -> dict[str, Any]:
    """Stale entry ids and counts: from the record when nothing it depends on changed, else
    checked now (and recorded). `tree_digest` is the approved projection's digest of the
    entry files, current as of this call."""

    verifier = Verifier.for_worktree(worktree)
    path = _record_path(worktree)
    record = _load(path)
    if record is not None and record["key"] == _key(verifier, tree_digest, record):
        return {"stale": record["stale"], "counts": record["counts"]}
    answer, verifier = _checked(worktree, verifier)
    kinds, texts = verifier.manifests.consulted()
    consulted = {"kinds": kinds, "texts": {p: _digest(t) for p, t in texts.items()}}
    document = {"format": RECORD_FORMAT, "consulted": consulted, **answer}
    document["key"] = _key(verifier, tree_digest, document)
    _store(path, document)
    return answer


def consulted_paths(worktree: Worktree) -> list[str] | None:
    """The worktree paths the recorded verdicts looked at (kinds and manifests), or None when
    no usable record exists."""
    record = _load(_record_path(worktree))
    if record is None:
        return None
    consulted = record["consulted"]
    return sorted(set(consulted["kinds"]) | set(consulted["texts"]))


def _checked(worktree: Worktree, verifier: Verifier | None) -> tuple[dict[str, Any], Verifier]:
    verifier = verifier or Verifier.for_worktree(worktree)
    # Looked up on the module when called, so a test can stand in for the check.
    checked = check.verify_memory(worktree, verifier=verifier)
    stale = sorted(c.id for c in checked if c.kind == "entry" and c.state == "stale")
    return {"stale": stale, "counts": check.counts(checked)}, verifier


def _key(verifier: Verifier, tree_digest: str, record: dict[str, Any]) -> str:
    """Digest of what the verdicts depend on, with the recorded paths looked at again now."""

    consulted = record["consulted"]
    facts = verifier.facts
    return digest(
        {
            "tree": tree_digest,
            "head": None if facts.head is None else str(facts.head),
            "shallow": facts.shallow,
            "identity": verifier.identity,
            "kinds": _kinds_now(verifier.manifests, consulted["kinds"]),
            "texts": {p: _digest(verifier.manifests.text(p)) for p in sorted(consulted["texts"])},
        }
    )


def _kinds_now(manifests: Manifests, recorded: dict[str, str | None]) -> dict[str, str | None]:
    return {relpath: manifests.kind(relpath) for relpath in sorted(recorded)}


def _digest(text: str | None) -> str | None:
    return None if text is None else sha256_hex(text.encode("utf-8", "surrogatepass"))


def _record_path(worktree: Worktree) -> Path:
    binding = worktree.binding()
    name = digest({"worktree": binding.worktree_key, "memoryRoot": binding.memory_root})[:32]
    return worktree.state_home.joinpath(*RECORD_DIR, f"{name}.json")


def _load(path: Path) -> dict[str, Any] | None:
    try:
        document = bounded_json.loads(read_private(path), max_bytes=RECORD_MAX_BYTES)
    except (OSError, ValueError, GitMemoryError):
        return None  # absent, unreadable or corrupt: check again
    if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
        return None
    consulted = document.get("consulted")
    if not (isinstance(consulted, dict) and {"kinds", "texts"} <= set(consulted)):
        return None
    if not isinstance(document.get("counts"), dict):
        return None  # a record written before counts were kept
    return document


def _store(path: Path, document: dict[str, Any]) -> None:
    # A record that cannot be written only means checking again next time.
    with contextlib.suppress(OSError, ValueError, GitMemoryError):
        write_private_atomic(path, canonical_json(document))
