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
`PORT=3000`) or to one another server listens on (told, or its program's default: uvicorn's
8000), an answer that is an error (`000`, `HTTP/1.1 500`, "Connection refused", an error
page), an answer another step of the call may have printed (`|| echo "not responding"`), a
log with an error after its "up" line, and a filtered read of the log (`grep ready dev.log`
cannot show that no error followed) show nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
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
# Programs by their names in lower case (PowerShell's cmdlets are typed in any case).
_REQUESTERS = frozenset(
    ["curl", "wget", "http", "https", "xh", "invoke-webrequest", "iwr", "invoke-restmethod", "irm"]
)
# Calls that show a file's lines, all of them or its ends (a log's "up" line among them).
_READERS = frozenset(["cat", "tail", "head", "less", "more", "type", "get-content", "gc"])
# Calls that show only the lines matching a pattern: a failure among them, never its absence.
_FILTERS = frozenset(["grep", "egrep", "rg", "select-string", "sls"])
# Steps that print nothing of their own around a request or a read.
_QUIET = frozenset(["sleep", "start-sleep", "wait", "cd", "set-location", "true"])
# Steps that print their own words (`echo checked`): taken off what a request printed.
_ECHOES = frozenset(["echo", "write-host", "write-output"])
# The port a server listens on when not told, by its program: what another server's
# request may be about.
_DEFAULT_PORTS = {
    **dict.fromkeys(["uvicorn", "gunicorn", "manage.py", "mkdocs", "artisan"], "8000"),
    **dict.fromkeys(["http.server", "gatsby"], "8000"),
    **dict.fromkeys(["next", "nuxt", "nuxi", "rails", "docusaurus", "remix"], "3000"),
    **dict.fromkeys(["webpack-dev-server", "eleventy"], "8080"),
    **{"vite": "5173", "flask": "5000", "ng": "4200", "hugo": "1313", "astro": "4321"},
    **{"streamlit": "8501", "jekyll": "4000", "storybook": "6006", "parcel": "1234"},
}
# Servers whose port only their command line sets (no configuration file of the project).
_FIXED_DEFAULT = frozenset(["uvicorn", "manage.py", "http.server", "artisan"])
# A URL of this machine, and its port.
_LOCAL_URL = re.compile(
    r"^(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(?P<port>\d+))?(?:[/?#]|$)"
    r"|^:(?P<short>\d+)(?:[/?#]|$)"  # HTTPie's and xh's shorthand for localhost: `http :3000`
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
# Each part reads within one line, so a long answer costs its length.
_STATUS = re.compile(
    r"(?im)^[< \t]*HTTP/[\d.]+ (\d{3})\b.*$"
    r"|^[ \t]*(?:[\w ]{0,40}?\b(?:status|code)\w*[ \t]*[:=][ \t]*)?(\d{3})(?![\w.:/]).*$"
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
    """The port the server was told to listen on, when its command says; else its
    program's own when no file of the project can change it (uvicorn's 8000, Django's
    runserver's), not Vite's or Next's, which their configuration may set."""
    if server.main is None:
        return None
    program = server.main.program or server.main.words
    fixed = bool(program) and _named(program[0]) in _FIXED_DEFAULT
    return _told(server.main) or (_default_port(server.main) if fixed else None)


def listening(call: Call, *, besides: Command | None = None) -> set[str]:
    """The ports the servers a call starts listen on (told, else their program's default),
    but for the server of command `besides`."""
    return {
        found
        for step in call.steps
        if step.command.kind == RUN and step.command is not besides
        for found in [_told(step.command) or _default_port(step.command)]
        if found
    }


def _told(command: Command) -> str | None:
    words = [*command.env, *command.words]
    for word, following in zip(words, [*words[1:], ""], strict=True):
        if word in _PORT_OPTION and following.isdigit():
            return following
        value = _PORT_VALUE.match(word) or _HOST_PORT.match(word)
        if value is not None:
            return next(group for group in value.groups() if group)
    return None


def _default_port(command: Command) -> str | None:
    program = command.program or command.words
    return _DEFAULT_PORTS.get(_named(program[0])) if program else None


def _named(word: str) -> str:
    return program_name(word).lower()


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
    if not _answer(later, output).strip():
        return ""
    typed = next((line for line in later.command.splitlines() if urls[0] in line), "")
    return result_line(typed or later.command)


def _answer(call: Call, output: str) -> str:
    """What the call's requests printed: its output without what its other steps printed
    (an `echo` of its own words, no option); "" when another step printed what cannot be
    told apart (`echo "exit: $?"`, `echo -e …`, any other program)."""
    said: Counter[str] = Counter()
    for step in call.steps:
        words = step.command.words
        name = _named(words[0]) if words else ""
        if name in _QUIET or step.command.kind == RUN or _request(step) is not None:
            continue
        if name not in _ECHOES or any(w.startswith("-") or "$" in w or "`" in w for w in words):
            return ""
        said[" ".join(words[1:]).strip()] += 1
    kept = []
    for line in output.splitlines():
        if said[line.strip()] > 0:
            said[line.strip()] -= 1  # the echo's own line
        else:
            kept.append(line)
    return "\n".join(kept)


def _request(step: Step) -> tuple[str, str] | None:
    """The port a request step asks on this machine ("" for the scheme's own) and the URL
    as typed; None when it is no request to this machine."""
    words = step.command.words
    if not words or _named(words[0]) not in _REQUESTERS:
        return None
    for word, before in zip(words[1:], words, strict=False):
        url = _LOCAL_URL.match(word)
        if url is not None and before not in _NOT_THE_URL:
            return url.group("port") or url.group("short") or "", word
    return None


def _on_the_server(asked: str, told: str | None, others: Collection[str]) -> bool:
    return asked == told if told is not None else asked not in others


def _log_read(server: Call, later: Call) -> str | None:
    """The server's "up" line, when `later` read the whole file the server's output went to
    (or its ends), and nothing else, and it shows the server up with no error after; None
    when what it read of that file shows a failure."""
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
        and _named(step.command.words[0]) in _READERS | _FILTERS
        and any(posixpath.normpath(word) in targets for word in step.command.words[1:])
        for index, step in enumerate(later.steps)
    )
    if not read:
        return ""
    output = own_output(later.output)
    if printed_failures(output) or server_failed(output):
        return None
    if not all(_quiet_or_reading(step, targets) for step in later.steps) or not server_up(output):
        return ""
    lines = [line for line in reversed(output.splitlines()) if line.strip()]
    return result_line(next(line for line in lines if server_up(line)))


def _quiet_or_reading(step: Step, targets: Collection[str]) -> bool:
    """A step that prints nothing of its own, starts the server, or shows all of the
    server's file (or its ends) and no other file."""
    words = step.command.words
    name = _named(words[0]) if words else ""
    if name in _QUIET or step.command.kind == RUN:
        return True
    # (through a pipe, only what the next filter let through was shown)
    return (
        name in _READERS
        and not step.piped
        and all(
            word.startswith("-") or word.isdigit() or posixpath.normpath(word) in targets
            for word in words[1:]
        )
    )
