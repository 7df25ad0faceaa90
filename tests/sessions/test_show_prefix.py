"""`sessions show` takes the key prefix `sessions list` prints."""

from __future__ import annotations

from pathlib import Path

from git_memory.sessions.keys import all_keys
from tests.conftest import run_cli
from tests.extract.conftest import build_sample_repo


def test_show_accepts_the_printed_prefix(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    listed = run_cli(["sessions", "list"], cwd=sample.root)
    header, first = listed.stdout.splitlines()[:2]
    assert header.split()[:4] == ["SESSION", "DATE", "PROVIDER", "TURNS"]
    prefix = first.split()[0]
    assert len(prefix) == 7, "as git abbreviates: 7 hex digits where they are unique"
    shown = run_cli(["sessions", "show", prefix, "--format", "json"], cwd=sample.root)
    assert shown.exit_code == 0, shown.stderr
    assert shown.json()["sessionKey"].startswith(prefix)
    # Any unique prefix of 4 or more hex digits names it, as git takes object names.
    keys = all_keys(hermetic_env["state"])
    typed = next(
        prefix[:n] for n in range(4, 8) if sum(k.startswith(prefix[:n]) for k in keys) == 1
    )
    four = run_cli(["sessions", "show", typed, "--format", "json"], cwd=sample.root)
    assert four.exit_code == 0, four.stderr
    assert four.json()["sessionKey"] == shown.json()["sessionKey"]
    short = run_cli(["sessions", "show", "abc"], cwd=sample.root)
    assert short.exit_code == 2
    assert "[GM_REQUEST_INVALID]" in short.stderr
    unknown = run_cli(["sessions", "show", "0" * 16], cwd=sample.root)
    assert unknown.exit_code == 2
    assert "[GM_SESSION_NOT_FOUND]" in unknown.stderr
