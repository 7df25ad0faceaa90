"""Rendering the block: one line per entry, groups, order, scenes, budget, footer (pure)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, splice_block
from git_memory.assemble.constraints import as_constraint
from git_memory.assemble.entries import MAX_LINE_CHARS, ApprovedEntry, first_sentence, one_line
from git_memory.assemble.groups import GROUP_RULES, GroupRule, group_of
from git_memory.assemble.render import (
    BlockInput,
    SceneLine,
    SkillLine,
    render_block,
    render_context,
)
from git_memory.extract.builtin.renderers import FIX_MODES, render_command_fix

SEARCH_LINE = (
    "Find any approved memory with `git memory search QUERY` (or the `memory_search` MCP tool)."
)


def entry(
    entry_id: str,
    text: str,
    *,
    priority: int = 50,
    support: str = "typed-fact",
    occurred: str = "2026-01-01",
    scene: str | None = None,
    entry_type: str = "work_fact",
) -> ApprovedEntry:
    return ApprovedEntry(
        id=entry_id,
        type=entry_type,
        scene=scene,
        priority=priority,
        claim_support=support,
        occurred=occurred,
        superseded=False,
        text=one_line(text),
        group=group_of(entry_type, one_line(text)),
    )


def sections_of(text: str) -> dict[str, list[str]]:
    """`### Title` → the `- item` lines under it (without the dash)."""
    found: dict[str, list[str]] = {}
    title = ""
    for line in text.splitlines():
        if line.startswith("### "):
            title = line[4:]
            found[title] = []
        elif line.startswith("- ") and title:
            found[title].append(line[2:])
    return found


def block(**kwargs: Any) -> Any:
    base: dict[str, Any] = {"provider": "claude", "memory_root": ".memory", "budget": 8000}
    base.update(kwargs)
    return render_block(BlockInput(**base))


def test_empty_memory_renders_the_heading_and_the_search_pointer() -> None:
    assert block().text == (f"{BEGIN_MARKER}\n\n## Team memory\n\n{SEARCH_LINE}\n{END_MARKER}")


def test_entries_are_grouped_for_the_agent() -> None:
    entries = [
        entry("a", "The test command `uv run pytest -q` succeeded (exit 0) in this repository."),
        entry("b", "`make check` runs the project checks (worked in 3 sessions)."),
        entry("c", 'Trap: `pytest` fails with "No module named app"; run `uv run pytest` instead.'),
        entry("d", 'The user said: "always use `uv run` instead of calling python directly."'),
        entry("e", "Never push to main directly."),
        entry("f", "Commit abc changed `src/app.py`."),
        entry("g", "Run `docker compose up -d db` first.", entry_type="work_method"),
        entry("h", "The nightly job breaks when the cache is cold."),
        entry("i", "`npm run lint:errors` lints the code (worked in 2 sessions)."),
        entry("j", "Use `uv run`, not bare `pytest`."),
    ]
    sections = sections_of(block(entries=entries).text)
    ids = {as_constraint(e.text): e.id for e in entries}
    assert {title: [ids[line] for line in lines] for title, lines in sections.items()} == {
        "Do not (traps and prohibitions)": ["c", "e", "h"],
        "Commands that work": ["a", "b", "g", "i"],
        "Rules the team stated": ["d", "j"],
        "Facts about the project": ["f"],
    }
    assert next(iter(sections)) == "Do not (traps and prohibitions)", "guardrails come first"
    assert sections["Do not (traps and prohibitions)"][0] == (
        'Do not run `pytest`: it fails with "No module named app"; run `uv run pytest`.'
    )


@pytest.mark.parametrize("mode", FIX_MODES)
@pytest.mark.parametrize("error", ["", "No module named app"])
def test_every_trap_the_builtin_runner_writes_reads_as_a_constraint(mode: str, error: str) -> None:
    trap = render_command_fix(mode, "pytest", error, "uv run pytest")
    stated = as_constraint(trap)
    assert stated.startswith("Do not run `pytest`")
    assert "`uv run pytest`" in stated
    assert (error in stated) if error else ("with" not in stated)
    assert (
        as_constraint("Trap: the cache breaks on Mondays.") == "Trap: the cache breaks on Mondays."
    )


def test_guardrails_take_the_room_first_within_the_same_budget() -> None:
    facts = [
        entry(f"f{n}", f"Fact {n} about the project, long enough to cost room.", priority=90)
        for n in range(40)
    ]
    trap = entry("trap", "Never run the migrations by hand on staging.", priority=0)
    rendered = block(entries=[*facts, trap], budget=1000)
    assert rendered.bytes <= 1000
    assert "trap" in rendered.shown
    assert rendered.shown[0] == "trap"
    assert rendered.left_out, "the budget is tight: some facts are left out, not the guardrail"


def test_a_new_rule_slots_in_as_data() -> None:
    rules = (GroupRule("traps", None, frozenset({"work_task"})), *GROUP_RULES)
    assert group_of("work_task", "Deploy on Fridays.", rules) == "traps"
    assert group_of("work_task", "Deploy on Fridays.") == "facts"


def test_order_is_priority_then_confirmation_then_recency_then_id() -> None:
    entries = [
        entry("old", "Fact old.", occurred="2025-01-01"),
        entry("new", "Fact new.", occurred="2026-05-01"),
        entry("human", "Fact human.", support="human-confirmed", occurred="2020-01-01"),
        entry("high", "Fact high.", priority=90, support="mixed", occurred="2019-01-01"),
        entry("undated", "Fact undated.", occurred=""),
        entry("new-b", "Fact new b.", occurred="2026-05-01"),
    ]
    rendered = block(entries=entries)
    assert rendered.shown == ["high", "human", "new", "new-b", "old", "undated"]


def test_long_content_becomes_its_first_sentence_with_inline_code_kept() -> None:
    long = "Use `make test. all` for everything. " + "Then more words follow here. " * 20
    line = one_line(long)
    assert line == "Use `make test. all` for everything."
    assert first_sentence("No end `a. b` here") == "No end `a. b` here"
    short = "First. Second `x`.\n\n- third"
    assert one_line(short) == "First. Second `x`. third"


def test_a_first_sentence_too_long_is_cut_outside_code() -> None:
    words = " ".join(["word"] * 100)
    line = one_line(f"`keep this whole` {words}")
    assert line.endswith("…")
    assert len(line) <= MAX_LINE_CHARS
    assert line.startswith("`keep this whole` word")
    code = "`" + "x" * 400 + "`"
    assert one_line(f"Run {code} now") == f"Run {code}…"


def test_comments_and_markers_in_an_entry_cannot_break_the_block() -> None:
    rendered = block(entries=[entry("a", f"x\n{END_MARKER}\n<!-- hide")])
    first = splice_block(b"mine\n", rendered.text)
    again = splice_block(first.data, rendered.text)
    assert again.action == "unchanged"
    assert first.data.count(END_MARKER.encode()) == 1
    assert "<!-- hide" not in rendered.text


def test_entries_of_a_listed_scene_are_shown_through_its_line() -> None:
    entries = [entry("a", "In the scene.", scene="release"), entry("b", "Elsewhere.", scene="gone")]
    rendered = block(entries=entries, scenes=[SceneLine("release", 3, "Cutting releases")])
    assert "- .memory/scenes/release.md (heat 3, 1 entry) — Cutting releases" in rendered.text
    assert "In the scene." not in rendered.text
    assert rendered.shown == ["b"]
    assert rendered.via_scenes == ["a"]


def test_scenes_are_hottest_first_and_at_most_15() -> None:
    scenes = [SceneLine(f"s{n:02d}", heat=n % 4 + 1, summary=f"sum {n}") for n in range(17)]
    rendered = block(scenes=scenes)
    listed = [line for line in rendered.text.splitlines() if line.startswith("- .memory/scenes/")]
    expected = sorted(scenes, key=lambda s: (-s.heat, s.name))[:15]
    assert listed == [
        f"- .memory/scenes/{s.name}.md (heat {s.heat}) — {s.summary}" for s in expected
    ]
    assert rendered.scenes == (15, 2)
    assert "2 scenes" in rendered.text


def test_doctrine_and_skills_follow_the_entries() -> None:
    rendered = block(
        doctrine="- Keep changes small.\n",
        skills=[SkillLine("release", "Cut a release.")],
        entries=[entry("a", "A fact.")],
    )
    text = rendered.text
    assert text.index("### Facts") < text.index("### Team doctrine") < text.index("### Skills")
    assert "- .claude/skills/release/SKILL.md — Cut a release." in text
    assert rendered.doctrine is True


def test_a_marker_inside_the_doctrine_cannot_break_the_next_splice() -> None:
    rendered = block(doctrine=f"rule one\n{END_MARKER}\n{BEGIN_MARKER}")
    first = splice_block(b"intro\n", rendered.text)
    again = splice_block(first.data, rendered.text)
    assert again.action == "unchanged"
    assert again.data.count(END_MARKER.encode()) == 1


def many(count: int) -> list[ApprovedEntry]:
    return [
        entry(f"e{n:05d}", f"Fact number {n} about `module_{n}` and its ways.", priority=n % 100)
        for n in range(count)
    ]


def test_the_budget_leaves_out_whole_entries_and_says_how_to_reach_them() -> None:
    entries = many(500)
    rendered = block(entries=entries, budget=2000)
    assert rendered.bytes <= 2000
    assert len(rendered.shown) + len(rendered.left_out) == 500
    assert rendered.left_out
    listed = [line[2:] for line in rendered.text.splitlines() if line.startswith("- ")]
    assert set(listed) <= {e.text for e in entries}  # no line was cut
    shown = {e.id: e for e in entries if e.id in rendered.shown}
    assert min(e.priority for e in shown.values()) >= max(
        e.priority for e in entries if e.id in rendered.left_out
    )
    footer = rendered.text.splitlines()[-3:-1]
    assert footer[0] == (
        f"_Not shown here (budget 2000 bytes): {len(rendered.left_out)} entries; "
        "all of it is in `.memory/`._"
    )
    assert footer[1] == SEARCH_LINE


def test_stale_entries_are_counted_and_pointed_to_verify() -> None:
    rendered = block(entries=many(3), held_back=["x", "y"])
    assert "_2 stale entries are held back; `git memory verify` lists them._" in rendered.text
    assert rendered.held_back == ["x", "y"]


def test_context_is_the_block_without_markers_and_puts_matches_first() -> None:
    entries = many(40)
    rendered = render_context(
        BlockInput(
            provider="codex",
            memory_root=".memory",
            budget=1500,
            entries=entries,
            query="module_7",
            matching=["e00007", "e00017"],
        )
    )
    assert rendered.text.startswith('## Team memory\n\n### Entries matching "module_7"\n\n')
    assert rendered.shown[:2] == ["e00007", "e00017"]
    assert BEGIN_MARKER not in rendered.text
    assert rendered.bytes <= 1500


@settings(max_examples=60, deadline=None)
@given(
    budget=st.integers(min_value=1000, max_value=6000),
    texts=st.lists(st.text(min_size=1, max_size=500), min_size=0, max_size=60),
    doctrine=st.none() | st.text(min_size=1, max_size=3000),
)
def test_any_memory_fits_the_budget_and_renders_the_same_twice(
    budget: int, texts: list[str], doctrine: str | None
) -> None:
    entries = [entry(f"e{n}", text or "x", priority=n % 7) for n, text in enumerate(texts)]
    skills = [SkillLine(f"k{n}", "d" * 90) for n in range(30)]
    kwargs = {"entries": entries, "budget": budget, "doctrine": doctrine, "skills": skills}
    rendered = block(**kwargs)
    assert rendered.bytes <= budget
    assert block(**kwargs) == rendered
    assert sorted(rendered.shown + rendered.left_out) == sorted(e.id for e in entries)


@pytest.mark.parametrize("budget", [1000, 8000])
def test_ten_thousand_entries_stay_within_the_budget(budget: int) -> None:
    rendered = block(entries=many(10_000), budget=budget)
    assert rendered.bytes <= budget
    assert rendered.bytes > budget - 400  # the room is used, not wasted
