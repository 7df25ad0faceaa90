"""Line iteration: checkpoint probes and offsets match the bytes of the file."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.sessions.lines import ProbedLines, parse_lines
from git_memory.sessions.providers import claude_code as claude

LINES = st.lists(
    st.sampled_from([b'{"type":"user"}', b"", b"  ", b"x" * 5000, b'{"a":1}\r', b"[" * 3]),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(
    lines=LINES,
    tail=st.binary(max_size=30).filter(lambda b: b"\n" not in b),
    probe=st.integers(1, 6000),
)
def test_probes_are_the_first_and_last_bytes_of_the_complete_lines(
    lines: list[bytes], tail: bytes, probe: int
) -> None:
    data = b"".join(line + b"\n" for line in lines) + tail
    probed = ProbedLines(io.BytesIO(data), probe)
    _, _, complete = parse_lines("claude-code", probed, 0, claude.new_state())
    assert complete == len(data) - len(tail)
    assert probed.head == data[: min(probe, complete)]
    assert probed.boundary() == data[max(0, complete - probe) : complete]


def test_file_lines_give_the_offsets_of_the_bytes(tmp_path: Path) -> None:
    good = b'{"type":"user","message":{"role":"user","content":"hi"},"cwd":"/w"}'
    data = b"junk\r\n" + good + b"\r\n\r\n" + good + b"\n" + b'{"partial'
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    with open(path, "rb", buffering=16) as handle:
        handle.seek(3)
        events, diagnostics, complete = parse_lines("claude-code", handle, 3, claude.new_state())
    second = data.index(good)
    third = data.index(good, second + 1)
    assert [(d.code, d.offset) for d in diagnostics] == [("invalid-json-record", 3)]
    assert [e.offset for e in events] == [second, third]
    assert complete == len(data) - len(b'{"partial')
