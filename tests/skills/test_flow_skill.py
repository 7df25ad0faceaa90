"""SkillCandidate through the real CLI: recall → stage → review → prepare → promote."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from git_memory.formats.skill_md import parse_skill
from tests.conftest import run_cli
from tests.consolidate.flow_support import (
    cli_json,
    error_code,
    prepare_and_promote,
    prepare_plan,
    stage_doc,
    write_entry,
)
from tests.extract.conftest import SampleRepo, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch

BODY = "# Release check\n\nRun the release tests before tagging.\n"


def _skill(
    recall: dict[str, Any], *, name: str = "release-check", body: str = BODY, **fields: Any
) -> dict[str, Any]:
    task = recall["tasks"][0]
    evidence = [item["evidenceId"] for item in task["evidenceCatalog"]][:1]
    skill = {
        "name": name,
        "description": "Run the release checks before a tag",
        "body": body,
        "action": "create",
        "expectedContentDigest": None,
        **fields,
    }
    return {
        "format": "git-memory-skill-candidate@v1",
        "taskId": task["taskId"],
        "binding": task["binding"],
        "memoryContextDigest": recall["memoryContext"]["bindingDigest"],
        "skill": skill,
        "statements": [
            {
                "statementId": "s1",
                "text": "The release tests run before tags.",
                "evidenceIds": evidence,
            }
        ],
    }


def _sample(tmp_path: Path, hermetic_env: dict[str, Path]) -> tuple[SampleRepo, dict[str, Any]]:
    sample = build_sample_repo(tmp_path, hermetic_env)
    return sample, sample.recall()


def _skill_file(sample: SampleRepo, name: str = "release-check") -> Path:
    return sample.root / ".memory" / "skills" / name / "SKILL.md"


def test_a_skill_goes_from_candidate_to_skill_md(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    staged = stage_doc(sample.root, _skill(recall), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    response = staged.json()
    assert response["skill"] is True
    assert response["candidates"][0]["kind"] == "skill"
    assert response["candidates"][0]["status"] == "quarantined"
    review = cli_json(["review", "--kind", "skill"], sample.root)
    (item,) = review["items"]
    assert item["content"].startswith('---\nname: "release-check"\n')
    assert item["statements"][0]["claimSupport"] == "unverified"
    assert item["statements"][0]["evidence"][0]["display"]
    result = prepare_and_promote(sample.root, "skill", tmp_path)
    assert result["files"] == [".memory/skills/release-check/SKILL.md"]
    written = parse_skill(_skill_file(sample).read_text())
    assert (written.name, written.body) == ("release-check", BODY)
    index = json.loads((sample.root / ".memory" / "index.json").read_text())
    assert [s["name"] for s in index["skills"]] == ["release-check"]
    assert sample.repo.snapshot() == before


def test_the_same_chunk_still_feeds_entry_drafts(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    assert stage_doc(sample.root, _skill(recall), tmp_path).exit_code == 0
    again = sample.recall()
    assert [t["taskId"] for t in again["tasks"]] == [recall["tasks"][0]["taskId"]]
    task = recall["tasks"][0]
    evidence = task["evidenceCatalog"][0]["evidenceId"]
    batch = draft_batch(task, [candidate("Run release tests first.", [("They ran.", [evidence])])])
    drafted = stage_doc(sample.root, batch, tmp_path)
    assert drafted.exit_code == 0, drafted.stdout
    result = stage_doc(sample.root, decisions(drafted.json()["adjudicationTask"]), tmp_path)
    assert result.exit_code == 0, result.stdout
    kinds = sorted(i["kind"] for i in cli_json(["review"], sample.root)["items"])
    assert kinds == ["entry", "skill"]


def test_identical_bytes_replay(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    first = stage_doc(sample.root, _skill(recall), tmp_path)
    second = stage_doc(sample.root, _skill(recall), tmp_path)
    assert first.exit_code == second.exit_code == 0
    assert first.json()["candidates"] == second.json()["candidates"]
    assert len(cli_json(["review", "--kind", "skill"], sample.root)["items"]) == 1


def test_update_binds_the_current_content_digest(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    assert stage_doc(sample.root, _skill(recall), tmp_path).exit_code == 0
    prepare_and_promote(sample.root, "skill", tmp_path)
    current = hashlib.sha256(_skill_file(sample).read_bytes()).hexdigest()
    replay = stage_doc(sample.root, _skill(recall), tmp_path)  # the same bytes: replayed
    assert replay.json()["candidates"][0]["status"] == "promoted"
    again = stage_doc(sample.root, _skill(recall, body="# Another\n"), tmp_path)
    assert error_code(again) == "GM_SKILL_EXISTS"
    stale = _skill(recall, body="# Old\n", action="update", expectedContentDigest="0" * 64)
    refused = stage_doc(sample.root, stale, tmp_path)
    assert error_code(refused) == "GM_BINDING_DRIFT"
    assert json.loads(refused.stdout)["error"]["details"]["reason"] == "skill-content"
    update = _skill(recall, body="# Release\n\nTag after the checks.\n", action="update",
                    expectedContentDigest=current)  # fmt: skip
    assert stage_doc(sample.root, update, tmp_path).exit_code == 0
    prepare_and_promote(sample.root, "skill", tmp_path)
    assert (
        parse_skill(_skill_file(sample).read_text()).body == "# Release\n\nTag after the checks.\n"
    )


def test_update_of_a_missing_skill(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    update = _skill(recall, action="update", expectedContentDigest="1" * 64)
    assert error_code(stage_doc(sample.root, update, tmp_path)) == "GM_SKILL_NOT_FOUND"


def test_memory_context_must_match_at_stage(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    document = _skill(recall)
    document["memoryContextDigest"] = "2" * 64
    refused = stage_doc(sample.root, document, tmp_path)
    assert error_code(refused) == "GM_BINDING_DRIFT"
    assert json.loads(refused.stdout)["error"]["details"]["reason"] == "memory-context"
    forged = _skill(recall)
    forged["binding"] = {**forged["binding"], "promptVersion": "memory-prompts@0"}
    assert error_code(stage_doc(sample.root, forged, tmp_path)) == "GM_BINDING_DRIFT"
    assert cli_json(["review", "--kind", "skill"], sample.root)["items"] == []


def test_memory_change_after_stage_is_drift_at_review_and_prepare(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    assert stage_doc(sample.root, _skill(recall), tmp_path).exit_code == 0
    write_entry(sample.root, "new-rule", "Never tag on Fridays.")
    review = run_cli(["review", "--kind", "skill", "--format", "json"], cwd=sample.root)
    assert error_code(review) == "GM_BINDING_DRIFT"
    # reviewing everything is not blocked by the drifted skill: it is left out there
    everything = run_cli(["review", "--format", "json"], cwd=sample.root)
    assert everything.exit_code == 0, everything.stdout
    assert all(item["kind"] != "skill" for item in everything.json()["items"])
    from tests.review_helpers import prepare_document  # built from the item as shown

    path = tmp_path / "stale-prepare.json"
    entry = sample.root / ".memory" / "entries" / "new-rule.md"
    entry.unlink()
    shown = cli_json(["review", "--kind", "skill"], sample.root)["items"]
    path.write_text(json.dumps(prepare_document(shown, "skill")))
    write_entry(sample.root, "new-rule", "Never tag on Fridays.")
    prepared = run_cli(["prepare", "--request", str(path), "--format", "json"], cwd=sample.root)
    assert error_code(prepared) == "GM_BINDING_DRIFT"


def test_memory_change_after_prepare_is_drift_at_promote(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    assert stage_doc(sample.root, _skill(recall), tmp_path).exit_code == 0
    prepared = prepare_plan(sample.root, "skill", tmp_path)
    assert prepared.exit_code == 0, prepared.stdout
    plan = prepared.json()
    write_entry(sample.root, "new-rule", "Never tag on Fridays.")
    args = [
        "promote",
        "--plan",
        plan["planId"],
        "--approve",
        plan["planDigest"],
        "--format",
        "json",
    ]
    assert error_code(run_cli(args, cwd=sample.root)) == "GM_BINDING_DRIFT"
    assert not _skill_file(sample).exists()
    assert error_code(run_cli(args, cwd=sample.root)) == "GM_PLAN_VOIDED"


def test_statements_cite_recall_evidence(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    document = _skill(recall)
    document["statements"][0]["evidenceIds"] = ["ev-999-000000000000"]
    assert error_code(stage_doc(sample.root, document, tmp_path)) == "GM_NO_CITABLE_STATEMENTS"
    unknown = _skill(recall)
    unknown["taskId"] = "extract-" + "3" * 64
    assert error_code(stage_doc(sample.root, unknown, tmp_path)) == "GM_TASK_NOT_FOUND"


def test_skill_md_is_validated_and_linted(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    carriage = _skill(recall, body="# Steps\r\nrun it\n")
    refused = stage_doc(sample.root, carriage, tmp_path)
    assert error_code(refused) == "GM_SKILL_INVALID"
    assert json.loads(refused.stdout)["error"]["details"]["formatCode"] == (
        "GM_FORMAT_CRLF_NOT_ALLOWED"
    )
    secret = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    leaked = _skill(recall, body=f"# Steps\nexport TOKEN={secret}\n")
    blocked = stage_doc(sample.root, leaked, tmp_path)
    assert error_code(blocked) == "GM_LINT_BLOCKED"
    assert secret not in blocked.stdout
    assert cli_json(["review", "--kind", "skill"], sample.root)["items"] == []


def test_two_candidates_for_one_skill(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample, recall = _sample(tmp_path, hermetic_env)
    assert stage_doc(sample.root, _skill(recall), tmp_path).exit_code == 0
    assert stage_doc(sample.root, _skill(recall, body="# Other\n"), tmp_path).exit_code == 0
    assert error_code(prepare_plan(sample.root, "skill", tmp_path)) == "GM_REQUEST_INVALID"
    from tests.review_helpers import prepare_document

    items = cli_json(["review", "--kind", "skill"], sample.root)["items"]
    for number, item in enumerate(items):
        path = tmp_path / f"one-{number}.json"
        path.write_text(json.dumps(prepare_document([item], "skill")))
    first = cli_json(["prepare", "--request", str(tmp_path / "one-0.json")], sample.root)
    cli_json(["promote", "--plan", first["planId"], "--approve", first["planDigest"]], sample.root)
    second = run_cli(
        ["prepare", "--request", str(tmp_path / "one-1.json"), "--format", "json"], cwd=sample.root
    )
    assert error_code(second) == "GM_SKILL_EXISTS"  # a create needs the target absent
