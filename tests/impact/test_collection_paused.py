"""`impact` reads the whole session index with the cyclic collector paused, and leaves the
collector as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from git_memory.bulk import collection_paused


@pytest.fixture
def collector_state() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("collector_state")
def test_paused_inside_and_enabled_again_after() -> None:
    gc.enable()
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_state")
def test_enabled_again_after_an_error() -> None:
    gc.enable()
    with pytest.raises(ValueError, match="boom"), collection_paused():
        raise ValueError("boom")
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_state")
def test_a_collector_paused_before_stays_paused() -> None:
    gc.disable()
    with collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
