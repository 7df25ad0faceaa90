"""Gemini CLI, Qwen Code, OpenCode, Copilot CLI and Cursor history, from their real files
installed in each agent's own layout: counts, tool results, worktree attribution, read-only
database access, incremental sync, `memory.sources`, `--provider` and `doctor`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.sessions import index
from tests.repos import Repo
from tests.sessions import agents
from tests.waiting import no_hang

# Sessions and turns of each agent's fixtures (tests/fixtures/PROVENANCE.md).
EXPECTED = {
    "gemini-cli": (12, 50),
    "qwen-code": (7, 29),
    "opencode": (2, 9),
    "copilot-cli": (7, 18),
    "cursor": (5, 13),
}


def _sync(gm: Any, repo: Repo) -> dict[str, Any]:
    result = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return dict(result.json())


def _sessions(gm: Any, repo: Repo, *extra: str) -> list[dict[str, Any]]:
    result = gm(["sessions", "list", "--format", "json", *extra], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return list(result.json()["sessions"])


def _gemini_project(home: Path, root: Path) -> Path:
    """A Gemini CLI project directory (0.29+ layout) whose `.project_root` is `root`."""
    project = home / ".gemini" / "tmp" / "repo"
    (project / "chats").mkdir(parents=True)
    (project / ".project_root").write_text(str(root))
    return project


@pytest.fixture
def installed(hermetic_env: dict[str, Path]) -> dict[str, Path]:
    """Every other agent's fixtures installed in the hermetic homes."""
    agents.install_all(hermetic_env)
    return hermetic_env


