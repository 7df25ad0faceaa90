"""`git memory harvest` end to end, one agent store at a time: harvest, review, promote,
assemble; the store's bytes never change; a second harvest offers nothing; an edited item
comes back as an update; the promotion lint gate refuses a secret or a home path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_memory.conftest import BUILDERS, Project, review_and_promote, snapshot


def _entries(project: Project) -> dict[str, str]:
    folder = project.root / ".memory" / "entries"
    return {p.stem: p.read_text() for p in sorted(folder.glob("*.md"))}


@pytest.mark.parametrize("store", sorted(BUILDERS))
def test_each_store_reaches_approved_memory_and_the_assembled_block(
    project: Project, store: str
) -> None:
    build, phrase = BUILDERS[store]
    location = build(project)
    before = snapshot(location)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [s["store"] for s in harvested["stores"]] == [store]
    offered = harvested["offered"]
    assert offered
    assert {o["store"] for o in offered} == {store}
    assert all(o["action"] == "store" for o in offered)
    applied = review_and_promote(project)
    assert "planId" in applied or "applied" in str(applied), applied
    entries = _entries(project)
    assert len(entries) == len(offered)
    assert any(phrase in text for text in entries.values())
    assert project.gm("assemble")[0] == 0
    assert phrase in (project.root / "CLAUDE.md").read_text()
    assert phrase in (project.root / "AGENTS.md").read_text()
    assert snapshot(location) == before, "harvest never writes to an agent's store"
    code, again = project.gm("harvest")
    assert code == 0
    assert again["offered"] == []
    assert again["unchanged"] == len(offered)


def test_an_edited_item_is_offered_as_an_update_of_its_entry(project: Project) -> None:
    build, _ = BUILDERS["gemini-memories"]
    memory = build(project)
    project.gm("harvest")
    review_and_promote(project)
    promoted = _entries(project)
    memory.write_text(memory.read_text().replace("02:00 UTC", "03:00 UTC"), encoding="utf-8")
    code, harvested = project.gm("harvest")
    assert code == 0
    (offer,) = harvested["offered"]
    assert offer["action"] == "update"
    assert harvested["unchanged"] == 1
    review_and_promote(project)
    entries = _entries(project)
    assert entries.keys() == promoted.keys(), "the entry is rewritten, not duplicated"
    assert any("03:00 UTC" in text for text in entries.values())
    assert not any("02:00 UTC" in text for text in entries.values())


def test_an_item_approved_memory_already_holds_is_not_offered(project: Project) -> None:
    build, _ = BUILDERS["claude-local"]
    build(project)
    project.gm("harvest")
    review_and_promote(project)
    # The same words in another agent's store are the same memory.
    other = project.root / ".serena" / "memories" / "notes.md"
    other.parent.mkdir(parents=True)
    other.write_text("- Use `make dev` to start the stack; it seeds the database with fixtures.\n")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert harvested["offered"] == []
    assert harvested["alreadyApproved"] == 1


def test_a_secret_in_agent_memory_is_refused_by_the_lint_gate(project: Project) -> None:
    memory = project.root / "CLAUDE.local.md"
    memory.write_text("- Deploys use the token ghp_0123456789abcdefABCDEF0123456789abcd.\n")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == 1
    refused = review_and_promote(project)
    assert refused["error"]["code"] == "GM_LINT_BLOCKED", refused
    assert _entries(project) == {}


def test_a_home_path_in_agent_memory_reaches_review_and_memory_as_tilde(project: Project) -> None:
    memory = project.root / "CLAUDE.local.md"
    memory.write_text(f"- Build caches live under {Path.home()}/.cache/app.\n")
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == 1
    code, review = project.gm("review")
    assert [item["content"] for item in review["items"]] == [
        "Build caches live under ~/.cache/app."
    ]
    review_and_promote(project)
    (entry,) = _entries(project).values()
    assert "~/.cache/app" in entry
    assert str(Path.home()) not in entry


def test_memory_sources_turns_a_store_off(project: Project) -> None:
    for store in ("claude-local", "serena-memories"):
        BUILDERS[store][0](project)
    project.repo.git("config", "memory.sources", "claude-code,serena-memories")
    _, only_named = project.gm("harvest")
    # serena named alone: on; claude-code named as an agent: all its stores on.
    assert sorted(s["store"] for s in only_named["stores"]) == [
        "claude-local",
        "serena-memories",
    ]
    project.repo.git("config", "memory.sources", "codex,claude-agent-memory")
    _, none = project.gm("harvest")
    assert none["stores"] == [], "naming one Claude store turns the others off"


@pytest.mark.parametrize("store", ["agents-override", "copilot-instructions"])
def test_a_tracked_instruction_file_is_the_teams_file_and_not_read(
    project: Project, store: str
) -> None:
    BUILDERS[store][0](project)
    _, untracked = project.gm("harvest")
    assert [s["store"] for s in untracked["stores"]] == [store]
    project.repo.commit_all("team instructions")
    _, harvested = project.gm("harvest")
    assert harvested["stores"] == []


def test_status_counts_waiting_agent_memories_and_doctor_lists_the_stores(
    project: Project,
) -> None:
    from tests.conftest import run_cli

    BUILDERS["claude-auto-memory"][0](project)
    BUILDERS["serena-memories"][0](project)
    _, before = project.gm("status")
    waiting = before["counts"]["agentMemory"]
    assert waiting["stores"] == 2
    assert waiting["unharvested"] > 0
    shown = f"{waiting['unharvested']} agent memory items to review: git memory harvest"
    assert shown in run_cli(["status"], cwd=project.root).stdout
    _, harvested = project.gm("harvest")
    _, after = project.gm("status")
    assert after["counts"]["agentMemory"] == {
        "stores": 2,
        "unharvested": 0,
        "inReview": len(harvested["offered"]),
    }
    doctor = run_cli(["doctor"], cwd=project.root).stdout
    line = next(line for line in doctor.splitlines() if "agent memory:" in line)
    assert "claude-auto-memory: 2 file(s) in " in line
    assert "serena-memories: 1 file(s) in " in line
    project.repo.git("config", "memory.sources", "claude-code")
    doctor = run_cli(["doctor"], cwd=project.root).stdout
    line = next(line for line in doctor.splitlines() if "agent memory:" in line)
    assert "serena-memories: " not in line.split(";")[0]
    assert "off by memory.sources: agents-override, gemini-memories, serena-memories" in line


def test_an_item_edited_before_review_replaces_its_earlier_candidate(project: Project) -> None:
    memory = BUILDERS["claude-local"][0](project)
    _, first = project.gm("harvest")
    memory.write_text(memory.read_text().replace("make dev", "make up"))
    _, second = project.gm("harvest")
    (offer,) = second["offered"]
    assert offer["action"] == "store"
    _, review = project.gm("review")
    assert [i["candidateId"] for i in review["items"]] == [offer["candidateId"]]
    assert offer["candidateId"] != first["offered"][0]["candidateId"]


def test_an_edited_command_is_an_update_not_already_approved(project: Project) -> None:
    memory = project.root / "CLAUDE.local.md"
    memory.write_text("- `make dev` starts the stack.\n")
    project.repo.write("Makefile", "dev:\n\ttrue\n")
    project.repo.commit_all("make dev")
    project.gm("harvest")
    review_and_promote(project)
    memory.write_text("- `make dev` starts the stack and seeds the database.\n")
    _, harvested = project.gm("harvest")
    assert [o["action"] for o in harvested["offered"]] == ["update"]


def test_a_linked_worktree_reads_the_repositorys_auto_memory(
    project: Project, tmp_path: Path
) -> None:
    from tests.conftest import run_cli

    BUILDERS["claude-auto-memory"][0](project)
    linked = project.repo.add_worktree(tmp_path / "feature", "feature")
    result = run_cli(["harvest", "--format", "json"], cwd=linked.root)
    assert result.exit_code == 0
    assert [s["store"] for s in result.json()["stores"]] == ["claude-auto-memory"]
