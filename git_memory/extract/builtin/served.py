"""A server the agent started and did not wait for, shown up by a later call of the session.

An agent sends a development server to the background (`npm run dev &`, Claude Code's
`run_in_background`), then checks it another way: it asks the server for a page on this
machine (`curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:4177` printing `200`), or
reads the file the server's output went to (`npm run dev > .logs/server.log 2>&1 &`, then
`tail .logs/server.log` showing "VITE v5.4.2  ready in 312 ms"). Either shows the server up,
so the command that starts the application worked (`observed.up`, applied by
`runs.session_runs`); the line that showed it is its evidence. Only the next calls count, up
to the next server started: a request to another port than the one the server was told to
use (`--port 3000`, `PORT=3000`), an answer that is an error (`000`, `HTTP/1.1 500`,
"Connection refused") or a log with an error after its "up" line shows nothing.
"""

from __future__ import annotations

import re
from typing import Protocol

from git_memory.command_line.line import Command, Step
from git_memory.command_line.outcomes import printed_failures
from git_memory.command_line.reports_servers import RUN
from git_memory.extract.builtin.observed import Outcome, own_output, server_up

# How many calls after the server's start can show it up.
CHECK_WINDOW = 8
_REQUESTERS = frozenset(
    ["curl", "wget", "http", "https", "xh", "Invoke-WebRequest", "iwr", "Invoke-RestMethod", "irm"]
)
_READERS = frozenset(["cat", "tail", "head", "less", "more", "Get-Content", "gc", "type"])
# A URL of this machine, and its port.
_LOCAL_URL = re.compile(
    r"^(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(?P<port>\d+))?(?:[/?#]|$)"
)
# Where a server is told to listen: `--port 3000`, `-p 3000`, `--port=3000`, `PORT=3000`,
# `0.0.0.0:8000` (`manage.py runserver`, `gunicorn -b`).
_PORT_OPTION = frozenset(["--port", "-p", "--http-port", "--listen-port"])
_PORT_VALUE = re.compile(r"^(?:--port|--http-port|--listen-port)=(\d+)$|^PORT=(\d+)$")
_HOST_PORT = re.compile(r"^(?:[\w.-]+|\[::1?\]):(\d{2,5})$")
# An answer that is no page: curl's `000` (nothing answered), a 4xx or 5xx status, the
# client's own failure.
_STATUS_ONLY = re.compile(r"^\s*(\d{3})\s*$")
_STATUS_LINE = re.compile(r"^HTTP/[\d.]+ (\d{3})\b.*$", re.MULTILINE)
_REFUSED = re.compile(
    r"(?i)connection refused|failed to connect|couldn'?t connect|could not connect"
    r"|unable to connect|empty reply from server"
)
# Where a command line sends its output: `> file`, `>> file`, `&> file`, `| tee file`.
_OUTPUT_FILE = re.compile(r"(?:&>>?|\d?>>?|\|\s*tee(?:\s+-a)?)\s*(?!&)([^\s;&|<>]+)")


class Call(Protocol):
    """What this module reads of a shell call (`runs.Run`)."""

    @property
    def command(self) -> str | None: ...
    @property
    def main(self) -> Command | None: ...
    @property
    def steps(self) -> tuple[Step, ...]: ...
    @property
    def output(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...


def starts_a_server(call: Call) -> bool:
    """A call that starts the application: what follows it is about that server."""
    return call.main is not None and call.main.kind == RUN


def waiting(call: Call) -> bool:
    """A call that starts the application and showed no result of its own."""
    return starts_a_server(call) and call.command is not None and call.outcome is Outcome.UNKNOWN


def showing(server: Call, later: Call) -> str:
    """The line of `later` that shows the server up ("" when it shows nothing): its answer
    to a request, or the server's "up" line in the file the server's output went to."""
    return _request_answered(server, later) or _log_read(server, later)


def _request_answered(server: Call, later: Call) -> str:
    """The line that shows a request of `later` to the server on this machine answered (its
    status, else the request as typed); "" when it is no such request."""
    if later.outcome is not Outcome.WORKED or later.command is None:
        return ""
    port = _port(server)
    asked = [
        step
        for step in later.steps
        if step.command.words and step.command.words[0] in _REQUESTERS and _asks(step, port)
    ]
    if not asked:
        return ""
    output = own_output(later.output)
    if _REFUSED.search(output):
        return ""
    status = _STATUS_ONLY.match(output) or _last_status(output)
    if status is not None:
        code = int(status.group(1))
        return status.group(0).strip() if 200 <= code < 400 else ""
    return " ".join(asked[0].command.words)


def _last_status(output: str) -> re.Match[str] | None:
    found = list(_STATUS_LINE.finditer(output))
    return found[-1] if found else None


def _asks(step: Step, port: str | None) -> bool:
    """Whether a request step names a URL of this machine (on the server's port, when the
    server was told one)."""
    for word in step.command.words[1:]:
        url = _LOCAL_URL.match(word)
        if url is not None:
            return port is None or url.group("port") == port
    return False


def _port(server: Call) -> str | None:
    """The port the server was told to listen on, when its command says."""
    assert server.main is not None
    words = [*server.main.env, *server.main.words]
    for word, following in zip(words, [*words[1:], ""], strict=True):
        if word in _PORT_OPTION and following.isdigit():
            return following
        value = _PORT_VALUE.match(word) or _HOST_PORT.match(word)
        if value is not None:
            return next(group for group in value.groups() if group)
    return None


def _log_read(server: Call, later: Call) -> str:
    """The server's "up" line, when `later` read the file the server's output went to and
    it shows the server up with no error after."""
    if later.outcome is not Outcome.WORKED or later.command is None or server.command is None:
        return ""
    targets = {
        path.rsplit("/", 1)[-1]
        for path in _OUTPUT_FILE.findall(server.command)
        if path != "/dev/null"
    }
    read = any(
        step.command.words[:1]
        and step.command.words[0] in _READERS
        and any(word.rsplit("/", 1)[-1] in targets for word in step.command.words[1:])
        for step in later.steps
    )
    output = own_output(later.output)
    if not read or not server_up(output) or printed_failures(output):
        return ""
    lines = [line.strip() for line in reversed(output.splitlines()) if line.strip()]
    return next((line for line in lines if server_up(line)), lines[0])
