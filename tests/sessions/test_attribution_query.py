"""Attribution to worktrees, evidence edges and the `select_turns` API on real repositories."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from git_memory.repo.binding import discover_worktree
from git_memory.sessions.query import select_turns
from git_memory.sessions.turns import session_key
from tests.repos import Repo, make_repo
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_turn,
    claude_user,
    tool_result,
    write_jsonl,
)

OLD = time.time() - 3 * 3600


def _session(claude_home: Path, name: str, cwd: Path | str, prompt: str) -> str:
    write_jsonl(claude_path(claude_home, name), claude_turn(prompt, "ok", str(cwd), "m"), OLD)
    return session_key("claude-code", name)


def _keys(gm: Any, cwd: Path, *extra: str) -> set[str]:
    result = gm(["sessions", "list", "--format", "json", *extra], cwd=cwd)
    assert result.exit_code == 0, result.stderr
    return {s["sessionKey"] for s in result.json()["sessions"]}


def test_innermost_repository_or_worktree_owns_a_cwd(
    gm: Any, repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    home = hermetic_env["claude"]
    (repo.root / "src" / "deep").mkdir(parents=True)
    nested = make_repo(repo.root / "vendor" / "lib")
    linked = repo.add_worktree(repo.root / "wt", "feature")
    outside = make_repo(tmp_path / "other")
    root = _session(home, "root", repo.root, "at root")
    sub = _session(home, "sub", repo.root / "src" / "deep", "in a subdirectory")
    in_nested = _session(home, "nested", nested.root / "x", "in nested repo")
    in_linked = _session(home, "linked", linked.root, "in linked worktree")
    elsewhere = _session(home, "elsewhere", outside.root, "elsewhere")
    sibling = _session(home, "sibling", str(repo.root) + "-copy", "prefix look-alike")
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    assert _keys(gm, repo.root) == {root, sub}
    assert _keys(gm, repo.root / "src") == {root, sub}  # any directory of the worktree
    assert _keys(gm, nested.root) == {in_nested}
    assert _keys(gm, linked.root) == {in_linked}
    assert _keys(gm, outside.root) == {elsewhere}
    assert _keys(gm, repo.root, "--all") == {root, sub, in_nested, in_linked, elsewhere, sibling}


def test_list_filters_and_privacy(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    home = hermetic_env["claude"]
    _session(home, "9f0e3c1a-1111-4111-8111-111111111111", repo.root, "hello")
    gm(["sessions", "sync"], cwd=repo.root)
    for fmt in ("text", "json"):
        out = gm(["sessions", "list", "--all", "--format", fmt], cwd=repo.root).stdout
        assert "9f0e3c1a" not in out
        assert str(hermetic_env["home"]) not in out
        assert str(repo.root) not in out
    assert _keys(gm, repo.root, "--provider", "codex") == set()
    assert len(_keys(gm, repo.root, "--since", "2026-03-01")) == 1
    assert _keys(gm, repo.root, "--since", "2026-03-02T00:00:00Z") == set()
    assert _keys(gm, repo.root, "--until", "2026-03-01") == set()
    bad = gm(["sessions", "list", "--since", "last tuesday"], cwd=repo.root)
    assert bad.exit_code == 2
    assert "GM_REQUEST_INVALID" in bad.stderr


def test_select_turns_evidence_and_filters(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    repo.write("a.txt", "x")
    real = repo.commit_all("second commit")
    fake = "f" * 40
    big = "line of output\n" * 1000  # larger than the inline limit: read back from the file
    calls = [
        {
            "type": "tool_use",
            "id": "t1",
            "name": "Bash",
            "input": {"command": "git log -2 --format=%H"},
        },
        {"type": "tool_use", "id": "t2", "name": "Edit", "input": {"file_path": f"{cwd}/src/m.py"}},
        {"type": "tool_use", "id": "t3", "name": "Read", "input": {"file_path": "/etc/hosts"}},
        {"type": "tool_use", "id": "t4", "name": "Bash", "input": {"command": "pytest"}},
    ]
    records = [claude_user("investigate the flaky cache test", cwd)]
    records += [claude_assistant([c], cwd, "m1") for c in calls]
    records += [
        tool_result("t1", f"{real}\n{fake}\n", cwd),
        tool_result("t2", "edited", cwd),
        tool_result("t3", "127.0.0.1", cwd),
        tool_result("t4", big, cwd, is_error=True),
        claude_assistant([{"type": "text", "text": "The cache key was wrong."}], cwd, "m2"),
    ]
    records += claude_turn("now the docs", "updated docs", cwd, "m3")
    write_jsonl(claude_path(hermetic_env["claude"], "ev"), records, OLD)
    gm(["sessions", "sync"], cwd=repo.root)
    worktree = discover_worktree(repo.root)
    (turn,) = select_turns(worktree, query="flaky cache")
    assert turn.user_text == "investigate the flaky cache test"
    assert turn.closure == "hard-sealed"
    assert [(e.kind, e.value, e.strength) for e in turn.evidence] == [
        ("turn", turn.turn_key, "direct"),
        ("path", "src/m.py", "observed"),
        ("commit", real, "direct"),  # the fake hash does not exist in this repository
    ]
    assert turn.tool_calls[3].output == big
    assert turn.tool_calls[3].state == "failed"
    assert len(select_turns(worktree)) == 2
    assert [t.user_text for t in select_turns(worktree, result_states=["failed"])] == [
        turn.user_text
    ]
    assert select_turns(worktree, tool_names=["Edit"])[0].turn_key == turn.turn_key
    assert select_turns(worktree, providers=["codex"]) == []
    assert select_turns(worktree, query="docs", since="2027-01-01T00:00:00.000Z") == []
    assert len(select_turns(worktree, session_keys=[session_key("claude-code", "ev")])) == 2
    shown = gm(["sessions", "show", turn.turn_key, "--format", "json"], cwd=repo.root).json()
    assert [t["turnKey"] for t in shown["turns"]] == [turn.turn_key]
    assert shown["turns"][0]["toolCalls"][0]["input"] == calls[0]["input"]
    json.dumps(shown)


def test_show_unknown_key_and_bad_key(gm: Any, repo: Repo) -> None:
    missing = gm(["sessions", "show", "0" * 64], cwd=repo.root)
    assert missing.exit_code == 2, "an unknown id is a usage error"
    assert "GM_SESSION_NOT_FOUND" in missing.stderr
    bad = gm(["sessions", "show", "nope"], cwd=repo.root)
    assert bad.exit_code == 2
    assert "GM_REQUEST_INVALID" in bad.stderr
