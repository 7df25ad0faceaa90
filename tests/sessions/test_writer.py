"""Shortcuts of the index writer give exactly what the general code would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.contracts.base import format_timestamp
from git_memory.contracts.canonical import CanonicalJsonError, digest
from git_memory.sessions.turns import turn_key
from git_memory.sessions.writer import canonical_time


@settings(max_examples=200, deadline=None)
@given(
    session=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64) | st.text(max_size=70),
    offset=st.integers(min_value=-5, max_value=2**60),
)
def test_turn_key_is_the_canonical_digest(session: str, offset: int) -> None:
    try:
        expected = digest([session, offset])
    except CanonicalJsonError:
        with pytest.raises(CanonicalJsonError):
            turn_key(session, offset)
        return
    assert turn_key(session, offset) == expected


def _reference(value: str) -> str | None:
    try:
        return format_timestamp(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return None


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 30)),
    offset_minutes=st.integers(min_value=-600, max_value=600),
    style=st.sampled_from(["canonical", "micro", "offset", "seconds"]),
)
def test_canonical_time_matches_the_general_formatting(
    moment: datetime, offset_minutes: int, style: str
) -> None:
    zone = timezone(timedelta(minutes=offset_minutes))
    if style == "canonical":
        text = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    elif style == "micro":
        text = moment.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z")
    elif style == "offset":
        text = moment.replace(tzinfo=zone).isoformat()
    else:
        text = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert canonical_time(text) == _reference(text)


@pytest.mark.parametrize(
    "text",
    ["2026-02-30T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "0999-01-01T00:00:00.000Z", "x"],
)
def test_canonical_time_odd_values(text: str) -> None:
    assert canonical_time(text) == _reference(text)
