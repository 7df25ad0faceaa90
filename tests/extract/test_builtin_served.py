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
from git_memory.extract.builtin.window import plan_window
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
        ("http :3000/api/health", 'HTTP/1.1 200 OK\n\n{"ok": true}'),  # HTTPie's localhost
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


def test_the_request_steps_own_outcome_counts_not_the_lines() -> None:
    """`curl …; echo "exit: $?"` exits 0 whatever curl did: curl's own status said 7."""
    later = _bash('curl -s http://localhost:3000; echo "exit: $?"', "exit: 7")
    assert _server_outcome(_started("npm run dev"), later) is Outcome.UNKNOWN


@pytest.mark.parametrize(
    ("request_line", "answer"),
    [
        (f"{STATUS.replace('%{http_code}', 'HTTP Status: %{http_code}')}", "HTTP Status: 500"),
        ('curl -s -w "\\nHTTP Status: %{http_code}\\n" http://localhost:4177', "<p>x</p>\n404"),
        (STATUS, "Cannot GET /404"),
        (f'{STATUS} && echo " - Server is running"', "500 - Server is running"),
        ("curl -v http://localhost:4177/ 2>&1", "> GET / HTTP/1.1\n< HTTP/1.1 500 Internal"),
        (
            "Invoke-WebRequest http://localhost:4177 -UseBasicParsing",
            "Response status code does not indicate success: 500 (Internal Server Error).",
        ),
        ("curl -s -o /dev/null http://localhost:4177", ""),  # nothing shown at all
    ],
)
def test_an_error_status_anywhere_in_the_answer_shows_nothing(
    request_line: str, answer: str
) -> None:
    assert _server_outcome(_started(), _bash(request_line, answer)) is Outcome.UNKNOWN


@pytest.mark.parametrize(
    "server",
    [
        _bash("cargo run", "Compiling app v0.1.0\nCommand timed out after 2m 0.0s", "failed"),
        _bash("npm run dev", "> vite\n[Request interrupted by user for tool use]", "failed"),
        _bash(
            "npm run dev 2>&1 | head -20",
            "> vite\nError: listen EADDRINUSE: address already in use :::4177",
        ),
    ],
)
def test_a_server_stopped_or_failed_is_not_shown_up_by_another_answering(
    server: ToolCall,
) -> None:
    """What answers then is another process: the one holding the port, or none at all."""
    assert _server_outcome(server, _bash(STATUS, "200")) is Outcome.UNKNOWN


def test_a_log_that_shows_the_server_failed_ends_the_search() -> None:
    started = _bash("npm run dev > dev.log 2>&1 &", "")
    failed = _bash("cat dev.log", "Error: listen EADDRINUSE: address already in use :::4177")
    assert _server_outcome(started, failed, _bash(STATUS, "200")) is Outcome.UNKNOWN


def test_a_request_to_the_port_another_server_was_told_is_about_that_one() -> None:
    api = _started("uvicorn app:app --port 8000")
    web = _started("npm run dev")
    runs = list(session_runs([_turn("t", api, web, _bash("curl -s localhost:8000/health", "ok"))]))
    assert [run.outcome for run in runs[:2]] == [Outcome.UNKNOWN, Outcome.UNKNOWN]


@pytest.mark.parametrize(
    ("server", "asked", "shown"),
    [
        ("npm start -- -p=3000", "3000", Outcome.WORKED),
        ("npm start -- -p=3000", "3001", Outcome.UNKNOWN),
        ("python manage.py runserver 8001", "8001", Outcome.WORKED),
        ("python manage.py runserver 8001", "8000", Outcome.UNKNOWN),
    ],
)
def test_the_port_a_server_was_told_in_any_common_form(
    server: str, asked: str, shown: Outcome
) -> None:
    later = _bash(f"curl -s http://127.0.0.1:{asked}/", "<html></html>")
    assert _server_outcome(_started(server), later) is shown


