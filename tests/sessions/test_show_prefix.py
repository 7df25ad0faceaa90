"""`sessions show` takes the key prefix `sessions list` prints."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.extract.conftest import build_sample_repo


def test_show_accepts_the_printed_prefix(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    listed = run_cli(["sessions", "list"], cwd=sample.root)
    header, first = listed.stdout.splitlines()[:2]
    assert header.split()[:4] == ["SESSION", "DATE", "PROVIDER", "TURNS"]
    prefix = first.split()[0]
    assert len(prefix) == 16
    shown = run_cli(["sessions", "show", prefix, "--format", "json"], cwd=sample.root)
    assert shown.exit_code == 0, shown.stderr
    assert shown.json()["sessionKey"].startswith(prefix)
    short = run_cli(["sessions", "show", "abc"], cwd=sample.root)
    assert short.exit_code == 2
    assert "[GM_REQUEST_INVALID]" in short.stderr
    unknown = run_cli(["sessions", "show", "0" * 16], cwd=sample.root)
    assert unknown.exit_code == 2
    assert "[GM_SESSION_NOT_FOUND]" in unknown.stderr
