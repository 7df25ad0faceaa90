"""A server the agent started and did not wait for, shown up by a later call of the session.

An agent sends a development server to the background (`npm run dev &`, Claude Code's
`run_in_background`), then checks it another way: it asks the server for a page on this
machine (`curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:4177` printing `200`), or
reads the file the server's output went to (`npm run dev > .logs/server.log 2>&1 &`, then
`tail .logs/server.log` showing "VITE v5.4.2  ready in 312 ms"). Either shows the server up,
so the command that starts the application worked (`observed.up`, applied by
`runs.session_runs`); the line that showed it is its evidence. The same line may check it
(`npm run dev & sleep 5 && curl …`), or one of the next calls up to the next server started.
A request to another port than the one the server was told to use (`--port 3000`,
`PORT=3000`), an answer that is an error (`000`, `HTTP/1.1 500`, "Connection refused", an
error page) or a log with an error after its "up" line shows nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection
from typing import Protocol

from git_memory.command_line.line import Command, Step
from git_memory.command_line.outcomes import printed_failures
from git_memory.command_line.program import program_name
from git_memory.command_line.reports_servers import RUN
from git_memory.extract.builtin.observed import (
    Outcome,
    own_output,
    server_failed,
    server_up,
    stopped,
)
from git_memory.extract.builtin.renderers import result_line

# How many calls after the server's start can show it up.
CHECK_WINDOW = 8
_REQUESTERS = frozenset(
    [
        "curl",
        "wget",
        "http",
        "https",
        "xh",
        "Invoke-WebRequest",
        "iwr",
        "Invoke-RestMethod",
        "irm",
    ]
)
# Calls that show a file's lines (a log's "up" line among them).
_READERS = frozenset(
    [
        *("cat", "tail", "head", "less", "more", "grep", "rg"),
        *("type", "Get-Content", "gc", "Select-String", "sls"),
    ]
)
# A URL of this machine, and its port.
_LOCAL_URL = re.compile(
    r"^(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(?P<port>\d+))?(?:[/?#]|$)"
)
# Options whose value is no URL of the request (a proxy, a socket).
_NOT_THE_URL = frozenset(["-x", "--proxy", "--unix-socket", "--abstract-unix-socket", "-e"])
# Where a server is told to listen: `--port 3000`, `-p 3000`, `--port=3000`, `-p=3000`,
# `PORT=3000`, `0.0.0.0:8000` (`gunicorn -b`), `manage.py runserver 8001`.
_PORT_OPTION = frozenset(["--port", "-p", "--http-port", "--listen-port", "runserver"])
_PORT_VALUE = re.compile(r"^(?:--port|--http-port|--listen-port|-p)=(\d+)$|^PORT=(\d+)$")
_HOST_PORT = re.compile(r"^(?:[\w.-]+|\[::1?\]):(\d{2,5})$")
# A status the answer shows: HTTP's status line (`curl -i`: `HTTP/1.1 200 OK`, `curl -v`:
# `< HTTP/2 500`) or a code printed alone or labelled (`-w "%{http_code}"`: `200`,
# `HTTP Status: 404`, `500 - Server is running`).
_STATUS = re.compile(
    r"(?im)^[<\s]*HTTP/[\d.]+ (\d{3})\b.*$"
    r"|^\s*(?:[\w ]*\b(?:status|code)\w*\s*[:=]\s*)?(\d{3})(?![\w.:/]).*$"
)
# An answer that is no page: curl's `000` (nothing answered), a 4xx or 5xx status anywhere,
# the client's own failure, an error page.
_NO_PAGE = re.compile(
    r"(?i)(?<![\w.])(?:000|[45]\d\d)(?![\w.:])|connection refused|failed to connect"
    r"|couldn'?t connect|could not connect|unable to connect|empty reply from server"
    r"|cannot (?:get|post)\b|not found|bad gateway|service unavailable|internal server error"
    r"|does not indicate success|\berror\b"
)
# Where a command line sends its output: `> file`, `>> file`, `&> file`, `| tee file`.
_OUTPUT_FILE = re.compile(r"(?:&>>?|\d?>>?|\|&?\s*tee(?:\s+-a)?)\s*(?!&)(['\"]?)([^\s;&|<>'\"]+)\1")


class Call(Protocol):
    """What this module reads of a shell call (`runs.Run`)."""

    @property
    def command(self) -> str | None: ...
    @property
    def main(self) -> Command | None: ...
    @property
    def steps(self) -> tuple[Step, ...]: ...
    @property
    def outcomes(self) -> tuple[Outcome, ...]: ...
    @property
    def output(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...


def starts_a_server(call: Call) -> bool:
    """A call that starts the application: what follows it is about that server."""
    return call.main is not None and call.main.kind == RUN


def waiting(call: Call) -> bool:
    """A call that starts the application, left running with no result of its own: not
    stopped by the agent's timeout or an interruption, no failure in what it printed."""
    return (
        starts_a_server(call)
        and call.outcome is Outcome.UNKNOWN
        and not stopped(call.output)
        and not server_failed(own_output(call.output))
    )


