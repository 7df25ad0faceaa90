"""What a store may hold besides memories: each odd file gets a diagnostic, never a failed run."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.agent_memory.items import split_items
from git_memory.agent_memory.read import MAX_FILE_BYTES
from tests.agent_memory.conftest import STORE_FIXTURES, Project


def test_special_files_links_huge_files_and_bad_encodings_are_skipped(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    folder = project.root / ".serena" / "memories"
    folder.mkdir(parents=True)
    (folder / "good.md").write_text("- Run `make check` before a release.\n")
    os.mkfifo(folder / "fifo.md")
    private = hermetic_env["home"] / "notes.md"
    private.write_text("- private note from the home directory\n")
    (folder / "link.md").symlink_to(private)
    (folder / "huge.md").write_text("- x\n" * (MAX_FILE_BYTES // 4 + 1))
    (folder / "latin.md").write_bytes("- caf\xe9 au lait\n".encode("latin-1"))
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [o["item"] for o in harvested["offered"]] == ["good.md#-#1"]
    found = {(d["file"], d["code"]) for d in harvested["diagnostics"]}
    assert found == {
        ("fifo.md", "not-a-regular-file"),
        ("link.md", "not-a-regular-file"),
        ("huge.md", "too-large"),
        ("latin.md", "bad-encoding"),
    }
    assert "private note" not in str(harvested)


def test_a_store_folder_that_links_out_of_the_worktree_is_not_read(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    outside = hermetic_env["home"] / "elsewhere"
    outside.mkdir()
    (outside / "secrets.md").write_text("- the home directory's own notes\n")
    (project.root / ".serena").mkdir()
    (project.root / ".serena" / "memories").symlink_to(outside)
    code, harvested = project.gm("harvest")
    assert code == 0
    assert harvested["offered"] == []
    assert [(d["file"], d["code"]) for d in harvested["diagnostics"]] == [
        ("secrets.md", "outside-store")
    ]


def test_items_are_bullets_or_section_prose_and_index_lines_are_not() -> None:
    text = (STORE_FIXTURES / "claude-auto-memory" / "MEMORY.md").read_text()
    items = split_items("claude-auto-memory", "MEMORY.md", text)
    assert [i.key for i in items] == [
        "MEMORY.md#Memory index#1",
        "MEMORY.md#Memory index#2",
        "MEMORY.md#Memory index / Project facts#1",
    ]
    assert not any("debugging.md" in i.text for i in items), "an index line is not a memory"
    topic = (STORE_FIXTURES / "claude-auto-memory" / "debugging.md").read_text()
    (flaky,) = split_items("claude-auto-memory", "debugging.md", topic)
    assert flaky.key == "debugging.md#Flaky tests#1"
    assert "name:" not in flaky.text, "front matter is not a memory"
    prose = split_items("serena-memories", "style.md", "# Style\n\nTabs.\n\nNo semicolons.\n")
    assert [i.text for i in prose] == ["Tabs.\n\nNo semicolons."]


def test_only_the_gemini_memories_section_is_read() -> None:
    text = (STORE_FIXTURES / "gemini" / "GEMINI.md").read_text()
    items = split_items("gemini-memories", "GEMINI.md", text, "Gemini Added Memories")
    assert len(items) == 2
    assert not any("Free text" in i.text for i in items)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#-*+1.) \n\tab`~:[]()")), max_size=300))
def test_any_text_cuts_into_non_empty_items_with_distinct_keys(text: str) -> None:
    items = split_items("serena-memories", "any.md", text)
    assert all(item.text.strip() for item in items)
    assert len({item.key for item in items}) == len(items)


def test_a_repeated_heading_keeps_its_items_apart() -> None:
    items = split_items("serena-memories", "n.md", "## a\n- one\n## a\n- two\n")
    assert [i.key for i in items] == ["n.md#a#1", "n.md#a~2#1"]


def test_every_store_fixture_is_named_in_its_provenance() -> None:
    provenance = (STORE_FIXTURES / "PROVENANCE.md").read_text()
    files = [p for p in sorted(STORE_FIXTURES.rglob("*")) if p.is_file() and p.suffix == ".md"]
    named = [str(p.relative_to(STORE_FIXTURES)) for p in files if p.name != "PROVENANCE.md"]
    assert named
    assert [name for name in named if f"`{name}`" not in provenance] == []
    real = STORE_FIXTURES / "serena" / "7nohe__figdeck__suggested_commands.md"
    digest = hashlib.sha256(real.read_bytes()).hexdigest()
    assert f"sha256 `{digest}`" in provenance, "the real fixture is kept unchanged"


def test_a_store_of_thousands_of_files_is_read_up_to_its_cap(project: Project) -> None:
    from git_memory.agent_memory.read import MAX_FILES

    folder = project.root / ".serena" / "memories"
    folder.mkdir(parents=True)
    for number in range(MAX_FILES + 3):
        (folder / f"note-{number:04}.md").write_text(f"- Note number {number} about the build.\n")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == MAX_FILES
    assert [(d["file"], d["code"]) for d in harvested["diagnostics"]] == [
        ("3 more file(s)", "too-many-files")
    ]
