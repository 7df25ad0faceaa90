"""Reading a whole session index into memory at once."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a bulk read builds objects it would scan
    again and again (tens of thousands of calls, none of them garbage yet); the previous
    state is restored, and a collection is left to run when it next comes due."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
