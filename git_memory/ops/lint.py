"""`git memory lint [PATH…] [--staged] [--format text|json|sarif]`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from git_memory import __version__
from git_memory.contracts.lint import LintFile, LintFinding, LintRequest, LintResponse
from git_memory.lint.sarif import to_sarif
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo.blobs import commit_exists
from git_memory.repo.memory_lint import collect_findings, text_lines
from git_memory.sessions.private import indexed_session_ids
from git_memory.store.reviewed import reviewed_digests


def lint(ctx: OpContext, request: LintRequest) -> LintResponse:
    """Lint memory files for secrets, private paths and format errors.

    Default target is the whole memory root; PATHs narrow it; --staged lints the blobs in
    the git index (what the commit will contain), not the working tree. Block rules: API and
    cloud tokens (hex-bodied ones too), private keys, JWTs, URL credentials, passwords stated
    in a sentence, every agent's session paths and ids, home paths (this machine's $HOME
    too), high-entropy tokens, bare 40/64-hex tokens that are not a commit or a hash where
    hashes are written, control and invisible characters, and any format error. Every rule
    reads the text as a person or a shell would: look-alike letters folded, Unicode spaces,
    HTML and Markdown rendered, pieces split over lines, table cells or string
    concatenation joined, and escapes, entities, base64, quoted-printable, Ascii85, decimal
    codes, rot13 and reversed text decoded. Warn rules: long hex runs, emails, ip:port, a
    stale index.json, and text in a Markdown file that tells agents to act beyond a memory's
    role (GM_DIRECTIVE_*: fetch and run code, send data out, read credentials, switch checks
    off, hide actions, override instructions) unless a promotion reviewed here wrote that
    file. Exits 1 when anything blocks.
    """
    worktree = ctx.worktree
    results = collect_findings(
        worktree,
        staged=request.staged,
        paths=request.paths,
        indexed_ids=indexed_session_ids,
        memory_files_only=request.memory_files_only,
        known_commit=lambda hex_id: commit_exists(worktree.repository, hex_id),
        reviewed=reviewed_digests,
    )
    return _response(results)


def _response(results: Mapping[str, list[Any]]) -> LintResponse:
    files = [
        LintFile(
            path=path,
            findings=[LintFinding(**finding.to_json()) for finding in findings],
        )
        for path, findings in sorted(results.items())
    ]
    blocked = any(f.severity == "block" for file in files for f in file.findings)
    return LintResponse(files=files, blocked=blocked)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> LintRequest:
    return LintRequest(
        paths=list(values.get("paths") or ()),
        staged=bool(values.get("staged")),
        memory_files_only=bool(values.get("memory_files_only")),
    )


def render(response: LintResponse) -> str:
    """Text lines `path:line:col: SEVERITY CODE message` (or a SARIF document)."""
    if response._rendering == "sarif":
        pairs = [(f.path, [x.to_json() for x in f.findings]) for f in response.files]
        return json.dumps(to_sarif(pairs, __version__), indent=2, ensure_ascii=False)

    lines = text_lines({f.path: f.findings for f in response.files})
    if response._staged:
        return "\n".join(lines)  # the pre-commit hook's output, kept as terse as git's own
    return "\n".join([*lines, summary_line(response)])


def summary_line(response: LintResponse) -> str:
    """One closing line, also when nothing was found (silence reads like a crash)."""
    findings = [finding for file in response.files for finding in file.findings]
    blocking = sum(1 for finding in findings if finding.severity == "block")
    warnings = len(findings) - blocking
    checked = f"{len(response.files)} file{'' if len(response.files) == 1 else 's'} checked"
    if blocking:
        return f"lint: {blocking} blocking finding(s), {warnings} warning(s) ({checked})"
    if warnings:
        return f"lint: nothing blocks, {warnings} warning(s) ({checked})"
    return f"lint: clean ({checked})"


def _handler(ctx: OpContext, request: LintRequest) -> LintResponse:
    response = lint(ctx, request)
    response._rendering = ctx.output_format
    response._staged = request.staged
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
            ["--memory-files-only", "memory_files_only"],
            is_flag=True,
            help="Pass over PATHs outside the memory root instead of refusing them"
            " (for the pre-commit framework, which passes every matching file).",
        ),
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