def test_the_evidence_is_the_request_as_typed_and_its_turn_is_cited() -> None:
    """The quote must be found in the transcript as it stands (quoting kept), and the turn
    that holds it is one of the memory's turns."""
    request = "curl -s -H 'Accept: application/json' http://localhost:3000/api/health"
    calls = [_started("npm run dev"), _bash(request, '{"ok":true}')]
    records = [_turn("t1", calls[0]), _turn("t2", calls[1])]
    (fact,) = plan_window([("s", records)], {"t1": "task", "t2": "task"}, known=set()).placed[
        "task"
    ]
    assert [(q.turn_key, q.text) for q in fact.quotes] == [("t1", "npm run dev"), ("t2", request)]
    assert fact.turn_keys == ("t1", "t2")


def test_a_log_line_as_evidence_is_cut_and_plain() -> None:
    started = _bash("npm run dev > dev.log 2>&1 &", "")
    ready = "\x1b[32m  VITE v5.4.2  ready in 312 ms\x1b[39m " + "x" * 400
    (fact,) = _one_turn(started, _bash("tail dev.log", ready))
    assert fact.quotes[-1].text.startswith("VITE v5.4.2  ready in 312 ms")
    assert "\x1b" not in fact.quotes[-1].text
    assert len(fact.quotes[-1].text) <= 240


@pytest.mark.parametrize(
    "line",
    [
        "npm run dev & sleep 5 && curl -s http://localhost:5173/ | head -5",
        "npm run dev > dev.log 2>&1 & sleep 5; tail -n 20 dev.log",
    ],
)
def test_the_same_line_may_show_its_server_up(line: str) -> None:
    answer = "<!doctype html><html>" if "curl" in line else "  VITE v5.4.2  ready in 312 ms"
    runs = list(session_runs([_turn("t", _bash(line, answer))]))
    assert runs[0].outcome is Outcome.WORKED


def test_a_piped_request_that_printed_a_page_shows_it_up() -> None:
    later = _bash("curl -s http://localhost:3000/ | head -20", "<!doctype html><title>App</title>")
    assert _server_outcome(_started("npm run dev"), later) is Outcome.WORKED
    empty = _bash("curl -s http://localhost:3000/ | head -20", "")
    assert _server_outcome(_started("npm run dev"), empty) is Outcome.UNKNOWN


def test_the_evidence_of_a_request_in_a_script_is_its_own_line() -> None:
    script = "sleep 3\ncurl -s http://localhost:3000/health\necho checked"
    (fact,) = _one_turn(_started("npm run dev"), _bash(script, '{"ok":true}\nchecked'))
    assert fact.quotes[-1].text == "curl -s http://localhost:3000/health"


def test_a_request_is_known_by_its_programs_name_wherever_it_runs_from() -> None:
    later = _bash("/usr/bin/curl -s http://127.0.0.1:4177/", "<html></html>")
    assert _server_outcome(_started(), later) is Outcome.WORKED
    windows = _bash("/c/Windows/System32/curl.exe -s http://127.0.0.1:4177/", "<html></html>")
    assert _server_outcome(_started(), windows) is Outcome.WORKED


@pytest.mark.parametrize(
    ("request_line", "answer"),
    [
        ('curl -s http://localhost:5173 || echo "Server not responding"', "Server not responding"),
        ("curl -s http://localhost:5173; echo done", "done"),
        (
            "if curl -s http://localhost:5173 >/dev/null; then echo running; else echo down; fi",
            "down",
        ),
        ('curl -s http://localhost:5173; echo "exit: $?"', "<html></html>\nexit: 0"),
        ("curl -s http://localhost:5173; node -e 'console.log(1)'", "<html></html>\n1"),
        ('curl -s http://localhost:5173 || echo -e "\\nServer not responding"', "\nNot up"),
        (
            'curl -s localhost:5173 || Write-Host "Server not responding" -ForegroundColor Red',
            "Server not responding",
        ),
    ],
)
def test_what_another_step_of_the_call_printed_is_no_answer(request_line: str, answer: str) -> None:
    """Only what the request printed can be its page: an echo's own words are taken off, and
    after any other step printing, only a status shows the answer."""
    later = _bash(request_line, answer)
    assert _server_outcome(_started("npm run dev"), later) is Outcome.UNKNOWN


