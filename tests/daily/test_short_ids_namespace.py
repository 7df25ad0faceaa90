"""A printed short id names its id alone among every id of its kind, shown or not, as git
abbreviates against the whole object store: typed back, it resolves."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from git_memory.errors import UsageError
from git_memory.ids import abbreviate_within, resolve
from git_memory.ops.short_ids import ShortIds
from git_memory.repo.binding import discover_worktree
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo
from tests.repos import Repo
from tests.verify.helpers import write_entry

SHARED = 10  # digest characters an unshown twin shares with a shown id
DIGEST = re.compile(r"[0-9a-f]{16,}")


def _twin_id(identifier: str) -> str:
    """`identifier` with the same first SHARED digest characters, then different ones."""
    found = DIGEST.search(identifier)
    assert found is not None
    start = found.start() + SHARED
    rest = "".join("0" if c == "f" else "f" for c in identifier[start : found.end()])
    return identifier[:start] + rest + identifier[found.end() :]


def _digest_chars(shown: str) -> int:
    found = re.search(r"[0-9a-f]{7,}", shown)
    assert found is not None, shown
    return len(found.group(0))


def _state(hermetic_env: dict[str, Path]) -> sqlite3.Connection:
    return sqlite3.connect(hermetic_env["state"] / "memory-state.sqlite3")


def _add_twin(
    db: sqlite3.Connection, table: str, key: str, identifier: str, **changes: str | None
) -> str:
    """Copy the row of `identifier` under its twin id (with `changes`); returns the twin."""
    db.row_factory = sqlite3.Row
    row = dict(db.execute(f"SELECT * FROM {table} WHERE {key} = ?", (identifier,)).fetchone())
    row.pop("seq", None)  # a fresh rowid
    row.update({key: _twin_id(identifier), **changes})
    columns = ", ".join(row)
    db.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' for _ in row)})",
        list(row.values()),
    )
    db.commit()
    return str(row[key])


def _quarantined(hermetic_env: dict[str, Path]) -> list[str]:
    with _state(hermetic_env) as db:
        rows = db.execute(
            "SELECT candidate_id FROM candidates WHERE status = 'quarantined' ORDER BY 1"
        ).fetchall()
    return [str(row[0]) for row in rows]


def _extracted(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    sample = build_sample_repo(tmp_path, hermetic_env)
    result = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        cwd=sample.root,
    )
    assert result.exit_code == 0, result.stderr
    return sample


def test_a_candidate_id_is_cut_past_an_unshown_twin_and_typed_back(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _extracted(tmp_path, hermetic_env)
    target = _quarantined(hermetic_env)[0]
    with _state(hermetic_env) as db:
        twin = _add_twin(db, "candidates", "candidate_id", target, status="discarded")
    listed = run_cli(["review"], cwd=sample.root).stdout
    assert not any(resolve_or_none(word, twin) for word in listed.split()), "twin not shown"
    shown = next(word for word in listed.split() if resolve_or_none(word, target))
    assert _digest_chars(shown) == SHARED + 1, "one character past what the twin shares"
    seven = re.sub(r"([0-9a-f]{7})[0-9a-f]+", r"\1", shown, count=1)
    ambiguous = run_cli(["discard", seven], cwd=sample.root)
    assert ambiguous.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in ambiguous.stderr
    assert ambiguous.stderr.count("extract-") >= 3, "the typed id, then both matches"
    discarded = run_cli(["discard", shown], cwd=sample.root)
    assert discarded.exit_code == 0, discarded.stderr
    assert discarded.stdout.startswith(f"discarded {shown} ")
    assert target not in _quarantined(hermetic_env)


def resolve_or_none(word: str, target: str) -> bool:
    """Whether `word` (a token of the output) abbreviates `target`."""
    try:
        return resolve(word, [target], what="id", code="GM_X", listed_by="x") == target
    except UsageError:
        return False


def test_a_plan_id_in_status_outlasts_a_voided_twin_and_promotes(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _extracted(tmp_path, hermetic_env)
    confirmed = run_cli(["review", "--confirm-typed-facts", "--format", "json"], cwd=sample.root)
    assert confirmed.exit_code == 0, confirmed.stderr
    with _state(hermetic_env) as db:
        (plan_id, digest), *_ = db.execute(
            "SELECT plan_id, plan_digest FROM promotion_journal WHERE status = 'generated'"
        ).fetchall()
        _add_twin(db, "promotion_journal", "plan_id", plan_id, status="voided", plan_digest="0")
    status = run_cli(["status"], cwd=sample.root).stdout
    line = next(line for line in status.splitlines() if "promotion plan" in line)
    shown = line.split()[-1]
    assert _digest_chars(shown) == SHARED + 1, line
    with _state(hermetic_env) as db:
        (held,) = db.execute("SELECT candidate_ids_json FROM promotion_journal WHERE plan_id = ?",
                             (plan_id,)).fetchone()  # fmt: skip
    held_count = len(json.loads(held))
    assert f"promotion plan {shown} ({held_count} confirmed candidates) waits" in line
    waiting = len(_quarantined(hermetic_env)) - held_count
    assert f"  {waiting} candidates wait for review: git memory review" in status, (
        "candidates the plan holds are not counted as waiting for review"
    )
    ambiguous = run_cli(["promote", "--plan", shown[: len("plan-") + 7]], cwd=sample.root)
    assert ambiguous.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in ambiguous.stderr
    promoted = run_cli(["promote", "--plan", shown, "--approve", digest], cwd=sample.root)
    assert promoted.exit_code == 0, promoted.stderr
    assert promoted.stdout.startswith(f"plan {shown} applied:")


def test_task_ids_are_cut_against_every_task_of_the_worktree(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _extracted(tmp_path, hermetic_env)
    with _state(hermetic_env) as db:
        (task_id,) = db.execute("SELECT task_id FROM tasks ORDER BY task_id LIMIT 1").fetchone()
        twin = _add_twin(db, "tasks", "task_id", task_id)
    shown = ShortIds(discover_worktree(sample.root)).one("task", task_id)
    assert _digest_chars(shown) == SHARED + 1
    assert abbreviate_within([task_id], [task_id, twin]) == {task_id: shown}


def test_an_entry_of_a_filtered_list_is_named_by_a_prefix_unique_among_all(repo: Repo) -> None:
    stem = "when-the-integration-suite-fails-on-ci-check-the-"
    write_entry(repo, stem + "database-container", "Warm the database up.", entry_type="work_fact")
    write_entry(repo, stem + "daemon-logs", "Read the logs.")
    listed = run_cli(["list", "--type", "work_fact"], cwd=repo.root).stdout.splitlines()
    assert len(listed) == 4, listed  # header, the one fact, the counts, the note on prefixes
    assert listed[1].split()[0] == stem + "database-container", "shown whole"
    shown = stem + "dat…"  # as an older version cut it: still understood
    verified = run_cli(["verify", shown, "--format", "json"], cwd=repo.root)
    assert verified.exit_code == 0, verified.stderr
    assert [e["id"] for e in verified.json()["entries"]] == [stem + "database-container"]
    typed = run_cli(["verify", stem + "dat...", "--format", "json"], cwd=repo.root)
    assert [e["id"] for e in typed.json()["entries"]] == [stem + "database-container"]
    ambiguous = run_cli(["retire", stem + "da…", "--reason", "x"], cwd=repo.root)
    assert ambiguous.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in ambiguous.stderr
    assert f"{stem}daemon-logs, {stem}database-container" in ambiguous.stderr, "whole ids"
    plain = run_cli(["verify", stem + "dat", "--format", "json"], cwd=repo.root)
    assert [e["id"] for e in plain.json()["entries"]] == [stem + "database-container"]
    several = run_cli(["verify", stem + "da"], cwd=repo.root)
    assert several.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in several.stderr
    replaced = run_cli(
        ["retire", shown, "--by", stem + "dae", "--reason", "x", "--format", "json"], cwd=repo.root
    )
    assert replaced.exit_code == 0, replaced.stderr
    assert f"+superseded_by: {stem}daemon-logs" in replaced.json()["diff"]
    unknown = run_cli(["verify", stem + "zz…"], cwd=repo.root)
    assert unknown.exit_code == 2
    assert "[GM_ENTRY_NOT_FOUND]" in unknown.stderr


def test_an_ambiguous_session_key_lists_its_matches(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    from git_memory.paths import SESSIONS_DB

    sample = build_sample_repo(tmp_path, hermetic_env)
    with sqlite3.connect(hermetic_env["state"] / SESSIONS_DB) as db:
        (turn_key,) = db.execute("SELECT turn_key FROM turns ORDER BY 1 LIMIT 1").fetchone()
        twin = _add_twin(db, "turns", "turn_key", turn_key, id=None)
    result = run_cli(["sessions", "show", turn_key[:SHARED]], cwd=sample.root)
    assert result.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in result.stderr
    assert turn_key[: SHARED + 1] in result.stderr
    assert twin[: SHARED + 1] in result.stderr
    one = run_cli(["sessions", "show", turn_key[: SHARED + 1], "--format", "json"], cwd=sample.root)
    assert one.exit_code == 0, one.stderr


def test_sessions_list_cuts_a_key_past_a_turn_key_sharing_its_16_digits(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    from git_memory.paths import SESSIONS_DB

    sample = build_sample_repo(tmp_path, hermetic_env)
    with sqlite3.connect(hermetic_env["state"] / SESSIONS_DB) as db:
        session_key, turn_key = db.execute(
            "SELECT session_key, turn_key FROM turns ORDER BY 1, 2 LIMIT 1"
        ).fetchone()
        rest = "".join("0" if c == "f" else "f" for c in session_key[17:])
        db.execute(
            "UPDATE turns SET turn_key = ? WHERE turn_key = ?", (session_key[:17] + rest, turn_key)
        )
    listed = run_cli(["sessions", "list", "--all"], cwd=sample.root).stdout.splitlines()
    assert session_key[:18] in [line.split()[0] for line in listed[1:]], listed
    shown = run_cli(["sessions", "show", session_key[:18], "--format", "json"], cwd=sample.root)
    assert shown.json()["sessionKey"] == session_key
    text = run_cli(["sessions", "show", session_key[:18]], cwd=sample.root).stdout
    assert f" {session_key[:17] + rest[0]} " in text, "the turn key is cut past the session key"
    clash = run_cli(["sessions", "show", session_key[:16]], cwd=sample.root)
    assert clash.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in clash.stderr
