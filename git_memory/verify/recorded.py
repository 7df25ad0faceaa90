"""Stale entry ids for assembled context, recorded so an unchanged worktree is not re-checked.

Assembly and `git memory context` run often (a session-start hook runs context every time),
so their freshness answer is recorded in the state home with everything it depends on: the
approved projection's source tree digest (content digests of every entry file), HEAD, whether
history is shallow, the origin identity, the kind of every path a check looked at and the
content digest of every manifest it read. The record answers only while all of these are
unchanged; checking that costs an lstat per path and one read per manifest, never a parse
of the entries. `git memory verify` itself always checks from scratch and writes nothing.

Beside the record (`<record>-verdicts.json`, read only when the record no longer answers)
each memory file's verdict is kept under the file's content digest. A verdict
depends only on its file and on what the record's key holds besides the entry files (HEAD,
shallow, identity, the paths and manifests looked at), so when only memory files changed,
only those are parsed and checked again (docs/performance.md); the paths they look at are
added to the recorded ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import read_private, write_private_atomic
from git_memory.repo.memory_tree import worktree_files
from git_memory.safefs import open_dir, read_at, read_file_nofollow, split_relative
from git_memory.store.approved import source_digests
from git_memory.verify import check
from git_memory.verify.check import Verifier

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace
    from git_memory.verify.check import Verifier
    from git_memory.verify.manifests import Manifests

RECORD_FORMAT = "git-memory-freshness-record@4"
VERDICTS_FORMAT = "git-memory-freshness-verdicts@2"
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
    return recorded_freshness(
        workspace.worktree,
        sync.source_tree_digest,
        lambda: source_digests(workspace.db, workspace.owner),
    )


def recorded_freshness(
    worktree: Worktree,
    tree_digest: str,
    entry_digests: Callable[[], dict[str, str | None]] | None = None,
) -> dict[str, Any]:
    """Stale entry ids and counts: from the record when nothing it depends on changed, else
    checked now (and recorded). `tree_digest` is the approved projection's digest of the
    entry files, current as of this call; `entry_digests` gives its digest of each, asked
    only when some memory files changed (None: every memory file is read)."""

    verifier = Verifier.for_worktree(worktree)
    path = _record_path(worktree)
    record = _load(path)
    known: dict[str, list[Any]] = {}
    if record is not None:
        around = _around(verifier, record)
        if record["key"] == _key(tree_digest, around):
            return {"stale": record["stale"], "counts": record["counts"]}
        if record["around"] == around:  # only memory files changed: their verdicts are kept
            known = _load_verdicts(_verdicts_path(path), around)
    verdicts = _verdicts(worktree, verifier, known, entry_digests)
    states = [verdict for _, verdict in verdicts.values() if verdict is not None]
    answer = {
        "stale": sorted(
            item_id for item_id, kind, state in states if kind == "entry" and state == "stale"
        ),
        "counts": _counts(state for _, _, state in states),
    }
    kinds, texts = verifier.manifests.consulted()
    consulted = {"kinds": kinds, "texts": {p: _digest(t) for p, t in texts.items()}}
    document: dict[str, Any] = {"format": RECORD_FORMAT, "consulted": consulted, **answer}
    document["around"] = _around(verifier, document)
    document["key"] = _key(tree_digest, document["around"])
    items = {
        relpath: [content, None if verdict is None else list(verdict)]
        for relpath, (content, verdict) in verdicts.items()
    }
    # Kept apart, so an unchanged worktree's answer reads no verdict of every file.
    _store(
        _verdicts_path(path),
        {"format": VERDICTS_FORMAT, "around": document["around"], "items": items},
    )
    _store(path, document)
    return answer


# A memory file's verdict: (id, kind, state), or None when verify reports nothing for it.
Verdict = tuple[str, str, str] | None


def _verdicts(
    worktree: Worktree,
    verifier: Verifier,
    known: dict[str, list[Any]],
    entry_digests: Callable[[], dict[str, str | None]] | None,
) -> dict[str, tuple[str, Verdict]]:
    """Every memory file's (content digest, verdict): a file whose digest is the recorded
    one keeps its recorded verdict unparsed, every other file is read and checked."""
    files = None if not known or entry_digests is None else _listed_files(worktree, entry_digests())
    if files is None:
        walked = worktree_files(worktree.root, worktree.memory_root)
        files = [(f.relpath, None, f.data) for f in walked if f.data is not None]
    found: dict[str, tuple[str, Verdict]] = {}
    for relpath, listed_digest, listed_data in files:
        recorded = known.get(relpath)
        if listed_digest is not None and recorded is not None and recorded[0] == listed_digest:
            found[relpath] = (listed_digest, _verdict_of(recorded[1]))
            continue
        data = listed_data if listed_data is not None else _read(worktree, relpath)
        if data is not None:
            found[relpath] = _verdict(verifier, worktree.memory_root, relpath, data, recorded)
    return found


def _verdict(
    verifier: Verifier, memory_root: str, relpath: str, data: bytes, recorded: list[Any] | None
) -> tuple[str, Verdict]:
    content = sha256_hex(data)
    if recorded is not None and recorded[0] == content:
        return content, _verdict_of(recorded[1])
    # Looked up on the module when called, so a test can stand in for the check.
    checked = check.check_file(verifier, memory_root, relpath, data)
    return content, None if checked is None else (checked.id, checked.kind, checked.state)


# (memory-root-relative path, content digest when known unread, bytes when read)
ListedFile = tuple[str, str | None, bytes | None]


def _listed_files(
    worktree: Worktree, entry_digests: dict[str, str | None]
) -> list[ListedFile] | None:
    """The memory files a verdict can be given for (`check.check_file`: entries/*.md,
    scenes/*.md, skills/*/SKILL.md), as `worktree_files` reads them, but an entry file the
    projection scanned comes with its digest, unread. None when a directory cannot be listed
    as that walk lists it (a link in the way): the walk then reads every file."""
    root, parts = worktree.root, split_relative(worktree.memory_root)
    found: list[ListedFile] = []
    try:
        for name in _names(root, [*parts, "entries"]):
            relpath = f"entries/{name}"
            if name.endswith(".md") and relpath in entry_digests and not name.startswith("."):
                if entry_digests[relpath] is not None:
                    found.append((relpath, entry_digests[relpath], None))
            elif name.endswith(".md"):
                found += _read_listed(root, [*parts, "entries"], relpath, name)
        for name in _names(root, [*parts, "scenes"]):
            if name.endswith(".md"):
                found += _read_listed(root, [*parts, "scenes"], f"scenes/{name}", name)
        for name in _names(root, [*parts, "skills"]):
            found += _read_listed(
                root, [*parts, "skills", name], f"skills/{name}/SKILL.md", "SKILL.md"
            )
    except (OSError, GitMemoryError):
        return None
    return found


def _names(root: Path, parts: list[str]) -> list[str]:
    try:
        with open_dir(root, parts) as fd:
            return sorted(os.listdir(fd))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _read_listed(root: Path, parts: list[str], relpath: str, name: str) -> list[ListedFile]:
    """The file `name` in directory `parts` when it is a regular file, as the walk reads it
    (a link or anything else is no memory file); [] otherwise."""
    try:
        with open_dir(root, parts) as fd:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                return []
            data = read_at(fd, name, relpath)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [] if data is None else [(relpath, None, data)]


def _read(worktree: Worktree, relpath: str) -> bytes | None:
    try:
        return read_file_nofollow(worktree.root, f"{worktree.memory_root}/{relpath}")
    except (OSError, GitMemoryError):
        return None


def _verdict_of(value: Any) -> Verdict:
    return None if value is None else (value[0], value[1], value[2])


def _counts(states: Iterable[str]) -> dict[str, int]:
    found: dict[str, int] = dict.fromkeys(check.STATES, 0)
    for state in states:
        found[state] += 1
    found["total"] = sum(found.values())
    return found


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


def _key(tree_digest: str, around: str) -> str:
    """Digest of what the verdicts depend on: the entry files and everything around them."""
    return digest({"tree": tree_digest, "around": around})


def _around(verifier: Verifier, record: dict[str, Any]) -> str:
    """Digest of what the verdicts depend on besides the memory files, with the recorded
    paths looked at again now."""

    consulted = record["consulted"]
    facts = verifier.facts
    return digest(
        {
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
    if not isinstance(document.get("counts"), dict) or not isinstance(document.get("around"), str):
        return None
    return document


def _verdicts_path(record_path: Path) -> Path:
    return record_path.with_name(f"{record_path.stem}-verdicts.json")


def _load_verdicts(path: Path, around: str) -> dict[str, list[Any]]:
    """The recorded verdicts of every memory file, when recorded under `around`; {} else."""
    try:
        document = bounded_json.loads(read_private(path), max_bytes=RECORD_MAX_BYTES)
    except (OSError, ValueError, GitMemoryError):
        return {}
    if not isinstance(document, dict) or document.get("format") != VERDICTS_FORMAT:
        return {}
    items = document.get("items")
    if document.get("around") != around or not isinstance(items, dict):
        return {}
    return {relpath: item for relpath, item in items.items() if _well_formed(item)}


def _well_formed(item: Any) -> bool:
    """`[content digest, null or [id, kind, state]]`: anything else is checked again."""
    if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
        return False
    verdict = item[1]
    if verdict is None:
        return True
    return (
        isinstance(verdict, list)
        and len(verdict) == 3
        and all(isinstance(v, str) for v in verdict)
        and verdict[2] in check.STATES
    )


def _store(path: Path, document: dict[str, Any]) -> None:
    # A record that cannot be written only means checking again next time.
    with contextlib.suppress(OSError, ValueError, GitMemoryError):
        # Plain JSON: private records, read back only here.
        text = json.dumps(document, separators=(",", ":"), allow_nan=False)
        write_private_atomic(path, text.encode("utf-8"))