def test_an_echo_beside_an_answered_request_is_taken_off_it() -> None:
    later = _bash("curl -s http://localhost:5173; echo done", "<html></html>\ndone")
    assert _server_outcome(_started("npm run dev"), later) is Outcome.WORKED
    status = _bash(f"{STATUS} || echo down", "200")
    assert _server_outcome(_started("npm run dev"), status) is Outcome.WORKED


def test_a_request_to_a_port_another_server_listens_on_is_about_that_one() -> None:
    # uvicorn listens on 8000 when not told: that answer is its, not the web server's
    api, web = _started("uvicorn main:app --reload"), _started("npm run dev")
    health = _bash("curl -s localhost:8000/health", '{"ok":true}')
    runs = list(session_runs([_turn("t", api, web, health)]))
    assert [run.outcome for run in runs[:2]] == [Outcome.UNKNOWN, Outcome.UNKNOWN]
    # in one line, the answer on 8000 is the server told 8000's, whichever the line's main is
    both = "uvicorn api:app --port 8000 & npm run dev & sleep 5 && curl -s localhost:8000/h"
    (run,) = session_runs([_turn("t", _bash(both, '{"ok":true}'))])
    assert (run.main.text if run.main else "", run.outcome) == ("npm run dev", Outcome.UNKNOWN)
    swapped = "npm run dev & uvicorn api:app --port 8000 & sleep 5 && curl -s localhost:8000/h"
    (run,) = session_runs([_turn("t", _bash(swapped, '{"ok":true}'))])
    assert run.main is not None
    assert run.main.text == "uvicorn api:app --port 8000"
    assert run.outcome is Outcome.WORKED


@pytest.mark.parametrize(
    "reader",
    [
        "grep -i ready dev.log",  # a filter cannot show that no error followed
        "Select-String -Path dev.log -Pattern ready",
        "tail -5 dev.log; cat old.log",  # what came from which file cannot be told
        "tail -n 50 dev.log | head -n 5",  # only what the filter let through
    ],
)
def test_a_read_that_shows_part_of_the_log_shows_nothing(reader: str) -> None:
    started = _bash("npm run dev > dev.log 2>&1 &", "")
    assert _server_outcome(started, _bash(reader, VITE_UP)) is Outcome.UNKNOWN


def test_a_filtered_read_that_shows_a_failure_ends_the_search() -> None:
    started = _bash("npm run dev > dev.log 2>&1 &", "")
    failed = _bash("grep -i error dev.log", "Error: Cannot find module 'vite'")
    assert _server_outcome(started, failed, _bash(STATUS, "200")) is Outcome.UNKNOWN


def test_an_answer_of_many_blank_lines_is_read_to_its_end() -> None:
    later = _bash("curl -s http://localhost:5173/", "<html>" + "\n" * 20_000 + "</html>")
    assert _server_outcome(_started("npm run dev"), later) is Outcome.WORKED
    spaced = _bash("curl -s http://localhost:5173/", "<html>" + " \n" * 20_000 + "500")
    assert _server_outcome(_started("npm run dev"), spaced) is Outcome.UNKNOWN


def test_a_powershell_request_is_known_in_any_case() -> None:
    later = _bash("invoke-webrequest http://localhost:5173 -UseBasicParsing", "StatusCode : 200")
    assert _server_outcome(_started("npm run dev"), later) is Outcome.WORKED


def test_a_server_not_told_its_port_listens_on_its_own_when_nothing_else_can_set_it() -> None:
    uvicorn = _started("uvicorn main:app --reload")
    page = '{"ok":true}'
    assert _server_outcome(uvicorn, _bash("curl -s localhost:3000/", page)) is Outcome.UNKNOWN
    assert _server_outcome(uvicorn, _bash("curl -s localhost:8000/", page)) is Outcome.WORKED
    # a script's server may have its port from its configuration: any port no other holds
    later = _bash("curl -s localhost:3000/", page)
    assert _server_outcome(_started("npm run dev"), later) is Outcome.WORKED
