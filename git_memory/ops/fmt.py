"""`git memory fmt [PATH…] [--check]`: canonical form for memory files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.memory_files import FmtProblem, FmtRequest, FmtResponse
from git_memory.errors import FormatError
from git_memory.formats.canonical_form import canonical_text, formattable
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo import memory_tree
from git_memory.safefs import open_dir, replace_file_at, split_relative, symlink_refused


def fmt(ctx: OpContext, request: FmtRequest) -> FmtResponse:
    """Rewrite entries, scenes, doctrine.md and SKILL.md files into canonical form.

    index.json is not touched (use `git memory reindex`). With --check nothing changes and
    the command exits 1 listing the files that are not canonical. Files that do not parse
    are listed and left alone; a symbolic link in the memory root is refused.
    """
    worktree = ctx.worktree
    root = worktree.memory_root
    files = memory_tree.worktree_files(worktree.root, root)
    if request.paths:
        prefixes = memory_tree.memory_prefixes(worktree.root, root, request.paths)
        files = memory_tree.select(files, prefixes)
    changed: list[tuple[str, bytes]] = []
    invalid: list[FmtProblem] = []
    for item in files:
        if not formattable(item.relpath):
            continue
        shown = f"{root}/{item.relpath}"
        if item.data is None:
            raise symlink_refused(shown)
        try:
            text = canonical_text(item.relpath, item.data.decode("utf-8"))
        except UnicodeDecodeError:
            invalid.append(
                FmtProblem(path=shown, code="GM_FORMAT_INVALID_UTF8", message="not UTF-8")
            )
            continue
        except FormatError as exc:
            invalid.append(
                FmtProblem(path=shown, code=exc.code, message=exc.message, line=exc.line)
            )
            continue
        if text.encode("utf-8") != item.data:
            changed.append((item.relpath, text.encode("utf-8")))
    if not request.check:
        _write(worktree.root, root, changed)
    return FmtResponse(
        check=request.check, changed=[f"{root}/{rel}" for rel, _ in changed], invalid=invalid
    )


def _write(root: Any, memory_root: str, changed: list[tuple[str, bytes]]) -> None:
    for relpath, data in changed:
        parts = split_relative(f"{memory_root}/{relpath}")
        with open_dir(root, parts[:-1]) as dir_fd:
            replace_file_at(dir_fd, parts[-1], data)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> FmtRequest:
    return FmtRequest(paths=list(values.get("paths") or ()), check=bool(values.get("check")))


def render(response: FmtResponse) -> str:
    """One line per file: not canonical / reformatted / does not parse."""
    verb = "not canonical" if response.check else "reformatted"
    lines = [f"{path}: {verb}" for path in response.changed]
    lines += [
        f"{p.path}:{p.line or 1}: {p.code} {p.message} (not formatted)" for p in response.invalid
    ]
    return "\n".join(lines)


def _exit_code(response: FmtResponse) -> int:
    return 1 if response.invalid or (response.check and response.changed) else 0


OPERATION = Operation(
    spec=spec("fmt"),
    request_model=FmtRequest,
    response_model=FmtResponse,
    handler=fmt,
    cli_params=[
        click.Argument(["paths"], nargs=-1, type=click.Path()),
        click.Option(["--check"], is_flag=True, help="Change nothing; exit 1 if not canonical."),
    ],
    from_cli=_from_cli,
    render_text=render,
    exit_code=_exit_code,
)