def port(server: Call) -> str | None:
    """The port the server was told to listen on, when its command says."""
    if server.main is None:
        return None
    words = [*server.main.env, *server.main.words]
    for word, following in zip(words, [*words[1:], ""], strict=True):
        if word in _PORT_OPTION and following.isdigit():
            return following
        value = _PORT_VALUE.match(word) or _HOST_PORT.match(word)
        if value is not None:
            return next(group for group in value.groups() if group)
    return None


def showing(server: Call, later: Call, others: Collection[str] = ()) -> str | None:
    """The line of `later` that shows the server up: its answer to a request on this machine,
    or the server's "up" line in the file the server's output went to; "" when it shows
    nothing, None when it shows the server failed (its file reports an error). `others` are
    the ports other servers of the session were told: a request to one of them is about
    that server."""
    return _request_answered(server, later, others) or _log_read(server, later)


def _request_answered(server: Call, later: Call, others: Collection[str]) -> str:
    """The line that shows a request of `later` to the server answered with a page (its
    status, else the line of the call that holds the request); "" when it is no such
    request or no page."""
    if later.command is None:
        return ""
    told = port(server)
    urls = [
        url
        for index, step in enumerate(later.steps)
        if (asked := _request(step)) is not None
        # seen to fail, it got no page; a pipe may hide its status (`curl … | head`)
        and later.outcomes[index] is not Outcome.FAILED
        and _on_the_server(asked[0], told, others)
        for url in asked[1:]
    ]
    output = own_output(later.output)
    if not urls or not output.strip() or _NO_PAGE.search(output):
        return ""
    status = _STATUS.search(output)
    if status is not None:
        return result_line(status.group(0))
    typed = next((line for line in later.command.splitlines() if urls[0] in line), "")
    return result_line(typed or later.command)


def _request(step: Step) -> tuple[str, str] | None:
    """The port a request step asks on this machine ("" for the scheme's own) and the URL
    as typed; None when it is no request to this machine."""
    words = step.command.words
    if not words or program_name(words[0]) not in _REQUESTERS:
        return None
    for word, before in zip(words[1:], words, strict=False):
        url = _LOCAL_URL.match(word)
        if url is not None and before not in _NOT_THE_URL:
            return url.group("port") or "", word
    return None


def _on_the_server(asked: str, told: str | None, others: Collection[str]) -> bool:
    return asked == told if told is not None else asked not in others


def _log_read(server: Call, later: Call) -> str | None:
    """The server's "up" line, when `later` read the file the server's output went to and
    it shows the server up with no error after; None when that file shows a failure."""
    if later.command is None or server.command is None:
        return ""
    targets = {
        posixpath.normpath(path)
        for _, path in _OUTPUT_FILE.findall(server.command)
        if path != "/dev/null"
    }
    read = any(
        later.outcomes[index] is not Outcome.FAILED
        and step.command.words[:1]
        and program_name(step.command.words[0]) in _READERS
        and any(posixpath.normpath(word) in targets for word in step.command.words[1:])
        for index, step in enumerate(later.steps)
    )
    if not read:
        return ""
    output = own_output(later.output)
    if printed_failures(output) or server_failed(output):
        return None
    if not server_up(output):
        return ""
    lines = [line for line in reversed(output.splitlines()) if line.strip()]
    return result_line(next(line for line in lines if server_up(line)))
