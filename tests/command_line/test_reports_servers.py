"""The servers' own words for being up (issue 39): each row reads the line it was written from,
a server the agent stopped waiting for worked when it printed one, and only then."""

from __future__ import annotations

import pytest

from git_memory.command_line.line import parse
from git_memory.command_line.report_rows import Report
from git_memory.command_line.reports import Outcome
from git_memory.command_line.reports_servers import SERVER_REPORTS
from git_memory.extract.builtin.observed import server_up, started
from git_memory.extract.builtin.renderers import result_line

RUNNING = "Process running with session ID 7\nOutput:\n"


@pytest.mark.parametrize("report", SERVER_REPORTS, ids=lambda r: r.example[:30])
def test_each_row_reads_the_line_it_was_written_from(report: Report) -> None:
    assert report.hint in report.example
    assert report.pattern.search(report.example)
    assert server_up(f"> app@1.0.0 dev\n\n{report.example}\n")


@pytest.mark.parametrize("report", SERVER_REPORTS, ids=lambda r: r.example[:30])
def test_a_server_that_said_it_is_up_started_the_application(report: Report) -> None:
    line = parse("cd web && npm run dev")
    assert started(line, f"{RUNNING}{report.example}\n") == [Outcome.WORKED, Outcome.WORKED]


@pytest.mark.parametrize(
    "output",
    [
        "",  # nothing yet
        "> app@1.0.0 dev\n> vite\n",  # its banner only
        "  VITE v5.4.2  ready in 312 ms\n\nError: listen EADDRINUSE: address already in use\n"
        "    at Server.setupListenHandle",  # an error after it said it is up
        "Compiling...\nFailed to compile.\n",
        "Starting server on port 3000...",  # still starting
        # it crashed, was killed or refused to start after, or on, its "up" line
        "Server listening on port 3000\nthread 'main' panicked at src/main.rs:10:5",
        "Server listening on port 3000\n[nodemon] app crashed - waiting for file changes",
        "Server listening on port 3000\nKilled",
        "Server listening on port 3000\nSegmentation fault (core dumped)",
        "[error] Failed to start server. Is it already listening on port 3000?",
        "  ▲ Next.js 14.2.3\n  - Local:        http://localhost:3000\n ⨯ Module not found",
    ],
)
def test_a_server_that_did_not_say_it_is_up_stays_unknown(output: str) -> None:
    assert started(parse("npm run dev"), output) == [Outcome.UNKNOWN]


def test_only_the_command_that_starts_the_application_is_read_so_and_what_it_needed() -> None:
    said = "Server listening on port 3000\n"
    assert started(parse("npm test"), said) == [Outcome.UNKNOWN]
    assert started(parse("npm run build && npm start"), said) == [Outcome.WORKED] * 2
    assert started(parse("npm run build; npm start"), said) == [Outcome.UNKNOWN, Outcome.WORKED]
    # what a build prints is no server's "up": webpack says "compiled successfully" for both
    built = "> app build\n> webpack\nwebpack 5.91.0 compiled successfully in 1204 ms\n> app start\n"
    assert started(parse("npm run build && npm start"), built) == [Outcome.UNKNOWN] * 2


@pytest.mark.parametrize(
    ("output", "quoted"),
    [
        (
            "> demo@ dev\n> vite\n\n  VITE v5.4.2  ready in 312 ms\n\n"
            "  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose\n",
            "VITE v5.4.2  ready in 312 ms",
        ),
        (
            "INFO:     Waiting for application startup.\nINFO:     Application startup complete.\n"
            "INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)\n",
            "INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)",
        ),
    ],
)
def test_the_line_a_reviewer_sees_is_the_one_saying_it_is_up(output: str, quoted: str) -> None:
    assert result_line(output) == quoted
