"""The localhost TCP canary of the conformance probe: counts every connection attempt."""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading


class TcpCanary:
    """A listener on 127.0.0.1:<ephemeral> that accepts, counts and drops connections."""

    def __init__(self) -> None:
        self.token = "NETWORK-CANARY-" + secrets.token_hex(16)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.settimeout(0.05)
        self.port: int = self._socket.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> TcpCanary:
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
