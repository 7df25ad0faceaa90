"""`git memory hooks install|uninstall|status`: placement, chaining, upgrades, merge driver."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.repo.hooks import template_path
from tests.conftest import PROJECT_ROOT
from tests.hooks.conftest import hooks_dir
from tests.repos import Repo

FOREIGN = "#!/bin/sh\necho foreign\n"


def run(gm: Any, repo: Repo, *args: str) -> Any:
    result = gm(["hooks", *args, "--format", "json"], cwd=repo.root)
    return result


def test_install_status_uninstall_round_trip(gm: Any, repo: Repo) -> None:
    first = run(gm, repo, "install")
    assert first.exit_code == 0, first.stderr
    doc = first.json()
    assert doc["hooksDir"] == ".git/hooks"
    assert doc["hooks"] == [
        {"name": "pre-commit", "state": "installed", "legacy": False, "action": "installed"}
    ]
    assert doc["mergeDriver"] is True
    shim = hooks_dir(repo) / "pre-commit"
    assert shim.stat().st_mode & 0o111
    assert "# managed-by: git-memory hook shim v6" in shim.read_text()
    again = run(gm, repo, "install").json()
    assert again["hooks"][0]["action"] == "unchanged"
    assert (repo.root / ".gitattributes").read_text().count("merge=git-memory-index") == 1
    assert repo.git("config", "merge.git-memory-index.driver").strip() == (
        "git memory merge-index %O %A %B %P"
    )
    gone = run(gm, repo, "uninstall").json()
    assert gone["hooks"][0]["state"] == "absent"
    assert gone["mergeDriver"] is False
    assert not shim.exists()
    assert "merge=git-memory-index" not in (repo.root / ".gitattributes").read_text()
    assert run(gm, repo, "status").json()["hooks"][0]["state"] == "absent"


def test_foreign_hook_is_chained_and_restored(gm: Any, repo: Repo) -> None:
    hook = hooks_dir(repo) / "pre-commit"
    hook.write_text(FOREIGN)
    hook.chmod(0o755)
    assert run(gm, repo, "status").json()["hooks"][0]["state"] == "foreign"
    doc = run(gm, repo, "install").json()
    assert doc["hooks"][0] == {
        "name": "pre-commit",
        "state": "installed",
        "legacy": True,
        "action": "chained",
    }
    assert (hooks_dir(repo) / "pre-commit.legacy").read_text() == FOREIGN
    run(gm, repo, "uninstall")
    assert hook.read_text() == FOREIGN
    assert not (hooks_dir(repo) / "pre-commit.legacy").exists()


def test_existing_legacy_is_never_clobbered(gm: Any, repo: Repo) -> None:
    (hooks_dir(repo) / "pre-commit").write_text(FOREIGN)
    (hooks_dir(repo) / "pre-commit.legacy").write_text("#!/bin/sh\necho older\n")
    result = gm(["hooks", "install"], cwd=repo.root)
    assert result.exit_code == 1
    assert "GM_HOOK_LEGACY_EXISTS" in result.stderr
    assert (hooks_dir(repo) / "pre-commit").read_text() == FOREIGN


def test_outdated_shim_is_upgraded(gm: Any, repo: Repo) -> None:
    run(gm, repo, "install")
    shim = hooks_dir(repo) / "pre-commit"
    shim.write_text(shim.read_text() + "# local edit\n")
    assert run(gm, repo, "status").json()["hooks"][0]["state"] == "outdated"
    doc = run(gm, repo, "install").json()
    assert doc["hooks"][0]["action"] == "upgraded"
    assert "# local edit" not in shim.read_text()
    assert not (hooks_dir(repo) / "pre-commit.legacy").exists()


def test_core_hooks_path_is_honoured(gm: Any, repo: Repo) -> None:
    repo.git("config", "core.hooksPath", "githooks")
    doc = run(gm, repo, "install").json()
    assert doc["hooksDir"] == "githooks"
    assert (repo.root / "githooks" / "pre-commit").is_file()
    assert not (hooks_dir(repo) / "pre-commit").exists()


def test_tracked_hooks_dir_needs_force(gm: Any, repo: Repo) -> None:
    repo.write("githooks/README", "team hooks\n")
    repo.commit_all("team hooks")
    repo.git("config", "core.hooksPath", "githooks")
    refused = gm(["hooks", "install"], cwd=repo.root)
    assert refused.exit_code == 1
    assert "GM_HOOKS_DIR_TRACKED" in refused.stderr
    assert not (repo.root / "githooks" / "pre-commit").exists()
    forced = gm(["hooks", "install", "--force"], cwd=repo.root)
    assert forced.exit_code == 0, forced.stderr
    assert (repo.root / "githooks" / "pre-commit").is_file()


def test_linked_worktree_uses_the_common_hooks_dir(gm: Any, repo: Repo, tmp_path: Path) -> None:
    linked = repo.add_worktree(tmp_path / "linked", "side")
    doc = gm(["hooks", "install", "--format", "json"], cwd=linked.root).json()
    assert doc["hooksDir"] == "$GIT_COMMON_DIR/hooks"
    assert (hooks_dir(repo) / "pre-commit").is_file()


def test_template_is_found_in_wheel_and_checkout_layouts(tmp_path: Path) -> None:
    assert template_path() == PROJECT_ROOT / "hooks" / "pre-commit"
    wheel_package = tmp_path / "site" / "git_memory"
    (wheel_package / "_hooks").mkdir(parents=True)
    (wheel_package / "_hooks" / "pre-commit").write_text("#!/bin/sh\n")
    assert template_path(wheel_package) == wheel_package / "_hooks" / "pre-commit"
    with pytest.raises(GitMemoryError) as caught:
        template_path(tmp_path / "empty" / "git_memory")
    assert caught.value.code == "GM_HOOK_TEMPLATE_MISSING"


def test_pre_commit_framework_manifest() -> None:
    text = (PROJECT_ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "- id: git-memory-lint" in text
    assert "entry: git-memory lint" in text
    assert r"files: ^(\.memory|\.threadshare/memory)/" in text
