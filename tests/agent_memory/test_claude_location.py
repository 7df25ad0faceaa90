"""Claude Code's auto memory folder: the `autoMemoryDirectory` setting moves it, and a long
project path gets the shortened folder name Claude Code gives it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from git_memory.agent_memory.claude import project_slug
from tests.agent_memory.conftest import STORE_FIXTURES, Project
from tests.conftest import run_cli
from tests.repos import make_repo

LONG = "/home/dev/" + "monorepo/" * 25 + "app"


@pytest.mark.parametrize(
    ("path", "tail"),
    [
        # Tails computed with the folder-name function of Claude Code's own CLI.
        (LONG, "monorepo-m-r2arya"),
        ("/home/dév/" + "ñ" * 200 + "/😀x", "-----------zicd17"),
    ],
)
def test_a_long_project_path_keeps_200_characters_and_a_hash(path: str, tail: str) -> None:
    slug = project_slug(Path(path))
    assert slug[190:] == tail
    assert len(slug) == 201 + len(tail.rsplit("-", 1)[-1])


def test_a_short_path_is_every_other_character_as_a_dash() -> None:
    assert project_slug(Path("/tmp/a b😀c")) == "-tmp-a-b--c"


def _store(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STORE_FIXTURES / "claude-auto-memory/MEMORY.md", folder / "MEMORY.md")
    return folder


def _harvested_from(project: Project) -> list[str]:
    code, harvested = project.gm("harvest", "--store", "claude-auto-memory")
    assert code == 0, harvested
    return [o["item"] for o in harvested["offered"]]


def _settings(path: Path, value: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"autoMemoryDirectory": value}))


def test_the_user_setting_moves_the_folder_and_expands_the_home_directory(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    default = hermetic_env["claude"] / "projects" / project_slug(project.root.resolve())
    (default / "memory").mkdir(parents=True)
    (default / "memory" / "stale.md").write_text("- a note in the default folder\n")
    _store(hermetic_env["home"] / "notes" / "claude-memory")
    _settings(hermetic_env["claude"] / "settings.json", "~/notes/claude-memory/")
    assert _harvested_from(project) == [
        "MEMORY.md#Memory index#1",
        "MEMORY.md#Memory index#2",
        "MEMORY.md#Memory index / Project facts#1",
    ]


def test_an_untracked_local_setting_wins_and_a_checked_in_one_is_not_followed(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    user = hermetic_env["home"] / "user-memory"
    (user / "MEMORY.md").parent.mkdir(parents=True)
    (user / "MEMORY.md").write_text("- from the user setting\n")
    _settings(hermetic_env["claude"] / "settings.json", str(user))
    local = _store(hermetic_env["home"] / "local-memory")
    _settings(project.root / ".claude" / "settings.local.json", str(local))
    shared = hermetic_env["home"] / "shared-memory"
    (shared / "MEMORY.md").parent.mkdir(parents=True)
    (shared / "MEMORY.md").write_text("- from the checked-in setting\n")
    _settings(project.root / ".claude" / "settings.json", str(shared))
    assert len(_harvested_from(project)) == 3, "the local setting's folder is read"
    project.repo.commit_all("settings in git")
    _, harvested = project.gm("harvest", "--store", "claude-auto-memory")
    offered = harvested["offered"]
    assert [o["item"] for o in offered] == ["MEMORY.md#-#1"]
    _, review = project.gm("review")
    assert "from the user setting" in str(review), "a tracked local setting is not followed"
    assert "from the checked-in setting" not in str(review)


@pytest.mark.parametrize("value", ["relative/memory", "~/../elsewhere", "", "~"])
def test_a_setting_that_is_not_an_absolute_folder_is_ignored(
    project: Project, hermetic_env: dict[str, Path], value: str
) -> None:
    _settings(hermetic_env["claude"] / "settings.json", value)
    _store(hermetic_env["claude"] / "projects" / project_slug(project.root.resolve()) / "memory")
    assert len(_harvested_from(project)) == 3


def test_a_repository_at_a_long_path_finds_its_shortened_folder(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    deep = tmp_path.joinpath(*(["nested-folder-name"] * 12))
    repo = make_repo(deep / "app")
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    slug = project_slug(repo.root.resolve())
    assert len(slug) > 200
    _store(hermetic_env["claude"] / "projects" / slug / "memory")
    result = run_cli(["harvest", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0
    assert [s["store"] for s in result.json()["stores"]] == ["claude-auto-memory"]
