"""`git memory schema [NAME]` prints the JSON Schemas the package ships (no schema/ needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from git_memory.contracts.catalog import contract_models, format_of, schema_filename
from tests.conftest import PROJECT_ROOT


def test_schema_lists_every_contract_by_format_name(gm: Any, tmp_path: Path) -> None:
    result = gm(["schema"], cwd=tmp_path)  # outside any repository: nothing is read from it
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == sorted(format_of(m) for m in contract_models())


def test_schema_prints_one_by_any_form_of_its_name(gm: Any, tmp_path: Path) -> None:
    shipped = json.loads(
        (
            PROJECT_ROOT / "git_memory" / "schemas" / "git-memory-lint-request.v1.schema.json"
        ).read_text(encoding="utf-8")
    )
    for name in ("git-memory-lint-request@v1", "git-memory-lint-request", "lint-request"):
        result = gm(["schema", name], cwd=tmp_path)
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout) == shipped
    as_json = gm(["schema", "lint-request", "--format", "json"], cwd=tmp_path).json()
    assert as_json["name"] == "git-memory-lint-request@v1"
    assert as_json["document"] == shipped


def test_unknown_schema_name(gm: Any, tmp_path: Path) -> None:
    result = gm(["schema", "no-such-contract"], cwd=tmp_path)
    assert result.exit_code == 1
    assert "[GM_SCHEMA_NOT_FOUND]" in result.stderr
    assert "git memory schema" in result.stderr


def test_invalid_request_hint_names_the_schema_command(gm: Any, repo: Any) -> None:
    request = repo.root / "request.json"
    request.write_text('{"format": "git-memory-lint-request@v1", "bogus": 1}')
    result = gm(["lint", "--request", str(request)], cwd=repo.root)
    assert result.exit_code != 0
    assert "[GM_REQUEST_INVALID]" in result.stderr
    assert "git memory schema git-memory-lint-request@v1" in result.stderr
    assert "schema/" not in result.stderr


def test_the_wheel_ships_the_schemas(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_REQUIRE")}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), "."],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("git_team_memory-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for model in contract_models():
        assert f"git_memory/schemas/{schema_filename(model)}" in names
    # The files `doctor`, `help` and the docs point a pip-installed user at ship with it.
    for shipped in sorted((PROJECT_ROOT / "contrib").rglob("*")):
        if shipped.is_file():
            relative = shipped.relative_to(PROJECT_ROOT / "contrib").as_posix()
            assert f"git_memory/_contrib/{relative}" in names
    # Test helpers stay out of it.
    assert not [name for name in names if name.startswith("git_memory/testing/")]
