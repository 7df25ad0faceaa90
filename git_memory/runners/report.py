"""How the sandbox init's report reaches us: a unix socket in a short private directory."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_REPORT = 262144


@contextlib.contextmanager
def private_dir() -> Iterator[Path]:
    """A short private directory (a unix socket path is limited to ~107 bytes), removed
    afterwards."""
    short = Path(
        tempfile.mkdtemp(prefix="gm-sandbox-", dir="/tmp" if Path("/tmp").is_dir() else None)
    )
    try:
        yield short
    finally:
        shutil.rmtree(short, ignore_errors=True)


class ReportSocket:
    """Where the sandbox init sends its report once the runner is gone: a unix socket in
    our private directory, reached from inside through a directory handle the init holds
    (the runner cannot reach it: it is not in the runner's view, and unix sockets are
    refused to it)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "report.sock"
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(self.path))
        os.chmod(self.path, 0o600)
        self._listener.listen(1)

    def read(self) -> dict[str, Any] | None:
        """`{"layers": {...}, "contained": {...}, "attempts": [...]}` as the init sent it,
        or None."""
        self._listener.setblocking(False)
        try:
            connection, _address = self._listener.accept()
        except OSError:
            return None
        data = b""
        with connection:
            connection.settimeout(2)
            with contextlib.suppress(OSError):
                while len(data) < MAX_REPORT and (chunk := connection.recv(65536)):
                    data += chunk
        try:
            found = json.loads(data)
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def close(self) -> None:
        """Stop listening."""
        self._listener.close()
