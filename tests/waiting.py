"""Waiting in tests: for the event itself, with one generous ceiling that only catches a hang.

No test asserts a speed (`tests/test_no_timing_assertions.py` keeps it so). A test that waits
for a process to start or end, a file to appear or a server to answer polls for that event and
gives up only after `HANG_CEILING` seconds, far beyond what any run takes on a busy machine, so
the outcome depends on the code and not on the machine's load. How fast something is belongs
to the benchmarks in `tests/perf/`, which print their figures.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

# Seconds after which a wait is a hang. Nothing in the suite takes a tenth of it, even with a
# second copy of the suite running on the same two cores.
HANG_CEILING = 300.0
# The shortest literal timeout a test may hand to something it waits on (a subprocess, a
# thread, a queue): shorter ones fail on a busy machine without any fault in the code.
MIN_WAIT = 60.0

T = TypeVar("T")


class Hung(AssertionError):
    """What a test waited for did not happen before the hang ceiling."""


class Deadline:
    """The moment a wait that started now becomes a hang."""

    def __init__(self) -> None:
        self._end = time.monotonic() + HANG_CEILING

    def passed(self) -> bool:
        """Whether the hang ceiling is reached."""
        return time.monotonic() >= self._end

    def left(self) -> float:
        """Seconds until the hang ceiling (never negative)."""
        return max(self._end - time.monotonic(), 0.0)


def wait_until(predicate: Callable[[], T], what: str, interval: float = 0.05) -> T:
    """Poll `predicate` until it returns something true, and return that; `Hung` at the
    ceiling, naming `what` was awaited."""
    deadline = Deadline()
    while True:
        found = predicate()
        if found:
            return found
        if deadline.passed():
            raise Hung(f"{what}: still not so after {HANG_CEILING:.0f} s")
        time.sleep(interval)


@contextmanager
def no_hang(what: str) -> Iterator[None]:
    """Run the block in this (main) thread; `Hung` if it is still running at the ceiling."""

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise Hung(f"{what}: still running after {HANG_CEILING:.0f} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, HANG_CEILING)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
