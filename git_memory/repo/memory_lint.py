"""Lint the memory root of a worktree: the files (worktree or staged blobs) → findings.

Shared by `git memory lint` and the pre-commit fast path, which must not load pydantic or
click (its start-up is a measured budget), so this module speaks plain named tuples.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from git_memory.errors import GitMemoryError
from git_memory.lint.engine import KnownCommit, is_directive, lint_bytes
from git_memory.lint.findings import Finding
from git_memory.lint.home import home_findings, indexed_id_findings, present_ids
from git_memory.lint.rules import INDEX_STALE_CODE, SYMLINK_CODE
from git_memory.repo import memory_tree
from git_memory.repo.staged import StagedWorktree, staged_files

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from git_memory.repo.binding import Worktree

SEVERITY_WORDS = {"block": "BLOCK", "warn": "WARN"}
# A temp file of an interrupted write, or a promotion artifact: never content to commit.
LEFTOVER_CODE = "GM_LINT_WRITE_LEFTOVER"
GITLINK_CODE = "GM_LINT_GITLINK"


def collect_findings(
    worktree: Worktree | StagedWorktree,
    *,
    staged: bool,
    paths: list[str],
    indexed_ids: Callable[[str], frozenset[str]],
    memory_files_only: bool = False,
    known_commit: KnownCommit | None = None,
    reviewed: Callable[[str], frozenset[str]] | None = None,
) -> dict[str, list[Finding]]:
    """Findings per worktree-relative path (files without findings included).

    `worktree` needs `root`, `memory_root` and `state_home`: a `Worktree` or a
    `StagedWorktree`. `indexed_ids` maps the state home to this machine's indexed session ids
    (`sessions.private.indexed_session_ids`; the session layer sits above this one). With
    `memory_files_only`, PATHs outside the memory root are passed over; when none is left
    there is nothing to check. `known_commit` says whether a 40-hex id is a commit of the
    repository (a public id, not a key). `reviewed` maps the state home to the digests of the
    file contents a person reviewed there (`store.reviewed.reviewed_digests`): the directives
    of such a file are not flagged again; without it every directive is flagged.
    """
    root = worktree.memory_root
    if memory_files_only and paths:
        paths = memory_tree.inside_memory_root(_path(worktree.root), root, paths)
        if not paths:
            return {}
    if staged:
        git = worktree.git if isinstance(worktree, StagedWorktree) else None
        files = staged_files(worktree.root, root, memory_tree.index_path_from_environment(), git)
    else:
        files = memory_tree.worktree_files(_path(worktree.root), root)
        if paths:
            prefixes = memory_tree.memory_prefixes(_path(worktree.root), root, paths)
            files = _existing(memory_tree.select(files, prefixes), prefixes, paths)
    results: dict[str, list[Finding]] = {}
    for item in files:
        results[item.worktree_path(root)] = _file_findings(item, known_commit)
    _add_indexed_session_ids(worktree, files, results, indexed_ids)
    if reviewed is not None:
        _drop_reviewed_directives(worktree, files, results, reviewed)
    _add_home(files, root, results)
    own = [item for item in files if not item.root_prefix and item.kind != "leftover"]
    if not paths and own:
        stale = _stale_index(own)
        if stale is not None:
            results.setdefault(f"{root}/index.json", []).append(stale)
    return results


def _add_indexed_session_ids(
    worktree: Worktree | StagedWorktree,
    files: list[memory_tree.MemoryFile],
    results: dict[str, list[Finding]],
    indexed_ids: Callable[[str], frozenset[str]],
) -> None:
    """Block this machine's indexed session ids, whatever the words around them.

    The index is opened only when there is file content to check, so a commit without memory
    files does not pay for it; no index (or no state home yet) means nothing to add.
    """
    texts = {
        item.worktree_path(worktree.memory_root): item.data.decode("utf-8", "replace")
        for item in files
        if item.data is not None
    }
    if not texts:
        return
    ids = indexed_ids(os.fspath(worktree.state_home))
    # One search over all files together; only the ids present are located per file.
    present = present_ids("\0".join(texts.values()), ids)
    for path, text in texts.items() if present else ():
        _merge(results, path, indexed_id_findings(text, present))


def _drop_reviewed_directives(
    worktree: Worktree | StagedWorktree,
    files: list[memory_tree.MemoryFile],
    results: dict[str, list[Finding]],
    reviewed: Callable[[str], frozenset[str]],
) -> None:
    """Leave out the directives of files whose exact bytes a promotion applied here wrote
    (reviewed and confirmed by a person); the digests are read only when a directive is
    flagged at all."""
    flagged = [
        item
        for item in files
        if item.data is not None
        and any(is_directive(f) for f in results[item.worktree_path(worktree.memory_root)])
    ]
    if not flagged:
        return
    # Start-up seam (docs/architecture.md): hashlib loads only when a directive is flagged.
    import hashlib  # noqa: PLC0415

    digests = reviewed(os.fspath(worktree.state_home))
    for item in flagged:
        if item.data is not None and hashlib.sha256(item.data).hexdigest() in digests:
            path = item.worktree_path(worktree.memory_root)
            results[path] = [f for f in results[path] if not is_directive(f)]


def _add_home(
    files: list[memory_tree.MemoryFile], root: str, results: dict[str, list[Finding]]
) -> None:
    """This machine's home directory, wherever it is, as an absolute home path."""
    home = os.path.expanduser("~")
    for item in files:
        if item.data is not None:
            text = item.data.decode("utf-8", "replace")
            _merge(results, item.worktree_path(root), home_findings(text, home))


