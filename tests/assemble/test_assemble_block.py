"""The generated block: rendering and the pure splice rules."""

from __future__ import annotations

import pytest

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, splice_block
from git_memory.assemble.render import NO_DOCTRINE, SceneLine, SkillLine, render_block
from git_memory.errors import GitMemoryError

BLOCK = f"{BEGIN_MARKER}\n\nnew\n\n{END_MARKER}"


def _block(**kwargs: object) -> str:
    base: dict[str, object] = {
        "provider": "claude",
        "memory_root": ".memory",
        "doctrine": None,
        "scenes": [],
        "skills": [],
    }
    base.update(kwargs)
    return render_block(**base)  # type: ignore[arg-type]


def test_empty_memory_renders_the_placeholder_only() -> None:
    assert _block() == f"{BEGIN_MARKER}\n\n## Team memory\n\n{NO_DOCTRINE}\n\n{END_MARKER}"


def test_doctrine_is_trimmed_and_sections_appear_only_when_present() -> None:
    text = _block(
        doctrine="\n\n- Prefer small commits.\n\n",
        skills=[SkillLine("release", "Cut a release.")],
        provider="codex",
    )
    assert "\n\n- Prefer small commits.\n\n" in text
    assert "### Scenes" not in text
    assert "- .codex/skills/release/SKILL.md — Cut a release.\n" in text


def test_scenes_are_ordered_by_heat_then_name_and_capped_at_15() -> None:
    scenes = [SceneLine(f"s{n:02d}", heat=n % 4 + 1, summary=f"sum {n}") for n in range(17)]
    text = _block(scenes=scenes)
    listed = [line for line in text.splitlines() if line.startswith("- .memory/scenes/")]
    assert len(listed) == 15
    expected = sorted(scenes, key=lambda s: (-s.heat, s.name))[:15]
    assert listed == [
        f"- .memory/scenes/{s.name}.md (heat {s.heat}) — {s.summary}" for s in expected
    ]
    assert "- _2 additional scene(s) omitted._" in text


def test_exactly_15_scenes_have_no_omitted_line() -> None:
    text = _block(scenes=[SceneLine(f"s{n}", 1, "x") for n in range(15)])
    assert "omitted" not in text


def test_a_marker_inside_the_doctrine_cannot_break_the_next_splice() -> None:
    block = _block(doctrine=f"rule one\n{END_MARKER}\n{BEGIN_MARKER}")
    first = splice_block(b"intro\n", block)
    again = splice_block(first.data, block)
    assert again.action == "unchanged"
    assert again.data.count(END_MARKER.encode()) == 1


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
