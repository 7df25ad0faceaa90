"""`git memory context`: the block printed for session starts, and the Claude Code hook."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER
from tests.assemble.test_assemble_command import write_entry
from tests.assemble.test_assemble_memory import block_of, many_entries
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo

HOOK_SETTINGS = PROJECT_ROOT / "contrib" / "claude-code" / "session-start-settings.json"


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_entry(repo, "no-pip", "Never pip install into the system interpreter.")
    write_entry(repo, "db-first", "Start the `db` container before the integration tests.")
    return repo


def test_context_prints_the_assembled_block_without_markers(memory: Repo, gm: Any) -> None:
    status = ("status", "--porcelain", "--untracked-files=all")
    before = (memory.snapshot(), memory.git(*status))
    printed = gm(["context"], cwd=memory.root)
    assert printed.exit_code == 0, printed.stderr
    assert (memory.snapshot(), memory.git(*status)) == before  # nothing was written
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    inner = block_of(memory.root / "CLAUDE.md").splitlines()[2:-1]
    assert printed.stdout.splitlines() == inner
    assert BEGIN_MARKER not in printed.stdout
    assert END_MARKER not in printed.stdout
    again = gm(["context"], cwd=memory.root)
    assert again.stdout == printed.stdout


def test_context_puts_the_entries_matching_the_query_first(memory: Repo, gm: Any) -> None:
    many_entries(memory, 200)
    result = gm(["context", "integration", "tests", "--budget", "1500"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:4] == [
        "## Team memory",
        "",
        '### Entries matching "integration tests"',
        "",
    ]
    assert lines[4] == "- Start the `db` container before the integration tests."
    assert len(result.stdout.encode()) <= 1500


def test_context_json_reports_size_and_ids(memory: Repo, gm: Any) -> None:
    many_entries(memory, 100)
    result = gm(["context", "--budget", "1200", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert document["format"] == "git-memory-context@v1"
    block = document["block"]
    assert block["bytes"] == len(document["text"].encode()) <= 1200
    assert block["tokens"] == -(-block["bytes"] // 4)
    assert len(block["shown"]) + len(block["leftOut"]) == 102
    assert block["leftOut"]


def test_context_budget_below_the_floor_is_a_usage_error(memory: Repo, gm: Any) -> None:
    result = gm(["context", "--budget", "10"], cwd=memory.root)
    assert result.exit_code == 2


def test_context_without_memory_root(repo: Repo, gm: Any) -> None:
    result = gm(["context"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_NO_MEMORY_ROOT]" in result.stderr


def test_the_session_start_hook_snippet_prints_the_memory(
    memory: Repo, gm: Any, bin_dir: Path, tmp_path: Path
) -> None:
    settings = json.loads(HOOK_SETTINGS.read_text())
    [group] = settings["hooks"]["SessionStart"]
    assert set(group["matcher"].split("|")) == {"startup", "resume", "clear", "compact"}
    [hook] = group["hooks"]
    assert hook["type"] == "command"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    event = {"hook_event_name": "SessionStart", "source": "startup", "cwd": str(elsewhere)}
    # Claude Code runs the command with a shell, in the session's directory, with the project
    # root in CLAUDE_PROJECT_DIR and the event as JSON on stdin.
    result = subprocess.run(
        ["/bin/sh", "-c", hook["command"]],
        cwd=elsewhere,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(memory.root)},
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=hook["timeout"],
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n") == gm(["context"], cwd=memory.root).stdout.rstrip("\n")
    assert "- Never pip install into the system interpreter." in result.stdout.splitlines()
