"""The root block leaves out what the agent reads anyway: a command its own file outside the
block already gives, a sentence the README already says (docs/guide-context.md)."""

from __future__ import annotations

from typing import Any

from git_memory.assemble.known import already_known, split_known
from tests.assemble.test_assemble_memory import block_of, memory
from tests.repos import Repo

__all__ = ["memory"]  # the fixture, used by name

SAID = "_2 entries are left out: this file or the README already says it._"


def test_what_the_agents_file_or_the_readme_says_is_left_out_and_counted(
    memory: Repo, gm: Any
) -> None:
    memory.write("CLAUDE.md", "# Project\n\nRun the tests with `uv run pytest -q`.\n")
    memory.write("README.md", "# App\n\nNever  pip install into the system interpreter!\n")
    memory.git("config", "memory.assembleTargets", "claude,codex")
    result = gm(["assemble", "--format", "json"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    claude, codex = result.json()["providers"]
    assert claude["block"]["known"] == ["no-pip", "tests-uv"]
    assert claude["block"]["shown"] == ["db-trap"]
    block = block_of(memory.root / "CLAUDE.md")
    assert "uv run pytest" not in block
    assert "Never pip install" not in block
    assert SAID in block.splitlines()
    # AGENTS.md does not give the command: only the README's sentence is left out there.
    assert codex["block"]["known"] == ["no-pip"]
    assert "`uv run pytest -q`" in block_of(memory.root / "AGENTS.md")
    context = gm(["context"], cwd=memory.root)
    assert context.stdout.splitlines() == block.splitlines()[2:-1]
    # The block itself never counts as something the file already says.
    again = gm(["assemble", "--format", "json"], cwd=memory.root)
    assert again.json()["changed"] is False
    memory.write("README.md", "# App\n")
    third = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=memory.root)
    assert third.json()["block"]["known"] == ["tests-uv"]
    assert "Never pip install" in block_of(memory.root / "CLAUDE.md")


def test_short_or_partial_matches_do_not_count() -> None:
    from git_memory.assemble.entries import ApprovedEntry

    def entry(text: str, group: str) -> ApprovedEntry:
        return ApprovedEntry("e", "work_fact", None, 50, "mixed", "", False, text, group)

    known = "Use `make lint` often. Tabs are banned. The API lives in the api folder."
    assert already_known(entry("Run `make lint` before pushing.", "commands"), known, known.lower())
    lint_and_test = entry("Run `make lint` and `make test`.", "commands")
    assert not already_known(lint_and_test, known, known.lower())
    assert not already_known(entry("Tabs are banned.", "rules"), known, known.lower())
    keep, said = split_known([lint_and_test], "")
    assert (keep, said) == ([lint_and_test], [])
