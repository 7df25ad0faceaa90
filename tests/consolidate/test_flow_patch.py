"""ConsolidationPatch through the real CLI: stage → review → prepare → promote, and refusals."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from git_memory.formats.scene import parse_scene
from tests.conftest import run_cli
from tests.consolidate.flow_support import (
    cli_json,
    error_code,
    operation,
    patch,
    prepare_and_promote,
    prepare_plan,
    scene_content,
    stage_doc,
    write_entries,
    write_entry,
    write_scene,
)
from tests.repos import Repo


def _synth(root: Path, *flags: str) -> dict[str, Any]:
    task: dict[str, Any] = cli_json(["synthesize", *flags], root)["task"]
    assert task is not None
    return task


def _scene(root: Path, name: str) -> Path:
    return root / ".memory" / "scenes" / f"{name}.md"


def test_entries_become_a_promoted_scene_with_host_heat(repo: Repo, tmp_path: Path) -> None:
    repo.write("README.md", "app\n")
    repo.commit_all("init")
    ids = write_entries(repo.root, 20)
    write_scene(repo.root, "release", "Release flow", heat=3)
    before = repo.snapshot()
    task = _synth(repo.root, "--if-due")
    update = operation(
        "update",
        "release",
        scene_content("Release flow", ["run the checks", "tag from main"], heat=99),
        ids[:10],
        rationale="fold the release checks into the release scene",
    )
    create = operation(
        "create",
        "tagging",
        scene_content("Tagging", ["tag after checks"]),
        ids[10:],
        op_id="op-2",
        rationale="tagging rules are their own topic",
    )
    staged = stage_doc(repo.root, patch(task, [update, create]), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    response = staged.json()
    assert response["noOp"] is False
    assert response["candidates"][0]["kind"] == "consolidation"
    review = run_cli(["review", "--kind", "consolidation"], cwd=repo.root)
    assert review.exit_code == 0, review.stderr
    for shown in (
        "UPDATE scene release",
        "path: scenes/release.md",
        "rationale: fold the release checks into the release scene",
        "--- current/scenes/release.md",
        "+++ proposed/scenes/release.md",
        "+heat: 4",
        "-heat: 3",
        "CREATE scene tagging",
        "[unverified, contextual]:",
    ):
        assert shown in review.stdout, shown
    statements = cli_json(["review", "--kind", "consolidation"], repo.root)["items"][0]
    assert [s["statementId"] for s in statements["statements"]] == ["op-1", "op-2"]
    assert {e["evidenceId"] for e in statements["statements"][0]["evidence"]} == set(ids[:10])
    result = prepare_and_promote(repo.root, "consolidation", tmp_path)
    assert sorted(result["files"]) == [
        ".memory/scenes/release.md",
        ".memory/scenes/tagging.md",
    ]
    release = parse_scene(_scene(repo.root, "release").read_text())
    assert release.heat == 4  # old 3 + 1, the model's 99 discarded
    assert parse_scene(_scene(repo.root, "tagging").read_text()).heat == 1
    index = json.loads((repo.root / ".memory" / "index.json").read_text())
    assert {"name": "tagging", "heat": 1, "summary": "Tagging"} in index["scenes"]
    assert repo.snapshot() == before  # HEAD, refs and the index are untouched
    assert "No new or changed" in cli_json(["synthesize"], repo.root)["note"]
    assert cli_json(["review", "--kind", "consolidation"], repo.root)["items"] == []


def test_merge_sums_heat_and_deletes_its_sources(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    write_scene(repo.root, "alpha", "Alpha", heat=2)
    write_scene(repo.root, "beta", "Beta", heat=3)
    task = _synth(repo.root)
    merge = operation(
        "merge",
        "alpha",
        scene_content("Alpha and beta", ["one topic"]),
        ids,
        sources=["alpha", "beta"],
    )
    staged = stage_doc(repo.root, patch(task, [merge]), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    text = staged.json()["reviewItems"][0]["statements"][0]["text"]
    assert "sources: alpha, beta" in text
    assert "delete: scenes/beta.md" in text
    result = prepare_and_promote(repo.root, "consolidation", tmp_path)
    assert sorted(result["files"]) == [".memory/scenes/alpha.md", ".memory/scenes/beta.md"]
    assert parse_scene(_scene(repo.root, "alpha").read_text()).heat == 6  # 1 + 2 + 3
    assert not _scene(repo.root, "beta").exists()


def test_doctrine_create(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    task = _synth(repo.root)
    doctrine = operation(
        "create", "doctrine", "## Doctrine\n- Run the checks before any tag.  \n", ids,
        target="doctrine",
    )  # fmt: skip
    assert stage_doc(repo.root, patch(task, [doctrine]), tmp_path).exit_code == 0
    prepare_and_promote(repo.root, "consolidation", tmp_path)
    written = (repo.root / ".memory" / "doctrine.md").read_text()
    assert written.startswith("## Doctrine\n- Run the checks before any tag.")
    assert "  \n" not in written  # normalized: trailing blanks stripped


def test_empty_patch_is_a_visible_no_op_run(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 2)
    task = _synth(repo.root)
    staged = stage_doc(repo.root, patch(task, []), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    response = staged.json()
    assert response["noOp"] is True
    assert response["candidates"] == []
    assert "no-op consolidation run run-" in response["next"]
    text = run_cli(["stage", "--request", str(next(tmp_path.glob("doc-*.json")))], cwd=repo.root)
    assert "(no-op)" in text.stdout  # identical bytes replay the recorded outcome
    assert cli_json(["review", "--kind", "consolidation"], repo.root)["items"] == []


def test_a_rule_violation_records_nothing_and_a_fix_can_be_staged(
    repo: Repo, tmp_path: Path
) -> None:
    ids = write_entries(repo.root, 2)
    task = _synth(repo.root)
    content = scene_content("Release flow", ["check"])
    bad = operation("create", "release", content, [*ids, "no-such-entry"])
    refused = stage_doc(repo.root, patch(task, [bad]), tmp_path)
    assert error_code(refused) == "GM_PATCH_INVALID"
    assert json.loads(refused.stdout)["error"]["details"]["rule"] == "entry-ref-unknown"
    assert cli_json(["review"], repo.root)["items"] == []
    fixed = stage_doc(
        repo.root, patch(task, [operation("create", "release", content, ids)]), tmp_path
    )
    assert fixed.exit_code == 0, fixed.stdout


def test_capacity_is_enforced_through_stage(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 1)
    for n in range(14):
        write_scene(repo.root, f"s{n:02d}", f"Scene {n}", heat=1)
    task = _synth(repo.root)
    create = operation(
        "create", "extra", scene_content("Extra", ["x"]), ids,
        rationale="it cannot fit any existing scene",
    )  # fmt: skip
    refused = stage_doc(repo.root, patch(task, [create]), tmp_path)
    assert error_code(refused) == "GM_SCENE_CAPACITY"
    assert json.loads(refused.stdout)["error"]["details"]["rule"] == "create-forbidden"


def test_different_bytes_for_a_staged_task_conflict(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    task = _synth(repo.root)
    first = operation("create", "release", scene_content("Release flow", ["a"]), ids)
    assert stage_doc(repo.root, patch(task, [first]), tmp_path).exit_code == 0
    replay = stage_doc(repo.root, patch(task, [first]), tmp_path)
    assert replay.exit_code == 0
    assert replay.json()["candidates"][0]["revision"] == 1
    other = operation("create", "release", scene_content("Release flow", ["b"]), ids)
    assert error_code(stage_doc(repo.root, patch(task, [other]), tmp_path)) == (
        "GM_SUBMISSION_CONFLICT"
    )


def test_binding_echo_and_unknown_task(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 2)
    task = _synth(repo.root)
    forged = patch(task, [])
    forged["binding"] = {**task["binding"], "policyVersion": "consolidation-policy@0"}
    assert error_code(stage_doc(repo.root, forged, tmp_path)) == "GM_BINDING_DRIFT"
    unknown = patch(task, [])
    unknown["taskId"] = "consolidate-" + "0" * 64
    assert error_code(stage_doc(repo.root, unknown, tmp_path)) == "GM_TASK_NOT_FOUND"


def test_memory_changed_before_stage_is_drift(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    task = _synth(repo.root)
    write_entry(repo.root, ids[0], "Always run the release check, now with a new step.")
    refused = stage_doc(repo.root, patch(task, []), tmp_path)
    assert error_code(refused) == "GM_BINDING_DRIFT"
    assert json.loads(refused.stdout)["error"]["details"]["reason"] == "memory-changed"


def _staged_update(repo: Repo, tmp_path: Path) -> list[str]:
    ids = write_entries(repo.root, 2)
    write_scene(repo.root, "release", "Release flow", heat=1)
    task = _synth(repo.root)
    update = operation("update", "release", scene_content("Release flow", ["new"]), ids)
    assert stage_doc(repo.root, patch(task, [update]), tmp_path).exit_code == 0
    return ids


def test_memory_changed_before_prepare_is_drift(repo: Repo, tmp_path: Path) -> None:
    ids = _staged_update(repo, tmp_path)
    write_entry(repo.root, ids[1], "Never tag without a changelog.")
    assert error_code(prepare_plan(repo.root, "consolidation", tmp_path)) == "GM_BINDING_DRIFT"


def test_memory_changed_before_promote_is_drift_and_voids(repo: Repo, tmp_path: Path) -> None:
    ids = _staged_update(repo, tmp_path)
    prepared = prepare_plan(repo.root, "consolidation", tmp_path)
    assert prepared.exit_code == 0, prepared.stdout
    plan = prepared.json()
    write_entry(repo.root, ids[1], "Never tag without a changelog.")
    args = ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]]
    refused = run_cli([*args, "--format", "json"], cwd=repo.root)
    assert error_code(refused) == "GM_BINDING_DRIFT"
    assert parse_scene(_scene(repo.root, "release").read_text()).heat == 1  # untouched
    assert error_code(run_cli([*args, "--format", "json"], cwd=repo.root)) == "GM_PLAN_VOIDED"


def test_a_second_pending_patch_is_refused(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    incremental = _synth(repo.root)
    full = _synth(repo.root, "--full")
    assert full["taskId"] != incremental["taskId"]
    content = scene_content("Release flow", ["a"])
    first = patch(incremental, [operation("create", "release", content, ids)])
    assert stage_doc(repo.root, first, tmp_path).exit_code == 0
    second = patch(full, [operation("create", "other", content, ids)])
    assert error_code(stage_doc(repo.root, second, tmp_path)) == "GM_CONSOLIDATION_PENDING"


def test_scene_delete(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 1)
    write_scene(repo.root, "alpha", "Alpha", heat=2)
    write_scene(repo.root, "beta", "Beta", heat=1)
    task = _synth(repo.root)
    delete = operation("delete", "beta", None, [], rationale="beta is covered by alpha")
    staged = stage_doc(repo.root, patch(task, [delete]), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    assert "DELETE scene beta" in staged.json()["reviewItems"][0]["statements"][0]["text"]
    result = prepare_and_promote(repo.root, "consolidation", tmp_path)
    assert result["files"] == [".memory/scenes/beta.md"]
    assert not _scene(repo.root, "beta").exists()
    assert parse_scene(_scene(repo.root, "alpha").read_text()).heat == 2


def test_scene_edited_after_prepare_voids_the_plan(repo: Repo, tmp_path: Path) -> None:
    _staged_update(repo, tmp_path)
    prepared = prepare_plan(repo.root, "consolidation", tmp_path)
    assert prepared.exit_code == 0, prepared.stdout
    plan = prepared.json()
    edited = _scene(repo.root, "release")
    edited.write_text(edited.read_text() + "- a hand edit\n")
    args = [
        "promote",
        "--plan",
        plan["planId"],
        "--approve",
        plan["planDigest"],
        "--format",
        "json",
    ]
    assert error_code(run_cli(args, cwd=repo.root)) == "GM_BINDING_DRIFT"
    assert edited.read_text().endswith("- a hand edit\n")  # the third-party edit is kept


def test_a_format_without_a_handler_is_unsupported(
    repo: Repo, tmp_path: Path, monkeypatch: Any
) -> None:
    from git_memory.ops import stage as stage_op

    write_entries(repo.root, 1)
    task = _synth(repo.root)
    handlers = dict(stage_op.STAGE_HANDLERS)
    handlers.pop("git-memory-consolidation-patch@v1")
    monkeypatch.setattr(stage_op, "STAGE_HANDLERS", handlers)
    assert error_code(stage_doc(repo.root, patch(task, []), tmp_path)) == "GM_STAGE_UNSUPPORTED"


def _budget_scene(filler: str, newline: str = "\n") -> str:
    meta = scene_content("Budget", []).split("## Budget")[0]
    return (meta + f"## T\n{filler}\n").replace("\n", newline)


def test_code_point_budget_counts_after_normalization(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 1)
    task = _synth(repo.root)
    at_limit = "e\u0301" * 747  # 1494 code points (a letter and a combining accent: 2 each)
    over = operation("create", "budget", _budget_scene(at_limit + "x"), ids)
    refused = stage_doc(repo.root, patch(task, [over]), tmp_path)
    assert error_code(refused) == "GM_PATCH_INVALID"
    details = json.loads(refused.stdout)["error"]["details"]
    assert details["formatCode"] == "GM_FORMAT_SCENE_BODY_TOO_LONG"
    # CRLF adds a code point per line before normalization; the budget counts after it.
    fits = operation("create", "budget", _budget_scene(at_limit, "\r\n"), ids)
    staged = stage_doc(repo.root, patch(task, [fits]), tmp_path)
    assert staged.exit_code == 0, staged.stdout
    prepare_and_promote(repo.root, "consolidation", tmp_path)
    body = parse_scene(_scene(repo.root, "budget").read_text()).body
    # Stored documents are canonical JSON, whose strings are NFC: the file holds é composed.
    assert body == unicodedata.normalize("NFC", f"## T\n{at_limit}\n")


def test_budget_holds_for_the_stored_nfc_form(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 1)
    task = _synth(repo.root)
    # U+0958 is one code point that NFC (applied to every stored string) writes as two.
    filler = "\u0958" + "x" * 1493  # 1494 code points as sent, 1495 once stored
    grows = operation("create", "budget", _budget_scene(filler), ids)
    refused = stage_doc(repo.root, patch(task, [grows]), tmp_path)
    assert error_code(refused) == "GM_PATCH_INVALID"
    assert json.loads(refused.stdout)["error"]["details"]["formatCode"] == (
        "GM_FORMAT_SCENE_BODY_TOO_LONG"
    )
    assert cli_json(["review"], repo.root)["items"] == []


def _digest_of(root: Path, plan_id: str) -> str:
    """The stored digest of a plan (what a person reads off the diff screen)."""
    import os
    import sqlite3

    db = sqlite3.connect(Path(os.environ["GIT_MEMORY_HOME"]) / "memory-state.sqlite3")
    (digest,) = db.execute(
        "SELECT plan_digest FROM promotion_journal WHERE plan_id = ?", (plan_id,)
    ).fetchone()
    db.close()
    return str(digest)


def test_terminal_review_confirms_each_operation(
    repo: Repo, tmp_path: Path, monkeypatch: Any
) -> None:
    from git_memory import output
    from git_memory.ops.base import OpContext, load_operation

    ids = write_entries(repo.root, 2)
    write_scene(repo.root, "release", "Release flow", heat=1)
    task = _synth(repo.root)
    update = operation("update", "release", scene_content("Release flow", ["new"]), ids)
    doctrine = operation(
        "create", "doctrine", "## Doctrine\n- Check first.\n", ids, op_id="op-2", target="doctrine"
    )
    assert stage_doc(repo.root, patch(task, [update, doctrine]), tmp_path).exit_code == 0
    shown: list[str] = []
    answers: list[str] = []

    def choose(question: str, choices: str, default: str) -> str:
        answers.append(question)
        return "c"

    real_echo = output.echo
    asked_to_write: list[str] = []
    monkeypatch.setattr(output, "prompt_choice", choose)

    # Keep the plan instead of writing it at the end of the review: applied below by the CLI.
    def keep_for_later(question: str, default: bool = False) -> bool:
        asked_to_write.append(question)
        return False

    monkeypatch.setattr(output, "confirm", keep_for_later)
    monkeypatch.setattr(output, "echo", lambda text="", **_: shown.append(str(text)))
    load_operation("review").invoke(OpContext.at_terminal(repo.root), {"kind": "consolidation"})
    assert len(answers) == 2  # one key per operation
    assert any("UPDATE scene release" in line for line in shown)
    assert asked_to_write == [
        "Write these 2 file(s) into .memory/ now (and regenerate .memory/index.json)?"
    ]
    plans = [line for line in shown if " kept; write it later with: " in line]
    assert len(plans) == 1
    command = plans[0].split("write it later with: git memory ")[1].split()
    monkeypatch.setattr(output, "echo", real_echo)  # the CLI below prints for real
    plan_doc = cli_json(["status"], repo.root)["counts"]["promotions"]["openPlans"]
    command += ["--approve", _digest_of(repo.root, plan_doc[0]["planId"])]
    cli_json(command, repo.root)
    assert (repo.root / ".memory" / "doctrine.md").read_text() == "## Doctrine\n- Check first.\n"
    assert parse_scene(_scene(repo.root, "release").read_text()).heat == 2
