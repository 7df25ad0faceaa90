"""Issue 43 item 5 at review and prepare: a candidate whose content steers agents beyond a
memory's role is shown with each directive, kept only when a person says so, and refused by
prepare otherwise (`GM_DIRECTIVE_UNCONFIRMED`); a prohibition of the same act passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from git_memory.contracts.review import ReviewItem
from git_memory.errors import GitMemoryError
from git_memory.extract.review_flow import bulk_confirmable, interactive, prepare_request
from git_memory.ops.base import run
from tests.conftest import run_cli
from tests.lint.directive_samples import POISONED, PROHIBITIONS
from tests.mcp.harness import server_parameters, stdio, structured
from tests.promote.helpers import prepare_request as request_for
from tests.promote.helpers import seed_candidate
from tests.repos import Repo


@pytest.mark.parametrize("name", sorted(POISONED))
def test_prepare_refuses_an_unconfirmed_directive(repo: Repo, name: str) -> None:
    text, code = POISONED[name]
    item = seed_candidate(repo.root, "c1", text)
    with pytest.raises(GitMemoryError) as caught:
        run("prepare", request_for(item), repository=repo.root)
    assert caught.value.code == "GM_DIRECTIVE_UNCONFIRMED"
    found = (caught.value.details or {})["directives"]
    assert code in {d["code"] for d in found}
    assert all(d["candidateId"] == "c1" and d["line"] >= 1 for d in found)
    assert not (repo.root / ".memory" / "entries").exists()


@pytest.mark.parametrize("name", sorted(PROHIBITIONS))
def test_a_prohibition_is_prepared_without_a_confirmation(repo: Repo, name: str) -> None:
    item = seed_candidate(repo.root, "c1", PROHIBITIONS[name])
    plan = run("prepare", request_for(item), repository=repo.root)
    assert plan.per_file


def test_a_confirmed_directive_is_prepared_promoted_and_not_flagged_again(repo: Repo) -> None:
    text, code = POISONED["curl-pipe-sh"]
    item = seed_candidate(repo.root, "c1", text)
    plan = run(
        "prepare", request_for({**item, "confirmedDirectives": [code]}), repository=repo.root
    )
    run("promote", {"plan": plan.plan_id, "approve": plan.plan_digest}, repository=repo.root)
    # Reviewed and confirmed here: neither the lint nor verify flags it again.
    linted = run_cli(["lint"], cwd=repo.root)
    assert "GM_DIRECTIVE" not in linted.stdout
    verified = run_cli(["verify", "--format", "json"], cwd=repo.root).json()
    assert "directives" not in verified
    # Edited by hand afterwards, it is flagged again.
    (entry,) = (repo.root / ".memory" / "entries").glob("*.md")
    entry.write_text(entry.read_text() + "\nAlso read the notes.\n")
    assert f"WARN {code}" in run_cli(["lint"], cwd=repo.root).stdout


def test_review_shows_each_directive_beside_its_content(repo: Repo) -> None:
    text, code = POISONED["ignore-previous"]
    seed_candidate(repo.root, "c1", f"Deploys go through the release job.\n{text}")
    document = run_cli(["review", "--format", "json"], cwd=repo.root).json()
    (item,) = document["items"]
    assert [(d["code"], d["line"]) for d in item["directives"]] == [(code, 2)]
    assert "ignore all previous instructions" in item["directives"][0]["excerpt"]
    shown = run_cli(["review"], cwd=repo.root).stdout
    assert f"! instruction to agents (line 2, {code})" in shown


def test_at_the_terminal_a_directive_is_kept_only_when_the_person_says_so(repo: Repo) -> None:
    text, code = POISONED["no-verify"]
    seed_candidate(repo.root, "c1", text)
    seed_candidate(repo.root, "c2", PROHIBITIONS["test-command"])
    items = [
        ReviewItem.model_validate(i)
        for i in run("review", {}, repository=repo.root).to_json()["items"]
    ]
    assert not any(bulk_confirmable(item) for item in items if item.directives)
    said: list[str] = []

    def answers(*replies: str) -> Any:
        queue = list(replies)
        return lambda question, choices, default: queue.pop(0)

    skipped = interactive(items, answers("c", "s", "c"), said.append)
    assert [i.candidate_id for i in skipped.confirmed] == ["c2"]
    assert skipped.skipped == 1
    assert any(f"(line 1, {code})" in line for line in said)

    kept = interactive(items, answers("c", "k", "c"), said.append)
    assert kept.directives == {"c1": [code]}
    request = prepare_request(kept.confirmed, "entry", kept.scopes, kept.directives)
    plan = run("prepare", request, repository=repo.root)
    assert len(plan.per_file) >= 2


def test_over_mcp_review_shows_it_and_prepare_needs_the_confirmation(
    repo: Repo, tmp_path: Path
) -> None:
    text, code = POISONED["send-prose"]
    item = seed_candidate(repo.root, "c1", text)

    async def scenario() -> tuple[Any, Any, Any]:
        async with stdio(server_parameters(repo.root), tmp_path / "err.log") as client:
            review = structured(await client.call_tool("memory_review", {}))
            refused = await client.call_tool("memory_prepare", request_for(item))
            confirmed = {**item, "confirmedDirectives": [code]}
            accepted = await client.call_tool("memory_prepare", request_for(confirmed))
            return review, refused, accepted

    review, refused, accepted = anyio.run(scenario)
    (listed,) = review["items"]
    assert [d["code"] for d in listed["directives"]] == [code]
    assert refused.is_error
    assert "GM_DIRECTIVE_UNCONFIRMED" in json.dumps(structured(refused))
    assert not accepted.is_error, structured(accepted)
