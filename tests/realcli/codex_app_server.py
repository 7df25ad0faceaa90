"""A minimal client of `codex app-server`, the JSON-RPC interface Codex's interactive front
ends (the IDE extension, the desktop app) drive Codex through.

Unlike `codex exec`, which declines every MCP form, an app-server client is asked to answer
`mcpServer/elicitation/request`: this client answers as the human would and records what the
form showed.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.waiting import HANG_CEILING

Answer = Callable[[dict[str, Any]], dict[str, Any]]


class AppServer:
    """`codex app-server` over stdio: requests out, server requests answered, events kept."""

    def __init__(self, cwd: Path, env: dict[str, str], answer: Answer) -> None:
        self._process = subprocess.Popen(
            ["codex", "app-server"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._answer = answer
        self._next_id = 0
        self._responses: dict[int, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self.server_requests: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def request(self, method: str, params: dict[str, Any], timeout: float = 30) -> Any:
        """Send a request and wait for its result (raises on a JSON-RPC error)."""
        self._next_id += 1
        number = self._next_id
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        with self._changed:
            if not self._changed.wait_for(lambda: number in self._responses, timeout):
                raise TimeoutError(f"{method}: no answer in {timeout} s")
            response = self._responses.pop(number)
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def wait_for(self, method: str, timeout: float) -> dict[str, Any]:
        """The first notification named `method` (waiting at most `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for note in self.notifications:
                    if note.get("method") == method:
                        return note
                left = deadline - time.monotonic()
                if left <= 0 or self._process.poll() is not None:
                    seen = [n.get("method") for n in self.notifications]
                    raise TimeoutError(f"no {method}; saw {seen}")
                self._changed.wait(min(left, 0.5))

    def close(self) -> str:
        """End the server; returns its stderr."""
        assert self._process.stdin is not None
        self._process.stdin.close()
        try:
            self._process.wait(HANG_CEILING)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        assert self._process.stderr is not None
        return self._process.stderr.read()

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            message = json.loads(line)
            if "method" in message and "id" in message:
                self.server_requests.append(message)
                result = self._answer(message)
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
                continue
            with self._changed:
                if "id" in message:
                    self._responses[message["id"]] = message
                else:
                    self.notifications.append(message)
                self._changed.notify_all()
