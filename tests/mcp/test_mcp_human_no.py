"""A human's no is final: promotion and retirement plans over the real `git memory mcp`.

The SDK's stdio client plays the MCP client and answers the approval form like a person:
an explicit decline voids the plan for every later path (the agent's digest, a new server,
`git memory promote --approve`), a cancel or a client without forms leaves the agent's digest
as the approval, and a digest the agent passes never stands in for the form when there is one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types

from tests.mcp.harness import ALL_TOOLS, Elicit, answer, server_parameters, stdio, structured
from tests.promote.helpers import authorizations, prepare_request, seed_candidate
from tests.repos import Repo
from tests.verify.helpers import write_entry

KINDS = ["promote", "retire"]
# Each kind once in each protocol era (a server process per case: the set stays small).
KIND_MODES = [("promote", "legacy"), ("retire", "2026-07-28")]
KIND_OTHER_MODES = [("promote", "2026-07-28"), ("retire", "legacy")]
Tool = tuple[str, dict[str, Any]]


@dataclass
class Subject:
    """A plan of one kind: the call that prepares it and the file it changes."""

    prepare: Tool
    target: Path
    before: bytes | None

    def unchanged(self) -> bool:
        """Whether the target holds what it held before the plan was made."""
        now = self.target.read_bytes() if self.target.exists() else None
        return now == self.before


def _subject(kind: str, repo: Repo) -> Subject:
    if kind == "promote":
        (repo.root / ".memory" / "entries").mkdir(parents=True)
        item = seed_candidate(repo.root, "cand-uv", "Run tests with uv run pytest")
        target = repo.root / ".memory/entries/run-tests-with-uv-run-pytest.md"
        return Subject(("memory_prepare", prepare_request(item)), target, None)
    path = write_entry(repo, "tests-with-tox", "Run the tests with `tox`.")
    repo.commit_all("memory")
    target = repo.root / path
    reason = {"ids": ["tests-with-tox"], "reason": "the project moved to uv"}
    return Subject(("memory_retire", reason), target, target.read_bytes())


Script = Callable[[Any], Awaitable[Any]]


def _session(
    repo: Repo, tmp_path: Path, script: Script, *, mode: str = "legacy", elicit: Elicit | None
) -> Any:
    """Run `script(client)` against one server process and return what it returns."""
    params = server_parameters(repo.root, ALL_TOOLS)

    async def scenario() -> Any:
        async with stdio(params, tmp_path / "err.log", mode=mode, elicit=elicit) as client:
            return await script(client)

    return anyio.run(scenario)


async def _prepared(client: Any, subject: Subject) -> dict[str, Any]:
    result = await client.call_tool(*subject.prepare)
    plan: dict[str, Any] = structured(result)
    assert not result.is_error, plan
    return plan


def _promote(plan: dict[str, Any], digest: str | None = None) -> Tool:
    arguments = {"plan": plan["planId"]}
    if digest is not None:
        arguments["approve"] = digest
    return "memory_promote", arguments


RIGHT = "the plan's own digest"


def _prepare_then_promote(subject: Subject, *approvals: str | None) -> Script:
    """Prepare a plan, then call memory_promote once per approval (None: pass none, RIGHT:
    the planDigest prepare returned); the script returns the plan and every result."""

    async def script(client: Any) -> tuple[dict[str, Any], list[Any]]:
        plan = await _prepared(client, subject)
        results = []
        for approve in approvals:
            digest = plan["planDigest"] if approve == RIGHT else approve
            results.append(structured(await client.call_tool(*_promote(plan, digest))))
        return plan, results

    return script


@pytest.mark.parametrize("kind", KINDS)
def test_a_declined_form_voids_the_plan_for_every_later_approval(
    kind: str, repo: Repo, tmp_path: Path, gm: Any
) -> None:
    subject = _subject(kind, repo)
    seen: list[types.ElicitRequestParams] = []

    # The human declines the form; the agent then approves with the digest prepare returned.
    declined = _prepare_then_promote(subject, None, RIGHT)
    plan, (first, retry) = _session(repo, tmp_path, declined, elicit=answer(None, seen))
    assert len(seen) == 1
    assert first["code"] == "GM_PLAN_DECLINED"
    assert first["details"] == {"form": "declined"}
    assert "prepare" in first["next"]
    assert retry["code"] == "GM_PLAN_DECLINED"  # and nobody was asked again

    cli = gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], cwd=repo.root)
    assert cli.exit_code == 1
    assert "GM_PLAN_DECLINED" in cli.stderr
    assert subject.unchanged()
    assert authorizations(repo.root) == []

    # Another server process refuses the digest too (without asking), and a new prepare
    # makes a fresh plan, which the human may approve.
    async def another_server(client: Any) -> tuple[Any, dict[str, Any], Any]:
        old = structured(await client.call_tool(*_promote(plan, plan["planDigest"])))
        again = await _prepared(client, subject)
        return old, again, structured(await client.call_tool(*_promote(again)))

    asked: list[types.ElicitRequestParams] = []
    old, again, promoted = _session(repo, tmp_path, another_server, elicit=answer("approve", asked))
    assert old["code"] == "GM_PLAN_DECLINED"
    assert again["planId"] != plan["planId"]
    assert promoted["approvedVia"] == "elicitation"
    assert len(asked) == 1
    assert again["planId"] in asked[0].message
    assert not subject.unchanged()
    assert authorizations(repo.root) == [
        ("elicitation", {"planId": again["planId"], "form": "approved"})
    ]


@pytest.mark.parametrize(
    ("kind", "mode", "decision"),
    [(*case, "reject") for case in KIND_MODES] + [(*case, "approve") for case in KIND_OTHER_MODES],
)
def test_the_human_answers_first_even_when_the_agent_passes_the_digest(
    kind: str, mode: str, decision: str, repo: Repo, tmp_path: Path
) -> None:
    subject = _subject(kind, repo)
    seen: list[types.ElicitRequestParams] = []

    # The digest comes with the first call; the human is asked all the same.
    attack = _prepare_then_promote(subject, RIGHT)
    plan, (outcome,) = _session(repo, tmp_path, attack, mode=mode, elicit=answer(decision, seen))
    assert len(seen) == 1
    assert plan["planId"] in seen[0].message
    if decision == "reject":
        assert outcome["code"] == "GM_PLAN_DECLINED"
        assert subject.unchanged()
        assert authorizations(repo.root) == []
        return
    assert outcome["approvedVia"] == "elicitation"
    assert outcome["notes"] == []
    assert not subject.unchanged()
    assert authorizations(repo.root) == [
        ("elicitation", {"planId": plan["planId"], "form": "approved"})
    ]


@pytest.mark.parametrize(("kind", "mode"), KIND_OTHER_MODES)
def test_a_cancelled_form_leaves_the_agents_digest_as_the_approval(
    kind: str, mode: str, repo: Repo, tmp_path: Path
) -> None:
    subject = _subject(kind, repo)
    seen: list[types.ElicitRequestParams] = []

    cancelled = _prepare_then_promote(subject, None, "0" * 64, RIGHT)
    elicit = answer("cancel", seen)
    plan, (first, wrong, applied) = _session(repo, tmp_path, cancelled, mode=mode, elicit=elicit)
    assert first["code"] == "GM_APPROVAL_REQUIRED"
    assert first["details"] == {"form": "cancelled"}
    assert plan["planDigest"] in first["next"]
    assert wrong["code"] == "GM_APPROVAL_MISMATCH"
    # Asked on the first call and again on the retry with the digest (which it cancelled).
    assert len(seen) == 2
    assert applied["approvedVia"] == "agent"
    assert any("cancelled" in note for note in applied["notes"])
    assert not subject.unchanged()
    assert authorizations(repo.root) == [("agent", {"planId": plan["planId"], "form": "cancelled"})]


@pytest.mark.parametrize("kind", KINDS)
def test_a_client_without_forms_is_told_and_approves_by_digest(
    kind: str, repo: Repo, tmp_path: Path
) -> None:
    subject = _subject(kind, repo)

    no_forms = _prepare_then_promote(subject, None, RIGHT)
    plan, (first, applied) = _session(repo, tmp_path, no_forms, elicit=None)
    assert first["code"] == "GM_APPROVAL_REQUIRED"
    assert first["details"] == {"form": "unsupported"}
    assert applied["approvedVia"] == "agent"
    assert applied["notes"] == []  # no form was shown, so there is nothing to tell
    assert not subject.unchanged()
    assert authorizations(repo.root) == [
        ("agent", {"planId": plan["planId"], "form": "unsupported"})
    ]


def test_a_form_the_client_cannot_show_leaves_the_digest(repo: Repo, tmp_path: Path) -> None:
    subject = _subject("promote", repo)

    async def refuse(context: Any, params: types.ElicitRequestParams) -> types.ErrorData:
        return types.ErrorData(code=-32600, message="no form UI here")

    failing = _prepare_then_promote(subject, None, RIGHT)
    plan, (first, applied) = _session(repo, tmp_path, failing, elicit=refuse)  # type: ignore[arg-type]
    assert first["code"] == "GM_MCP_ELICITATION_FAILED"
    assert first["details"] == {"form": "failed"}
    assert applied["approvedVia"] == "agent"
    assert any("could not show" in note for note in applied["notes"])
    assert authorizations(repo.root) == [("agent", {"planId": plan["planId"], "form": "failed"})]
