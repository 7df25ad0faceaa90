"""Two connected sockets joined: what one sends the other receives, both ways.

Standard library only: the egress proxy's tunnel (host side) and the sandbox init's
forwarder to it (inside the runner's network namespace) both use it.
"""

from __future__ import annotations

import contextlib
import socket
import threading


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def splice(one: socket.socket, other: socket.socket) -> None:
    """Copy both ways until each side is done."""
    back = threading.Thread(target=_pump, args=(other, one), daemon=True)
    back.start()
    _pump(one, other)
    back.join()
