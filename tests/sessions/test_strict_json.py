"""The fast line decoder (jiter) gives exactly the stdlib decoder's values and diagnostics."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.sessions import strict_json
from git_memory.sessions.ingest import parse
from git_memory.sessions.providers import claude_code as claude
from git_memory.sessions.strict_json import LineRejected, decode_line


@pytest.fixture
def stdlib_only() -> Iterator[None]:
    was = strict_json.fast_path(False)
    yield
    strict_json.fast_path(was)


def _outcome(raw: bytes, fast: bool) -> tuple[str, str]:
    was = strict_json.fast_path(fast)
    try:
        return ("ok", repr(decode_line(raw)))
    except LineRejected as exc:
        return (exc.code, exc.message)
    finally:
        strict_json.fast_path(was)


def _same(raw: bytes) -> tuple[str, str]:
    fast, exact = _outcome(raw, True), _outcome(raw, False)
    assert fast == exact, raw[:200]
    return fast


def test_the_fast_path_is_on_by_default() -> None:
    assert strict_json.fast_path(True) is True


KEYS = st.sampled_from(["a", "b", "type", "k:v", "é", "\ud800", ""])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Arrays and objects of `inner`; objects are lists of pairs, so keys may repeat."""
    arrays = st.lists(inner, max_size=4).map(lambda items: ("arr", items))
    objects = st.lists(st.tuples(KEYS, inner), max_size=4).map(lambda pairs: ("obj", pairs))
    return arrays | objects


NODES = st.recursive(SCALARS, _containers, max_leaves=24)


def _encode(node: Any, ascii_only: bool, spaced: bool) -> str:
    comma, colon = (", ", ": ") if spaced else (",", ":")
    if isinstance(node, tuple) and node[0] == "arr":
        return "[" + comma.join(_encode(item, ascii_only, spaced) for item in node[1]) + "]"
    if isinstance(node, tuple) and node[0] == "obj":
        members = (
            json.dumps(key, ensure_ascii=ascii_only) + colon + _encode(value, ascii_only, spaced)
            for key, value in node[1]
        )
        return "{" + comma.join(members) + "}"
    return json.dumps(node, ensure_ascii=ascii_only)


@settings(max_examples=250, deadline=None)
@given(
    pairs=st.lists(st.tuples(KEYS, NODES), max_size=5),
    ascii_only=st.booleans(),
    spaced=st.booleans(),
)
def test_generated_lines_decode_alike(
    pairs: list[tuple[str, Any]], ascii_only: bool, spaced: bool
) -> None:
    text = _encode(("obj", pairs), ascii_only, spaced)
    _same(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=250, deadline=None)
@given(
    pairs=st.lists(st.tuples(KEYS, NODES), min_size=1, max_size=4),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.binary(max_size=2)), max_size=3),
)
def test_damaged_lines_are_judged_alike(
    pairs: list[tuple[str, Any]], edits: list[tuple[int, bytes]]
) -> None:
    raw = bytearray(_encode(("obj", pairs), False, False).encode("utf-8", "surrogatepass"))
    for position, replacement in edits:
        at = position % (len(raw) + 1)
        raw[at : at + 1] = replacement
    _same(bytes(raw))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"a":1,"a":2}', "duplicate-key"),
        (b'{"x":[{"b":1},{"c":{"d":1,"d":1}}]}', "duplicate-key"),
        (b'{"a":NaN,"b":-Infinity}', "ok"),
        (b'{"a":"\\ud800"}', "ok"),  # a lone surrogate escape: jiter refuses, stdlib accepts
        (b'{"a":"\xed\xa0\x80"}', "ok"),  # an encoded surrogate, likewise
        (b"\xef\xbb\xbf{}", "ok"),  # a byte-order mark, likewise
        (b'{"a":123456789012345678901234567890}', "ok"),
        (b'{"a":' + b"1" * 5000 + b"}", "invalid-json-record"),
        (b"[1,2]", "invalid-json-record"),
        (b'{"a":"\x01"}', "invalid-json-record"),
        (b'{"a":1,}', "invalid-json-record"),
        (b'{"a":"\xff"}', "invalid-json-record"),
        (b'{"a":' * 65 + b"1" + b"}" * 65, "too-deep-json-record"),  # jiter parses, too deep
        (b'{"a":' * 64 + b"1" + b"}" * 64, "ok"),
        (b'{"a":' + b"[" * 300 + b"]" * 300 + b"}", "too-deep-json-record"),  # beyond jiter's limit
        (b'{"a":1,"a":' + b"[" * 80 + b"]" * 80 + b"}", "duplicate-key"),  # first, as before
    ],
)
def test_edge_cases_match_the_stdlib(raw: bytes, code: str) -> None:
    assert _same(raw)[0] == code


def test_oversized_is_rejected_before_parsing() -> None:
    raw = b'{"x":"' + b"a" * strict_json.MAX_RECORD_BYTES + b'"}'
    assert _same(raw)[0] == "oversized-json-record"


def test_malformed_line_diagnostics_without_the_fast_path(stdlib_only: None) -> None:
    deep = b'{"a":' * 70 + b"1" + b"}" * 70
    data = b"not json\n" + b'{"a":1,"a":2}\n' + deep + b'\n{"type":"user"}\n'
    _events, diagnostics, _ = parse("claude-code", data, 7, claude.new_state())
    second = 7 + len(b"not json\n")
    third = second + len(b'{"a":1,"a":2}\n')
    assert [(d.code, d.offset) for d in diagnostics] == [
        ("invalid-json-record", 7),
        ("duplicate-key", second),
        ("too-deep-json-record", third),
    ]
