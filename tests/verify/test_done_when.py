"""The whole lifecycle on a repository whose memory rotted: verify names exactly the stale
entries, assemble and context leave them out (and say so), retire takes them out through a
reviewed plan, and afterwards everything left is fresh or unverifiable."""

from __future__ import annotations

from typing import Any

from tests.repos import Repo
from tests.verify.helpers import FRESH, STALE, UNVERIFIABLE, rotting_project


def test_verify_assemble_context_retire(repo: Repo, gm: Any) -> None:
    rotting_project(repo)
    verified = gm(["verify", "--format", "json"], cwd=repo.root)
    assert verified.exit_code == 1
    states = {e["id"]: e["state"] for e in verified.json()["entries"]}
    assert {i for i, s in states.items() if s == "stale"} == STALE

    assembled = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=repo.root)
    assert assembled.exit_code == 0, assembled.stderr
    block = assembled.json()["block"]
    assert sorted(block["heldBack"]) == sorted(STALE)
    assert set(block["shown"]) == FRESH | UNVERIFIABLE
    claude_md = (repo.root / "CLAUDE.md").read_text()
    assert "Deploy with `make deploy`" not in claude_md
    assert "Run the tests with `make test`" in claude_md
    assert f"{len(STALE)} stale entries are held back; `git memory verify` lists them" in (
        claude_md
    )
    context = gm(["context", "--format", "json"], cwd=repo.root).json()
    assert sorted(context["block"]["heldBack"]) == sorted(STALE)
    assert "npm run storybook" not in context["text"]

    plan = gm(["retire", *sorted(STALE), "--reason", "the code moved on", "--format", "json"],
              cwd=repo.root).json()  # fmt: skip
    promoted = gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
                  cwd=repo.root)  # fmt: skip
    assert promoted.exit_code == 0, promoted.stderr
    assert gm(["verify"], cwd=repo.root).exit_code == 0
    again = gm(["assemble", "--provider", "claude", "--format", "json"], cwd=repo.root).json()
    assert again["block"]["heldBack"] == []
    assert set(again["block"]["shown"]) == FRESH | UNVERIFIABLE
    assert "held back" not in (repo.root / "CLAUDE.md").read_text()
