"""The generated block: the pure splice rules."""

from __future__ import annotations

import pytest

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, splice_block
from git_memory.errors import GitMemoryError

BLOCK = f"{BEGIN_MARKER}\n\nnew\n\n{END_MARKER}"


@pytest.mark.parametrize(
    ("existing", "gap"),
    [(b"", b""), (b"text\n\n", b""), (b"text\n", b"\n"), (b"text", b"\n\n")],
)
def test_append_leaves_one_blank_line(existing: bytes, gap: bytes) -> None:
    result = splice_block(existing, BLOCK)
    assert result.action == "appended"
    assert result.data == existing + gap + BLOCK.encode() + b"\n"


def test_absent_file_gets_the_block_and_a_newline() -> None:
    assert splice_block(None, BLOCK).data == BLOCK.encode() + b"\n"


def test_replace_keeps_every_byte_outside_the_markers() -> None:
    before = b"# Title\r\n\r\nmine\xff\n" + f"{BEGIN_MARKER}\nold\n{END_MARKER}".encode()
    after = b"\ntail \xfe text\n"
    result = splice_block(before + after, BLOCK)
    assert result.action == "replaced"
    assert result.data == b"# Title\r\n\r\nmine\xff\n" + BLOCK.encode() + after


def test_same_block_is_unchanged() -> None:
    data = splice_block(b"hello\n", BLOCK).data
    assert splice_block(data, BLOCK) == type(splice_block(data, BLOCK))(data, "unchanged")


def test_original_tool_markers_are_taken_over() -> None:
    legacy = (
        b"intro\n\n<!-- BEGIN THREADSHARE MEMORY (generated; do not edit by hand) -->\n"
        b"old\n<!-- END THREADSHARE MEMORY -->\n"
    )
    result = splice_block(legacy, BLOCK)
    assert result.data == b"intro\n\n" + BLOCK.encode() + b"\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (f"a\n{BEGIN_MARKER}\nb\n", "the END marker is missing"),
        (f"a\n{END_MARKER}\n", "the BEGIN marker is missing"),
        (f"{BEGIN_MARKER}\n{BEGIN_MARKER}\n{END_MARKER}\n", "a marker is duplicated"),
        (f"{BEGIN_MARKER}\n{END_MARKER}\n{END_MARKER}\n", "a marker is duplicated"),
        (f"{END_MARKER}\nx\n{BEGIN_MARKER}\n", "the END marker comes before the BEGIN marker"),
    ],
)
def test_untrustworthy_markers_are_refused(text: str, problem: str) -> None:
    with pytest.raises(GitMemoryError) as caught:
        splice_block(text.encode(), BLOCK)
    assert caught.value.code == "GM_ASSEMBLY_MARKERS"
    assert caught.value.details["problem"] == problem


def test_marker_mentioned_inside_a_line_is_not_a_marker() -> None:
    text = f"Do not edit {BEGIN_MARKER} by hand\n".encode()
    assert splice_block(text, BLOCK).action == "appended"
