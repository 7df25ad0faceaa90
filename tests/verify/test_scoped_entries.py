"""A scoped entry is checked where its scope says (issue 48): its commands, make targets,
package scripts, script files and manifests are looked for in its scope directory, and in the
parents the tools themselves search, for the text, JSON and `--changed` forms; a fresh scoped
entry then reaches its scoped files."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.verify.commands import requirements
from tests.assemble.test_assemble_memory import block_of
from tests.repos import Repo
from tests.verify.helpers import write_entry

WEB_LINT = "In the web app, run `npm run lint` from web/ before committing UI changes."
API_TESTS = "In the API, run `uv run pytest` and `make check` before a release."
ROOT_BUILD = "Build everything with `make build` from the top of the repository."


@pytest.fixture
def monorepo(repo: Repo) -> Repo:
    """A root Makefile, `web/package.json` with `lint`, `api/pyproject.toml` and a Makefile."""
    repo.write("Makefile", "build:\n\t$(MAKE) -C api check\n")
    repo.write("web/package.json", '{"scripts": {"lint": "eslint .", "build": "vite"}}\n')
    repo.write("api/pyproject.toml", '[project]\nname = "api"\n')
    repo.write("api/Makefile", "check:\n\tpytest\n")
    write_entry(repo, "web-lint", WEB_LINT, paths=("web/package.json",))
    _scoped(repo, "web-lint", "path:web")
    write_entry(repo, "api-tests", API_TESTS)
    _scoped(repo, "api-tests", "path:api")
    write_entry(repo, "root-build", ROOT_BUILD)
    repo.commit_all("a monorepo with scoped memory")
    return repo


def _scoped(repo: Repo, entry_id: str, scope: str) -> None:
    path = repo.root / f".memory/entries/{entry_id}.md"
    text = path.read_text()
    path.write_text(text.replace("scope: repo\n", f"scope: {scope}\n"))
    assert f"scope: {scope}\n" in path.read_text()


def _verify(gm: Any, repo: Repo, *args: str) -> dict[str, dict[str, Any]]:
    result = gm(["verify", "--format", "json", *args], cwd=repo.root)
    assert result.exit_code in (0, 1), result.stderr
    return {item["id"]: item for item in result.json()["entries"]}


def test_scoped_entries_are_fresh_where_their_scope_says(gm: Any, monorepo: Repo) -> None:
    found = _verify(gm, monorepo)
    assert {key: item["state"] for key, item in found.items()} == {
        "web-lint": "fresh",
        "api-tests": "fresh",
        "root-build": "fresh",
    }
    text = gm(["verify"], cwd=monorepo.root)
    assert text.exit_code == 0, text.stdout
    assert "3 checked: 3 fresh, 0 stale, 0 unverifiable" in text.stdout


def test_fresh_scoped_entries_reach_their_scoped_files(gm: Any, monorepo: Repo) -> None:
    assembled = gm(["assemble", "--provider", "claude"], cwd=monorepo.root)
    assert assembled.exit_code == 0, assembled.stderr
    root = block_of(monorepo.root / "CLAUDE.md")
    assert ROOT_BUILD in root
    assert WEB_LINT not in root
    assert API_TESTS not in root
    assert WEB_LINT in block_of(monorepo.root / ".claude/rules/git-memory-web.md")
    assert API_TESTS in block_of(monorepo.root / ".claude/rules/git-memory-api.md")


def test_a_removed_script_makes_the_scoped_entry_stale_naming_its_directory(
    gm: Any, monorepo: Repo
) -> None:
    monorepo.write("web/package.json", '{"scripts": {"build": "vite"}}\n')
    monorepo.write("api/Makefile", "test:\n\tpytest\n")
    found = _verify(gm, monorepo)
    assert found["web-lint"]["state"] == "stale"
    (web,) = found["web-lint"]["reasons"]
    assert web["message"] == "`npm run lint`: web/package.json has no script `lint`"
    assert found["api-tests"]["state"] == "stale"
    (api,) = found["api-tests"]["reasons"]
    assert api["message"] == "`make check`: api/Makefile has no target `check`"
    assert found["root-build"]["state"] == "fresh"
    text = gm(["verify"], cwd=monorepo.root)
    assert text.exit_code == 1
    assert "web/package.json has no script `lint`" in text.stdout
    assembled = gm(["assemble", "--provider", "claude"], cwd=monorepo.root)
    assert assembled.exit_code == 0, assembled.stderr
    assert not (monorepo.root / ".claude/rules/git-memory-web.md").exists()


def test_a_scoped_entry_without_its_project_names_where_it_looked(gm: Any, monorepo: Repo) -> None:
    (monorepo.root / "web/package.json").unlink()
    (monorepo.root / "api/pyproject.toml").unlink()
    (monorepo.root / "api/Makefile").unlink()
    found = _verify(gm, monorepo)
    assert [r["message"] for r in found["web-lint"]["reasons"]] == [
        "cites web/package.json, which is not in the worktree",
        "`npm run lint` needs a package.json in web/ or above, and there is none",
    ]
    assert [r["message"] for r in found["api-tests"]["reasons"]] == [
        "`uv run pytest` needs pyproject.toml in api/ or above, and there is none",
        "`make check` needs a Makefile in api/, and there is none",
    ]


def test_a_package_json_above_the_scope_is_found_as_npm_finds_it(gm: Any, monorepo: Repo) -> None:
    write_entry(monorepo, "web-src-build", "Run `npm run build` in web/src.")
    _scoped(monorepo, "web-src-build", "path:web/src")
    monorepo.write("web/src/main.ts", "export {};\n")
    assert _verify(gm, monorepo)["web-src-build"]["state"] == "fresh"


def test_changed_lists_a_scoped_entry_whose_scoped_manifest_the_diff_touches(
    gm: Any, monorepo: Repo
) -> None:
    base = monorepo.git("rev-parse", "HEAD").strip()
    monorepo.write("web/package.json", '{"scripts": {"build": "vite"}}\n')
    monorepo.commit_all("drop the lint script")
    result = gm(["verify", "--changed", base, "--format", "json"], cwd=monorepo.root)
    assert result.exit_code == 1, result.stdout + result.stderr
    touched = {item["id"]: item for item in result.json()["entries"]}
    assert set(touched) == {"web-lint"}
    assert touched["web-lint"]["state"] == "stale"


def test_a_scope_naming_no_directory_is_stale_and_never_created(gm: Any, monorepo: Repo) -> None:
    write_entry(monorepo, "docs-build", "Run `make html` to build the docs.")
    _scoped(monorepo, "docs-build", "path:docs")
    found = _verify(gm, monorepo)
    assert found["docs-build"]["state"] == "stale"
    assert [r["message"] for r in found["docs-build"]["reasons"]] == [
        "its scope names docs/, which is not a directory of the worktree"
    ]
    assert gm(["assemble", "--provider", "all"], cwd=monorepo.root).exit_code == 0
    assert not (monorepo.root / "docs").exists()


@pytest.mark.parametrize(
    ("snippet", "start", "directory"),
    [
        ("npm run lint", "web", "web"),
        ("cd web && npm run lint", "web", "web"),  # written from the top of the repository
        ("cd web/src && npm run build", "web", "web/src"),
        ("cd src && npm run build", "web", "web/src"),  # from the scope
        ("cd ../api && make check", "web", "api"),
        ("cd web && npm run lint", "", "web"),
        ("npm run lint", "", ""),
    ],
)
def test_a_scoped_command_runs_from_its_scope(snippet: str, start: str, directory: str) -> None:
    (need,) = requirements(f"`{snippet}`", start)
    assert need.directory == directory
