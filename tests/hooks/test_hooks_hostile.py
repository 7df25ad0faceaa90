"""Hooks land where git looks, and a hostile hooks directory cannot redirect our writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.conftest import SECRET, entry_text, hooks_dir
from tests.hooks.stopped import commit_stopped, dead_pid
from tests.repos import Repo


def test_planted_temp_and_hook_symlinks_into_home_are_not_followed(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    home = hermetic_env["home"]
    bashrc = home / ".bashrc"
    bashrc.write_text("# my shell setup\n")
    bashrc.chmod(0o644)
    profile = home / ".profile"
    profile.write_text("# my profile\n")
    # The repository commits its hooks directory with the shim's temp name and the hook
    # itself as symlinks into $HOME.
    hooks = repo.root / "githooks"
    hooks.mkdir()
    (hooks / ".pre-commit.git-memory.tmp").symlink_to(bashrc)
    (hooks / "pre-commit").symlink_to(profile)
    repo.commit_all("team hooks")
    repo.git("config", "core.hooksPath", "githooks")

    result = gm(["hooks", "install", "--force"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    assert bashrc.read_text() == "# my shell setup\n"
    assert bashrc.stat().st_mode & 0o777 == 0o644
    assert profile.read_text() == "# my profile\n"
    shim = hooks / "pre-commit"
    assert not shim.is_symlink()
    assert "managed-by: git-memory" in shim.read_text()
    # The planted hook is chained as a symlink entry, its target untouched.
    assert (hooks / "pre-commit.legacy").is_symlink()


def test_stale_temp_of_a_killed_install_is_removed(gm: Any, repo: Repo) -> None:
    hooks = hooks_dir(repo)
    hooks.mkdir(parents=True, exist_ok=True)
    stale = hooks / f".pre-commit.{dead_pid()}.0123456789ab.gm-tmp"
    stale.write_text("half a shim")
    live = hooks / f".pre-commit.{os.getpid()}.0123456789ab.gm-tmp"
    live.write_text("a shim another process is writing")
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    assert not stale.exists()
    assert live.exists()


def _global_hooks_path(hermetic_env: dict[str, Path]) -> Path:
    config = Path(os.environ["GIT_CONFIG_GLOBAL"])
    global_hooks = hermetic_env["home"] / ".githooks"
    config.write_text(config.read_text() + f"[core]\n\thooksPath = {global_hooks}\n")
    return global_hooks


def _stage_secret(repo: Repo) -> None:
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")


def test_hooks_path_from_git_config_global_is_where_we_install(
    gm: Any, repo: Repo, bin_dir: Path, hermetic_env: dict[str, Path]
) -> None:
    # The global config file lives where only GIT_CONFIG_GLOBAL names it, not in ~/.gitconfig.
    elsewhere = hermetic_env["xdg"] / "team.gitconfig"
    elsewhere.write_text("[init]\n\tdefaultBranch = main\n")
    os.environ["GIT_CONFIG_GLOBAL"] = str(elsewhere)
    (hermetic_env["home"] / ".gitconfig").unlink()
    global_hooks = _global_hooks_path(hermetic_env)

    status = gm(["hooks", "status", "--format", "json"], cwd=repo.root).json()
    assert status["hooksDir"] == "~/.githooks"
    assert status["hooks"][0]["state"] == "absent"
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    assert (global_hooks / "pre-commit").is_file()
    assert not (hooks_dir(repo) / "pre-commit").exists()
    after = gm(["hooks", "status", "--format", "json"], cwd=repo.root).json()
    assert after["hooks"][0]["state"] == "installed"

    _stage_secret(repo)
    commit_stopped(repo, "GM_LINT_GITHUB_TOKEN")


def test_hooks_path_from_git_config_count_is_honoured(
    gm_proc: Any, repo: Repo, bin_dir: Path, tmp_path: Path
) -> None:
    ci_hooks = tmp_path / "ci-hooks"
    env = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.hooksPath",
        "GIT_CONFIG_VALUE_0": str(ci_hooks),
    }
    installed = gm_proc(["hooks", "install"], cwd=repo.root, env=env)
    assert installed.returncode == 0, installed.stderr
    assert (ci_hooks / "pre-commit").is_file()
    _stage_secret(repo)
    commit_stopped(repo, "GM_LINT_GITHUB_TOKEN", env=env)


def test_git_dash_c_decides_where_status_looks(repo: Repo, bin_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "dash-c-hooks"
    result = subprocess.run(
        [
            "git",
            "-c",
            f"core.hooksPath={elsewhere}",
            "memory",
            "hooks",
            "status",
            "--format",
            "json",
        ],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hooksDir"] == elsewhere.as_posix()


def test_git_rejecting_its_configuration_is_a_clear_error(gm_proc: Any, repo: Repo) -> None:
    result = gm_proc(["hooks", "status"], cwd=repo.root, env={"GIT_CONFIG_COUNT": "many"})
    assert result.returncode == 1, result.stderr
    assert "[GM_GIT_FAILED]" in result.stderr


def test_missing_git_program_is_a_clear_error(
    gm: Any, repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    result = gm(["hooks", "status"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_GIT_UNAVAILABLE]" in result.stderr


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_hooks_path_that_is_a_file_is_a_clear_error(
    gm: Any, repo: Repo, tmp_path: Path, where: str
) -> None:
    target = repo.root / "hooks-file" if where == "inside" else tmp_path / "hooks-file"
    target.write_text("not a directory\n")
    repo.git("config", "core.hooksPath", str(target))
    for command in (["hooks", "status"], ["hooks", "install"]):
        result = gm(command, cwd=repo.root)
        assert result.exit_code == 1, result.stderr
        assert "[GM_NOT_A_DIRECTORY]" in result.stderr
