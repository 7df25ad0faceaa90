"""The recorded `git memory context` answer: printed at once while nothing it read changed,
refused after each kind of change (one test per cause), never printed from a stale record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.answers import cached_answer
from git_memory.formats.entry import Evidence
from git_memory.repo import answer_key
from tests.assemble.test_assemble_command import write_entry
from tests.repos import Repo


@pytest.fixture
def answered(repo: Repo, gm: Any) -> Repo:
    """A worktree with two approved entries (one citing src/app.py) and a recorded answer."""
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_entry(repo, "no-pip", "Never pip install into the system interpreter.")
    write_entry(
        repo,
        "app-entry",
        "The app starts from src/app.py.",
        evidence=Evidence(paths=("src/app.py",)),
    )
    repo.write("src/app.py", "print('app')\n")
    repo.commit_all("memory")
    full = gm(["context"], cwd=repo.root)
    assert full.exit_code == 0, full.stderr
    assert cached_answer(str(repo.root), "context-claude") == full.stdout.rstrip("\n")
    return repo


def fresh_answer(repo: Repo, gm: Any) -> str:
    """What the full command prints now."""
    result = gm(["context"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    text: str = result.stdout
    return text


def test_unchanged_worktree_answers_from_the_record(answered: Repo, gm: Any) -> None:
    recorded = cached_answer(str(answered.root), "context-claude")
    assert recorded is not None
    assert "Never pip install" in recorded
    assert cached_answer(str(answered.root / "src"), "context-claude") == recorded
    assert cached_answer(str(answered.root), "context-codex") is None  # recorded per provider


def test_edited_entry_is_not_answered_from_the_record(answered: Repo, gm: Any) -> None:
    path = answered.root / ".memory" / "entries" / "no-pip.md"
    # Same size, same second: only the content tells (a racily recorded file is hashed).
    path.write_text(path.read_text().replace("Never pip", "Never pIp"))
    assert cached_answer(str(answered.root), "context-claude") is None
    assert "Never pIp" in fresh_answer(answered, gm)
    assert "Never pIp" in (cached_answer(str(answered.root), "context-claude") or "")


def test_added_entry_is_not_answered_from_the_record(answered: Repo, gm: Any) -> None:
    write_entry(answered, "db-first", "Start the db container before the integration tests.")
    assert cached_answer(str(answered.root), "context-claude") is None
    assert "db container" in fresh_answer(answered, gm)


def test_removed_entry_is_not_answered_from_the_record(answered: Repo, gm: Any) -> None:
    (answered.root / ".memory" / "entries" / "no-pip.md").unlink()
    assert cached_answer(str(answered.root), "context-claude") is None
    assert "Never pip" not in fresh_answer(answered, gm)


def test_index_json_change_is_not_answered_from_the_record(answered: Repo) -> None:
    index = answered.root / ".memory" / "index.json"
    document = json.loads(index.read_text())
    index.write_text(json.dumps(document, indent=4) + "\n")
    assert cached_answer(str(answered.root), "context-claude") is None


def test_config_change_is_not_answered_from_the_record(answered: Repo, gm: Any) -> None:
    answered.git("config", "memory.assembleBudget", "1000")
    assert cached_answer(str(answered.root), "context-claude") is None
    assert len(fresh_answer(answered, gm).encode()) <= 1001


def test_head_change_is_not_answered_from_the_record(answered: Repo) -> None:
    answered.write("notes.txt", "x\n")
    answered.commit_all("another commit")
    assert cached_answer(str(answered.root), "context-claude") is None


def test_checked_path_change_is_not_answered_from_the_record(answered: Repo, gm: Any) -> None:
    # The freshness check looked at src/app.py: its removal makes the entry stale.
    (answered.root / "src" / "app.py").unlink()
    assert cached_answer(str(answered.root), "context-claude") is None
    assert "src/app.py" not in fresh_answer(answered, gm)


def test_environment_choosing_the_repository_goes_the_full_way(
    answered: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_DIR", str(answered.root / ".git"))
    assert cached_answer(str(answered.root), "context-claude") is None


def test_planted_record_symlink_is_not_followed(
    answered: Repo, hermetic_env: dict[str, Path], tmp_path: Path
) -> None:
    (record,) = (hermetic_env["state"] / "artifacts" / "context-answers").iterdir()
    planted = tmp_path / "planted.json"
    planted.write_bytes(record.read_bytes())
    record.unlink()
    record.symlink_to(planted)
    assert cached_answer(str(answered.root), "context-claude") is None


def test_console_script_prints_the_record_without_the_command_tree(
    answered: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Recorded as a session start finds it, every file older than the racy window: then the
    # answer starts no git (the configuration snapshot stands), hashes nothing and writes
    # nothing, so neither `subprocess`, `hashlib` nor `pathlib` loads (docs/performance.md).
    monkeypatch.setattr(answer_key, "RACY_NS", 0)
    fresh_answer(answered, gm)
    program = (
        "import sys\n"
        "sys.argv = ['git-memory', 'context']\n"
        "from git_memory.cli.entry import main\n"
        "try:\n"
        "    sys.exit(main())\n"
        "except SystemExit as done:\n"
        "    heavy = ('click', 'pydantic', 'pygit2', 'subprocess', 'hashlib', 'pathlib')\n"
        "    loaded = [m for m in heavy if m in sys.modules]\n"
        "    print('LOADED', loaded, done.code, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=answered.root,
        env=dict(os.environ),  # the hermetic environment the answer was recorded in
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert "LOADED [] 0" in result.stderr, result.stderr
    assert result.stdout == fresh_answer(answered, gm)


def recorded_after_runs(repo: Repo, gm: Any, argv: list[str], name: str) -> str:
    """Run `argv` until its answer is recorded (a first run may write the state it reads)."""
    for _ in range(3):
        printed = gm(argv, cwd=repo.root)
        assert printed.exit_code == 0, printed.stderr
        if cached_answer(str(repo.root), name) is not None:
            break
    recorded = cached_answer(str(repo.root), name)
    assert recorded == printed.stdout.rstrip("\n")
    return recorded


def age_memory_files(repo: Repo) -> None:
    """Move every memory file's mtime back a minute: the approved projection re-hashes (and
    records, writing its database) files changed within a second of its last scan."""
    past = time.time() - 60
    for path in (repo.root / ".memory").rglob("*"):
        os.utime(path, (past, past), follow_symlinks=False)


def test_status_answer_follows_the_state_databases(answered: Repo, gm: Any) -> None:
    age_memory_files(answered)
    assert "approved entries" in recorded_after_runs(answered, gm, ["status"], "status")
    assert gm(["sessions", "sync"], cwd=answered.root).exit_code == 0
    assert cached_answer(str(answered.root), "status") is None
    recorded_after_runs(answered, gm, ["status"], "status")
    write_entry(answered, "db-first", "Start the db container before the integration tests.")
    assert cached_answer(str(answered.root), "status") is None


def test_list_answers_are_recorded_per_form(answered: Repo, gm: Any) -> None:
    listed = recorded_after_runs(answered, gm, ["list"], "list")
    assert "Never pip install" in listed
    assert cached_answer(str(answered.root), "list-stale") is None
    assert gm(["list", "--type", "work_fact"], cwd=answered.root).exit_code == 0
    (answered.root / "src" / "app.py").unlink()  # a path the check looked at
    assert cached_answer(str(answered.root), "list") is None
    assert "stale" in recorded_after_runs(answered, gm, ["list", "--stale"], "list-stale")


def test_linked_worktree_is_keyed_on_its_own_head(answered: Repo, gm: Any, tmp_path: Path) -> None:
    linked = Repo(tmp_path / "linked")
    answered.git("worktree", "add", "-q", "-b", "side", str(linked.root))
    printed = fresh_answer(linked, gm)
    assert cached_answer(str(linked.root), "context-claude") == printed.rstrip("\n")
    assert cached_answer(str(answered.root), "context-claude") is not None
    linked.write("notes.txt", "x\n")
    linked.commit_all("on the side branch")
    assert cached_answer(str(linked.root), "context-claude") is None
    assert cached_answer(str(answered.root), "context-claude") is not None


def test_global_configuration_file_is_part_of_the_key(
    answered: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    # The user's configuration as GIT_CONFIG_GLOBAL names it, not the one git would find alone.
    global_config = hermetic_env["home"] / ".gitconfig"
    with global_config.open("a") as handle:
        handle.write("[memory]\n\tassembleBudget = 1000\n")
    assert cached_answer(str(answered.root), "context-claude") is None
    assert len(fresh_answer(answered, gm).encode()) <= 1001


def test_readme_or_agent_file_change_is_not_answered_from_the_record(
    answered: Repo, gm: Any
) -> None:
    # The block leaves out what the README or CLAUDE.md already says: both are read.
    answered.write("README.md", "Never pip install into the system interpreter.\n")
    assert cached_answer(str(answered.root), "context-claude") is None
    fresh_answer(answered, gm)
    recorded = cached_answer(str(answered.root), "context-claude")
    assert recorded is not None
    answered.write("CLAUDE.md", "# Notes\n")
    assert cached_answer(str(answered.root), "context-claude") is None


def test_a_path_form_is_never_answered_from_the_record(answered: Repo, gm: Any) -> None:
    recorded = cached_answer(str(answered.root), "context-claude")
    result = gm(["context", "--path", "src"], cwd=answered.root)
    assert result.exit_code == 0, result.stderr
    assert cached_answer(str(answered.root), "context-claude") == recorded


def _without_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "no-git-here"
    empty.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(empty))


def test_configuration_snapshot_answers_without_starting_git(
    answered: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Configuration files written this second are never snapshotted (a coarse clock could hide
    # their next change); here they count as old enough.
    monkeypatch.setattr(answer_key, "RACY_NS", 0)
    recorded = fresh_answer(answered, gm).rstrip("\n")
    _without_git(monkeypatch, tmp_path)
    assert cached_answer(str(answered.root), "context-claude") == recorded
    # A changed configuration file: the snapshot no longer stands and git is asked again
    # (here git cannot be started, so nothing is answered from the record).
    with (answered.root / ".git" / "config").open("a") as handle:
        handle.write("[memory]\n\tassembleBudget = 1000\n")
    assert cached_answer(str(answered.root), "context-claude") is None


def test_included_configuration_is_never_snapshotted(
    answered: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(answer_key, "RACY_NS", 0)
    included = tmp_path / "included.gitconfig"
    included.write_text("[core]\n\tautocrlf = false\n")
    answered.git("config", "include.path", str(included))
    recorded = fresh_answer(answered, gm).rstrip("\n")
    assert cached_answer(str(answered.root), "context-claude") == recorded  # git was asked
    included.write_text("[memory]\n\tassembleBudget = 1000\n")
    assert cached_answer(str(answered.root), "context-claude") is None
    included.write_text("[core]\n\tautocrlf = false\n")
    fresh_answer(answered, gm)
    _without_git(monkeypatch, tmp_path)
    assert cached_answer(str(answered.root), "context-claude") is None


def test_system_configuration_is_looked_for_under_the_prefix_of_git_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = tmp_path / "opt" / "git" / "bin" / "git"
    installed.parent.mkdir(parents=True)
    installed.write_text("#!/bin/sh\n")
    installed.chmod(0o755)
    linked = tmp_path / "local" / "bin" / "git"
    linked.parent.mkdir(parents=True)
    linked.symlink_to(installed)
    monkeypatch.setenv("PATH", f"{tmp_path / 'empty'}{os.pathsep}{linked.parent}")
    assert answer_key.git_on_path() == str(linked)
    assert answer_key.system_config_candidates(str(linked)) == [
        "/etc/gitconfig",
        str(tmp_path / "local" / "etc" / "gitconfig"),
        str(tmp_path / "opt" / "git" / "etc" / "gitconfig"),
    ]
    monkeypatch.setenv("PATH", f"relative{os.pathsep}{linked.parent}")
    assert answer_key.git_on_path() is None  # depends on the directory git would run in


def test_system_configuration_file_created_later_is_seen(
    answered: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Git's own default system file, found beside the git on PATH (here a wrapper whose
    # installation prefix is a temporary directory and that names the same file to git).
    prefix = tmp_path / "prefix"
    system = prefix / "etc" / "gitconfig"
    wrapper = prefix / "bin" / "git"
    wrapper.parent.mkdir(parents=True)
    real_git = subprocess.run(
        ["sh", "-c", "command -v git"], capture_output=True, text=True, check=True
    ).stdout.strip()
    wrapper.write_text(f'#!/bin/sh\nGIT_CONFIG_SYSTEM="{system}" exec {real_git} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("GIT_CONFIG_NOSYSTEM")
    monkeypatch.setattr(answer_key, "RACY_NS", 0)
    recorded = fresh_answer(answered, gm).rstrip("\n")
    assert cached_answer(str(answered.root), "context-claude") == recorded
    snapshot = answer_key.config_snapshot_path(os.path.realpath(answered.root))
    assert snapshot is not None
    assert str(system) in json.loads(Path(snapshot).read_text())["files"]
    system.parent.mkdir(parents=True)
    system.write_text("[memory]\n\tassembleBudget = 1000\n")
    assert cached_answer(str(answered.root), "context-claude") is None
    assert len(fresh_answer(answered, gm).encode()) <= 1001


def test_answer_from_the_record_keeps_a_missing_configuration_snapshot(
    answered: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The answer was recorded while the configuration files were too new to be snapshotted.
    snapshot = answer_key.config_snapshot_path(os.path.realpath(answered.root))
    assert snapshot is not None
    Path(snapshot).unlink(missing_ok=True)
    monkeypatch.setattr(answer_key, "RACY_NS", 0)
    recorded = cached_answer(str(answered.root), "context-claude")  # git is asked once
    assert recorded is not None
    assert Path(snapshot).is_file()
    _without_git(monkeypatch, tmp_path)
    assert cached_answer(str(answered.root), "context-claude") == recorded
