"""Antigravity end to end: a real conversation placed where Antigravity keeps it is synced
incrementally, listed with its turns in its worktree and shown with how it was attributed;
`memory.sources`, `doctor`, the builtin extractor and `assemble`'s default targets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from git_memory.extract.builtin.window import plan_window
from git_memory.sessions.providers import antigravity
from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.turns import build_turns
from tests.extract.test_builtin_facts import _turn
from tests.repos import Repo
from tests.sessions import agents
from tests.sessions.test_antigravity_reader import HEALTH, HEALTH_CLI, LOGS, VIBE, VIBE_IDE

CONVERSATION = "fc6e6de7-5fb2-4ea5-aa8f-02a1183c6483"
WORKSPACE = "/home/ztejksa/Downloads/Health"


def _place(home: Path, repo: Repo, *, history: bool = True) -> Path:
    """The real Health-connect conversation in `home`, its workspace moved to `repo`."""
    logs = home / HEALTH_CLI / LOGS
    logs.mkdir(parents=True)
    source = HEALTH / HEALTH_CLI / LOGS / "transcript_full.jsonl"
    text = source.read_text(encoding="utf-8").replace(WORKSPACE, str(repo.root))
    (logs / "transcript_full.jsonl").write_text(text, encoding="utf-8")
    if history:
        lines = (HEALTH / "antigravity-cli" / "history.jsonl").read_text(encoding="utf-8")
        (home / "antigravity-cli" / "history.jsonl").write_text(
            lines.replace(WORKSPACE, str(repo.root)), encoding="utf-8"
        )
    agents.age(home)
    return logs / "transcript_full.jsonl"


def _json(gm: Any, repo: Repo, *args: str) -> Any:
    result = gm([*args, "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return result.json()


def test_a_placed_conversation_is_listed_in_its_worktree_and_synced_incrementally(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    path = _place(hermetic_env["antigravity"], repo)
    first = _json(gm, repo, "sessions", "sync")
    assert (first["new"], first["diagnostics"]) == (1, 0)
    (listed,) = _json(gm, repo, "sessions", "list")["sessions"]
    assert (listed["provider"], listed["turns"]) == ("antigravity", 8)
    shown = _json(gm, repo, "sessions", "show", listed["sessionKey"])
    assert shown["attribution"] == "history.jsonl"
    assert shown["turns"][0]["userText"].startswith("can you go through kiro.chat.log")
    assert _json(gm, repo, "sessions", "sync")["unchanged"] == 1
    step = {"step_index": 154, "source": "USER_EXPLICIT", "type": "USER_INPUT"}
    step |= {"status": "DONE", "created_at": "2026-06-29T12:00:00Z"}
    step["content"] = "<USER_REQUEST>\nthanks\n</USER_REQUEST>"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(step) + "\n")
    again = _json(gm, repo, "sessions", "sync")
    assert again["reread"] == 1
    (listed,) = _json(gm, repo, "sessions", "list")["sessions"]
    assert listed["turns"] == 9


def test_show_says_a_conversation_without_history_was_attributed_by_majority(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _place(hermetic_env["antigravity"], repo, history=False)
    _json(gm, repo, "sessions", "sync")
    (listed,) = _json(gm, repo, "sessions", "list")["sessions"]
    shown = gm(["sessions", "show", listed["sessionKey"]], cwd=repo.root)
    assert "attributed by majority: 88 of 89 (command cwd 21, file path 23, link 45)" in (
        shown.stdout
    )


def test_another_worktree_does_not_list_it(
    gm: Any, repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    _place(hermetic_env["antigravity"], repo)
    other = tmp_path / "other"
    repo.git("worktree", "add", "-q", str(other))
    _json(gm, repo, "sessions", "sync")
    assert _json(gm, Repo(other), "sessions", "list")["sessions"] == []


def test_memory_sources_and_doctor_name_antigravity(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _place(hermetic_env["antigravity"], repo)
    repo.git("config", "memory.sources", "antigravity")
    assert _json(gm, repo, "sessions", "sync")["new"] == 1
    report = gm(["doctor", "--format", "json"], cwd=repo.root).json()
    (check,) = [c for c in report["checks"] if c["name"] == "transcripts"]
    assert "antigravity: 1 transcript(s)" in check["detail"]
    repo.git("config", "memory.sources", "claude-code")
    assert _json(gm, repo, "sessions", "sync")["removed"] == 1


def test_assemble_writes_gemini_md_for_a_worktree_with_antigravity_sessions(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _place(hermetic_env["antigravity"], repo)
    _json(gm, repo, "sessions", "sync")
    assert gm(["init"], cwd=repo.root).exit_code == 0
    result = gm(["assemble", "--provider", "all", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    assert (repo.root / "GEMINI.md").is_file()
    assert (repo.root / "AGENTS.md").is_file()


def _records(path: Path) -> list[Any]:
    events = antigravity.read(SourceFile(str(path), "antigravity", "s", path.name)).events
    return [_turn(t.turn_key, *t.tools, user=t.user_text) for t in build_turns("k" * 64, events)]


def _planned(path: Path) -> list[str]:
    records = _records(path)
    tasks = {r.turn_key: "task" for r in records}
    planned = plan_window([("s", records)], tasks, known=set())
    return [fact.content for facts in planned.placed.values() for fact in facts]


def _step(index: int, source: str, kind: str, **fields: Any) -> str:
    record = {"step_index": index, "source": source, "type": kind, "status": "DONE"}
    record["created_at"] = f"2026-07-01T10:00:{index:02d}Z"
    return json.dumps(record | fields)


def test_the_extractor_proposes_a_command_that_worked_in_an_antigravity_session(
    tmp_path: Path,
) -> None:
    # A constructed conversation in the real format (the real ones run no command the
    # extractor knows as a project's): `npm test` fails, the code is fixed, it passes.
    run = {"name": "run_command", "args": {"CommandLine": "npm test", "Cwd": "/w/app"}}
    steps = [
        _step(
            0,
            "USER_EXPLICIT",
            "USER_INPUT",
            content="<USER_REQUEST>\nfix the tests\n</USER_REQUEST>",
        ),
        _step(1, "MODEL", "PLANNER_RESPONSE", tool_calls=[run]),
        _step(
            2, "MODEL", "RUN_COMMAND", content="The command exited with code 1. Output: 1 failing"
        ),
        _step(3, "MODEL", "PLANNER_RESPONSE", content="Fixed the assertion.", tool_calls=[run]),
        _step(
            4, "MODEL", "RUN_COMMAND", content="The command exited with code 0. Output: 9 passing"
        ),
    ]
    path = tmp_path / "transcript_full.jsonl"
    path.write_text("\n".join(steps) + "\n", encoding="utf-8")
    assert any(fact.startswith("`npm test`") and "worked" in fact for fact in _planned(path))


def test_the_extractor_reads_real_antigravity_outcomes_and_requests() -> None:
    records = _records(VIBE / VIBE_IDE / LOGS / "transcript.jsonl")
    commits = [
        call.state
        for record in records
        for call in record.tool_calls
        if call.name == "run_command" and call.input["command"].startswith("git commit")
    ]
    assert commits == ["failed", "completed", "completed"]
    assert records[0].user_text.startswith("Create a folder named git_test in the workspace")


def test_antigravity_home_moves_with_its_variable(
    monkeypatch: Any, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    assert antigravity.home() == hermetic_env["antigravity"]
    monkeypatch.delenv("ANTIGRAVITY_HOME")
    assert antigravity.home() == hermetic_env["home"] / ".gemini"
    shutil.copytree(VIBE, tmp_path / "copy")
    monkeypatch.setenv("ANTIGRAVITY_HOME", str(tmp_path / "copy"))
    assert len(antigravity.find(str(antigravity.home()))) == 3
