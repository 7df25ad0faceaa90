"""A server the agent sent to the background, shown up by a later call (issue 39 item 2): a
request to it on this machine that was answered, or a read of the file its output went to.
The shapes are those of real sessions of the corpus (Claude Code: `npm start &`, then `curl
… 127.0.0.1:4177` printing `200`; `npm run dev … > .logs/server.log 2>&1 &`, then `sleep 5 &&
cat .logs/server.log`)."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.extract.builtin.observed import Outcome
from git_memory.extract.builtin.runs import session_runs
from git_memory.sessions.turns import ToolCall
from tests.extract.test_builtin_commands import _one_turn, _turn

BACKGROUND = (
    "Command running in background with ID: b2lfczdxx. Output is being written to: "
    "/tmp/claude-501/tasks/b2lfczdxx.output"
)
STATUS = 'curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:4177'
VITE_UP = "> app@0.0.0 dev\n> vite --host 0.0.0.0\n\n  VITE v5.4.2  ready in 312 ms\n"


def _bash(command: str, output: str, state: str = "completed", **more: Any) -> ToolCall:
    return ToolCall(
        call_id="c", name="Bash", input={"command": command, **more}, output=output, state=state
    )


def _started(command: str = "npm start") -> ToolCall:
    return _bash(command, BACKGROUND, run_in_background=True)


def _server_outcome(*calls: ToolCall) -> Outcome:
    (server, *_) = session_runs([_turn("t", *calls)])
    return server.outcome


def test_a_server_a_later_request_found_answering_started_the_application() -> None:
    (fact,) = _one_turn(_started(), _bash(f"sleep 1 && {STATUS}", "200"))
    assert fact.content == "`npm start` starts the application (worked in 1 session)."
    assert [quote.text for quote in fact.quotes] == ["npm start", "200"]


@pytest.mark.parametrize(
    ("request_line", "answer"),
    [
        ("curl -sI http://localhost:5173/", "HTTP/1.1 200 OK\nContent-Type: text/html"),
        ("curl -s http://localhost:3000/api/health", '{"ok":true}'),
        ("wget -qO- http://127.0.0.1:8000/", "<!doctype html><html></html>"),
    ],
)
def test_any_answered_request_to_this_machine_shows_it_up(request_line: str, answer: str) -> None:
    assert _server_outcome(_started("npm run dev"), _bash(request_line, answer)) is Outcome.WORKED


@pytest.mark.parametrize(
    "later",
    [
        _bash(STATUS, "000", "failed"),  # nothing answered
        _bash(STATUS, "000"),
        _bash(STATUS, "500"),
        _bash("curl -sI http://localhost:4177/", "HTTP/1.1 404 Not Found"),
        _bash(
            "curl -s http://localhost:4177/",
            "curl: (7) Failed to connect to localhost port 4177: Connection refused",
        ),
        _bash("curl -s https://example.com/", "<html></html>"),  # not this machine
        _bash("npm test", "Tests  3 passed (3)"),  # no request at all
    ],
)
def test_a_request_that_got_no_page_shows_nothing(later: ToolCall) -> None:
    assert _server_outcome(_started(), later) is Outcome.UNKNOWN


def test_a_request_to_another_port_than_the_servers_shows_nothing() -> None:
    told = _started("npm run dev -- --port 3000")
    assert _server_outcome(told, _bash("curl -s localhost:5432/", "ok")) is Outcome.UNKNOWN
    assert _server_outcome(told, _bash("curl -s localhost:3000/", "ok")) is Outcome.WORKED
    env = _started("PORT=8080 npm start")
    assert _server_outcome(env, _bash("curl -s http://127.0.0.1:8080/", "ok")) is Outcome.WORKED
    django = _started("python manage.py runserver 0.0.0.0:8000")
    assert _server_outcome(django, _bash("curl -s localhost:8001/", "ok")) is Outcome.UNKNOWN


def test_a_request_after_another_server_started_is_about_that_one() -> None:
    calls = (_started("npm start"), _started("npm run dev"), _bash(STATUS, "200"))
    assert _server_outcome(*calls) is Outcome.UNKNOWN


def test_a_request_too_many_calls_later_shows_nothing() -> None:
    reads = [_bash(f"cat src/file{n}.ts", "export {}") for n in range(8)]
    assert _server_outcome(_started(), *reads, _bash(STATUS, "200")) is Outcome.UNKNOWN


def test_the_file_the_servers_output_went_to_shows_it_up() -> None:
    started = _bash("mkdir -p .logs && npm run dev -- --host 0.0.0.0 > .logs/server.log 2>&1 &", "")
    (fact,) = _one_turn(started, _bash("sleep 5 && cat .logs/server.log", VITE_UP))
    assert fact.content == "`npm run dev` starts the application (worked in 1 session)."
    assert fact.quotes[-1].text == "VITE v5.4.2  ready in 312 ms"


@pytest.mark.parametrize(
    ("reader", "log"),
    [
        ("cat .logs/other.log", VITE_UP),  # another file
        ("cat .logs/server.log", "> app@0.0.0 dev\n> vite\n"),  # not up yet
        ("tail .logs/server.log", VITE_UP + "Error: listen EADDRINUSE: address already in use\n"),
    ],
)
def test_a_log_read_that_does_not_show_it_up_shows_nothing(reader: str, log: str) -> None:
    started = _bash("npm run dev > .logs/server.log 2>&1 &", "")
    assert _server_outcome(started, _bash(reader, log)) is Outcome.UNKNOWN
