"""The network side of the sandbox init: loopback, the egress forwarder, watched ports.

Standard library only (`sandbox_init.py` imports it). Inside the runner's network
namespace, loopback is brought up; `127.0.0.1:<port>` forwards to the host's egress socket
(the runner's proxy); each watched port is a listener that counts the connections the
runner makes to it (contained: the namespace has no route to the host).
"""

from __future__ import annotations

import fcntl
import socket
import struct
import threading

from git_memory.runners.splice import splice

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def loopback_up() -> None:
    """Bring the namespace's loopback interface up."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(probe, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))


def _forward(client: socket.socket, egress: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(egress)
    except OSError:
        client.close()
        upstream.close()
        return
    splice(client, upstream)
    client.close()
    upstream.close()


def _listen(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    return listener


class Watch:
    """Loopback listeners on the ports of the host's canaries: each connection the runner
    makes to one is an attempt to connect out, counted here and contained (the namespace
    has no route to the host). With `egress`, also the proxy forwarder's listener.

    The sockets listen from the start; their threads start only after the runner is forked
    (`serve`), so that the fork happens in a single-threaded process."""

    def __init__(self, ports: list[int], egress: str | None) -> None:
        self.counts = dict.fromkeys(ports, 0)
        self.lock = threading.Lock()
        self.listeners = [(_listen(port), port) for port in ports]
        self.egress = egress
        self.forwarder = _listen(0) if egress else None
        self.proxy_port: int = self.forwarder.getsockname()[1] if self.forwarder else 0

    def serve(self) -> None:
        """Start accepting (after the fork)."""
        for listener, port in self.listeners:
            threading.Thread(target=self._count, args=(listener, port), daemon=True).start()
        if self.forwarder is not None and self.egress:
            threading.Thread(target=self._serve, args=(self.forwarder,), daemon=True).start()

    def _serve(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _address = listener.accept()
            except OSError:
                return
            threading.Thread(target=_forward, args=(client, self.egress), daemon=True).start()

    def _count(self, listener: socket.socket, port: int) -> None:
        while True:
            try:
                client, _address = listener.accept()
            except OSError:
                return
            with self.lock:
                self.counts[port] += 1
            client.close()
