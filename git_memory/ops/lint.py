"""`git memory lint [PATH…] [--staged] [--format text|json|sarif]`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.lint import LintFile, LintFinding, LintRequest, LintResponse
from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec

SEVERITY_WORDS = {"block": "BLOCK", "warn": "WARN"}


def lint(ctx: OpContext, request: LintRequest) -> LintResponse:
    """Lint memory files for secrets, private paths and format errors.

    Default target is the whole memory root; PATHs narrow it; --staged lints the blobs in
    the git index (what the commit will contain), not the working tree. Block rules: API and
    cloud tokens, private keys, JWTs, URL credentials, agent session paths and ids,
    high-entropy tokens, and any format error. Warn rules: long hex runs, home paths,
    emails, ip:port and a stale index.json. Exits 1 when anything blocks.
    """
    from git_memory.lint.engine import Finding, lint_bytes
    from git_memory.lint.rules import SYMLINK_CODE
    from git_memory.repo import memory_tree

    worktree = ctx.worktree
    root = worktree.memory_root
    if request.staged:
        index_path = memory_tree.index_path_from_environment()
        files = memory_tree.staged_files(worktree.repository, root, index_path)
    else:
        files = memory_tree.worktree_files(worktree.root, root)
        if request.paths:
            prefixes = memory_tree.memory_prefixes(worktree.root, root, request.paths)
            files = _existing(memory_tree.select(files, prefixes), prefixes, request.paths)
    results: dict[str, list[Finding]] = {}
    for item in files:
        if item.data is None:
            results[item.relpath] = [
                Finding(SYMLINK_CODE, "block", 1, 1, "", "symbolic link in the memory root")
            ]
        else:
            results[item.relpath] = lint_bytes(item.relpath, item.data)
    if not request.paths and files:
        stale = _stale_index(files)
        if stale is not None:
            results.setdefault("index.json", []).append(stale)
    return _response(root, results)


def _existing(selected: list[Any], prefixes: list[str], paths: list[str]) -> list[Any]:
    for prefix, given in zip(prefixes, paths, strict=True):
        if prefix and not any(
            f.relpath == prefix or f.relpath.startswith(prefix + "/") for f in selected
        ):
            raise GitMemoryError("GM_PATH_NOT_FOUND", f"no memory file at {given!r}")
    return selected


def _stale_index(files: list[Any]) -> Any:
    from git_memory.formats.index_json import build_index
    from git_memory.lint.engine import Finding
    from git_memory.lint.rules import INDEX_STALE_CODE

    texts: dict[str, str] = {}
    current: bytes | None = None
    for item in files:
        if item.relpath == "index.json":
            current = item.data
        elif item.data is not None:
            try:
                texts[item.relpath] = item.data.decode("utf-8")
            except UnicodeDecodeError:
                continue
    if build_index(texts).data == current:
        return None
    message = "index.json is missing" if current is None else "index.json differs from the tree"
    return Finding(INDEX_STALE_CODE, "warn", 1, 1, "", message + "; run `git memory reindex`")


def _response(root: str, results: Mapping[str, list[Any]]) -> LintResponse:
    files = [
        LintFile(
            path=f"{root}/{relpath}",
            findings=[LintFinding(**finding.to_json()) for finding in findings],
        )
        for relpath, findings in sorted(results.items())
    ]
    blocked = any(f.severity == "block" for file in files for f in file.findings)
    return LintResponse(files=files, blocked=blocked)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> LintRequest:
    ctx.extras["rendering"] = values.get("output_format", "text")
    return LintRequest(paths=list(values.get("paths") or ()), staged=bool(values.get("staged")))


def render(response: LintResponse) -> str:
    """Text lines `path:line:col: SEVERITY CODE message` (or a SARIF document)."""
    if response._rendering == "sarif":
        import json

        from git_memory import __version__
        from git_memory.lint.sarif import to_sarif

        pairs = [(f.path, [x.to_json() for x in f.findings]) for f in response.files]
        return json.dumps(to_sarif(pairs, __version__), indent=2, ensure_ascii=False)
    lines = []
    for file in response.files:
        for f in file.findings:
            detail = f"{f.message} ({f.excerpt})" if f.excerpt else f.message
            lines.append(
                f"{file.path}:{f.line}:{f.column}: {SEVERITY_WORDS[f.severity]} {f.code} {detail}"
            )
    return "\n".join(lines)


def _handler(ctx: OpContext, request: LintRequest) -> LintResponse:
    response = lint(ctx, request)
    response._rendering = str(ctx.extras.get("rendering", "text"))
    return response


_handler.__doc__ = lint.__doc__

OPERATION = Operation(
    spec=spec("lint"),
    request_model=LintRequest,
    response_model=LintResponse,
    handler=_handler,
    cli_params=[
        click.Argument(["paths"], nargs=-1, type=click.Path()),
        click.Option(["--staged"], is_flag=True, help="Lint the blobs in the git index."),
        click.Option(
            ["--format", "output_format"],
            type=click.Choice(["text", "json", "sarif"]),
            default="text",
            show_default=True,
            help="Output format: text lines, the JSON document, or SARIF 2.1.0.",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
    exit_code=lambda response: 1 if response.blocked else 0,
)
