"""Approved entries reach CLAUDE.md / AGENTS.md: budget, providers, staleness, cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER
from tests.assemble.test_assemble_command import (
    write_entry,
    write_project_files,
    write_scene,
    write_skill,
)
from tests.repos import Repo


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    """A repository whose memory root holds three entries of different kinds."""
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_entry(
        repo,
        "tests-uv",
        "The test command `uv run pytest -q` succeeded (exit 0) in this repository.",
        type="work_method",
        priority=60,
        claim_support="typed-fact",
    )
    write_entry(repo, "no-pip", "Never pip install into the system interpreter.")
    write_entry(repo, "db-trap", "`make test-integration` fails until `docker compose up -d db`.")
    write_project_files(repo)
    return repo


def block_of(path: Path) -> str:
    text = path.read_text()
    return text[text.index(BEGIN_MARKER) : text.index(END_MARKER) + len(END_MARKER)]


def many_entries(repo: Repo, count: int) -> None:
    for n in range(count):
        write_entry(repo, f"fact-{n:04d}", f"Fact {n} about `module_{n}` of the project.")


def test_the_default_assembles_every_target_and_a_second_run_changes_nothing(
    memory: Repo, gm: Any
) -> None:
    first = gm(["assemble", "--format", "json"], cwd=memory.root)
    assert first.exit_code == 0, first.stderr
    report = first.json()
    assert [p["provider"] for p in report["providers"]] == ["claude", "codex"]
    assert [p["target"]["action"] for p in report["providers"]] == ["appended", "appended"]
    claude, agents = memory.root / "CLAUDE.md", memory.root / "AGENTS.md"
    assert block_of(claude) == block_of(agents)
    lines = block_of(claude).splitlines()
    assert "- Never pip install into the system interpreter." in lines
    assert lines.index("### Do not (traps and prohibitions)") < lines.index(
        "### Commands that work"
    )
    # A prohibition a person wrote is a guardrail too, shown as written.
    guardrails = lines[lines.index("### Do not (traps and prohibitions)") :]
    guardrails = guardrails[: guardrails.index("### Commands that work")]
    assert "- Never pip install into the system interpreter." in guardrails
    stamps = [(p.read_bytes(), p.stat().st_mtime_ns) for p in (claude, agents)]
    again = gm(["assemble", "--format", "json"], cwd=memory.root)
    assert again.json()["changed"] is False
    assert [(p.read_bytes(), p.stat().st_mtime_ns) for p in (claude, agents)] == stamps


def test_assemble_targets_config_picks_the_providers(memory: Repo, gm: Any) -> None:
    memory.git("config", "memory.assembleTargets", "codex")
    chosen = gm(["assemble"], cwd=memory.root)
    assert chosen.exit_code == 0
    assert chosen.stdout.startswith("for codex (memory.assembleTargets; --provider all: every")
    assert (memory.root / "AGENTS.md").is_file()
    assert not (memory.root / "CLAUDE.md").exists()
    memory.git("config", "memory.assembleTargets", "claude,vscode")
    bad = gm(["assemble"], cwd=memory.root)
    assert bad.exit_code == 1
    assert "[GM_CONFIG_INVALID]" in bad.stderr
    assert "memory.assembleTargets" in bad.stderr


def test_a_conflict_in_one_provider_writes_no_provider(memory: Repo, gm: Any) -> None:
    write_skill(memory, "release", "Cut a release.")
    memory.write(".codex/skills/release/SKILL.md", "someone's own file\n")
    result = gm(["assemble", "--provider", "all"], cwd=memory.root)
    assert result.exit_code == 1
    assert "GM_ASSEMBLY_CONFLICT" in result.stderr
    assert not (memory.root / "CLAUDE.md").exists()
    assert not (memory.root / ".claude/skills/release").exists()


def test_the_budget_bounds_the_block_and_the_report_names_every_id(memory: Repo, gm: Any) -> None:
    many_entries(memory, 150)
    memory.git("config", "memory.assembleBudget", "2000")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    block = result.json()["block"]
    written = block_of(memory.root / "CLAUDE.md")
    assert block["bytes"] == len(written.encode()) <= 2000
    assert block["tokens"] == -(-block["bytes"] // 4)
    assert block["budget"] == 2000
    assert len(block["shown"]) + len(block["leftOut"]) == 153
    assert block["leftOut"]
    assert f"{len(block['leftOut'])} entries" in written
    assert "`git memory search QUERY`" in written
    assert "`memory_search` MCP tool" in written


@pytest.mark.parametrize("value", ["12", "lots", "2000000"])
def test_an_unusable_budget_is_refused(memory: Repo, gm: Any, value: str) -> None:
    memory.git("config", "memory.assembleBudget", value)
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 1
    assert "[GM_CONFIG_INVALID]" in result.stderr
    assert not (memory.root / "CLAUDE.md").exists()


def test_deprecated_and_superseded_entries_stay_out(memory: Repo, gm: Any) -> None:
    write_entry(
        memory, "old-way", "Run the old script.", status="deprecated", superseded_by="no-pip"
    )
    write_entry(memory, "older-way", "Run the older script.", superseded_by="no-pip")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    text = (memory.root / "CLAUDE.md").read_text()
    assert "old script" not in text
    assert "older script" not in text
    assert sorted(result.json()["block"]["shown"]) == ["db-trap", "no-pip", "tests-uv"]


def test_entries_of_a_scene_are_shown_through_the_scene_line(memory: Repo, gm: Any) -> None:
    write_scene(memory, "testing", "How the team tests", 2)
    write_entry(memory, "in-scene", "Tests run in CI on every push.", scene="testing")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    text = (memory.root / "CLAUDE.md").read_text()
    assert "- .memory/scenes/testing.md (heat 2, 1 entry) — How the team tests" in text
    assert "Tests run in CI" not in text
    assert result.json()["block"]["viaScenes"] == ["in-scene"]


def test_stale_entries_from_the_freshness_check_are_held_back(
    memory: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from git_memory.assemble import freshness
    from git_memory.ops import assemble as assemble_operation

    stale = lambda: lambda _w: frozenset({"db-trap"})  # noqa: E731
    monkeypatch.setattr(assemble_operation, "freshness_check", stale)
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    text = (memory.root / "CLAUDE.md").read_text()
    assert "make test-integration" not in text
    assert "_1 stale entry is held back; `git memory verify` lists them._" in text
    assert result.json()["block"]["heldBack"] == ["db-trap"]
    monkeypatch.setattr(assemble_operation, "freshness_check", lambda: freshness.no_stale_entries)
    again = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert again.exit_code == 0
    assert "make test-integration" in (memory.root / "CLAUDE.md").read_text()


def test_an_unchanged_run_reuses_the_rendering_without_loading_entries(
    memory: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from git_memory.assemble.snapshot import MemorySnapshot

    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0

    def refuse(_self: object) -> None:
        raise AssertionError("entries were loaded on an unchanged run")

    monkeypatch.setattr(MemorySnapshot, "approved", refuse)
    again = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert again.exit_code == 0, again.stderr
    assert again.json()["changed"] is False
    assert sorted(again.json()["block"]["shown"]) == ["db-trap", "no-pip", "tests-uv"]
    write_entry(memory, "no-pip", "Never pip install anything globally.")
    changed = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert changed.exit_code == 3  # the edit invalidated the rendering: entries must be read


def test_a_tampered_cache_is_not_used(memory: Repo, gm: Any, hermetic_env: dict[str, Path]) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    [cache] = (hermetic_env["state"] / "artifacts" / "context-blocks").glob("claude-*.json")
    assert cache.stat().st_mode & 0o777 == 0o600
    document = json.loads(cache.read_text())
    document["text"] = document["text"].replace("Never pip", "Always curl | sh")
    cache.write_text(json.dumps(document))
    (memory.root / "CLAUDE.md").unlink()
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    text = (memory.root / "CLAUDE.md").read_text()
    assert "curl" not in text
    assert "Never pip" in text


def test_a_blocked_entry_file_never_reaches_the_block(memory: Repo, gm: Any) -> None:
    write_entry(memory, "leaky", "Use the key AKIAIOSFODNN7EXAMPLE for deploys.")
    result = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    assert "AKIA" not in (memory.root / "CLAUDE.md").read_text()
    assert "leaky" not in result.json()["block"]["shown"]


def test_blocks_of_two_branches_merge_like_the_memory_they_carry(memory: Repo, gm: Any) -> None:
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    memory.commit_all("memory and its block")
    memory.git("checkout", "-q", "-b", "other")
    write_entry(memory, "lint-cmd", "The lint command `ruff check .` succeeded (exit 0) here.")
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    memory.commit_all("a command")
    memory.git("checkout", "-q", "-")
    write_entry(memory, "owner", "The billing module is owned by the payments team.")
    assert gm(["assemble", "--provider", "claude"], cwd=memory.root).exit_code == 0
    memory.commit_all("a fact")
    memory.git("merge", "-q", "--no-edit", "other")  # raises on a conflict
    merged = (memory.root / "CLAUDE.md").read_bytes()
    again = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert again.json()["changed"] is False
    assert (memory.root / "CLAUDE.md").read_bytes() == merged
