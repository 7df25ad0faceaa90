"""Generated files shipped in the repository are current."""

from __future__ import annotations

from git_memory.cli.manpage import MANPAGE_PATH, render_manpage
from git_memory.contracts.catalog import contract_models, schema_document, schema_filename
from tests.conftest import PROJECT_ROOT


def test_man_page_is_current() -> None:
    shipped = (PROJECT_ROOT / MANPAGE_PATH).read_text(encoding="utf-8")
    assert shipped == render_manpage(), "run: python -m git_memory.cli.manpage"


def test_schema_files_are_current() -> None:
    directory = PROJECT_ROOT / "schema"
    expected = {schema_filename(m): schema_document(m) for m in contract_models()}
    present = {p.name for p in directory.glob("*.schema.json")}
    assert present == set(expected), "run: git memory schema"
    for name, text in expected.items():
        assert (directory / name).read_text(encoding="utf-8") == text, f"{name} drifted"


def test_every_contract_has_a_format_literal() -> None:
    for model in contract_models():
        fmt = model.model_fields["format"].default
        assert fmt.startswith("git-memory-"), model
        assert fmt.endswith("@v1"), model


def test_schema_check_command(gm_proc: object, tmp_path: object) -> None:
    from pathlib import Path

    from tests.conftest import run_subprocess

    assert isinstance(tmp_path, Path)
    result = run_subprocess(["schema", "--check"], cwd=PROJECT_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    stale = tmp_path / "schema"
    stale.mkdir()
    (stale / "git-memory-bogus.v1.schema.json").write_text("{}")
    result = run_subprocess(["schema", "--check", "--directory", str(stale)], cwd=PROJECT_ROOT)
    assert result.returncode == 1
    assert "stale" in result.stdout


def test_cli_reference_is_current() -> None:
    from git_memory.cli.reference import REFERENCE_PATH, render_reference

    shipped = (PROJECT_ROOT / REFERENCE_PATH).read_text(encoding="utf-8")
    assert shipped == render_reference(), "run: python -m git_memory.cli.reference"