def _merge(results: dict[str, list[Finding]], path: str, extra: list[Finding]) -> None:
    """Add the findings of `extra` not already reported at the same place with the same code."""
    found = results[path]
    seen = {(f.code, f.offset) for f in found}
    extra = [f for f in extra if (f.code, f.offset) not in seen]
    if extra:
        results[path] = sorted([*found, *extra], key=lambda f: (f.line, f.column, f.code))


def _path(root: Path | str) -> Path:
    """A worktree root as a path (the staged fast path carries it as text, unimported)."""
    # Start-up seam (docs/architecture.md): the pre-commit hook never needs pathlib.
    from pathlib import Path  # noqa: PLC0415

    return Path(root)


def _file_findings(
    item: memory_tree.MemoryFile, known_commit: KnownCommit | None = None
) -> list[Finding]:
    leftover = _leftover(item.relpath)
    if leftover is not None:
        return [leftover]
    if item.kind == "gitlink":
        # A submodule is not memory: reported, never read (its commit is not in this repo).
        return [Finding(GITLINK_CODE, "warn", 1, 1, "", "submodule (gitlink) in the memory root")]
    if item.data is None:
        return [Finding(SYMLINK_CODE, "block", 1, 1, "", "symbolic link in the memory root")]
    return lint_bytes(item.relpath, item.data, known_commit)


def _leftover(relpath: str) -> Finding | None:
    if not memory_tree.is_leftover_name(relpath.rsplit("/", 1)[-1]):
        return None
    return Finding(
        LEFTOVER_CODE,
        "block",
        1,
        1,
        "",
        "leftover of an interrupted git-memory write: never commit it (the next write "
        "there, or the promotion's recovery, removes it)",
    )


def _existing(selected: list[Any], prefixes: list[str], paths: list[str]) -> list[Any]:
    for prefix, given in zip(prefixes, paths, strict=True):
        if prefix and not any(
            f.relpath == prefix or f.relpath.startswith(prefix + "/") for f in selected
        ):
            raise GitMemoryError("GM_PATH_NOT_FOUND", f"no memory file at {given!r}")
    return selected


def _stale_index(files: list[Any]) -> Finding | None:
    built, current = memory_tree.expected_index(files)
    if built.data == current:
        return None
    message = "index.json is missing" if current is None else "index.json differs from the tree"
    return Finding(INDEX_STALE_CODE, "warn", 1, 1, "", message + "; run `git memory reindex`")


def text_lines(results: Mapping[str, list[Any]]) -> list[str]:
    """`path:line:col: SEVERITY CODE message (excerpt)` for every finding, by path."""
    lines = []
    for path, findings in sorted(results.items()):
        for f in findings:
            detail = f"{f.message} ({f.excerpt})" if f.excerpt else f.message
            lines.append(
                f"{path}:{f.line}:{f.column}: {SEVERITY_WORDS[f.severity]} {f.code} {detail}"
            )
    return lines
