"""Incremental sync with real files: resume, held-back tails, re-reads, removal, sealing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import zstandard

from git_memory.sessions import index
from tests.repos import Repo
from tests.sessions.transcripts import (
    append_jsonl,
    claude_path,
    claude_turn,
    codex_lines,
    codex_path,
    write_jsonl,
)

OLD = time.time() - 3 * 3600  # older than the default 30 minute sealAfter


def _sync(gm: Any, repo: Repo) -> dict[str, Any]:
    result = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return dict(result.json())


def _listed(gm: Any, repo: Repo, *extra: str) -> list[dict[str, Any]]:
    result = gm(["sessions", "list", "--format", "json", *extra], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return list(result.json()["sessions"])


def test_append_resumes_and_tail_revision_changes(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = write_jsonl(
        claude_path(hermetic_env["claude"], "s1"), claude_turn("first", "a1", cwd, "m1"), OLD
    )
    assert _sync(gm, repo)["turnsAdded"] == 1
    (before,) = _listed(gm, repo)
    assert (before["turns"], before["sealedTurns"]) == (1, 1)  # the quiescent tail counts
    show = gm(["sessions", "show", before["sessionKey"], "--format", "json"], cwd=repo.root).json()
    first_revision = show["turns"][0]["revision"]
    append_jsonl(path, [claude_turn("more", "a2", cwd, "m2")[1]], OLD)  # grows the tail turn
    result = _sync(gm, repo)
    assert (result["resumed"], result["turnsAdded"]) == (1, 0)
    show = gm(["sessions", "show", before["sessionKey"], "--format", "json"], cwd=repo.root).json()
    assert show["turns"][0]["assistantText"] == "a1\n\na2"
    assert show["turns"][0]["revision"] != first_revision
    append_jsonl(path, claude_turn("second", "b", cwd, "m3"), OLD)
    assert _sync(gm, repo)["turnsAdded"] == 1
    show = gm(["sessions", "show", before["sessionKey"], "--format", "json"], cwd=repo.root).json()
    assert [t["closure"] for t in show["turns"]] == ["hard-sealed", "quiescent"]


def test_unterminated_line_is_held_back_until_complete(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = write_jsonl(
        claude_path(hermetic_env["claude"], "s2"), claude_turn("one", "x", cwd, "m1")
    )
    partial = json.dumps(claude_turn("two", "y", cwd, "m2")[0])
    with open(path, "a") as handle:
        handle.write(partial[:20])
    result = _sync(gm, repo)
    assert (result["turnsAdded"], result["diagnostics"]) == (1, 0)
    with open(path, "a") as handle:
        handle.write(partial[20:] + "\n")
    result = _sync(gm, repo)
    assert (result["resumed"], result["turnsAdded"], result["diagnostics"]) == (1, 1, 0)


def test_rewritten_file_is_reread(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    cwd = str(repo.root)
    path = claude_path(hermetic_env["claude"], "s3")
    write_jsonl(path, claude_turn("one", "x", cwd, "m1") + claude_turn("two", "y", cwd, "m2"))
    _sync(gm, repo)
    write_jsonl(
        path,
        claude_turn("ONE", "x", cwd, "m1")
        + claude_turn("two", "y", cwd, "m2")
        + claude_turn("3", "z", cwd, "m3"),
    )
    result = _sync(gm, repo)
    assert (result["reread"], result["resumed"], result["turnsAdded"]) == (1, 0, 3)
    (session,) = _listed(gm, repo)
    assert session["turns"] == 3


def test_vanished_file_is_removed(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    cwd = str(repo.root)
    path = write_jsonl(claude_path(hermetic_env["claude"], "s4"), claude_turn("q", "a", cwd, "m"))
    _sync(gm, repo)
    assert len(_listed(gm, repo)) == 1
    path.unlink()  # Claude Code's cleanup period deleted it
    result = _sync(gm, repo)
    assert result["removed"] == 1
    assert _listed(gm, repo, "--all") == []
    with index.reader(hermetic_env["state"]) as conn:
        counts = [
            conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("turns", "events", "edges", "turns_fts")
        ]
    assert counts == [0, 0, 0, 0]


def test_sealing_follows_mtime_and_seal_after(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = write_jsonl(claude_path(hermetic_env["claude"], "s5"), claude_turn("q", "a", cwd, "m"))
    _sync(gm, repo)
    assert _listed(gm, repo)[0]["sealedTurns"] == 0  # just written: open
    ninety_minutes_ago = time.time() - 90 * 60
    write_jsonl(path, claude_turn("q", "a", cwd, "m"), ninety_minutes_ago)
    _sync(gm, repo)
    assert _listed(gm, repo)[0]["sealedTurns"] == 1  # quiescent after 30m
    repo.git("config", "memory.sealAfter", "2h")
    assert _listed(gm, repo)[0]["sealedTurns"] == 0
    repo.git("config", "memory.sealAfter", "3600")
    assert _listed(gm, repo)[0]["sealedTurns"] == 1
    repo.git("config", "memory.sealAfter", "soon")
    bad = gm(["sessions", "list"], cwd=repo.root)
    assert bad.exit_code == 1
    assert "GM_SEAL_AFTER_INVALID" in bad.stderr


def test_codex_terminal_event_hard_seals_a_fresh_tail(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    write_jsonl(
        codex_path(hermetic_env["codex"], "019c0000-0000-7000-8000-000000000001"),
        codex_lines(str(repo.root), ["a", "b"]),
    )
    write_jsonl(
        codex_path(hermetic_env["codex"], "019c0000-0000-7000-8000-000000000002"),
        codex_lines(str(repo.root), ["c"], terminal=False),
    )
    _sync(gm, repo)
    counts = sorted((s["turns"], s["sealedTurns"]) for s in _listed(gm, repo))
    assert counts == [(1, 0), (2, 2)]


def test_zstd_archived_and_resumed_rollouts_are_found(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    codex_home = hermetic_env["codex"]
    lines = codex_lines(str(repo.root), ["compressed"])
    raw = "".join(json.dumps(r) + "\n" for r in lines).encode()
    zst = (
        codex_home
        / "sessions"
        / "2025"
        / "01"
        / "01"
        / "rollout-2025-01-01T00-00-00-019c0000-0000-7000-8000-00000000000a.jsonl.zst"
    )
    zst.parent.mkdir(parents=True)
    zst.write_bytes(zstandard.ZstdCompressor().compress(raw))
    archived = (
        codex_home
        / "archived_sessions"
        / "rollout-2025-01-02T00-00-00-019c0000-0000-7000-8000-00000000000b.jsonl"
    )
    write_jsonl(archived, codex_lines(str(repo.root), ["archived"]))
    resumed = codex_path(
        codex_home, "019c0000-0000-7000-8000-00000000000c_019c0000-0000-7000-8000-00000000000d"
    )
    write_jsonl(resumed, codex_lines(str(repo.root), ["resumed", "again"]))
    result = _sync(gm, repo)
    assert (result["new"], result["turnsAdded"]) == (3, 4)
    plain = zst.with_name(zst.name.removesuffix(".zst"))
    plain.write_bytes(raw)  # both forms present: read once
    assert _sync(gm, repo)["filesSeen"] == 3


def test_malformed_file_still_syncs_with_diagnostics(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = claude_path(hermetic_env["claude"], "s6")
    write_jsonl(path, claude_turn("ok", "fine", cwd, "m"))
    with open(path, "ab") as handle:
        handle.write(b"{oops\n" + b'{"type":"user","type":"user"}\n')
    result = gm(["sessions", "sync"], cwd=repo.root)
    assert result.exit_code == 0
    assert "diagnostics: 2" in result.stdout
    assert "projects/-repo/s6.jsonl@" in result.stdout
    assert "invalid-json-record" in result.stdout
    assert _listed(gm, repo)[0]["turns"] == 1


def test_subagent_layouts_and_duplicate_imports_are_excluded(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], tmp_path: Path
) -> None:
    cwd = str(repo.root)
    main = write_jsonl(claude_path(hermetic_env["claude"], "s7"), claude_turn("q", "a", cwd, "m"))
    sibling = main.with_name("agent-1234abcd.jsonl")  # the 2.0.x subagent layout
    write_jsonl(sibling, claude_turn("subagent prompt", "x", cwd, "m"))
    nested = main.parent / "s7" / "subagents" / "agent-5678.jsonl"  # the >= 2.1.2 layout
    write_jsonl(nested, claude_turn("subagent prompt", "x", cwd, "m"))
    copy = tmp_path / "export" / "s7.jsonl"  # the same session imported again
    write_jsonl(copy, claude_turn("q", "a", cwd, "m"))
    result = gm(
        ["sessions", "sync", "--source", str(copy.parent), "--format", "json"], cwd=repo.root
    )
    summary = result.json()
    # two subagent layouts and the duplicate import are excluded; one session is new
    assert (summary["excluded"], summary["new"], summary["turnsAdded"]) == (3, 1, 1)
    assert len(_listed(gm, repo, "--all")) == 1


def test_large_output_of_a_compressed_rollout_is_read_back(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    lines = codex_lines(str(repo.root), ["show me the log"])
    big = "log line\n" * 2000
    output = json.dumps({"output": big, "metadata": {"exit_code": 0}})
    lines[2:2] = [
        {"timestamp": "2026-03-02T09:00:01.000Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "call_id": "c1",
                     "arguments": json.dumps({"command": ["cat", "log"]})}},
        {"timestamp": "2026-03-02T09:00:02.000Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "c1", "output": output}},
    ]  # fmt: skip
    raw = "".join(json.dumps(r) + "\n" for r in lines).encode()
    zst = codex_path(hermetic_env["codex"], "019c0000-0000-7000-8000-0000000000ff")
    zst = zst.with_name(zst.name + ".zst")
    zst.parent.mkdir(parents=True)
    zst.write_bytes(zstandard.ZstdCompressor().compress(raw))
    _sync(gm, repo)
    (session,) = _listed(gm, repo)
    shown = gm(["sessions", "show", session["sessionKey"], "--format", "json"], cwd=repo.root)
    (call,) = shown.json()["turns"][0]["toolCalls"]
    assert (call["output"], call["resultState"]) == (big, "completed")


def _matching(state: Path, word: str) -> int:
    with index.reader(state) as conn:
        conn.execute("INSERT INTO turns_fts(turns_fts) VALUES ('integrity-check')")
        row = conn.execute(
            "SELECT count(*) FROM turns_fts WHERE turns_fts MATCH ?", (word,)
        ).fetchone()
    return int(row[0])


def test_full_text_index_follows_resumes_and_rereads(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd, state = str(repo.root), hermetic_env["state"]
    path = write_jsonl(
        claude_path(hermetic_env["claude"], "s9"), claude_turn("alpha", "one", cwd, "m1"), OLD
    )
    _sync(gm, repo)
    append_jsonl(path, [claude_turn("more", "bravo", cwd, "m2")[1]], OLD)  # grows the tail turn
    append_jsonl(path, claude_turn("charlie", "two", cwd, "m3"), OLD)
    assert _sync(gm, repo)["resumed"] == 1
    assert [_matching(state, w) for w in ("alpha", "bravo", "charlie")] == [1, 1, 1]
    write_jsonl(path, claude_turn("delta", "three", cwd, "m4"), OLD)  # rewritten: read again
    assert _sync(gm, repo)["reread"] == 1
    assert [_matching(state, w) for w in ("alpha", "bravo", "charlie", "delta")] == [0, 0, 0, 1]
