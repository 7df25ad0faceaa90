"""`git memory assemble` in real repositories: block, projections, manifest, conflicts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER
from git_memory.assemble.render import TARGET_FILES
from tests.repos import Repo

SKILL = '---\nname: "{name}"\ndescription: "{desc}"\n---\n## Steps\n- {step}\n'
SCENE = (
    "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
    'summary: "{summary}"\nheat: {heat}\n-----META-END-----\n## {name}\n- a point\n'
)


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    """A repository with an initialized memory root, one doctrine, scene and skill."""
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/doctrine.md", "- Run the tests before pushing.\n")
    write_scene(repo, "release-flow", "Cutting releases", 3)
    write_skill(repo, "release", "Cut a release.")
    write_project_files(repo)
    return repo


def write_project_files(repo: Repo) -> None:
    """What the commands the entries name need, so `git memory verify` finds them fresh."""
    repo.write("pyproject.toml", '[project]\nname = "app"\n')
    repo.write("Makefile", "test-integration:\n\tpytest -m integration\n")
    repo.write("compose.yaml", "services:\n  db:\n    image: postgres\n")


def write_skill(repo: Repo, name: str, desc: str, step: str = "tag it") -> Path:
    return repo.write(
        f".memory/skills/{name}/SKILL.md", SKILL.format(name=name, desc=desc, step=step)
    )


def write_scene(repo: Repo, name: str, summary: str, heat: int) -> Path:
    return repo.write(
        f".memory/scenes/{name}.md", SCENE.format(name=name, summary=summary, heat=heat)
    )


def write_entry(repo: Repo, entry_id: str, body: str, **fields: Any) -> Path:
    from git_memory.formats.entry import Entry, serialize_entry

    values: dict[str, Any] = {"claim_support": "human-confirmed", "occurred": ("2026-01-02",)}
    values.update(fields)
    text = serialize_entry(Entry(id=entry_id, body=body + "\n", **values))
    return repo.write(f".memory/entries/{entry_id}.md", text)


def manifests(state: Path) -> list[Path]:
    return sorted((state / "artifacts" / "skill-assembly").glob("*.json"))


def test_assemble_writes_block_and_projection_and_is_idempotent(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    claude_md = memory.write("CLAUDE.md", "# Project\n\nMy own notes.\n")
    claude_md.chmod(0o640)
    memory.commit_all("user files")
    before = memory.snapshot()

    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    text = claude_md.read_text()
    assert text.startswith("# Project\n\nMy own notes.\n\n" + BEGIN_MARKER + "\n")
    assert text.endswith(END_MARKER + "\n")
    assert "- Run the tests before pushing." in text
    assert "- .memory/scenes/release-flow.md (heat 3) — Cutting releases" in text
    assert "- .claude/skills/release/SKILL.md — Cut a release." in text
    assert claude_md.stat().st_mode & 0o777 == 0o640
    projection = memory.root / ".claude/skills/release/SKILL.md"
    assert projection.read_bytes() == (memory.root / ".memory/skills/release/SKILL.md").read_bytes()
    [manifest] = manifests(hermetic_env["state"])
    assert manifest.name.startswith("claude-")
    assert manifest.stat().st_mode & 0o777 == 0o600
    assert list(json.loads(manifest.read_text())["files"]) == ["release"]

    stamps = (claude_md.stat().st_mtime_ns, projection.stat().st_mtime_ns)
    again = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert again.exit_code == 0
    assert again.json()["changed"] is False
    assert again.json()["target"] == {"path": "CLAUDE.md", "action": "unchanged"}
    assert (claude_md.stat().st_mtime_ns, projection.stat().st_mtime_ns) == stamps
    assert memory.snapshot() == before
    assert not (memory.root / "AGENTS.md").exists()


def test_codex_writes_only_its_own_files(memory: Repo, gm: Any) -> None:
    assert gm(["assemble", "--provider", "codex"], cwd=memory.root).exit_code == 0
    agents = (memory.root / "AGENTS.md").read_text()
    assert agents.startswith(BEGIN_MARKER)
    assert "- .codex/skills/release/SKILL.md — Cut a release." in agents
    assert (memory.root / ".codex/skills/release/SKILL.md").is_file()
    assert not (memory.root / "CLAUDE.md").exists()
    assert not (memory.root / ".claude").exists()
    umask = os.umask(0)
    os.umask(umask)
    assert (memory.root / "AGENTS.md").stat().st_mode & 0o777 == 0o644 & ~umask


def test_block_is_replaced_in_place_when_memory_changes(memory: Repo, gm: Any) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    claude_md = memory.root / "CLAUDE.md"
    claude_md.write_text("top\n\n" + claude_md.read_text() + "\nbottom\n")
    memory.write(".memory/doctrine.md", "- Review every plan.\n")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert "CLAUDE.md: block replaced" in result.stdout
    text = claude_md.read_text()
    assert text.startswith("top\n\n" + BEGIN_MARKER)
    assert text.endswith(END_MARKER + "\n\nbottom\n")
    assert "Review every plan." in text
    assert "Run the tests" not in text


def test_dry_run_prints_the_diff_and_writes_nothing(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    result = gm(["assemble", "--provider", "claude", "--dry-run"], cwd=memory.root)
    assert result.exit_code == 0
    assert "+++ b/CLAUDE.md" in result.stdout
    assert "+++ b/.claude/skills/release/SKILL.md" in result.stdout
    assert f"+{BEGIN_MARKER}" in result.stdout
    assert not (memory.root / "CLAUDE.md").exists()
    assert not (memory.root / ".claude").exists()
    assert manifests(hermetic_env["state"]) == []


def test_edited_projection_is_a_conflict_and_nothing_is_written(memory: Repo, gm: Any) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    projection = memory.root / ".claude/skills/release/SKILL.md"
    projection.write_text(projection.read_text() + "- my local tweak\n")
    claude_md = memory.root / "CLAUDE.md"
    block_before = claude_md.read_bytes()
    write_skill(memory, "release", "Cut a release, carefully.")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "GM_ASSEMBLY_CONFLICT"
    assert result.json()["error"]["details"]["paths"] == [".claude/skills/release/SKILL.md"]
    assert projection.read_text().endswith("- my local tweak\n")
    assert claude_md.read_bytes() == block_before
    dry = gm(["assemble", "--provider", "claude", "--dry-run"], cwd=memory.root)
    assert dry.exit_code == 1
    assert "GM_ASSEMBLY_CONFLICT" in dry.stderr


def test_unedited_projection_follows_its_source(memory: Repo, gm: Any) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    source = write_skill(memory, "release", "Cut a release.", step="tag and push")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert ".claude/skills/release/SKILL.md: updated" in result.stdout
    assert (memory.root / ".claude/skills/release/SKILL.md").read_bytes() == source.read_bytes()


def test_projection_of_a_removed_skill_is_pruned_when_untouched(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    write_skill(memory, "triage", "Triage a bug.")
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    foreign = memory.write(".claude/skills/mine/SKILL.md", "my own skill\n")
    edited = memory.root / ".claude/skills/triage/SKILL.md"
    edited.write_text(edited.read_text() + "- local\n")
    for name in ("release", "triage"):
        (memory.root / f".memory/skills/{name}/SKILL.md").unlink()
        (memory.root / f".memory/skills/{name}").rmdir()

    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    actions = {item["path"]: item["action"] for item in result.json()["skills"]}
    assert actions == {
        ".claude/skills/release/SKILL.md": "remove",
        ".claude/skills/triage/SKILL.md": "kept-edited",
    }
    assert not (memory.root / ".claude/skills/release").exists()
    assert edited.read_text().endswith("- local\n")
    assert foreign.read_text() == "my own skill\n"
    assert "### Skills" not in (memory.root / "CLAUDE.md").read_text()
    [manifest] = manifests(hermetic_env["state"])
    assert list(json.loads(manifest.read_text())["files"]) == ["triage"]
    text = gm(["assemble", "--provider", "claude"], cwd=memory.root).stdout
    assert ".claude/skills/triage/SKILL.md: kept (edited by someone" in text
    edited.unlink()
    gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert json.loads(manifest.read_text())["files"] == {}


def test_existing_identical_projection_is_adopted_and_a_foreign_one_conflicts(
    memory: Repo, gm: Any
) -> None:
    source = memory.root / ".memory/skills/release/SKILL.md"
    memory.write(".claude/skills/release/SKILL.md", source.read_text())
    memory.write(".claude/skills/other/SKILL.md", "someone else's\n")
    write_skill(memory, "other", "Other skill.")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_ASSEMBLY_CONFLICT" in result.stderr
    assert ".claude/skills/other/SKILL.md" in result.stderr
    assert not (memory.root / "CLAUDE.md").exists()


def test_corrupt_manifest_is_ignored_safely(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    [manifest] = manifests(hermetic_env["state"])
    manifest.write_text("{not json")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 0
    assert "ignored an unreadable skill manifest" in result.stdout
    assert json.loads(manifest.read_text())["files"].keys() == {"release"}


def test_bad_markers_are_refused_and_the_file_is_kept(memory: Repo, gm: Any) -> None:
    claude_md = memory.write("CLAUDE.md", f"x\n{END_MARKER}\n{BEGIN_MARKER}\n")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_ASSEMBLY_MARKERS" in result.stderr
    assert claude_md.read_text() == f"x\n{END_MARKER}\n{BEGIN_MARKER}\n"
    assert not (memory.root / ".claude").exists()


def test_symlinks_are_refused(memory: Repo, gm: Any, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("outside\n")
    os.symlink(outside, memory.root / "CLAUDE.md")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_SYMLINK_REFUSED" in result.stderr
    assert outside.read_text() == "outside\n"
    elsewhere = tmp_path / "codex-dir"
    elsewhere.mkdir()
    os.symlink(elsewhere, memory.root / ".codex")
    result = gm(["assemble", "--provider", "codex"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_SYMLINK_REFUSED" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_memory_file_that_fails_lint_blocks_assembly(memory: Repo, gm: Any) -> None:
    memory.write(".memory/skills/broken/SKILL.md", "no frontmatter here\n")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "GM_LINT_BLOCKED"
    assert result.json()["error"]["details"]["findings"][0]["path"] == "skills/broken/SKILL.md"
    assert not (memory.root / "CLAUDE.md").exists()


def test_more_than_256_skill_directories_is_refused(memory: Repo, gm: Any) -> None:
    for number in range(257):
        (memory.root / f".memory/skills/s{number}").mkdir()
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_TOO_MANY_SKILLS" in result.stderr


def test_without_provider_the_configured_agents_are_assembled_and_named(
    memory: Repo, gm: Any
) -> None:
    result = gm(["assemble"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(
        "for claude, codex (claude, codex and the agents of this repository's indexed sessions;"
    )
    assert (memory.root / "CLAUDE.md").is_file()
    assert (memory.root / "AGENTS.md").is_file()
    assert not (memory.root / "GEMINI.md").exists()


def test_provider_all_writes_every_agents_file_whatever_is_configured(
    memory: Repo, gm: Any
) -> None:
    memory.git("config", "memory.assembleTargets", "claude")
    result = gm(["assemble", "--provider", "all", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    assert result.json().get("chosen") is None
    written = [p["target"]["path"] for p in result.json()["providers"]]
    assert written == list(dict.fromkeys(TARGET_FILES.values()))
    # Qwen Code and Copilot CLI read AGENTS.md too: their own file points there instead of
    # saying it all a second time (docs/guide-context.md, "Once per agent").
    pointers = {"QWEN.md", ".github/copilot-instructions.md"}
    for path in written:
        text = (memory.root / path).read_text()
        assert ("- Run the tests before pushing." in text) == (path not in pointers), path
        assert ("The team memory is in `AGENTS.md`" in text) == (path in pointers), path


def test_request_document_selects_provider(memory: Repo, gm: Any, tmp_path: Path) -> None:
    request = tmp_path / "req.json"
    request.write_text(json.dumps({"provider": "codex", "dryRun": True}))
    result = gm(["assemble", "--request", str(request), "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0
    assert result.json()["dryRun"] is True
    assert result.json()["changed"] is True
    assert not (memory.root / "AGENTS.md").exists()


def test_crash_before_the_manifest_converges_on_the_next_run(
    memory: Repo, gm_proc: Any, hermetic_env: dict[str, Path]
) -> None:
    died = gm_proc(
        ["assemble", "--provider", "claude"],
        cwd=memory.root,
        env={"GIT_MEMORY_FAILPOINT": "assemble.before-manifest"},
    )
    assert died.returncode == 86
    projection = memory.root / ".claude/skills/release/SKILL.md"
    assert projection.is_file()
    assert manifests(hermetic_env["state"]) == []
    again = gm_proc(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["changed"] is False
    [manifest] = manifests(hermetic_env["state"])
    assert list(json.loads(manifest.read_text())["files"]) == ["release"]
    write_skill(memory, "release", "Cut a release.", step="tag, then push")
    assert gm_proc(["assemble", "--provider", "claude"], cwd=memory.root).returncode == 0
    assert "tag, then push" in projection.read_text()


def test_entries_edited_on_disk_reach_the_block(memory: Repo, gm: Any) -> None:
    write_entry(memory, "use-uv", "Always run the tests through `uv run pytest`.")
    dry = gm(["assemble", "--provider", "claude", "--dry-run"], cwd=memory.root)
    assert dry.exit_code == 0, dry.stderr
    assert "+- Always run the tests through `uv run pytest`." in dry.stdout
    assert not (memory.root / "CLAUDE.md").exists()
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    write_entry(memory, "use-uv", "Always run the tests through `uv run pytest -q`.")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.json()["target"]["action"] == "replaced"
    assert result.json()["block"]["shown"] == ["use-uv"]
    assert (
        "- Always run the tests through `uv run pytest -q`."
        in (memory.root / "CLAUDE.md").read_text()
    )


def test_a_symlink_inside_the_memory_root_is_refused(memory: Repo, gm: Any, tmp_path: Path) -> None:
    outside = tmp_path / "scene.md"
    outside.write_text(SCENE.format(name="x", summary="x", heat=1))
    os.symlink(outside, memory.root / ".memory/scenes/linked.md")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_SYMLINK_REFUSED" in result.stderr
    assert not (memory.root / "CLAUDE.md").exists()


def test_linked_worktrees_keep_their_own_files_and_manifests(
    memory: Repo, gm: Any, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    memory.commit_all("memory")
    linked = memory.add_worktree(tmp_path / "linked", "feature")
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    assert gm(["assemble", "--provider", "claude"], cwd=linked.root).exit_code == 0
    assert (linked.root / ".claude/skills/release/SKILL.md").is_file()
    assert (linked.root / "CLAUDE.md").read_text() == (memory.root / "CLAUDE.md").read_text()
    assert len(manifests(hermetic_env["state"])) == 2
    (memory.root / ".memory/skills/release/SKILL.md").unlink()
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    assert not (memory.root / ".claude/skills/release").exists()
    assert (linked.root / ".claude/skills/release/SKILL.md").is_file()


def test_memory_written_by_the_original_tool_assembles(repo: Repo, gm: Any, tmp_path: Path) -> None:
    import shutil

    from tests.conftest import FIXTURES

    shutil.copytree(FIXTURES / "original-memory" / ".threadshare", repo.root / ".threadshare")
    repo.write(
        "AGENTS.md",
        "# Agents\n\n<!-- BEGIN THREADSHARE MEMORY (generated; do not edit by hand) -->\nold\n"
        "<!-- END THREADSHARE MEMORY -->\n",
    )
    result = gm(["assemble", "--provider", "codex"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    text = (repo.root / "AGENTS.md").read_text()
    assert text.startswith("# Agents\n\n" + BEGIN_MARKER)
    assert "THREADSHARE MEMORY" not in text
    assert (
        "- .threadshare/memory/scenes/team-memory-design.md (heat 1, 7 entries) — "
        "Threadshare memory pipeline" in text
    )
    source = repo.root / ".threadshare/memory/skills/threadshare-stable-release/SKILL.md"
    projected = repo.root / ".codex/skills/threadshare-stable-release/SKILL.md"
    assert projected.read_bytes() == source.read_bytes()


@pytest.mark.parametrize("folder", ["Bad Name", "UPPER", "-dash", "a" * 65])
def test_a_skill_folder_with_an_invalid_name_is_skipped_and_the_rest_works(
    memory: Repo, gm: Any, folder: str
) -> None:
    write_skill(memory, folder, "A committed skill of a bad name.")
    memory.commit_all("a skill folder of an invalid name")
    context = gm(["context", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert context.exit_code == 0, context.stderr
    document = context.json()
    assert ".claude/skills/release/SKILL.md" in document["text"]
    assert "A committed skill of a bad name" not in document["text"]
    assert [note for note in document["notes"] if note.startswith("skipped skills/")]
    assembled = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert assembled.exit_code == 0, assembled.stderr
    assert any("not a skill name" in note for note in assembled.json()["notes"])
    assert sorted(p.name for p in (memory.root / ".claude/skills").iterdir()) == ["release"]
