"""End to end: a Gemini CLI session and a Copilot CLI session of a test worktree are synced,
attributed to it, and recall and the builtin extractor work on their turns as on Claude
Code's."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from tests.repos import Repo
from tests.sessions import agents

OLD = agents.OLD


def _install_gemini_session(home: Path, root: Path) -> None:
    project = home / ".gemini" / "tmp" / "repo"
    fixture = next((agents.FIXTURES / "gemini-cli").glob("*ab395b98.jsonl"))
    (project / "chats").mkdir(parents=True)
    (project / ".project_root").write_text(str(root))
    shutil.copyfile(fixture, project / "chats" / agents.original_name(fixture))


def _install_copilot_session(home: Path, root: Path) -> None:
    fixture = next((agents.FIXTURES / "copilot-cli").glob("*3cc3555e*"))
    session = home / "session-state" / "3cc3555e-5462-44f9-95de-c67b1cb220b9"
    shutil.copytree(fixture, session)
    events = (session / "events.jsonl").read_text()
    recorded = "/Users/thatpong/Documents/workspace/dotnet-trial/demoapi"
    (session / "events.jsonl").write_text(events.replace(recorded, str(root)))


def _windowed(*command: str, since: str, until: str) -> list[str]:
    """`COMMAND … --since SINCE --until UNTIL --limit 8 --format json`."""
    return [*command, "--since", since, "--until", until, "--limit", "8", "--format", "json"]


def test_gemini_and_copilot_sessions_reach_recall_and_the_builtin_extractor(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _install_gemini_session(hermetic_env["gemini"], repo.root)
    _install_copilot_session(hermetic_env["copilot"], repo.root)
    agents.age(hermetic_env["gemini"])
    agents.age(hermetic_env["copilot"])
    listed = gm(["sessions", "list", "--format", "json"], cwd=repo.root)
    assert listed.exit_code == 0, listed.stderr
    recall = gm(
        _windowed("recall", since="2026-04-20", until="2026-05-10"),
        cwd=repo.root,
    )
    assert recall.exit_code == 0, recall.stderr + recall.stdout
    document = recall.json()
    assert document["selection"]["matchedSessions"] == 1
    transcript = "\n".join(task["chunk"]["transcript"] for task in document["tasks"])
    assert "what is my localhost address?" in transcript
    assert "run_shell_command" in transcript
    assert str(repo.root) not in json.dumps(document), "absolute paths never leave the host"
    for name, expected in (("gemini-cli", len(document["tasks"])), ("codex", 0)):
        narrowed = gm(
            _windowed("recall", "--providers", name, since="2026-04-20", until="2026-05-10"),
            cwd=repo.root,
        )
        assert narrowed.exit_code == 0, narrowed.stderr
        assert len(narrowed.json()["tasks"]) == expected
    copilot = gm(
        _windowed("recall", since="2026-06-01", until="2026-06-30"),
        cwd=repo.root,
    )
    assert copilot.exit_code == 0, copilot.stderr
    assert copilot.json()["selection"]["matchedSessions"] == 1
    sessions = gm(["sessions", "list", "--format", "json"], cwd=repo.root).json()["sessions"]
    assert {s["provider"] for s in sessions} == {"gemini-cli", "copilot-cli"}
    extracted = gm(
        _windowed("extract", "--runner", "builtin", since="2026-04-20", until="2026-05-10"),
        cwd=repo.root,
    )
    assert extracted.exit_code == 0, extracted.stderr + extracted.stdout
    # The builtin extractor reads the whole window and answers the tasks whose turns hold
    # what it proposes: the Gemini session's command is one of them.
    answered = extracted.json()
    assert answered["sessions"] == 1
    assert answered["extracted"]
    assert set(answered["extracted"]) <= {task["taskId"] for task in document["tasks"]}


def test_cursor_turns_are_dated_and_reach_recall(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    slug = agents.cursor_slug(repo.root)
    agents.install_cursor(hermetic_env["cursor"], slug=slug)
    agents.age(hermetic_env["cursor"])
    day = time.strftime("%Y-%m-%d", time.gmtime(OLD))
    following = time.strftime("%Y-%m-%d", time.gmtime(OLD + 2 * 86400))
    recall = gm(
        ["recall", "--since", day, "--until", following, "--limit", "8", "--format", "json"],
        cwd=repo.root,
    )
    assert recall.exit_code == 0, recall.stderr
    document = recall.json()
    selection = document["selection"]
    assert (selection["matchedSessions"], selection["rejectedSessions"]) == (5, 0)
    transcript = "\n".join(task["chunk"]["transcript"] for task in document["tasks"])
    assert "Verify this issue exists and fix it" in transcript
