"""Properties of the splice: the user's bytes survive, re-running is a no-op."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, splice_block

# Arbitrary bytes, minus anything that would read as a marker line.
user_bytes = st.binary(max_size=300).filter(lambda b: b"<!--" not in b)
blocks = st.text(
    alphabet=st.characters(blacklist_characters="<\r", blacklist_categories=("Cs",)), max_size=80
).map(lambda body: f"{BEGIN_MARKER}\n{body}\n{END_MARKER}")


@settings(max_examples=200, deadline=None)
@given(user_bytes, user_bytes, blocks, blocks)
def test_splice_keeps_user_bytes_and_is_idempotent(
    head: bytes, tail: bytes, first: str, second: str
) -> None:
    appended = splice_block(head, first).data
    assert appended.startswith(head)
    assert splice_block(appended, first).action == "unchanged"
    document = appended + tail
    gap = appended[len(head) : len(appended) - len(first.encode()) - 1]
    assert gap in (b"", b"\n", b"\n\n")
    replaced = splice_block(document, second).data
    assert replaced == head + gap + second.encode() + b"\n" + tail
    assert splice_block(replaced, first).data == document
