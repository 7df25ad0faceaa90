"""Generated files shipped in the repository are current."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from git_memory.cli.manpage import MANPAGE_PATH, render_manpage
from git_memory.contracts.catalog import (
    SCHEMA_DIRECTORY,
    contract_models,
    schema_document,
    schema_filename,
)
from tests.conftest import PROJECT_ROOT


@functools.cache
def _real_help(path: str) -> str:
    """What `git memory PATH --help` prints on an 80-column terminal, from a real process."""
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "git_memory", *path.split(), "--help"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.rstrip("\n")


def _all_real_help(paths: list[str]) -> dict[str, str]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(paths, pool.map(_real_help, paths), strict=True))


def _reference_blocks() -> dict[str, str]:
    """Command path -> the help block of docs/cli.md ("" is the top-level help)."""
    text = (PROJECT_ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = {"": text.split("```text\n", 1)[1].split("\n```", 1)[0]}
    for match in re.finditer(r"^## git memory ([^\n]+)\n\n```text\n(.*?)\n```$", text, re.M | re.S):
        blocks[match.group(1)] = match.group(2)
    return blocks


def _manpage_blocks() -> dict[str, str]:
    """Command path -> the help block of the man page, roff escapes undone."""
    text = (PROJECT_ROOT / MANPAGE_PATH).read_text(encoding="utf-8")
    pattern = r"^(?:\.SH DESCRIPTION|\.SS ([^\n]+))\n\.nf\n(.*?)\n\.fi$"
    found = re.findall(pattern, text, re.M | re.S)
    return {
        path: "\n".join(line.removeprefix("\\&") for line in block.split("\n")).replace("\\e", "\\")
        for path, block in found
    }


def test_cli_reference_matches_the_real_help() -> None:
    blocks = _reference_blocks()
    assert "assemble" in blocks
    assert "sessions sync" in blocks
    real = _all_real_help(sorted(blocks))
    for path, block in blocks.items():
        assert block == real[path], f"docs/cli.md drifted for {path!r}"
    assert "git memory git memory" not in "".join(blocks.values())


def test_man_page_matches_the_real_help() -> None:
    blocks = _manpage_blocks()
    assert set(blocks) == set(_reference_blocks())
    real = _all_real_help(sorted(blocks))
    for path, block in blocks.items():
        assert block == real[path], f"the man page drifted for {path!r}"


def test_man_page_documents_environment_and_files() -> None:
    text = (PROJECT_ROOT / MANPAGE_PATH).read_text(encoding="utf-8")
    environment = text.split(".SH ENVIRONMENT\n", 1)[1].split("\n.SH ", 1)[0]
    for variable in ("GIT_MEMORY_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        assert f".B {variable}\n" in environment
    files = text.split(".SH FILES\n", 1)[1].split("\n.SH ", 1)[0]
    assert ".I .memory/" in files
    assert "sessions.sqlite3" in files


def test_man_page_is_current() -> None:
    shipped = (PROJECT_ROOT / MANPAGE_PATH).read_text(encoding="utf-8")
    assert shipped == render_manpage(), "run: python -m git_memory.cli.manpage"


def test_schema_files_are_current() -> None:
    directory = SCHEMA_DIRECTORY
    assert directory == PROJECT_ROOT / "git_memory" / "schemas"
    expected = {schema_filename(m): schema_document(m) for m in contract_models()}
    present = {p.name for p in directory.glob("*.schema.json")}
    assert present == set(expected), "run: python -m git_memory.contracts.catalog"
    for name, text in expected.items():
        assert (directory / name).read_bytes() == text.encode("utf-8"), f"{name} drifted"


def test_every_contract_has_a_format_literal() -> None:
    for model in contract_models():
        fmt = model.model_fields["format"].default
        assert fmt.startswith("git-memory-"), model
        assert fmt.endswith("@v1"), model


def test_cli_reference_is_current() -> None:
    from git_memory.cli.reference import REFERENCE_PATH, render_reference

    shipped = (PROJECT_ROOT / REFERENCE_PATH).read_text(encoding="utf-8")
    assert shipped == render_reference(), "run: python -m git_memory.cli.reference"
