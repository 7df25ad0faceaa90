"""A resumed session's replayed turns belong to the session they happened in, whichever of
the two sessions' keys sorts first."""

from __future__ import annotations

import dataclasses

from git_memory.extract.select import SessionSelection
from git_memory.extract.tasks import replayed_turns
from tests.extract.records import turn_record

ASKS = ("Run the test suite and tell me what fails", "Fix the import")


def _session(key: str, asks: tuple[str, ...], hour: int = 9) -> SessionSelection:
    records = tuple(
        dataclasses.replace(
            turn_record(f"{key}-{n}", user=ask, session=key),
            ordinal=n,
            started=f"2026-11-20T{hour:02d}:0{n}:00.000Z",
        )
        for n, ask in enumerate(asks)
    )
    return SessionSelection(session_key=key, provider="claude-code", records=records)


def test_the_resumed_session_keeps_only_its_new_turns_whichever_key_sorts_first() -> None:
    for original_key, resumed_key in (("a" * 64, "f" * 64), ("f" * 64, "a" * 64)):
        original = _session(original_key, ASKS)
        resumed = _session(resumed_key, (*ASKS, "Add a changelog line"))
        skipped = replayed_turns([resumed, original])
        assert skipped[original_key] == frozenset()
        assert skipped[resumed_key] == frozenset({0, 1})


def test_a_later_session_repeating_a_turn_word_for_word_skips_it() -> None:
    first = _session("f" * 64, ASKS[:1])
    later = _session("a" * 64, ("Check the lint", ASKS[0]), hour=10)
    assert replayed_turns([later, first]) == {"f" * 64: frozenset(), "a" * 64: frozenset({1})}
