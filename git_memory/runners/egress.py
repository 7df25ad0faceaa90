"""The runner's one way to the network: a CONNECT-only proxy to its model endpoint.

It listens on a unix socket that the sandbox init forwards into the runner's network
namespace (as `127.0.0.1:<port>`, named in the runner's proxy variables), opens tunnels to
the profile's endpoint only, and refuses anything else — another host, a loopback port of
the host, plain HTTP — noting what was asked for, so that conformance can name the attempt.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

from git_memory.runners.profiles import ResolvedProfile
from git_memory.runners.splice import splice

MAX_REQUEST_HEAD = 8192
MAX_NOTED = 50
# A profile whose endpoint is a label rather than a URL: where its model lives.
ENDPOINTS = {"claude": ("api.anthropic.com", 443)}


def network_endpoint(profile: ResolvedProfile) -> tuple[str, int] | None:
    """The (host, port) the runner's model lives at; None when it is not on the network
    (a command runner's `local`)."""
    if profile.name in ENDPOINTS:
        return ENDPOINTS[profile.name]
    parts = urlsplit(profile.endpoint)
    if parts.scheme != "https" or not parts.hostname:
        return None
    return parts.hostname.lower(), parts.port or 443


class EgressProxy:
    """A CONNECT-only proxy on a unix socket that tunnels to one endpoint and refuses the rest.

    `refused` counts requests for anything else (another host, a loopback port, plain HTTP);
    `refused_targets` names the first few (`host:port`, or the request line's method)."""

    def __init__(self, path: Path, endpoint: tuple[str, int]) -> None:
        self.path = path
        self.endpoint = endpoint
        self.refused = 0
        self.refused_targets: list[str] = []
        self._lock = threading.Lock()
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(path))
        os.chmod(path, 0o600)
        self._listener.listen(16)
        self._listener.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> EgressProxy:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _address = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _refuse(self, client: socket.socket, asked: str) -> None:
        with self._lock:
            self.refused += 1
            if len(self.refused_targets) < MAX_NOTED:
                self.refused_targets.append(asked)
        with contextlib.suppress(OSError):
            client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")

    def _tunnel(self, client: socket.socket) -> None:
        with client:
            target, asked = self._requested(client)
            if target != self.endpoint:
                self._refuse(client, asked)
                return
            try:
                upstream = socket.create_connection(target, timeout=30)
            except OSError:
                with contextlib.suppress(OSError):
                    client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with upstream:
                upstream.settimeout(None)
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                splice(client, upstream)

    @staticmethod
    def _requested(client: socket.socket) -> tuple[tuple[str, int] | None, str]:
        """(host, port) of a CONNECT request, and what was asked for, as words."""
        client.settimeout(30)
        head = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in head and len(head) < MAX_REQUEST_HEAD:
                chunk = client.recv(4096)
                if not chunk:
                    break
                head += chunk
        line = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        asked = " ".join(line[:2])[:200] or "an empty request"
        if len(line) != 3 or line[0] != "CONNECT":
            return None, asked
        host, _, port = line[1].rpartition(":")
        if not port.isdigit():
            return None, asked
        return (host.strip("[]").lower(), int(port)), asked
