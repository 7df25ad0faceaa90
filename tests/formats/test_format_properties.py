"""Property tests: round trips, and garbage always gives a GM_FORMAT_* error."""

from __future__ import annotations

import re
from datetime import date

from hypothesis import example, given, settings
from hypothesis import strategies as st

from git_memory.errors import FormatError
from git_memory.formats.doctrine import parse_doctrine
from git_memory.formats.entry import (
    CLAIM_SUPPORTS,
    CONFIDENCES,
    ENTRY_TYPES,
    PROVENANCE_STRENGTHS,
    STATUSES,
    Commit,
    Entry,
    Evidence,
    is_calendar_date,
    parse_entry,
    serialize_entry,
)
from git_memory.formats.index_json import parse_index
from git_memory.formats.scene import Scene, parse_scene, serialize_scene
from git_memory.formats.skill_md import parse_skill
from git_memory.lint.engine import lint_text

alnum = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)
slugs = st.lists(alnum, min_size=1, max_size=4).map("-".join)
text_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r")
free_text = st.text(text_chars, max_size=40)
nonempty = st.text(text_chars, min_size=1, max_size=30)
dates = st.dates().map(lambda d: d.isoformat()).filter(lambda s: len(s) == 10)
commits = st.builds(Commit, nonempty, st.text("0123456789abcdef", min_size=40, max_size=40))

entries = st.builds(
    Entry,
    id=slugs,
    type=st.sampled_from(ENTRY_TYPES),
    status=st.sampled_from(STATUSES),
    priority=st.integers(0, 100),
    confidence=st.sampled_from(CONFIDENCES),
    provenance_strength=st.sampled_from(PROVENANCE_STRENGTHS),
    claim_support=st.sampled_from(CLAIM_SUPPORTS),
    limitations=st.lists(nonempty, max_size=3).map(tuple),
    # Named: builds() fills a named tuple's defaulted fields from their types too.
    scope=st.just("repo"),
    scene=st.none() | nonempty,
    occurred=st.lists(dates, max_size=3).map(tuple),
    evidence=st.builds(
        Evidence,
        st.lists(commits, max_size=2).map(tuple),
        st.lists(nonempty, max_size=2).map(tuple),
    ),
    superseded_by=st.none() | slugs,
    body=free_text,
)


@settings(max_examples=200, deadline=None)
@given(entries)
def test_entry_round_trip(entry: Entry) -> None:
    text = serialize_entry(entry)
    assert parse_entry(text) == entry
    assert serialize_entry(parse_entry(text)) == text


scenes = st.builds(
    Scene,
    created=dates,
    updated=dates,
    summary=st.text(text_chars, min_size=1, max_size=40).filter(lambda s: s.strip() != ""),
    heat=st.integers(1, 2**31 - 1),
    body=st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\t "), max_size=200
    ),
)


@settings(max_examples=200, deadline=None)
@given(scenes)
def test_scene_round_trip(scene: Scene) -> None:
    text = serialize_scene(scene)
    assert parse_scene(text) == scene
    assert serialize_scene(parse_scene(text)) == text


def _only_format_errors(parser: object, text: str) -> None:
    code = "GM_FORMAT_none"
    try:
        parser(text)  # type: ignore[operator]
    except FormatError as exc:
        code = exc.code
    assert code.startswith("GM_FORMAT_")


garbage = st.text(max_size=300) | st.builds(
    lambda a, b: "---\n" + a + "\n---\n" + b, st.text(max_size=200), st.text(max_size=20)
)


@settings(max_examples=400, deadline=None)
@given(garbage)
def test_garbage_gives_format_errors_only(text: str) -> None:
    for parser in (parse_entry, parse_scene, parse_skill, parse_doctrine, parse_index):
        _only_format_errors(parser, text)
    for relpath in ("entries/x.md", "scenes/x.md", "skills/x/SKILL.md", "doctrine.md"):
        lint_text(relpath, text)


dialect_lines = st.lists(
    st.builds(
        lambda k, v: f"{k}: {v}",
        st.sampled_from(["id", "type", "priority", "scene", "limitations", "evidence", "x"]),
        st.sampled_from(["[", "{", '"a', "[1,", '{"a": [', "]", "null", "1e5", "#", '["]'])
        | st.text(max_size=10),
    ),
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(dialect_lines)
def test_dialect_garbage_gives_format_errors(lines: list[str]) -> None:
    _only_format_errors(parse_entry, "---\n" + "\n".join(lines) + "\n---\nbody\n")


@given(st.dates())
def test_every_real_day_is_a_calendar_date(day: date) -> None:
    assert is_calendar_date(day.isoformat())


@given(
    st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", fullmatch=True)
    | st.text(alphabet="0123456789-", max_size=12)
)
@example("0000-01-01")
@example("1900-02-29")
@example("2000-02-29")
@example("2024-02-29")
@example("2026-02-29")
@example("2026-04-31")
@example("2026-13-01")
@example("2026-00-10")
@example("2026-01-00")
def test_a_calendar_date_is_what_fromisoformat_accepts_in_the_iso_shape(text: str) -> None:
    try:
        date.fromisoformat(text)
        accepted = re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text) is not None
    except ValueError:
        accepted = False
    assert is_calendar_date(text) is accepted
