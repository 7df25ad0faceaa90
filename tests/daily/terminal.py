"""Drive `git memory` through a real pseudo-terminal, as a person at a keyboard would."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT_ROOT
from tests.waiting import MIN_WAIT, Deadline

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """One command on a pty: read what it shows, type answers."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "COLUMNS": "120", "TERM": "dumb"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "git_memory", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.screen = ""
        self._seen = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the command ended and closed the terminal
            return False
        if not chunk:
            return False
        self.screen += ANSI.sub("", chunk.decode("utf-8", "replace").replace("\r\n", "\n"))
        return True

    def expect(self, pattern: str) -> re.Match[str]:
        """Wait until `pattern` appears after what was already matched."""
        deadline = Deadline()
        compiled = re.compile(pattern)
        while True:
            found = compiled.search(self.screen, self._seen)
            if found:
                self._seen = found.end()
                return found
            if deadline.passed() or (
                not self._read(0.2) and self.process.poll() is not None and not self._read(0.2)
            ):
                raise AssertionError(f"never saw {pattern!r}; the screen:\n{self.screen}")

    def next_prompt(self, patterns: list[str]) -> str:
        """Wait for whichever of `patterns` shows first; returns that pattern."""
        deadline = Deadline()
        while True:
            hits = [
                (found.start(), found.end(), pattern)
                for pattern in patterns
                if (found := re.compile(pattern).search(self.screen, self._seen))
            ]
            if hits:
                _start, end, pattern = min(hits)
                self._seen = end
                return pattern
            if deadline.passed() or (
                not self._read(0.2) and self.process.poll() is not None and not self._read(0.2)
            ):
                raise AssertionError(f"never saw any of {patterns}; the screen:\n{self.screen}")

    def type(self, text: str) -> None:
        """Type `text` and Enter."""
        os.write(self.master, (text + "\r").encode())

    def finish(self) -> int:
        """Read to the end; the exit status."""
        deadline = Deadline()
        while self.process.poll() is None and not deadline.passed():
            self._read(0.2)
        while self._read(0.1):
            pass
        os.close(self.master)
        return self.process.wait(timeout=max(deadline.left(), MIN_WAIT))
