"""The bounded JSON loader: the caps hold before the parser recurses, and every document
within them parses exactly as the standard library parses it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from git_memory.formats import bounded_json
from git_memory.formats.bounded_json import JsonRefused, loads, nesting_exceeds
from tests.waiting import no_hang

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)  # fmt: skip


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@given(JSON_VALUES, st.integers(min_value=1, max_value=8))
def test_depth_is_measured_exactly_and_accepted_documents_parse_as_the_stdlib(
    value: Any, limit: int
) -> None:
    text = json.dumps(value)
    assert nesting_exceeds(text, limit) == (_depth(value) > limit)
    assert nesting_exceeds(text.encode(), limit) == (_depth(value) > limit)
    if _depth(value) <= limit:
        assert loads(text, max_depth=limit) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        "[" * 100_000,
        '{"a":' * 5_000 + "1" + "}" * 5_000,
        "[1," * 1_000_000,
        "[" + "[{" * 40 + "}]" * 40 + "]",
    ],
    ids=["deep", "unclosed", "deep-objects", "unclosed-lists", "mixed"],
)
def test_deep_documents_are_refused_before_the_parser_sees_them(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def parser_reached(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the recursive parser was handed the document")

    monkeypatch.setattr(bounded_json.json, "loads", parser_reached)
    with no_hang("refusing a deep document"), pytest.raises(JsonRefused, match="nested deeper"):
        loads(text)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"a": "[" * 1000, "b": ['\\"[[[', '"{{{']})
    assert loads(text) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    ["1" * 100_000, "[1." + "0" * 100_000 + "]", "[1e999]", "[NaN]", "[-Infinity]"],
    ids=["long-int", "long-float", "huge-float", "nan", "infinity"],
)
def test_huge_and_non_finite_numbers_are_refused(text: str) -> None:
    with pytest.raises(JsonRefused):
        loads(text)


def test_size_cap_and_plain_syntax_errors() -> None:
    with pytest.raises(JsonRefused, match="bytes"):
        loads("[" + "1," * 100 + "1]", max_bytes=100)
    with pytest.raises(json.JSONDecodeError):
        loads("[1, 2}")


def test_index_json_and_transcript_lines_nested_100000_deep_are_refused_before_parsing() -> None:
    from git_memory.errors import FormatError
    from git_memory.formats.index_json import parse_index
    from git_memory.sessions import strict_json

    deep = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(FormatError, match="nested deeper"):
        parse_index(deep)
    was = strict_json.fast_path(False)
    try:
        with pytest.raises(strict_json.LineRejected) as refused:
            strict_json.decode_line(deep)
    finally:
        strict_json.fast_path(was)
    assert refused.value.code == "too-deep-json-record"
