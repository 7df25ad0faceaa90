"""The stdio wire of `git memory mcp`: a handshake at once, the SDK after, a clean exit.

Loading the MCP SDK and the operations takes about a second, and agent clients do not wait
for a slow server (Codex sends its first model request without its tools; Claude Code 2.1.332
waits up to 3 s for an answer to its opening `server/discover`, then starts over with
`initialize`). So a reader thread answers from the generated catalog (`mcp/handshake.py`)
while the main thread loads the SDK: the handshake-era `initialize`, `tools/list` and `ping`,
and the 2026 era's `server/discover` and `tools/list` (each request carries its own envelope
there). Then the wire replays the client's `initialize`, if any, to the SDK server (dropping
its second answer) and forwards every other message to it in order. Anything else waits for
the SDK.

Shutdown: stdin EOF ends the session; SIGINT and SIGTERM end the process at once when no tool
call runs, else as soon as it returns (at most `GRACE` seconds; a promotion cut short is
journaled and recovered by the next one). Nothing prints a traceback.

Every line is measured before anything parses it: a line longer than `MAX_LINE` bytes, or
nested deeper than `MAX_DEPTH` levels, is answered here with a JSON-RPC error (for the id a
shallow scan finds) and never reaches a parser, so no request can end the reading thread, and
end of input always ends the session.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

from git_memory.formats.bounded_json import nesting_exceeds
from git_memory.mcp.handshake import initialize_result, modern_result

REPLAY_ID = "git-memory-replayed-initialize"
# The longest line read (a tool call carries at most a 32 MiB request) and the deepest nesting
# (a request's own depth, within bounded_json.MAX_DEPTH, plus the envelope's three levels).
MAX_LINE = 33 * 1024 * 1024
MAX_DEPTH = 68
# After end of input, how long an answer the SDK owes is awaited when no tool call runs.
EOF_GRACE = 2.0
INVALID_REQUEST = -32600
# How long a signal waits for a running tool call before the process exits anyway.
GRACE = 0.6


class Activity:
    """Counts running tool calls so a signal can wait for them."""

    def __init__(self) -> None:
        self._running = 0
        # Re-entrant: the signal handler waits on it in the main thread, which may be inside
        # `__enter__` at that moment.
        self._idle = threading.Condition(threading.RLock())

    def __enter__(self) -> Activity:
        with self._idle:
            self._running += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self._idle:
            self._running -= 1
            self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Whether no tool call runs (waiting at most `timeout` seconds for it)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._running == 0, timeout)


class Wire:
    """The process's stdin and stdout, owned for the session.

    fd 0 and fd 1 are pointed at /dev/null and stderr while serving, so stray reads and
    prints of an operation never touch the protocol stream.
    """

    def __init__(self, catalog: dict[str, Any] | None, instructions: str) -> None:
        self.catalog = catalog
        self.instructions = instructions
        self.activity = Activity()
        self._in = os.fdopen(_take_fd(0, os.O_RDONLY), "rb")
        self._out = _take_fd(1, os.O_WRONLY)
        self._write_lock = threading.Lock()
        self._state = threading.Lock()
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._replay: list[bytes] = []
        self._handed_over = False
        self._answered_initialize = False
        self._drop_replayed_answer = False
        # Requests handed to the SDK and not answered yet (by their JSON-encoded id).
        self._unanswered: set[str] = set()

    def start(self) -> None:
        """Install the signal handlers and start reading stdin."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._on_signal)
        threading.Thread(target=self._read, name="mcp-stdin", daemon=True).start()

    # --- reading -------------------------------------------------------------------------

    def _read(self) -> None:
        try:
            while raw := self._in.readline(MAX_LINE + 1):
                line = raw.strip()
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    self._skip_rest_of_line()
                    self._refuse(line[:4096], f"a line longer than {MAX_LINE} bytes")
                elif line:
                    self._take(line)
        except (OSError, ValueError):
            pass
        with self._state:
            if not self._handed_over and self._lines.empty():
                # The client left during start-up with nothing left to answer.
                self.exit()
            self._lines.put(None)

    def _skip_rest_of_line(self) -> None:
        while (chunk := self._in.readline(1 << 20)) and not chunk.endswith(b"\n"):
            pass

    def _take(self, line: bytes) -> None:
        if nesting_exceeds(line, MAX_DEPTH):
            self._refuse(line, f"a request nested deeper than {MAX_DEPTH} levels")
            return
        try:
            self._receive(line)
        except Exception:  # one bad line never ends the reading
            self._refuse(line, "a request that could not be read")

    def _refuse(self, line: bytes, why: str) -> None:
        """Answer a line that is not passed on: a JSON-RPC error for its id (null when no id
        is found at its top level)."""
        error = {"code": INVALID_REQUEST, "message": f"GM_REQUEST_INVALID: request refused: {why}"}
        self.send({"jsonrpc": "2.0", "id": top_level_id(line), "error": error})

    def _receive(self, line: bytes) -> None:
        with self._state:
            if not self._handed_over and self._answer_early(line):
                return
            self._lines.put(line)

    def _answer_early(self, line: bytes) -> bool:
        if self.catalog is None:
            return False
        try:
            message = json.loads(line)
        except ValueError:
            return False
        if not isinstance(message, dict):
            return False
        method = message.get("method")
        if method == "initialize" and not self._answered_initialize and "id" in message:
            return self._initialize(message)
        if method in ("server/discover", "tools/list") and "id" in message:
            # The per-request-envelope era has no handshake: each request stands alone.
            result = modern_result(self.catalog, message, self.instructions)
            if result is not None:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
                return True
        if not self._answered_initialize:
            return False
        if method == "notifications/initialized" and "id" not in message:
            self._replay.append(line)
            return True
        if method in ("tools/list", "ping") and "id" in message:
            result = {"tools": self.catalog["tools"]} if method == "tools/list" else {}
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            return True
        return False

    def _initialize(self, message: dict[str, Any]) -> bool:
        assert self.catalog is not None
        result = initialize_result(self.catalog, message.get("params"), self.instructions)
        if result is None:
            return False
        self._answered_initialize = True
        self._drop_replayed_answer = True
        self._replay.append(json.dumps({**message, "id": REPLAY_ID}).encode())
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        return True

    # --- writing -------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Write one JSON-RPC message."""
        self._write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            try:
                while data:
                    data = data[os.write(self._out, data) :]
            except OSError:
                # The client is gone; nobody reads what follows.
                self.exit()

    # --- the SDK side --------------------------------------------------------------------

    def hand_over(self) -> tuple[AsyncIterator[str], SdkStdout]:
        """Stop answering early; the SDK's stdin (replay, then the rest) and stdout."""
        with self._state:
            self._handed_over = True
            replay = list(self._replay)
        return self._sdk_lines(replay), SdkStdout(self)

    async def _sdk_lines(self, replay: list[bytes]) -> AsyncIterator[str]:
        # Start-up seam (docs/architecture.md): the wire answers the handshake before anyio
        # loads.
        import anyio  # noqa: PLC0415
        import anyio.to_thread  # noqa: PLC0415

        for replayed in replay:
            yield self._track(replayed)
        while True:
            line = await anyio.to_thread.run_sync(self._next_line, abandon_on_cancel=True)
            if line is None:
                break
            yield self._track(line)
        # End of input: what was asked is still answered, then the session ends. Only a
        # running tool call is waited for; an answer the SDK never gives is not.
        idle_since: float | None = None
        while self._unanswered:
            now = anyio.current_time()
            if not self.activity.wait_idle(0):
                idle_since = None
            elif idle_since is None:
                idle_since = now
            elif now - idle_since > EOF_GRACE:
                break
            await anyio.sleep(0.01)

    def _track(self, line: bytes) -> str:
        key = _request_key(line)
        if key is not None:
            self._unanswered.add(key)
        return line.decode("utf-8", "replace")

    def _next_line(self) -> bytes | None:
        return self._lines.get()

    def forward(self, text: str) -> None:
        """Write what the SDK sends, except its answer to the replayed `initialize`."""
        if self._unanswered:
            message = json.loads(text)
            if "method" not in message and "id" in message:
                self._unanswered.discard(json.dumps(message["id"]))
            if self._drop_replayed_answer and message.get("id") == REPLAY_ID:
                self._drop_replayed_answer = False
                return
        self._write(text.encode("utf-8"))

    # --- shutdown ------------------------------------------------------------------------

    def _on_signal(self, signum: int, frame: object) -> None:
        self.activity.wait_idle(GRACE)
        self.exit()

    def exit(self, status: int = 0) -> None:
        """End the process now: streams flushed, no interpreter teardown (no traceback)."""
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(status)