def test_fixture_counts_per_agent(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    summary = _sync(gm, repo)
    assert summary["diagnostics"] == 0, summary["examples"]
    for provider, (sessions, turns) in EXPECTED.items():
        listed = _sessions(gm, repo, "--all", "--provider", provider)
        assert {s["provider"] for s in listed} == {provider}
        assert (len(listed), sum(s["turns"] for s in listed)) == (sessions, turns), provider
    assert summary["excluded"] == 4  # Cursor's text renderings of its JSONL sessions
    again = _sync(gm, repo)
    assert (again["new"], again["reread"], again["unchanged"]) == (0, 0, summary["new"])


def _index_rows(state: Path, sql: str) -> list[tuple[Any, ...]]:
    with index.reader(state) as conn:
        return [tuple(row) for row in conn.execute(sql)]


def test_tool_calls_results_and_exit_codes(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    _sync(gm, repo)
    rows = _index_rows(
        installed["state"],
        "SELECT f.provider, e.state, count(*) FROM events e JOIN files f ON f.id = e.file_id"
        " WHERE e.kind = 'tool_result' GROUP BY 1, 2",
    )
    results = {(provider, state): count for provider, state, count in rows}
    # Failed shell commands are read from "Exit Code: N" (Gemini), `metadata.exit` or an
    # error status (OpenCode), `success: false` (Copilot), `toolCallResult.status` (Qwen).
    assert results[("gemini-cli", "failed")] > 0
    assert results[("gemini-cli", "completed")] > 0
    assert results[("copilot-cli", "failed")] > 0
    assert results[("opencode", "failed")] == 1
    assert results[("qwen-code", "failed")] > 0
    assert not any(provider == "cursor" for provider, _ in results), "Cursor records no results"
    calls = _index_rows(
        installed["state"],
        "SELECT f.provider, count(*) FROM events e JOIN files f ON f.id = e.file_id"
        " WHERE e.kind = 'tool_call' GROUP BY 1",
    )
    assert {provider for provider, _ in calls} == set(EXPECTED)


def test_gemini_exit_code_in_output_text(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    _sync(gm, repo)
    show = gm(["sessions", "list", "--all", "--provider", "gemini-cli", "--format", "json"])
    keys = [s["sessionKey"] for s in show.json()["sessions"]]
    failed = []
    for key in keys:
        turns = gm(["sessions", "show", key, "--format", "json"], cwd=repo.root).json()["turns"]
        for turn in turns:
            failed += [
                call["output"]
                for call in turn["toolCalls"]
                if call["name"] == "run_shell_command" and call["resultState"] == "failed"
            ]
    assert any("Exit Code: 128" in output for output in failed)


def test_worktree_from_each_agents_own_record(
    gm: Any, repo: Repo, installed: dict[str, Path]
) -> None:
    _sync(gm, repo)
    rows = _index_rows(
        installed["state"],
        "SELECT DISTINCT s.provider, t.cwd FROM turns t JOIN sessions s USING (session_key)"
        " WHERE t.cwd IS NOT NULL",
    )
    cwds: dict[str, set[str]] = {}
    for provider, cwd in rows:
        cwds.setdefault(provider, set()).add(cwd)
    assert "/home/anthonyguera/TP-Tutor" in cwds["gemini-cli"]  # .project_root
    # A hashed directory: the tool arguments' ancestor whose sha256 is the directory name.
    assert "/Users/yoavfarhi/dev/pomodoro/gemini" in cwds["gemini-cli"]
    assert "/workspace" in cwds["opencode"]  # session.directory / path.cwd
    assert "/Users/thatpong/.dotfiles/.copilot" in cwds["copilot-cli"]  # session.start
    assert "/tmp/qwentest" in cwds["qwen-code"]  # cwd on every record
    assert "cursor" not in cwds  # the slug names no directory of this machine


def test_gemini_hashed_project_directory(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    """Before 0.29 the project directory is sha256(root); projects.json names the root."""
    base = hermetic_env["gemini"] / ".gemini"
    root = str(repo.root)
    digest = hashlib.sha256(root.encode()).hexdigest()
    fixture = next((agents.FIXTURES / "gemini-cli").glob("*15eaa698.json"))
    chats = base / "tmp" / digest / "chats"
    chats.mkdir(parents=True)
    shutil.copyfile(fixture, chats / agents.original_name(fixture))
    (base / "projects.json").write_text(json.dumps({"projects": {root: "repo"}}))
    agents.age(base)
    _sync(gm, repo)
    (mine,) = _sessions(gm, repo)
    assert (mine["provider"], mine["turns"]) == ("gemini-cli", 4)


def test_gemini_jsonl_last_copy_wins_set_and_rewind(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    project = _gemini_project(hermetic_env["gemini"], repo.root)
    ts = "2026-04-25T02:41:19.832Z"
    records: list[dict[str, Any]] = [
        {"sessionId": "s1", "projectHash": "x", "startTime": ts, "kind": "main"},
        {"id": "u1", "timestamp": ts, "type": "user", "content": [{"text": "first prompt"}]},
        {"id": "g1", "timestamp": ts, "type": "gemini", "content": "draft"},
        {"$set": {"lastUpdated": ts}},
        {"id": "g1", "timestamp": ts, "type": "gemini", "content": "final answer"},
        {"id": "u2", "timestamp": ts, "type": "user", "content": [{"text": "rewound away"}]},
        {"id": "g2", "timestamp": ts, "type": "gemini", "content": "gone"},
        {"$rewindTo": "u2"},
        {"id": "u3", "timestamp": ts, "type": "user", "content": [{"text": "second prompt"}]},
        {
            "id": "u4",
            "timestamp": ts,
            "type": "user",
            "content": [{"functionResponse": {"id": "c", "name": "x", "response": {}}}],
        },
    ]
    path = project / "chats" / "session-2026-04-25T02-41-s1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    agents.age(project)
    _sync(gm, repo)
    (session,) = _sessions(gm, repo)
    show = gm(["sessions", "show", session["sessionKey"], "--format", "json"], cwd=repo.root)
    turns = show.json()["turns"]
    assert [(t["userText"], t["assistantText"]) for t in turns] == [
        ("first prompt", "final answer"),
        ("second prompt", ""),
    ]
    # A sub-agent recording of the same project is counted, never indexed.
    sub = dict(records[0], kind="subagent", sessionId="s2")
    (project / "chats" / "session-2026-04-25T02-42-s2.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in [sub, *records[1:3]])
    )
    assert _sync(gm, repo)["excluded"] == 1
    assert len(_sessions(gm, repo)) == 1


def test_large_document_output_is_read_back_whole(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    project = _gemini_project(hermetic_env["gemini"], repo.root)
    big = "".join(f"line {n} of a long test log\n" for n in range(2000)) + "Exit Code: 1"
    response = {"functionResponse": {"id": "c1", "name": "run_shell_command"}}
    response["functionResponse"]["response"] = {"output": big}
    call = {"id": "c1", "name": "run_shell_command", "args": {"command": "pytest"}}
    call.update(status="success", result=[response])
    ts = "2026-04-25T02:41:19.832Z"
    conversation = {
        "sessionId": "s1",
        "projectHash": "x",
        "messages": [
            {"id": "u1", "timestamp": ts, "type": "user", "content": "run the tests"},
            {"id": "g1", "timestamp": ts, "type": "gemini", "content": "", "toolCalls": [call]},
        ],
    }
    path = project / "chats" / "session-2026-04-25T02-41-s1.json"
    path.write_text(json.dumps(conversation, indent=2))
    agents.age(project)
    _sync(gm, repo)
    (session,) = _sessions(gm, repo)
    with index.reader(hermetic_env["state"]) as conn:
        (stored,) = conn.execute("SELECT length(text) FROM events WHERE kind = 'tool_result'")
    assert stored[0] < len(big)  # the index keeps the head only
    show = gm(["sessions", "show", session["sessionKey"], "--format", "json"], cwd=repo.root)
    (result,) = show.json()["turns"][0]["toolCalls"]
    assert (result["output"], result["resultState"]) == (big, "failed")
    # Changed since the sync: the stored head stands, never another text.
    path.write_text(json.dumps(conversation, indent=2).replace("long test log", "LONG TEST LOG"))
    show = gm(["sessions", "show", session["sessionKey"], "--format", "json"], cwd=repo.root)
    (result,) = show.json()["turns"][0]["toolCalls"]
    assert big.startswith(result["output"])
    assert len(result["output"]) < len(big)


def test_opencode_database_is_read_without_a_trace(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    agents.install_opencode(hermetic_env["xdg_data"])
    data = hermetic_env["xdg_data"] / "opencode"
    database = data / "opencode.db"
    before = (sorted(os.listdir(data)), database.read_bytes(), database.stat().st_mtime_ns)
    _sync(gm, repo)
    _sync(gm, repo)
    after = (sorted(os.listdir(data)), database.read_bytes(), database.stat().st_mtime_ns)
    assert after == before, "no -wal/-shm and no byte changed in the user's data"
    assert len(_sessions(gm, repo, "--all", "--provider", "opencode")) == 2


def test_opencode_rows_pending_in_the_wal_are_read_and_checkpointed_rows_resync(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    agents.install_opencode(hermetic_env["xdg_data"])
    database = hermetic_env["xdg_data"] / "opencode" / "opencode.db"
    shutil.rmtree(database.parent / "storage")
    _sync(gm, repo)
    (session,) = _sessions(gm, repo, "--all", "--provider", "opencode")
    assert session["turns"] == 8
    writer = sqlite3.connect(database)  # OpenCode itself, still running: rows stay in the WAL
    try:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        (sid,) = writer.execute("SELECT id FROM session").fetchone()
        now = int(time.time() * 1000)
        writer.execute(
            "INSERT INTO message(id, session_id, time_created, time_updated, data)"
            " VALUES ('msg_zzzz', ?, ?, ?, ?)",
            (sid, now, now, json.dumps({"role": "user", "time": {"created": now}})),
        )
        writer.execute(
            "INSERT INTO part(id, message_id, session_id, time_created, time_updated, data)"
            " VALUES ('prt_zzzz', 'msg_zzzz', ?, ?, ?, ?)",
            (sid, now, now, json.dumps({"type": "text", "text": "one more prompt"})),
        )
        writer.commit()
        assert os.path.getsize(str(database) + "-wal") > 0
        summary = _sync(gm, repo)
        assert summary["reread"] == 1
        (session,) = _sessions(gm, repo, "--all", "--provider", "opencode")
        assert session["turns"] == 9
    finally:
        writer.close()


def test_copilot_events_resume_after_append(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    fixture = next((agents.FIXTURES / "copilot-cli").glob("*9a493a94*"))
    session = hermetic_env["copilot"] / "session-state" / "9a493a94"
    shutil.copytree(fixture, session)
    workspace = (session / "workspace.yaml").read_text()
    (session / "workspace.yaml").write_text(workspace.replace("cwd:", f"cwd: {repo.root}\nold:"))
    lines = (session / "events.jsonl").read_text().splitlines(keepends=True)
    # Without its session.start (no context) the cwd comes from workspace.yaml.
    kept = [line for line in lines if '"session.start"' not in line]
    (session / "events.jsonl").write_text("".join(kept))
    agents.age(session)
    _sync(gm, repo)
    (listed,) = _sessions(gm, repo)
    assert listed["turns"] == 1
    event = {
        "type": "user.message",
        "data": {"content": "and a follow-up"},
        "id": "e-1",
        "timestamp": "2026-06-08T03:00:00.000Z",
        "parentId": None,
    }
    with open(session / "events.jsonl", "a") as handle:
        handle.write(json.dumps(event) + "\n")
    agents.age(session)
    assert _sync(gm, repo)["resumed"] == 1
    (listed,) = _sessions(gm, repo)
    assert listed["turns"] == 2


def test_cursor_slug_maps_to_this_worktree_only_when_unambiguous(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    slug = agents.cursor_slug(repo.root)
    agents.install_cursor(hermetic_env["cursor"], slug=slug)
    agents.age(hermetic_env["cursor"])
    _sync(gm, repo)
    assert len(_sessions(gm, repo)) == 5


def test_cursor_ambiguous_slug_is_not_attributed(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    # Two directories whose names differ only by punctuation make the same slug.
    (repo.root.parent / "my-app").mkdir()
    (repo.root.parent / "my_app").mkdir()
    slug = agents.cursor_slug(repo.root.parent / "my-app")
    agents.install_cursor(hermetic_env["cursor"], slug=slug)
    agents.age(hermetic_env["cursor"])
    _sync(gm, repo)
    rows = _index_rows(hermetic_env["state"], "SELECT count(*) FROM turns WHERE cwd IS NOT NULL")
    assert rows == [(0,)]


def test_memory_sources_turns_agents_off(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    _sync(gm, repo)
    repo.git("config", "memory.sources", "gemini-cli, cursor")
    # The next sync drops what the agents turned off contributed.
    assert _sync(gm, repo)["removed"] == 16
    listed = _sessions(gm, repo, "--all")
    assert {s["provider"] for s in listed} == {"gemini-cli", "cursor"}
    repo.git("config", "memory.sources", "gemini,nope")
    refused = gm(["sessions", "sync"], cwd=repo.root)
    assert refused.exit_code != 0
    assert "GM_CONFIG_INVALID" in refused.stderr


def test_doctor_reports_each_agent(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    repo.git("config", "memory.sources", "gemini-cli,qwen-code,opencode,copilot-cli,cursor")
    report = gm(["doctor", "--format", "json"], cwd=repo.root).json()
    (check,) = [c for c in report["checks"] if c["name"] == "transcripts"]
    for provider, count in (
        ("gemini-cli", 12),
        ("qwen-code", 7),
        ("opencode", 2),
        ("copilot-cli", 7),
        ("cursor", 5),
    ):
        assert f"{provider}: {count} transcript(s)" in check["detail"]
    assert "off by memory.sources: claude-code, codex, antigravity" in check["detail"]


def test_special_files_among_other_agents_are_refused(
    gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    chats = hermetic_env["gemini"] / ".gemini" / "tmp" / "repo" / "chats"
    chats.mkdir(parents=True)
    os.mkfifo(chats / "session-2026-01-01T00-00-fifo.json")
    (chats / "session-2026-01-01T00-01-zero.jsonl").symlink_to("/dev/zero")
    agents.install_qwen(hermetic_env["qwen"])
    done = gm_proc(["sessions", "sync", "--format", "json"], cwd=repo.root, timeout=60)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    codes = [item["code"] for item in summary["examples"]]
    assert codes == ["not-a-regular-file", "not-a-regular-file"]
    assert summary["new"] == 7  # the Qwen sessions after them are indexed


def test_source_folder_holding_a_copy_of_an_agents_home(
    gm: Any, repo: Repo, tmp_path: Path
) -> None:
    copilot, gemini = tmp_path / "copilot-backup", tmp_path / "gemini-backup"
    agents.install_copilot(copilot)
    agents.install_gemini(gemini)
    result = gm(
        [
            "sessions",
            "sync",
            "--source",
            str(copilot),
            "--source",
            str(gemini / ".gemini"),
            "--format",
            "json",
        ],
        cwd=repo.root,
    )
    assert result.exit_code == 0, result.stderr
    listed = _sessions(gm, repo, "--all")
    counts = {
        p: sum(1 for s in listed if s["provider"] == p) for p in ("copilot-cli", "gemini-cli")
    }
    assert counts == {"copilot-cli": 7, "gemini-cli": 12}


def test_gemini_home_variable_pointing_at_the_gemini_directory_itself(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    agents.install_gemini(hermetic_env["gemini"])
    monkeypatch.setenv("GEMINI_CLI_HOME", str(hermetic_env["gemini"] / ".gemini"))
    _sync(gm, repo)
    assert len(_sessions(gm, repo, "--all", "--provider", "gemini-cli")) == 12


def test_whole_sources_are_reread_when_they_change_and_keep_their_turn_keys(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    project = _gemini_project(hermetic_env["gemini"], repo.root)
    fixture = next((agents.FIXTURES / "gemini-cli").glob("*c8b2cbd9.jsonl"))
    chats = project / "chats" / agents.original_name(fixture)
    shutil.copyfile(fixture, chats)
    agents.install_opencode(hermetic_env["xdg_data"])
    agents.age(hermetic_env["gemini"])
    _sync(gm, repo)
    (before,) = _sessions(gm, repo)
    show = gm(["sessions", "show", before["sessionKey"], "--format", "json"], cwd=repo.root)
    keys = [turn["turnKey"] for turn in show.json()["turns"]]
    ts = "2026-04-25T00:00:00.000Z"
    with open(chats, "a") as handle:  # Gemini CLI appends a new prompt and its answer
        handle.write(
            json.dumps({"id": "new-u", "timestamp": ts, "type": "user", "content": "and now?"})
            + "\n"
        )
        handle.write(
            json.dumps({"id": "new-g", "timestamp": ts, "type": "gemini", "content": "done"}) + "\n"
        )
    part_dir = next((hermetic_env["xdg_data"] / "opencode" / "storage" / "part").iterdir())
    (part_dir / "prt_zzzzzzzzzzzz.json").write_text(json.dumps({"type": "text", "text": "more"}))
    agents.age(hermetic_env["gemini"])
    summary = _sync(gm, repo)
    assert (summary["reread"], summary["new"]) == (2, 0)
    (after,) = _sessions(gm, repo)
    show = gm(["sessions", "show", after["sessionKey"], "--format", "json"], cwd=repo.root)
    turns = show.json()["turns"]
    assert [turn["turnKey"] for turn in turns][: len(keys)] == keys
    assert turns[-1]["userText"] == "and now?"
    assert _sync(gm, repo)["unchanged"] == summary["filesSeen"] - summary["excluded"]


def test_rebuild_gives_the_same_sessions(gm: Any, repo: Repo, installed: dict[str, Path]) -> None:
    _sync(gm, repo)
    before = _sessions(gm, repo, "--all")
    rebuilt = gm(["sessions", "rebuild", "--format", "json"], cwd=repo.root)
    assert rebuilt.exit_code == 0, rebuilt.stderr
    assert _sessions(gm, repo, "--all") == before


def test_a_fifo_among_opencode_part_files_is_a_diagnostic(
    gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    agents.install_opencode(hermetic_env["xdg_data"])
    (hermetic_env["xdg_data"] / "opencode" / "opencode.db").unlink()
    part_dir = next((hermetic_env["xdg_data"] / "opencode" / "storage" / "part").iterdir())
    os.mkfifo(part_dir / "prt_zzzzzzzzzzzz.json")
    done = gm_proc(["sessions", "sync", "--format", "json"], cwd=repo.root, timeout=60)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["new"] == 1
    assert [item["code"] for item in summary["examples"]] == ["not-a-regular-file"]


@pytest.mark.parametrize("length", [1_200_000])
def test_gemini_hashed_root_is_found_in_linear_time_beside_a_huge_path(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], length: int
) -> None:
    """A 1.2 MB path among the tool arguments of a session in a sha256-named directory costs
    nothing; the real root is still found. (A 120 KB one once took 68 s and 17 GiB: at ten
    times the length, any work that grows faster than the length is a hang.)"""
    base = hermetic_env["gemini"] / ".gemini"
    root = str(repo.root)
    digest = hashlib.sha256(root.encode()).hexdigest()
    fixture = next((agents.FIXTURES / "gemini-cli").glob("*15eaa698.json"))
    document = json.loads(fixture.read_text(encoding="utf-8"))
    document["projectHash"] = digest
    calls = [call for message in document["messages"] for call in message.get("toolCalls", [])]
    calls[0]["args"]["huge"] = "/" + "a/" * (length // 2)
    calls[-1]["args"]["file_path"] = f"{root}/src/app.py"
    chats = base / "tmp" / digest / "chats"
    chats.mkdir(parents=True)
    (chats / agents.original_name(fixture)).write_text(json.dumps(document), encoding="utf-8")
    agents.age(base)
    with no_hang("a sync beside a 1.2 MB path"):
        _sync(gm, repo)
    (mine,) = _sessions(gm, repo)
    assert (mine["provider"], mine["turns"]) == ("gemini-cli", 4)


def test_a_gemini_projects_json_nested_100000_deep_is_ignored(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    project = _gemini_project(hermetic_env["gemini"], repo.root)
    deep = "[" * 100_000 + "]" * 100_000
    (project.parent.parent / "projects.json").write_text('{"projects": ' + deep + "}")
    fixture = next((agents.FIXTURES / "gemini-cli").glob("*15eaa698.json"))
    shutil.copyfile(fixture, project / "chats" / agents.original_name(fixture))
    agents.age(hermetic_env["gemini"])
    _sync(gm, repo)
    (mine,) = _sessions(gm, repo)
    assert mine["provider"] == "gemini-cli"
