"""What `git memory assemble` wrote is this tool's output, never an agent's memory: harvest
neither offers nor counts it, and doctor does not list a file holding only the block as an
agent's store (docs/agent-memory.md)."""

from __future__ import annotations

from typing import Any

from git_memory.formats.generated_block import BEGIN_MARKER, END_MARKER, without_generated
from tests.agent_memory.conftest import BUILDERS, Project, review_and_promote

GEMINI_FILE = "GEMINI.md"
COPILOT_FILE = ".github/copilot-instructions.md"


def _approve_one(project: Project) -> None:
    """Approved memory from one store, then every agent's file assembled."""
    build, _ = BUILDERS["claude-local"]
    build(project)
    assert project.gm("harvest")[0] == 0
    review_and_promote(project)
    code, report = project.gm("assemble", "--provider", "all")
    assert code == 0, report
    for name in (GEMINI_FILE, COPILOT_FILE):
        assert (project.root / name).read_text().startswith(BEGIN_MARKER), name


def _agent_memory_check(project: Project) -> dict[str, Any]:
    code, report = project.gm("doctor")
    del code  # other checks may warn in a bare repository
    (check,) = [c for c in report["checks"] if c["name"] == "agent memory"]
    return check  # type: ignore[no-any-return]


def test_files_holding_only_the_generated_block_are_not_stores(project: Project) -> None:
    _approve_one(project)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [s["store"] for s in harvested["stores"]] == ["claude-local"]
    assert harvested["offered"] == []
    detail = _agent_memory_check(project)["detail"]
    assert "gemini-memories" not in detail
    assert "copilot-instructions" not in detail
    assert "claude-local: 1 file(s)" in detail


def test_a_persons_text_beside_the_block_is_read_and_the_block_is_not(project: Project) -> None:
    _approve_one(project)
    gemini = project.root / GEMINI_FILE
    gemini.write_text(
        "## Gemini Added Memories\n- The nightly job restarts the queue at 04:00 UTC.\n\n"
        + gemini.read_text()
    )
    copilot = project.root / COPILOT_FILE
    copilot.write_text(copilot.read_text() + "\nAnswer in British English.\n")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    offered = sorted((o["store"], o["item"]) for o in harvested["offered"])
    assert offered == [
        ("copilot-instructions", ".github/copilot-instructions.md#-#1"),
        ("gemini-memories", "GEMINI.md#Gemini Added Memories#1"),
    ]
    code, review = project.gm("review")
    assert code == 0, review
    shown = str(review["items"])
    assert "restarts the queue at 04:00 UTC" in shown
    assert "Answer in British English." in shown
    assert "make dev" not in shown, "the approved entry the block carries is not offered again"
    detail = _agent_memory_check(project)["detail"]
    assert "gemini-memories: 1 file(s)" in detail


def test_without_generated_drops_every_block_and_stray_marker() -> None:
    text = (
        "mine\n"
        f"{BEGIN_MARKER}\n- generated\n{END_MARKER}\n"
        "also mine\n"
        f"  {END_MARKER}\r\n"
        f"{BEGIN_MARKER}\n- unterminated\n"
    )
    assert without_generated(text) == "mine\nalso mine\n"
