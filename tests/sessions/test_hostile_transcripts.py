"""Hostile transcripts: lone surrogates, special files and decompression bombs never fail or
hang a sync, and never keep the files sorted after them from being indexed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import zstandard

from git_memory.sessions import source_io
from git_memory.sessions.source_io import SourceRefused, read_regular
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo
from tests.sessions.transcripts import (
    claude_path,
    claude_turn,
    codex_lines,
    codex_path,
    write_jsonl,
)
from tests.waiting import HANG_CEILING

OLD = time.time() - 3 * 3600


def _sync(gm_proc: Any, repo: Repo) -> dict[str, Any]:
    done = gm_proc(["sessions", "sync", "--format", "json"], cwd=repo.root, timeout=HANG_CEILING)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _listed(gm: Any, repo: Repo) -> list[dict[str, Any]]:
    result = gm(["sessions", "list", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return list(result.json()["sessions"])


def _good_after(claude_home: Path, cwd: str) -> Path:
    """A sound transcript whose name sorts after every hostile one of these tests."""
    return write_jsonl(
        claude_path(claude_home, "zz-good", slug="-zz"), claude_turn("hello", "hi", cwd, "m9"), OLD
    )


def test_lone_surrogate_is_a_diagnostic_and_later_files_are_indexed(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    bad = claude_path(hermetic_env["claude"], "aa-bad", slug="-aa")
    bad.parent.mkdir(parents=True)
    lines = [json.dumps(record) for record in claude_turn("cut \ud83d emoji", "ok", cwd, "m1")]
    # What JavaScript writes when it cuts an emoji in half: an escaped lone high surrogate.
    assert "\\ud83d" in lines[0]
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(bad, (OLD, OLD))
    _good_after(hermetic_env["claude"], cwd)
    result = _sync(gm_proc, repo)
    assert result["diagnostics"] == 1
    assert [item["code"] for item in result["examples"]] == ["lone-surrogate"]
    assert _sync(gm_proc, repo)["unchanged"] == 2  # and the next run is clean too
    texts = set()
    for listed in _listed(gm, repo):
        show = gm(["sessions", "show", listed["sessionKey"], "--format", "json"], cwd=repo.root)
        assert show.exit_code == 0, show.stderr
        texts |= {turn["userText"] for turn in show.json()["turns"]}
    # The line is kept with the broken half replaced, not dropped.
    assert texts == {"cut \ufffd emoji", "hello"}


def test_fifo_named_jsonl_does_not_hang_sync(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    fifo = claude_path(hermetic_env["claude"], "aa-fifo", slug="-aa")
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    _good_after(hermetic_env["claude"], str(repo.root))
    result = _sync(gm_proc, repo)
    assert result["diagnostics"] >= 1
    assert any(item["code"] == "not-a-regular-file" for item in result["examples"])
    assert len(_listed(gm, repo)) == 1


def test_symlink_to_dev_zero_is_refused(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    link = claude_path(hermetic_env["claude"], "aa-zero", slug="-aa")
    link.parent.mkdir(parents=True)
    link.symlink_to("/dev/zero")
    _good_after(hermetic_env["claude"], str(repo.root))
    result = _sync(gm_proc, repo)
    assert any(item["code"] == "not-a-regular-file" for item in result["examples"])
    assert len(_listed(gm, repo)) == 1


@pytest.mark.parametrize("size", [1024 * 1024 * 1024])
def test_zstd_bomb_is_bounded(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path], size: int
) -> None:
    cwd = str(repo.root)
    bomb = codex_path(hermetic_env["codex"], "019c0000-0000-7000-8000-0000000000aa")
    bomb = bomb.with_name(bomb.name + ".zst")
    bomb.parent.mkdir(parents=True)
    header = "".join(json.dumps(r) + "\n" for r in codex_lines(cwd, ["boom"])).encode()
    # A real bomb: a valid rollout head, then gigabytes of spaces, streamed into the encoder.
    with open(bomb, "wb") as handle:
        writer = zstandard.ZstdCompressor(level=3).stream_writer(handle)
        writer.write(header)
        chunk = b" " * (16 * 1024 * 1024)
        for _ in range(size // len(chunk)):
            writer.write(chunk)
        writer.write(b"\n")
        writer.close()
    assert bomb.stat().st_size < 256 * 1024
    _good_after(hermetic_env["claude"], cwd)
    result = _sync(gm_proc, repo)
    assert any(item["code"] == "decompression-limit" for item in result["examples"])
    assert len(_listed(gm, repo)) == 1


def test_records_of_unexpected_shapes_are_diagnostics(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    odd = claude_path(hermetic_env["claude"], "aa-odd", slug="-aa")
    lines = [{"type": []}, {"type": {"nested": 1}}, *claude_turn("still read", "ok", cwd, "m1")]
    write_jsonl(odd, lines, OLD)
    _good_after(hermetic_env["claude"], cwd)
    result = _sync(gm_proc, repo)
    assert [item["code"] for item in result["examples"]] == ["unknown-record-type"] * 2
    assert len(_listed(gm, repo)) == 2


def _peak_rss_kib(done: Any) -> int:
    return int(done.stdout.strip().splitlines()[-1])


def test_a_jsonl_without_a_newline_is_never_read_whole(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    sparse = claude_path(hermetic_env["claude"], "aa-sparse", slug="-aa")
    sparse.parent.mkdir(parents=True)
    with open(sparse, "wb") as handle:
        # A sparse file of zeros without a newline (the report's was 3 GiB; this size is
        # already more than the memory bound below).
        handle.truncate(768 * 1024 * 1024)
    os.utime(sparse, (OLD, OLD))
    _good_after(hermetic_env["claude"], cwd)
    # The sync runs in a child whose peak memory is measured (the cap is per line).
    code = (
        "import resource, sys\n"
        "from git_memory.cli.main import main\n"
        "sys.argv = ['git-memory', 'sessions', 'sync', '--format', 'json']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo.root, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _peak_rss_kib(done) < 512 * 1024, "a line without a newline was held in memory"
    assert len(_listed(gm, repo)) == 1  # the good session; the sparse file has no line yet


def test_an_oversized_line_is_skipped_to_its_newline_and_later_lines_are_read(
    gm: Any, gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = claude_path(hermetic_env["claude"], "aa-long", slug="-aa")
    path.parent.mkdir(parents=True)
    turn = [json.dumps(record) for record in claude_turn("after the long line", "ok", cwd, "m1")]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write('{"type": "user", "pad": "' + "x" * (20 * 1024 * 1024) + '"}\n')
        handle.write("\n".join(turn) + "\n")
    os.utime(path, (OLD, OLD))
    result = _sync(gm_proc, repo)
    assert [item["code"] for item in result["examples"]] == ["oversized-json-record"]
    (listed,) = _listed(gm, repo)
    show = gm(["sessions", "show", listed["sessionKey"], "--format", "json"], cwd=repo.root)
    assert [turn["userText"] for turn in show.json()["turns"]] == ["after the long line"]
    # The checkpoint holds: the next sync sees the file unchanged.
    assert _sync(gm_proc, repo)["unchanged"] == 1


def test_a_small_zstd_of_newlines_is_refused_and_the_refusal_is_remembered(
    gm: Any,
    gm_proc: Any,
    repo: Repo,
    hermetic_env: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cwd = str(repo.root)
    bomb = codex_path(hermetic_env["codex"], "019c0000-0000-7000-8000-0000000000bb")
    bomb = bomb.with_name(bomb.name + ".zst")
    bomb.parent.mkdir(parents=True)
    with open(bomb, "wb") as handle:
        writer = zstandard.ZstdCompressor(level=19).stream_writer(handle)
        for _ in range(64):
            writer.write(b"\n" * (1024 * 1024))
        writer.close()
    assert bomb.stat().st_size < 8 * 1024
    os.utime(bomb, (OLD, OLD))
    _good_after(hermetic_env["claude"], cwd)
    first = _sync(gm_proc, repo)
    assert [item["code"] for item in first["examples"]] == ["decompression-limit"]
    # The next sync refuses the unchanged file with the same diagnostic, without inflating it.
    inflated: list[object] = []
    real = zstandard.ZstdDecompressor

    def counting(*args: Any, **kwargs: Any) -> Any:
        inflated.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(zstandard, "ZstdDecompressor", counting)
    again = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert again.exit_code == 0, again.stderr
    assert again.json()["examples"] == first["examples"]
    assert inflated == []
    assert len(_listed(gm, repo)) == 1


def test_a_whole_document_is_read_up_to_its_limit(tmp_path: Path) -> None:
    document = tmp_path / "session.json"
    document.write_bytes(b"x" * 100)
    assert read_regular(str(document), 100) == b"x" * 100
    assert read_regular(str(document), 99) == b"x" * 100  # one byte more: too large
    assert read_regular(str(document), 10) == b"x" * 11
    link = tmp_path / "link.json"
    link.symlink_to(document)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (link, fifo, tmp_path):
        with pytest.raises(SourceRefused) as refused:
            read_regular(str(path), 100)
        assert refused.value.code == "not-a-regular-file"


def test_a_document_longer_than_its_measured_size_is_read_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A document that grew after it was measured (as /proc files measure 0 bytes): the read
    # goes on to the end, and still stops one byte past the limit.
    grown = tmp_path / "grown.json"
    grown.write_bytes(b"x" * 300_000 + b"\n")
    monkeypatch.setattr(source_io, "_regular_size", lambda _fd: 10)
    assert read_regular(str(grown), 1 << 20) == b"x" * 300_000 + b"\n"
    assert len(read_regular(str(grown), 100_000)) == 100_001
