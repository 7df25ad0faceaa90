"""Gemini CLI's skill inbox: the drafted skills of this project's folder, and nothing else of
Auto Memory's work directory."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from tests.agent_memory.conftest import BUILDERS, STORE_FIXTURES, Project


def test_only_drafted_skills_of_this_project_are_read(project: Project) -> None:
    inbox = BUILDERS["gemini-skill-inbox"][0](project)
    memory = inbox.parent
    (inbox / "deploy.patch").write_text("--- /x/SKILL.md\n+++ /x/SKILL.md\n@@ -1 +1 @@\n-a\n+b\n")
    (memory / ".inbox" / "private").mkdir(parents=True)
    (memory / ".inbox" / "private" / "extraction.patch").write_text(
        "--- /dev/null\n+++ /m/notes.md\n@@ -0,0 +1 @@\n+- a pending memory patch\n"
    )
    (memory / "MEMORY.md").write_text("- applied private memory\n")
    other = inbox.parent.parent.parent / "other" / "memory" / "skills" / "x"
    other.mkdir(parents=True)
    (other / "SKILL.md").write_text("---\nname: x\n---\n- another project's skill\n")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [(s["store"], s["files"]) for s in harvested["stores"]] == [("gemini-skill-inbox", 1)]
    keys = [o["item"] for o in harvested["offered"]]
    assert keys == [
        "run-migrations/SKILL.md#Run migrations / When to use#1",
        "run-migrations/SKILL.md#Run migrations / Procedure#1",
        "run-migrations/SKILL.md#Run migrations / Procedure#2",
        "run-migrations/SKILL.md#Run migrations / Pitfalls#1",
        "run-migrations/SKILL.md#Run migrations / Verification#1",
    ]
    _, review = project.gm("review")
    for unread in ("pending memory patch", "applied private memory", "another project"):
        assert unread not in str(review)


def test_the_older_hashed_project_folder_is_found(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    root = str(project.root.resolve())
    folder = hermetic_env["gemini"] / ".gemini" / "tmp" / hashlib.sha256(root.encode()).hexdigest()
    skill = folder / "memory" / "skills" / "run-migrations"
    skill.mkdir(parents=True)
    shutil.copyfile(
        STORE_FIXTURES / "gemini/skill-inbox/run-migrations/SKILL.md", skill / "SKILL.md"
    )
    code, harvested = project.gm("harvest")
    assert code == 0
    assert [s["store"] for s in harvested["stores"]] == ["gemini-skill-inbox"]
    assert len(harvested["offered"]) == 5


def test_a_skill_folder_that_is_a_link_is_skipped_with_a_diagnostic(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    inbox = BUILDERS["gemini-skill-inbox"][0](project)
    outside = hermetic_env["home"] / "private-skill"
    outside.mkdir()
    (outside / "SKILL.md").write_text("---\nname: p\n---\n- the home directory's own notes\n")
    (inbox / "linked").symlink_to(outside)
    code, harvested = project.gm("harvest")
    assert code == 0
    assert [(d["file"], d["code"]) for d in harvested["diagnostics"]] == [
        ("linked/SKILL.md", "not-a-regular-file")
    ]
    assert "home directory's own notes" not in str(harvested)
    assert len(harvested["offered"]) == 5
