"""Antigravity steps as events: the person's requests, the agent's text, tools and results.

Steps arrive in `step_index` order (the reader sorts them). A `USER_INPUT` step of source
`USER_EXPLICIT` holds what the person typed inside `<USER_REQUEST>…</USER_REQUEST>`, beside
metadata Antigravity added (the local time, the IDE's open documents, settings changes). A
`PLANNER_RESPONSE` of the model carries its text (`content`; `thinking` is not text) and its
`tool_calls` (`{name, args}`, no ids); the model steps after it (`RUN_COMMAND`, `VIEW_FILE`,
`CODE_ACTION`, `GENERIC` …) are their results, one per call, in order. A command that
outlives its wait (`status: RUNNING`, "Tool is running as a background task with task id:
<conversation>/task-<n>") finishes in a later `SYSTEM_MESSAGE` ("Task id "…" finished with
result: …"), which is its result. A call is known by its step and place (`<step>#<n>`).

`run_command`'s `CommandLine` and `Cwd` are indexed as `command` and `cwd`, the names the
other agents' shell tools use; its exit code is in the result text: "The command exited with
code N" (current builds), "The command completed successfully" or "The command failed with
exit code: N" (builds of June 2026).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from git_memory.formats import bounded_json
from git_memory.sessions.providers.antigravity_place import (
    Clue,
    active_document_clues,
    link_clues,
)
from git_memory.sessions.providers.common import call_pair, is_injected, mapping, objects, string
from git_memory.sessions.records import ASSISTANT, COMPLETED, FAILED, UNKNOWN, USER, Event

SHELL = "run_command"
_REQUEST = re.compile(r"<USER_REQUEST>\s*(.*?)\s*</USER_REQUEST>", re.DOTALL)
_EXITED = re.compile(r"The command (?:exited with code|failed with exit code:?)\s*(-?\d+)")
_SUCCEEDED = "The command completed successfully"
_BACKGROUND = re.compile(r"running as a background task with task id: (\S+)")
_FINISHED = re.compile(r'Task id "([^"]+)" finished with result:\s*(.*)', re.DOTALL)
_TRAILER = re.compile(r"\s*(?:Log: file://\S*\s*)?</SYSTEM_MESSAGE>\s*$")
_TIMES = re.compile(r"\A(?:(?:Created|Completed) At: [^\n]*\n)+")
# The exit code is reported at the start of a command's result (a long one is cut in its
# middle, never there).
_HEAD = 1024
# Model steps that are not a tool's result.
NOT_RESULTS = frozenset(["PLANNER_RESPONSE", "CHECKPOINT", "USER_INPUT"])
FAILED_STATUSES = frozenset(["ERROR", "CANCELED", "CANCELLED"])
# Arguments naming a place, as the real transcripts spell them: (argument, names a folder).
PATH_ARGUMENTS = (
    ("Cwd", True),  # run_command
    ("DirectoryPath", True),  # list_dir
    ("SearchPath", True),  # grep_search
    ("SearchDirectory", True),  # find_by_name
    ("AbsolutePath", False),  # view_file
    ("TargetFile", False),  # write_to_file, replace_file_content
)
# `run_command`'s arguments under the names the other agents' shell tools use.
SHELL_NAMES = {"CommandLine": "command", "Cwd": "cwd"}


@dataclass
class Call:
    """A tool call at step `step`, and its result once known."""

    step: int
    call_id: str
    timestamp: str | None
    name: str
    arguments: Any
    result: tuple[str, str] | None = None


@dataclass
class Steps:
    """What the steps of one conversation say: events (calls kept as `Call`s until the end),
    the person's requests, and the clues to its workspace."""

    short: bool  # `transcript.jsonl`: arguments JSON-encoded a second time
    items: list[Event | Call] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    clues: list[Clue] = field(default_factory=list)
    pending: list[Call] = field(default_factory=list)
    background: dict[str, Call] = field(default_factory=dict)

    def read(self, step: int, record: dict[str, Any]) -> None:
        """Fold one step in."""
        source, kind = record.get("source"), record.get("type")
        if source == "USER_EXPLICIT" and kind == "USER_INPUT":
            self._prompt(step, record)
        elif source == "SYSTEM":
            self._system(record)
        elif source == "MODEL" and kind == "PLANNER_RESPONSE":
            self._planner(step, record)
        elif source == "MODEL" and kind not in NOT_RESULTS:
            self._result(step, record)

    def events(self, cwd: str | None) -> list[Event]:
        """Every event, each tool call with its result, at the conversation's folder."""
        out: list[Event] = []
        for item in self.items:
            if isinstance(item, Call):
                call = (item.call_id, item.name, item.arguments)
                out += call_pair(item.step, item.timestamp, cwd, call, item.result)
            else:
                item.cwd = cwd
                out.append(item)
        return out

    def _prompt(self, step: int, record: dict[str, Any]) -> None:
        content = string(record.get("content")) or ""
        self.clues += active_document_clues(content)
        requests = _REQUEST.findall(content)
        if requests:
            text = "\n\n".join(request for request in requests if request.strip())
        else:  # older builds: the request alone, unless it is context the client added
            text = "" if is_injected(content) else content.strip()
        self.pending = []
        if text:
            self.prompts.append(text)
            self.items.append(Event(USER, step, string(record.get("created_at")), text=text))

    def _system(self, record: dict[str, Any]) -> None:
        finished = _FINISHED.search(string(record.get("content")) or "")
        call = self.background.pop(finished.group(1), None) if finished else None
        if finished is not None and call is not None:
            text = _TRAILER.sub("", finished.group(2)).strip("\n")
            call.result = (text, _state("DONE", text, call.name == SHELL))

    def _planner(self, step: int, record: dict[str, Any]) -> None:
        ts, text = string(record.get("created_at")), string(record.get("content")) or ""
        if text.strip():
            self.clues += link_clues(text)
            self.items.append(Event(ASSISTANT, step, ts, text=text.strip()))
        self.pending = [
            self._call(step, number, ts, call)
            for number, call in enumerate(objects(record.get("tool_calls")))
            if isinstance(call.get("name"), str)
        ]
        self.items += self.pending

    def _result(self, step: int, record: dict[str, Any]) -> None:
        if not self.pending and objects(record.get("tool_calls")):
            self._planner(step, {**record, "content": None})  # a step that is call and result
        if not self.pending:
            return
        call = self.pending.pop(0)
        content = string(record.get("content")) or string(record.get("error")) or ""
        self.clues += link_clues(content)
        status = string(record.get("status"))
        background = _BACKGROUND.search(content) if status == "RUNNING" else None
        if background is not None:
            self.background[background.group(1)] = call
            return
        text = _TIMES.sub("", content)
        call.result = (text, _state(status, text, call.name == SHELL))

    def _call(self, step: int, number: int, ts: str | None, call: dict[str, Any]) -> Call:
        arguments = _arguments(call.get("args"), self.short)
        for name, folder in PATH_ARGUMENTS:
            value = arguments.get(name)
            if isinstance(value, str):
                kind = "command cwd" if name == "Cwd" else "file path"
                self.clues.append(Clue(kind, value, folder))
        if call["name"] == SHELL:
            arguments = {SHELL_NAMES.get(key, key): value for key, value in arguments.items()}
        return Call(step, f"{step}#{number}", ts, call["name"], arguments)


def _arguments(value: Any, short: bool) -> dict[str, Any]:
    """A call's arguments; in `transcript.jsonl` each one is JSON-encoded a second time (one
    whose text was cut is kept as it is)."""
    arguments = dict(mapping(value))
    if short:
        arguments = {key: _decoded(item) for key, item in arguments.items()}
    return arguments


def _decoded(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return bounded_json.loads(value)
    except ValueError:
        return value


def _state(status: str | None, text: str, shell: bool) -> str:
    """A result's state: the step's status, and for a command the exit code it reports."""
    if status in FAILED_STATUSES:
        return FAILED
    if shell:
        head = text[:_HEAD]
        exited = _EXITED.search(head)
        if exited is not None:
            return COMPLETED if int(exited.group(1)) == 0 else FAILED
        if _SUCCEEDED in head:
            return COMPLETED
    return COMPLETED if status == "DONE" else UNKNOWN
