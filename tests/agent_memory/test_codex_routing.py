"""Codex's handbook, unit by unit: the person's quoted words in a preference, the sessions a
task's rollout summaries name (from the bullet, the summary's header or the names), and the
legacy registries read as plain notes without their routing lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from git_memory.agent_memory.codex import split_handbook, split_registry
from git_memory.agent_memory.codex_routing import Sessions, summary_header, task_sessions
from git_memory.agent_memory.items import MemoryItem
from tests.agent_memory.codex_folders import (
    MIGRATION,
    OFFERED,
    QUOTE,
    REGISTRY,
    RELEASE,
    Session,
    handbook,
    summary,
)

CWD = "/home/dev/app"
ROLLOUT = f"/home/dev/.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-{RELEASE}.jsonl"
FULL = (
    f"rollout_summaries/2026-03-02T09-00-00-{RELEASE}-patch_release.md (cwd={CWD}, "
    f"rollout_path={ROLLOUT}, updated_at=2026-03-02T09:40:12+00:00, thread_id={RELEASE}, success)"
)


def _items(routing: str = FULL, summaries: dict[str, str] | None = None) -> dict[str, MemoryItem]:
    text = handbook(CWD, routing)
    found = split_handbook("codex-memories", "MEMORY.md", text, (Path(CWD),), (summaries or {}).get)
    return {item.key.rsplit(" / ", 1)[-1]: item for item in found}


def test_a_preference_in_the_template_shape_keeps_the_quote_as_the_persons_words() -> None:
    items = _items()
    first = items["User preferences#1"]
    assert first.said == QUOTE
    assert first.content == OFFERED
    assert first.kind == "rule"
    # The store's own text (and so its digest) stays the bullet as written.
    assert first.text.startswith("when releasing, the user asked / corrected:")


@pytest.mark.parametrize(
    ("bullet", "said", "offered"),
    [
        (
            'when debugging, the user asked: "check the local rule and find out" -> trace '
            "the routing path before answering",
            "check the local rule and find out",
            "When debugging, trace the routing path before answering",
        ),
        (
            "When a migration is added, the user corrected: “name it after the table” -> "
            "name migrations after the table they change",
            "name it after the table",
            "When a migration is added, name migrations after the table they change",
        ),
        ("Keep release notes short.", None, "Keep release notes short."),
        ('the user asked: "no quote shape" and nothing else', None, None),
    ],
)
def test_only_the_documented_shape_is_read_as_a_quote(
    bullet: str, said: str | None, offered: str | None
) -> None:
    text = (
        f"# Task Group: g\n\nscope: s\napplies_to: cwd={CWD}; reuse_rule=r\n\n"
        f"## User preferences\n\n- {bullet} [Task 1]\n"
    )
    (item,) = split_handbook("codex-memories", "MEMORY.md", text, (Path(CWD),))
    assert item.said == said
    assert item.content == (offered or item.text)


def test_the_sessions_come_from_the_bullet_when_it_names_them() -> None:
    items = _items(summaries={})
    assert items["Reusable knowledge#1"].threads == (RELEASE,)
    assert items["Reusable knowledge#1"].rollouts == (ROLLOUT,)
    # Task 2's rollout path names its thread too; a preference citing both tasks keeps both.
    assert items["User preferences#3"].threads == (RELEASE, MIGRATION)


@pytest.mark.parametrize("rollout", [ROLLOUT, f"{ROLLOUT}.zst"])
def test_a_bullet_with_only_the_required_fields_takes_the_thread_from_the_rollout_name(
    rollout: str,
) -> None:
    bullet = f"rollout_summaries/x.md (cwd={CWD}, rollout_path={rollout}, updated_at=t)"
    tasks = task_sessions(f"## Task 1: t\n\n### rollout_summary_files\n\n- {bullet}\n", {}.get)
    assert tasks == {"1": Sessions((RELEASE,), (rollout,))}


@pytest.mark.parametrize("era", ["current", "cwd", "bare"])
def test_a_bare_bullet_takes_its_session_from_the_summary_header(era: str) -> None:
    # The summary's name carries only a short hash of the thread (one Codex version's stem).
    name = "2026-03-02T09-00-00-Qx2b-patch_release.md"
    header = summary(Session(RELEASE, Path(ROLLOUT), CWD), "recap", era=era)
    block = f"## Task 1: t\n\n### rollout_summary_files\n\n- rollout_summaries/{name}\n"
    tasks = task_sessions(block, {name: header}.get)
    rollouts = (ROLLOUT,) if era == "current" else ()
    assert tasks == {"1": Sessions((RELEASE,), rollouts)}


def test_a_summary_named_after_its_thread_needs_no_header() -> None:
    block = f"## Task 1: t\n\n### rollout_summary_files\n\n- rollout_summaries/{RELEASE}.md\n"
    assert task_sessions(block, {}.get) == {"1": Sessions((RELEASE,), ())}


def test_a_summary_name_with_a_folder_in_it_is_not_opened() -> None:
    asked: list[str] = []

    def reader(name: str) -> str | None:
        asked.append(name)
        return None

    block = "## Task 1: t\n\n### rollout_summary_files\n\n- rollout_summaries/../../x.md\n"
    task_sessions(block, reader)
    assert asked == []


def test_the_header_ends_at_the_first_line_that_is_no_field() -> None:
    text = "thread_id: a\ncwd: /x\n\nthread_id: from the recap\n"
    assert summary_header(text) == {"thread_id": ["a"], "cwd": ["/x"]}


def test_a_legacy_registry_is_plain_notes_without_its_routing_lists() -> None:
    text = REGISTRY.format(thread=RELEASE, cwd=CWD)
    items = split_registry("codex-memories", "b/memory/MEMORY.md", text)
    assert [item.text for item in items] == [
        "Run `make bootstrap` before the first test run in this checkout.",
        '`pytest` fails with "ModuleNotFoundError: app" outside the virtualenv; activate '
        "`.venv` first.",
    ]
    assert all(item.kind is None for item in items), "its words say what it is"