class SdkStdout:
    """The `stdout` the SDK's stdio transport writes to: forwarded through the wire."""

    def __init__(self, wire: Wire) -> None:
        self._wire = wire

    async def write(self, text: str) -> None:
        """Forward one line."""
        self._wire.forward(text)

    async def flush(self) -> None:
        """Writes are unbuffered."""


def _request_key(line: bytes) -> str | None:
    """The JSON-encoded id of a request line (None for notifications and responses)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if isinstance(message, dict) and "method" in message and "id" in message:
        return json.dumps(message["id"])
    return None


_TOP_LEVEL_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"|[\[\]{}:,]')
_ID_VALUE = re.compile(rb'\s*(-?[0-9]{1,20}|"(?:[^"\\]|\\.){0,256}"|null)\s*[,}]')
_SCANNED_TOKENS = 10_000


def top_level_id(line: bytes) -> Any:
    """The `id` of a JSON-RPC line that is not parsed, found by a bounded scan of its first
    tokens at the top level of the object (clients write the id before the params); None
    when not found."""
    depth = 0
    previous = b""
    for number, token in enumerate(_TOP_LEVEL_TOKEN.finditer(line)):
        text = token.group()
        if number >= _SCANNED_TOKENS:
            break
        if text in (b"[", b"{"):
            depth += 1
        elif text in (b"]", b"}"):
            depth -= 1
        elif text == b":" and depth == 1 and previous == b'"id"':
            value = _ID_VALUE.match(line, token.end())
            return None if value is None else json.loads(value.group(1))
        previous = text
    return None


def _take_fd(fd: int, flags: int) -> int:
    """A private duplicate of `fd`; `fd` itself then points at /dev/null or stderr."""
    private = os.dup(fd)
    os.set_inheritable(private, False)
    replacement = os.open(os.devnull, flags) if fd == 0 else os.dup(2)
    os.dup2(replacement, fd)
    os.close(replacement)
    return private
