"""`git memory recall`: selection, tasks, determinism and refusals (issue 6)."""

from __future__ import annotations

import json
from typing import Any

from git_memory.contracts.recall import AgentRecall
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo


def _without_lease(task: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in task.items() if k != "lease"}


def test_recall_returns_tasks_with_evidence_and_contexts(sample_repo: SampleRepo) -> None:
    before = sample_repo.repo.snapshot()
    document = sample_repo.recall("--limit", "8")
    AgentRecall.model_validate(document)
    assert document["selection"]["matchedSessions"] == 2
    assert document["selection"]["pendingChunks"] == 2
    tasks = document["tasks"]
    assert len(tasks) == 2
    claude = next(t for t in tasks if "uv run pytest -q" in t["chunk"]["transcript"])
    assert claude["taskId"] == "extract-" + claude["binding"]["sourceInputDigest"]
    displays = {item["display"] for item in claude["evidenceCatalog"]}
    assert "path src/app.py" in displays
    assert any(d.startswith(f"commit {sample_repo.commit}") for d in displays)
    assert claude["chunk"]["turnRange"] == {"start": 0, "end": 4}
    assert [e["turnIndex"] for e in claude["chunk"]["turnEvidence"]] == [0, 1, 2, 3, 4]
    text = json.dumps(document)
    assert str(sample_repo.root) not in text, "absolute paths never leave the host"
    assert "strength" not in json.dumps(claude["evidenceCatalog"])
    assert document["memoryContext"]["format"] == "git-memory-skill-context@v1"
    assert sample_repo.repo.snapshot() == before


def test_recall_is_deterministic(sample_repo: SampleRepo) -> None:
    first = sample_repo.recall("--limit", "8")["tasks"]
    second = sample_repo.recall("--limit", "8")["tasks"]
    assert [_without_lease(t) for t in first] == [_without_lease(t) for t in second]


def test_recall_limit_and_provider_filter(sample_repo: SampleRepo) -> None:
    one = sample_repo.recall()
    assert len(one["tasks"]) == 1
    assert "more pending chunks" in one["note"]
    codex = sample_repo.recall("--providers", "codex", "--limit", "8")
    assert len(codex["tasks"]) == 1
    assert "make integration" in codex["tasks"][0]["chunk"]["transcript"]


def test_recall_tool_filter(sample_repo: SampleRepo) -> None:
    sample_repo.repo.git("config", "memory.minSessionTurns", "3")
    edits = sample_repo.recall("--tools", "Edit", "--limit", "8")
    # Only one Claude turn used Edit: its session falls under the three-turn gate.
    assert edits["tasks"] == []
    assert edits["selection"]["rejectedSessions"] == 1


def test_recall_needs_a_window(sample_repo: SampleRepo) -> None:
    result = run_cli(["recall"], cwd=sample_repo.root)
    assert result.exit_code == 2
    assert "[GM_USAGE]" in result.stderr


def test_recall_refuses_an_invalid_request(sample_repo: SampleRepo) -> None:
    bad = run_cli(
        ["recall", "--since", UNTIL, "--until", SINCE, "--format", "json"], cwd=sample_repo.root
    )
    assert bad.exit_code == 2, "a reversed window is a usage error"
    assert bad.json()["error"]["code"] == "GM_REQUEST_INVALID"
    long = run_cli(
        ["recall", "--since", "2024-01-01T00:00:00.000Z", "--until", UNTIL], cwd=sample_repo.root
    )
    assert "[GM_REQUEST_INVALID]" in long.stderr


def test_too_many_turns_is_refused_with_counts(sample_repo: SampleRepo, monkeypatch: Any) -> None:
    import git_memory.extract.select as select_module

    monkeypatch.setattr(select_module, "MAX_MATCHING_TURNS", 5)
    result = run_cli(
        ["recall", "--since", SINCE, "--until", UNTIL, "--format", "json"], cwd=sample_repo.root
    )
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "GM_QUERY_TOO_BROAD"
    assert error["details"]["matchingTurns"] == 8
    assert error["details"]["perDay"] == {"2026-11-20": 5, "2026-11-21": 3}
    assert error["details"]["perProvider"] == {"claude": 5, "codex": 3}


def test_min_session_turns_config(sample_repo: SampleRepo) -> None:
    sample_repo.repo.git("config", "memory.minSessionTurns", "1")
    edits = sample_repo.recall("--tools", "Edit", "--limit", "8")
    assert len(edits["tasks"]) == 1
    sample_repo.repo.git("config", "memory.minSessionTurns", "zero")
    bad = run_cli(["recall", "--since", SINCE, "--until", UNTIL], cwd=sample_repo.root)
    assert "[GM_CONFIG_INVALID]" in bad.stderr


def test_recall_and_extract_take_a_bare_extraction_request_file(
    sample_repo: SampleRepo, tmp_path: Any
) -> None:
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps(
            {
                "format": "git-memory-extraction-request@v1",
                "window": {"after": SINCE, "before": UNTIL},
                "filters": {"providers": ["codex"]},
            }
        )
    )
    recalled = run_cli(
        ["recall", "--request", str(request), "--limit", "8", "--format", "json"],
        cwd=sample_repo.root,
    )
    assert recalled.exit_code == 0, recalled.stderr
    assert len(recalled.json()["tasks"]) == 1
    extracted = run_cli(
        ["extract", "--runner", "builtin", "--request", str(request), "--format", "json"],
        cwd=sample_repo.root,
    )
    assert extracted.exit_code == 0, extracted.stderr
    assert extracted.json()["quarantined"]


def test_recall_takes_plain_dates_and_syncs_new_transcripts(sample_repo: SampleRepo) -> None:
    import os
    import time

    from tests.sessions.transcripts import append_jsonl, claude_turn

    dated = run_cli(
        ["recall", "--since", "2026-11-01", "--until", "2026-12-01", "--format", "json"],
        cwd=sample_repo.root,
    )
    assert dated.exit_code == 0, dated.stderr
    assert dated.json()["selection"]["matchedSessions"] == 2
    bad = run_cli(
        ["recall", "--since", "last tuesday", "--until", "2026-12-01"], cwd=sample_repo.root
    )
    assert "[GM_REQUEST_INVALID]" in bad.stderr
    # a turn appended since the last `sessions sync` is seen without another sync
    cwd = str(sample_repo.root)
    append_jsonl(
        sample_repo.samples.claude,
        [
            dict(r, timestamp="2026-11-20T10:00:00.000Z")
            for r in claude_turn("Also document the deploy.", "Done.", cwd, "msg_new")
        ],
    )
    idle = time.time() - 3600
    os.utime(sample_repo.samples.claude, (idle, idle))
    after = sample_repo.recall("--providers", "claude")
    assert "Also document the deploy." in after["tasks"][0]["chunk"]["transcript"]


def test_stage_without_a_document_says_what_it_needs(sample_repo: SampleRepo) -> None:
    result = run_cli(["stage"], cwd=sample_repo.root)
    assert result.exit_code == 2
    assert "stage needs the document to stage" in result.stderr
