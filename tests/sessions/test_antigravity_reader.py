"""Antigravity conversations from real public homes (tests/fixtures/PROVENANCE.md): both log
variants, the chunked layout, attribution each way, background commands, torn lines and
steps out of order."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from git_memory.sessions.providers import antigravity
from git_memory.sessions.providers.antigravity_place import (
    Clue,
    active_document_clues,
    link_clues,
    voted_place,
)
from git_memory.sessions.providers.base import Document, SourceFile
from git_memory.sessions.records import TOOL_CALL, TOOL_RESULT, USER, Event
from tests.sessions.transcripts import FIXTURES

HOMES = FIXTURES / "antigravity"
HEALTH = HOMES / "sai7teja__Health-connect"
VIBE = HOMES / "shibinsp45__Vibe-Coding"
CASHNIP = HOMES / "Cashnip__amazon-waddle"
ROOT = HOMES / "piroXpower__Downloader"
LOGS = ".system_generated/logs"
HEALTH_CLI = "antigravity-cli/brain/fc6e6de7-5fb2-4ea5-aa8f-02a1183c6483"
VIBE_CLI = "antigravity-cli/brain/d580aa81-0e52-43cd-b1e3-5e02cfa04729"
VIBE_IDE = "antigravity-ide/brain/3312e577-681c-42c5-87f3-c09bc619e6d4"
VIBE_APP = "antigravity/brain/6778bf9c-4d0b-4021-a8f1-a8e952ad0fcb"


def _read(path: Path) -> Document:
    return antigravity.read(SourceFile(str(path), "antigravity", path.parent.name, path.name))


def _sources(home: Path) -> dict[str, SourceFile]:
    return {source.session_id: source for source in antigravity.find(str(home))}


def _shape(events: list[Event]) -> list[tuple[str, str | None, object]]:
    """What both variants must agree on: prompts, tool names and inputs, result states."""
    shape: list[tuple[str, str | None, object]] = []
    for event in events:
        if event.kind == USER:
            shape.append((USER, None, event.text))
        elif event.kind == TOOL_CALL:
            shape.append((TOOL_CALL, event.name, _commands(event.input)))
        elif event.kind == TOOL_RESULT:
            shape.append((TOOL_RESULT, event.call_id, event.state))
    return shape


def _commands(value: object) -> object:
    # Long arguments (file contents) are cut in `transcript.jsonl`; commands never were here.
    return value.get("command") if isinstance(value, dict) else None


def _calls(document: Document) -> dict[str, tuple[Event, Event | None]]:
    results = {e.call_id: e for e in document.events if e.kind == TOOL_RESULT}
    return {
        e.call_id or "": (e, results.get(e.call_id)) for e in document.events if e.kind == TOOL_CALL
    }


def test_each_product_folder_and_layout_is_found() -> None:
    assert [(s.session_id, s.display) for s in antigravity.find(str(VIBE))] == [
        ("d580aa81-0e52-43cd-b1e3-5e02cfa04729", f"{VIBE_CLI}/{LOGS}/transcript_full.jsonl"),
        ("6778bf9c-4d0b-4021-a8f1-a8e952ad0fcb", f"{VIBE_APP}/{LOGS}/transcript_full.jsonl"),
        ("3312e577-681c-42c5-87f3-c09bc619e6d4", f"{VIBE_IDE}/{LOGS}/transcript.jsonl"),
    ]
    (chunked,) = antigravity.find(str(CASHNIP))
    assert chunked.display.endswith(f"{LOGS}/chunks/transcript_full")
    assert chunked.identity is not None


@pytest.mark.parametrize(
    ("home", "conversation"),
    [(HEALTH, HEALTH_CLI), (VIBE, VIBE_CLI), (VIBE, VIBE_APP)],
)
def test_both_variants_give_the_same_conversation(home: Path, conversation: str) -> None:
    logs = home / conversation / LOGS
    full, short = _read(logs / "transcript_full.jsonl"), _read(logs / "transcript.jsonl")
    assert _shape(full.events) == _shape(short.events)
    assert len([e for e in full.events if e.kind == USER]) > 1
    assert {e.cwd for e in full.events} == {e.cwd for e in short.events}
    assert full.diagnostics == short.diagnostics == []


def test_the_short_variant_decodes_arguments_encoded_twice() -> None:
    short = _read(VIBE / VIBE_CLI / LOGS / "transcript.jsonl")
    call, _ = _calls(short)["11#0"]
    assert call.input == {
        "command": "git status",
        "cwd": "C:\\Users\\NETCOM\\agy-cli-projects",
        "WaitMsBeforeAsync": 2000,
        "toolAction": "Running git status",
        "toolSummary": "Git status",
    }


def test_the_persons_requests_without_the_metadata_antigravity_added() -> None:
    document = _read(VIBE / VIBE_IDE / LOGS / "transcript.jsonl")
    prompts = [e.text for e in document.events if e.kind == USER]
    assert prompts[1] == "In the git_test folder, modify auth.py to add Google Login functionality."
    assert all("ADDITIONAL_METADATA" not in p and "Active Document" not in p for p in prompts)
    # The person showing a file (a USER_EXPLICIT VIEW_FILE step) is no request.
    assert len(prompts) == 4


def test_history_names_the_workspace_of_its_conversation() -> None:
    source = _sources(HEALTH)["fc6e6de7-5fb2-4ea5-aa8f-02a1183c6483"]
    document = antigravity.read(source)
    assert {e.cwd for e in document.events} == {"/home/ztejksa/Downloads/Health"}
    assert document.attribution == "history.jsonl"
    # The first prompt was written to the history before the conversation had an id.
    assert document.events[0].text.startswith("can you go through kiro.chat.log")


def test_a_history_line_without_an_id_counts_by_its_prompt() -> None:
    (source,) = antigravity.find(str(CASHNIP))
    document = antigravity.read(source)
    assert {e.cwd for e in document.events} == {
        "C:\\Users\\Usuario\\Desktop\\CIC\\7\\LUIGI\\amazon-waddle"
    }
    assert document.attribution == "history.jsonl"


def test_agy_started_in_the_home_folder_belongs_to_the_project_it_worked_in() -> None:
    document = antigravity.read(_sources(VIBE)["d580aa81-0e52-43cd-b1e3-5e02cfa04729"])
    assert {e.cwd for e in document.events} == {"C:\\Users\\NETCOM\\agy-cli-projects"}
    assert (document.attribution or "").startswith("history.jsonl, narrowed by majority: 59 of 60")


def test_without_history_the_commands_cwd_decide() -> None:
    (source,) = antigravity.find(str(ROOT))
    document = antigravity.read(source)
    assert {e.cwd for e in document.events} == {"/root"}
    assert document.attribution == "majority: 1 of 1 (command cwd 1)"


def test_the_ides_active_documents_files_and_links_vote() -> None:
    document = antigravity.read(_sources(VIBE)["3312e577-681c-42c5-87f3-c09bc619e6d4"])
    assert {e.cwd for e in document.events} == {"C:\\Users\\NETCOM\\Desktop\\Vibe Coding\\git_test"}
    assert document.attribution == (
        "majority: 22 of 30 (active document 3, command cwd 13, file path 7, link 7)"
    )


def test_each_kind_of_clue_alone_names_the_folder() -> None:
    lines = (VIBE / VIBE_IDE / LOGS / "transcript.jsonl").read_text(encoding="utf-8")
    prompt = next(r for r in map(json.loads, lines.splitlines()) if r["step_index"] == 33)
    (active,) = active_document_clues(prompt["content"])
    assert active.path == "c:\\Users\\NETCOM\\Desktop\\Vibe Coding\\git_test\\auth.py"
    assert voted_place([active]).cwd == "C:\\Users\\NETCOM\\Desktop\\Vibe Coding\\git_test"
    (link,) = link_clues("see [app.js](file:///C:/Users/NETCOM/agy-cli-projects/app.js#L38-L41)")
    assert voted_place([link]).cwd == "C:\\Users\\NETCOM\\agy-cli-projects"
    (spaced,) = link_clues("[a](file:///home/u/My%20Project/a.py)")
    assert voted_place([spaced]).cwd == "/home/u/My Project"
    assert voted_place([Clue("file path", "/home/u/p/src/a.py")]).cwd == "/home/u/p/src"
    assert voted_place([]).cwd is None


def test_work_elsewhere_does_not_move_the_conversation(tmp_path: Path) -> None:
    repo, elsewhere = tmp_path / "repo", tmp_path / "scratch"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    clues = [Clue("file path", str(repo / "src" / "a.py")) for _ in range(3)]
    clues += [Clue("command cwd", str(repo), True), Clue("command cwd", str(elsewhere), True)]
    clues += [Clue("file path", "/home/u/.gemini/antigravity-cli/brain/x/task.md")] * 9
    place = voted_place(clues)
    # A folder inside a git worktree votes for its root; Antigravity's own files never vote.
    assert place.cwd == str(repo)
    assert place.how == "majority: 4 of 5 (command cwd 2, file path 3)"


def test_background_commands_take_the_result_their_system_message_reports() -> None:
    calls = _calls(_read(VIBE / VIBE_CLI / LOGS / "transcript_full.jsonl"))
    call, result = calls["11#0"]
    assert result is not None
    assert call.input["command"] == "git status"
    assert (result.state, result.text.split("\n")[0].strip()) == (
        "failed",
        "The command failed with exit code: 1",
    )
    install, finished = calls["56#0"]
    assert finished is not None
    assert install.input["command"].startswith("cmd.exe /c winget install")
    assert finished.state == "completed"
    assert "Successfully installed" in finished.text
    # A command run in the foreground is paired by order.
    _, dev = calls["24#0"]
    assert dev is not None
    assert dev.state == "failed"


def test_a_call_whose_result_was_never_written_has_none() -> None:
    (source,) = antigravity.find(str(ROOT))
    (call,) = [e for e in antigravity.read(source).events if e.kind == TOOL_CALL]
    assert call.input["command"] == "ls -la /root"
    assert not [e for e in antigravity.read(source).events if e.kind == TOOL_RESULT]


def _copy_conversation(tmp_path: Path, home: Path, conversation: str) -> Path:
    target = tmp_path / "home" / conversation / LOGS
    shutil.copytree(home / conversation / LOGS, target)
    return target


def test_torn_lines_are_skipped_with_a_diagnostic(tmp_path: Path) -> None:
    logs = _copy_conversation(tmp_path, VIBE, VIBE_CLI)
    path = logs / "transcript_full.jsonl"
    whole = _read(path)
    lines = path.read_bytes().splitlines(keepends=True)
    # Line 40 is step 41, the result of the call at step 40 (step 4 was never written).
    assert lines[40].startswith(b'{"step_index":41,')
    torn = [*lines[:40], lines[40][:100] + b"\n", *lines[41:], lines[41][:50]]
    path.write_bytes(b"".join(torn))
    document = _read(path)
    assert [d.code for d in document.diagnostics] == ["invalid-json-record"] * 2
    kept = [e for e in whole.events if (e.kind, e.call_id) != (TOOL_RESULT, "40#0")]
    assert len(kept) == len(whole.events) - 1
    assert [(e.kind, e.offset, e.text) for e in document.events] == [
        (e.kind, e.offset, e.text) for e in kept
    ]


def test_steps_out_of_order_are_put_back_in_order(tmp_path: Path) -> None:
    logs = _copy_conversation(tmp_path, HEALTH, HEALTH_CLI)
    path = logs / "transcript_full.jsonl"
    whole = _read(path)
    lines = path.read_bytes().splitlines(keepends=True)
    random.Random(44).shuffle(lines)
    path.write_bytes(b"".join(lines))
    shuffled = _read(path)
    assert [(e.kind, e.offset, e.state) for e in shuffled.events] == [
        (e.kind, e.offset, e.state) for e in whole.events
    ]


def test_chunks_are_joined_before_records_are_read(tmp_path: Path) -> None:
    chunks = "antigravity-cli/brain/c09ae6a1-bd43-428b-b777-19a3759868b2"
    whole = antigravity.read(antigravity.find(str(CASHNIP))[0])
    home = tmp_path / "home"
    shutil.copytree(CASHNIP, home)
    folder = home / chunks / LOGS / "chunks" / "transcript_full"
    data = (folder / "00000000.jsonl").read_bytes()
    # A chunk ends inside a record, as the real ones do.
    (folder / "00000000.jsonl").write_bytes(data[:3000])
    (folder / "00000001.jsonl").write_bytes(data[3000:])
    (source,) = antigravity.find(str(home))
    split = antigravity.read(source)
    assert split.diagnostics == []
    assert [(e.kind, e.text) for e in split.events] == [(e.kind, e.text) for e in whole.events]
    assert [e.kind for e in split.events] == [USER, "tool_call", "tool_result"] * 1 + [
        "tool_call",
        "tool_result",
        "assistant",
    ]
