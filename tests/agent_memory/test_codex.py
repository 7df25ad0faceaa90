"""Codex memories: only the handbook blocks that apply to this repository are read, only their
know-how bullets are items, and nothing else of `$CODEX_HOME/memories` is."""

from __future__ import annotations

from pathlib import Path

import pytest

from git_memory.agent_memory.codex import split_handbook, working_directories
from tests.agent_memory.conftest import (
    BUILDERS,
    CODEX_FIXTURE_ROOT,
    STORE_FIXTURES,
    Project,
    review_and_promote,
)

HANDBOOK = (STORE_FIXTURES / "codex" / "MEMORY.md").read_text(encoding="utf-8")


def _entries(project: Project) -> list[str]:
    return [p.read_text() for p in sorted((project.root / ".memory" / "entries").glob("*.md"))]


def test_only_the_know_how_of_this_repositorys_blocks_is_an_item() -> None:
    items = split_handbook("codex-memories", "MEMORY.md", HANDBOOK, (Path(CODEX_FIXTURE_ROOT),))
    group = "Task Group: app release and database workflow"
    assert [i.key for i in items] == [
        f"MEMORY.md#{group} / User preferences#1",
        f"MEMORY.md#{group} / Reusable knowledge#1",
        f"MEMORY.md#{group} / Reusable knowledge#2",
        f"MEMORY.md#{group} / Failures and how to do differently#1",
    ]
    text = "\n".join(i.text for i in items)
    assert "gradlew" not in text, "another checkout's block is not this repository's"
    for routing in ("rollout_path", "thread_id", "/home/dev"):
        assert routing not in text
    assert "[Task 1]" not in text, "references inside the handbook are dropped"
    assert items[1].text.endswith("before `make test-integration`.")
    # Each `[Task 1]` reference became the thread id its task's rollout summary names.
    assert {i.threads for i in items} == {("0196a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b",)}


def test_each_know_how_section_files_its_bullets_as_its_template_says() -> None:
    items = split_handbook("codex-memories", "MEMORY.md", HANDBOOK, (Path(CODEX_FIXTURE_ROOT),))
    assert [i.kind for i in items] == ["rule", "fact", "fact", "trap"]


def test_harvest_offers_preferences_as_rules_and_failures_as_traps(project: Project) -> None:
    BUILDERS["codex-memories"][0](project)
    _, harvested = project.gm("harvest")
    assert sorted(o["kind"] for o in harvested["offered"]) == ["fact", "fact", "rule", "trap"]


@pytest.mark.parametrize(
    ("applies_to", "read"),
    [
        ("cwd=/home/dev/app; reuse_rule=safe", True),
        ("cwd=/home/dev/app/services/api; reuse_rule=subfolder", True),
        ("cwd=/home/dev/other and cwd=/home/dev/app/.claude/worktrees/x; reuse_rule=both", True),
        ("cwd=/home/dev/application; reuse_rule=a sibling with a longer name", False),
        ("cwd=unknown; reuse_rule=workflow-scoped", False),
        ("cwd=/home/dev/app/../other; reuse_rule=dot-dot out", False),
    ],
)
def test_a_block_belongs_to_the_repository_its_working_directory_lies_in(
    applies_to: str, read: bool
) -> None:
    block = (
        "# Task Group: g\n\nscope: s\napplies_to: " + applies_to + "\n\n"
        "## Reusable knowledge\n\n- Run `make check` first.\n"
    )
    items = split_handbook("codex-memories", "MEMORY.md", block, (Path(CODEX_FIXTURE_ROOT),))
    assert bool(items) is read


def test_working_directories_keep_spaces_and_split_on_and() -> None:
    block = "applies_to: cwd=/Users/me/My Repo and cwd=/tmp/x; reuse_rule=r\n"
    assert working_directories(block) == ["/Users/me/My Repo", "/tmp/x"]


def test_the_summary_and_other_checkouts_are_never_offered(project: Project) -> None:
    BUILDERS["codex-memories"][0](project)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [(s["store"], s["files"]) for s in harvested["stores"]] == [("codex-memories", 1)]
    assert len(harvested["offered"]) == 4
    _, review = project.gm("review")
    texts = str(review)
    assert "gradlew" not in texts
    assert "Backend developer" not in texts, "memory_summary.md is not read"


def test_an_edited_codex_memory_is_offered_as_an_update(project: Project) -> None:
    folder = BUILDERS["codex-memories"][0](project)
    project.gm("harvest")
    review_and_promote(project)
    handbook = folder / "MEMORY.md"
    handbook.write_text(
        handbook.read_text().replace("refuses to run on a dirty tree", "stops on a dirty tree")
    )
    code, harvested = project.gm("harvest")
    assert code == 0
    assert [o["action"] for o in harvested["offered"]] == ["update"]
    assert harvested["unchanged"] == 3
    review_and_promote(project)
    entries = _entries(project)
    assert len(entries) == 4
    assert any("stops on a dirty tree" in e for e in entries)
    assert not any("refuses to run" in e for e in entries)


def _codex_memory(project: Project, leak: str) -> None:
    folder = project.homes["codex"] / "memories"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(
        f"# Task Group: leak\n\nscope: s\n"
        f"applies_to: cwd={project.root.resolve()}; reuse_rule=r\n\n"
        f"## Reusable knowledge\n\n- The deploy step reads {leak} for its cache. [Task 1]\n"
    )


def test_a_secret_in_codex_memory_is_refused(project: Project) -> None:
    _codex_memory(project, "ghp_0123456789abcdefABCDEF0123456789abcd")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == 1
    refused = review_and_promote(project)
    assert refused["error"]["code"] == "GM_LINT_BLOCKED", refused
    assert _entries(project) == []


@pytest.mark.parametrize("home", ["HOME", "/Users/alice", "/home/alice"])
def test_a_home_path_in_codex_memory_is_offered_and_kept_as_tilde(
    project: Project, home: str
) -> None:
    _codex_memory(project, f"{home.replace('HOME', str(Path.home()))}/.cache/app")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == 1
    code, review = project.gm("review")
    (item,) = review["items"]
    assert "The deploy step reads ~/.cache/app for its cache." in item["content"], item
    review_and_promote(project)
    (entry,) = _entries(project)
    assert "~/.cache/app" in entry
    assert str(Path.home()) not in entry
    assert "alice" not in entry


def test_a_handbook_that_is_a_link_is_skipped_with_a_diagnostic(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    elsewhere = hermetic_env["home"] / "handbook.md"
    elsewhere.write_text(HANDBOOK.replace(CODEX_FIXTURE_ROOT, str(project.root.resolve())))
    folder = hermetic_env["codex"] / "memories"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").symlink_to(elsewhere)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert harvested["offered"] == []
    assert [(d["file"], d["code"]) for d in harvested["diagnostics"]] == [
        ("MEMORY.md", "not-a-regular-file")
    ]
