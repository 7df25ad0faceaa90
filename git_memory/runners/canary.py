"""The canaries of the conformance probe: listeners that count every connection reaching
them (a TCP port on 127.0.0.1, a unix socket file, an abstract unix socket), and a terminal
of the probe's own that counts the bytes written to it."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from typing import Self


class TcpCanary:
    """A listener on 127.0.0.1:<ephemeral> that accepts, counts and drops connections."""

    def __init__(
        self, family: int = socket.AF_INET, address: tuple[str, int] | str = ("127.0.0.1", 0)
    ) -> None:
        self.token = "NETWORK-CANARY-" + secrets.token_hex(16)
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.bind(address)
        self._socket.listen(16)
        self._socket.settimeout(0.05)
        self.port: int = self._socket.getsockname()[1] if family == socket.AF_INET else 0
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _addr = self._socket.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            with contextlib.suppress(OSError):
                conn.close()

    def close(self) -> None:
        """Stop listening; a connection already queued still counts."""
        self._stop.set()
        self._thread.join(timeout=2)
        self._drain()
        self._socket.close()

    def _drain(self) -> None:
        self._socket.setblocking(False)
        while True:
            try:
                conn, _addr = self._socket.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()


class UnixCanary(TcpCanary):
    """The same on a unix socket: a file `path`, or the abstract name `@<abstract>` when
    `path` is None (abstract sockets belong to the network namespace, not the file system)."""

    def __init__(self, path: str | None = None) -> None:
        self.abstract = "git-memory-canary-" + secrets.token_hex(8)
        super().__init__(socket.AF_UNIX, path if path is not None else "\0" + self.abstract)


class TerminalCanary:
    """A pseudo-terminal of our own (`path`: its `/dev/pts/N`): what the isolation probe
    tries to write escape sequences to, instead of anyone's real terminal; `received()`
    counts the bytes that reached it."""

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        self.path = os.ttyname(self._slave)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        os.close(self._master)
        os.close(self._slave)

    def received(self) -> int:
        """How many bytes were written to the terminal so far."""
        os.set_blocking(self._master, False)
        count = 0
        with contextlib.suppress(OSError):
            while chunk := os.read(self._master, 65536):
                count += len(chunk)
        return count
