"""The agent path through the MCP SDK client: evidence ids that cannot be confused across
tasks, and an update that replaces the quarantined candidate it names."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch, sample_batch
from tests.mcp.harness import server_parameters, stdio, structured


def _recall(provider: str) -> dict[str, Any]:
    window = {"after": SINCE, "before": UNTIL}
    return {"request": {"window": window, "filters": {"providers": [provider]}}}


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    result = await client.call_tool(tool, arguments)
    return not result.is_error, structured(result)


async def _task(client: Client, provider: str) -> dict[str, Any]:
    ok, recalled = await _call(client, "memory_recall", _recall(provider))
    assert ok, recalled
    (task,) = recalled["tasks"]
    return dict(task)


def _turn(task: dict[str, Any], number: int = 0) -> str:
    return str(task["chunk"]["turnEvidence"][number]["evidenceId"])


def test_an_evidence_id_of_another_task_is_refused(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)

    async def scenario() -> dict[str, Any]:
        async with stdio(server_parameters(sample.root), tmp_path / "err.log") as client:
            claude, codex = await _task(client, "claude"), await _task(client, "codex")
            ids = {i["evidenceId"] for i in claude["evidenceCatalog"]}
            assert ids.isdisjoint(i["evidenceId"] for i in codex["evidenceCatalog"])
            text = "The test suite runs with `uv run pytest -q`."
            cited = draft_batch(claude, [candidate(text, [(text, [_turn(codex)])])])
            quoted = sample_batch(claude)
            statement = quoted["candidates"][0]["statements"][0]
            statement["quotes"] = [
                {"evidenceId": _turn(codex), "part": "user", "text": "uv run pytest"}
            ]
            outcomes = {
                "cited": await _call(client, "memory_stage_drafts", cited),
                "quoted": await _call(client, "memory_stage_drafts", quoted),
                "own": await _call(client, "memory_stage_drafts", sample_batch(claude)),
            }
            return {"claude": claude, "codex": codex, **outcomes}

    outcome = anyio.run(scenario)
    claude, codex = outcome["claude"]["taskId"], outcome["codex"]["taskId"]
    for name in ("cited", "quoted"):
        ok, error = outcome[name]
        assert not ok
        assert error["code"] == "GM_EVIDENCE_FOREIGN"
        assert claude in error["problem"]
        assert codex in error["problem"]
        assert error["details"]["foreign"] == [
            {"evidenceId": _turn(outcome["codex"]), "taskId": codex}
        ]
    # Nothing was staged by the refusals: the task is still answerable with its own ids.
    ok, staged = outcome["own"]
    assert ok, staged
    assert staged["status"] == "adjudication-required"


def test_update_replaces_the_quarantined_candidate(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    old_text = "Run the test suite with `uv run pytest -q`."
    new_text = "Run the tests with `uv run pytest -q` before every commit."

    async def scenario() -> tuple[str, str, dict[str, Any]]:
        async with stdio(server_parameters(sample.root), tmp_path / "err.log") as client:
            claude, codex = await _task(client, "claude"), await _task(client, "codex")
            ok, staged = await _call(client, "memory_stage_drafts", sample_batch(claude))
            assert ok, staged
            ok, stored = await _call(
                client, "memory_stage_adjudication", decisions(staged["adjudicationTask"])
            )
            assert ok, stored
            target = f"{claude['taskId']}-c1"
            statement = "The test suite runs with `uv run pytest -q`."
            batch = draft_batch(codex, [candidate(new_text, [(statement, [_turn(codex)])])])
            ok, staged = await _call(client, "memory_stage_drafts", batch)
            assert ok, staged
            adjudication = staged["adjudicationTask"]
            assert target in {item["id"] for item in adjudication["pool"]}
            ref = adjudication["drafts"][0]["candidateId"]
            update = {
                "draftRef": ref,
                "action": "update",
                "targetIds": [target],
                "mergedFields": {"content": new_text},
            }
            ok, decided = await _call(
                client, "memory_stage_adjudication", decisions(adjudication, **{ref: update})
            )
            assert ok, decided
            ok, review = await _call(client, "memory_review", {})
            assert ok, review
            return target, ref, review

    target, ref, review = anyio.run(scenario)
    shown = {item["candidateId"]: item for item in review["items"]}
    assert target not in shown, "the updated candidate left review"
    assert len(shown) == 2  # the lint candidate of the first batch, and the update
    assert shown[ref]["content"] == new_text
    assert shown[ref]["replacesCandidates"] == [{"candidateId": target, "content": old_text}]


def _resume(original: Path) -> Path:
    """A resumed Claude Code session: the original's records under a new session id, then one
    new exchange."""
    new_id = "0b5e7a52-9c1d-4c57-8d0e-6f1a2b3c4d5e"
    records = [json.loads(line) for line in original.read_text().splitlines() if line.strip()]
    old_id = records[0]["sessionId"]
    for record in records:
        record["sessionId"] = new_id
    day = records[-1]["timestamp"][:10]
    base = {key: records[0][key] for key in ("cwd", "version", "gitBranch", "userType")}
    base |= {"parentUuid": None, "isSidechain": False, "sessionId": new_id}
    records.append(
        base
        | {
            "type": "user",
            "message": {"role": "user", "content": "Add a changelog line for the import fix."},
            "uuid": "r1",
            "timestamp": f"{day}T11:00:00.000Z",
        }
    )
    reply = {"role": "assistant", "content": [{"type": "text", "text": "Added it."}]}
    records.append(
        base
        | {"type": "assistant", "message": reply, "uuid": "r1-0", "timestamp": f"{day}T11:00:05Z"}
    )
    resumed = original.with_name(f"{new_id}.jsonl")
    resumed.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert old_id != new_id
    idle = time.time() - 3600
    os.utime(resumed, (idle, idle))
    return resumed


def test_a_resumed_sessions_replayed_turns_are_handed_out_once(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    _resume(sample.samples.claude)

    async def scenario() -> dict[str, Any]:
        async with stdio(server_parameters(sample.root), tmp_path / "err.log") as client:
            request = {**_recall("claude"), "limit": 8}
            ok, recalled = await _call(client, "memory_recall", request)
            assert ok, recalled
            return dict(recalled)

    recalled = anyio.run(scenario)
    assert recalled["selection"]["matchedSessions"] == 2
    assert len(recalled["tasks"]) == 2  # the resumed session's task holds only its new turn
    transcripts = [task["chunk"]["transcript"] for task in recalled["tasks"]]
    assert sum(text.count("Run the test suite and tell me") for text in transcripts) == 1
    assert sum(text.count("Add a changelog line") for text in transcripts) == 1
