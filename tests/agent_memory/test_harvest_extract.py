"""`git memory extract --runner builtin` offers the agents' own memory too, from the stores
`memory.sources` turns on, exactly as `git memory harvest` would."""

from __future__ import annotations

from tests.agent_memory.conftest import BUILDERS, Project, review_and_promote, snapshot
from tests.conftest import run_cli


def test_the_builtin_extract_offers_agent_memory_once(project: Project) -> None:
    build, phrase = BUILDERS["claude-auto-memory"]
    location = build(project)
    before = snapshot(location)
    code, extracted = project.gm("extract", "--runner", "builtin")
    assert code == 0, extracted
    harvested = extracted["harvest"]
    assert [s["store"] for s in harvested["stores"]] == ["claude-auto-memory"]
    offered = [o["candidateId"] for o in harvested["offered"]]
    assert offered
    assert set(offered) <= set(extracted["quarantined"])
    added = {a["candidateId"]: a["content"] for a in extracted["added"]}
    assert any(phrase in added[candidate] for candidate in offered)
    assert extracted["next"].startswith("git memory review")
    code, queue = project.gm("review")
    assert code == 0
    assert set(offered) <= {item["candidateId"] for item in queue["items"]}
    assert snapshot(location) == before, "extract never writes to an agent's store"
    code, again = project.gm("extract", "--runner", "builtin")
    assert code == 0, again
    assert again["harvest"]["offered"] == []
    assert again["harvest"]["unchanged"] == len(offered)
    assert again["quarantined"] == []


def test_an_approved_item_is_not_offered_again_by_extract(project: Project) -> None:
    build, _ = BUILDERS["claude-local"]
    build(project)
    assert project.gm("harvest")[0] == 0
    review_and_promote(project)
    code, extracted = project.gm("extract", "--runner", "builtin")
    assert code == 0, extracted
    assert extracted["harvest"]["offered"] == []
    assert extracted["quarantined"] == []


def test_memory_sources_decides_which_stores_extract_reads(project: Project) -> None:
    BUILDERS["claude-auto-memory"][0](project)
    project.repo.git("config", "memory.sources", "codex")
    code, extracted = project.gm("extract", "--runner", "builtin")
    assert code == 0, extracted
    assert "harvest" not in extracted, "no codex store exists; the claude store is off"
    assert extracted["quarantined"] == []
    project.repo.git("config", "memory.sources", "codex,claude-auto-memory")
    code, extracted = project.gm("extract", "--runner", "builtin")
    assert code == 0, extracted
    assert [s["store"] for s in extracted["harvest"]["stores"]] == ["claude-auto-memory"]
    assert extracted["harvest"]["offered"]


def test_without_an_agent_store_extract_says_nothing_of_agent_memory(project: Project) -> None:
    code, extracted = project.gm("extract", "--runner", "builtin")
    assert code == 0, extracted
    assert "harvest" not in extracted
    text = run_cli(["extract", "--runner", "builtin"], cwd=project.root)
    assert text.exit_code == 0, text.stderr
    assert "agents' own memory" not in text.stdout


def test_the_text_output_names_the_stores_read(project: Project) -> None:
    BUILDERS["claude-local"][0](project)
    result = run_cli(["extract", "--runner", "builtin"], cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert (
        "agents' own memory (claude-local): 1 agent memory item to review,"
        " now in the review queue: git memory review" in result.stdout
    )
    assert "make dev" in result.stdout
