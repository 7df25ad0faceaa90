"""`git memory merge-index %O %A %B %P`: the index.json merge driver."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from git_memory.contracts.memory_files import MergeIndexRequest, MergeIndexResponse
from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.index_json import build_index, parse_index
from git_memory.formats.index_merge import merge_indexes
from git_memory.lint.engine import passes_lint
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo.merged_tree import memory_root_of, merged_memory_files
from git_memory.safefs import open_dir, replace_file_at


def merge_index(ctx: OpContext, request: MergeIndexRequest) -> MergeIndexResponse:
    """Rebuild index.json for a merge and write it over the current version (%A).

    git runs this as the `git-memory-index` merge driver (registered by `git memory hooks
    install`). During `git merge` the index is rebuilt from the memory files of the merged
    tree, as `git memory reindex` would build it after the merge; a cherry-pick, revert or
    rebase is rebuilt the same way when git names the commit it applies (a range pick, a
    rebase). Where what git merges cannot be known (a single pick, `am -3`), items are merged
    three ways by id/name, keeping every entry of either side. Either way two
    branches that each promoted entries merge without conflict markers. Exits 1 (leaving
    git's conflict) when a version is not a valid index.
    """
    try:
        versions = [
            parse_index(_read(path)) for path in (request.ancestor, request.current, request.other)
        ]
    except FormatError as exc:
        return MergeIndexResponse(
            merged=False, entries=0, scenes=0, skills=0, conflicts=[f"{exc.code}: {exc.message}"]
        )
    rebuilt = _rebuilt(request)
    if rebuilt is not None:
        _write(request.current, rebuilt)
        index = parse_index(rebuilt)
        counts = {"entries": len(index.entries), "scenes": len(index.scenes)}
        counts["skills"] = len(index.skills)
        return MergeIndexResponse(merged=True, conflicts=[], rebuilt=True, **counts)
    result = merge_indexes(*versions)
    _write(request.current, result.data)
    return MergeIndexResponse(
        merged=True,
        entries=result.counts["entries"],
        scenes=result.counts["scenes"],
        skills=result.counts["skills"],
        conflicts=list(result.conflicts),
    )


def _rebuilt(request: MergeIndexRequest) -> bytes | None:
    """The index of the merged tree's memory files, or None when what git merges cannot be
    known."""
    root = memory_root_of(request.pathname)
    if root is None:
        return None
    versions = (_raw(request.ancestor), _raw(request.current), _raw(request.other))
    files = merged_memory_files(root, request.pathname, versions)
    return None if files is None else build_index(files, passes_lint).data


def _write(path: str, data: bytes) -> None:
    """Replace git's temporary %A file (no-follow temp file and rename beside it)."""
    target = Path(os.path.abspath(path))
    with open_dir(Path(os.path.realpath(target.parent)), []) as dir_fd:
        replace_file_at(dir_fd, target.name, data)


def _raw(path: str) -> bytes:
    """One version as git wrote it (empty for a side without the file)."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise GitMemoryError("GM_MERGE_INPUT_UNREADABLE", f"cannot read {path!r}") from exc


def _read(path: str) -> bytes:
    data = _raw(path)
    # An absent side (added on one branch only) reaches the driver as an empty file.
    return data if data.strip() else b'{"format": "git-memory-index@v1"}'


def render(response: MergeIndexResponse) -> str:
    """A one-line summary for git's output."""
    if not response.merged:
        return "git memory merge-index: " + "; ".join(response.conflicts)
    how = "rebuilt from the merged tree" if response.rebuilt else "merged"
    text = f"index.json {how}: {response.entries} entries, {response.scenes} scenes"
    if response.conflicts:
        text += "; run `git memory reindex` after resolving " + ", ".join(response.conflicts)
    return text


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> MergeIndexRequest:
    return MergeIndexRequest(
        ancestor=values["ancestor"],
        current=values["current"],
        other=values["other"],
        pathname=values.get("pathname") or "index.json",
    )


OPERATION = Operation(
    spec=spec("merge-index"),
    request_model=MergeIndexRequest,
    response_model=MergeIndexResponse,
    handler=merge_index,
    cli_params=[
        click.Argument(["ancestor"]),
        click.Argument(["current"]),
        click.Argument(["other"]),
        click.Argument(["pathname"], required=False),
    ],
    from_cli=_from_cli,
    render_text=render,
    exit_code=lambda response: 0 if response.merged else 1,
)
