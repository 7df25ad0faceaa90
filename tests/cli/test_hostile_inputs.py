"""Hostile inputs to requests and state files end in a `GM_*` error, never exit 3 or a hang
(issue 27, item 15): deep or 100,000-digit request JSON, special files as requests, a nested
`secret.json`, a FIFO or link at `.memory/index.json`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.repos import Repo
from tests.waiting import HANG_CEILING

DEEP = 100_000
DOCUMENTS = {
    "deep": '{"a": ' + "[" * DEEP + "]" * DEEP + "}",
    "deep-unclosed": "[" * DEEP,
    "digits": '{"a": ' + "1" * DEEP + "}",
    "float-digits": '{"a": 1.' + "5" * DEEP + "}",
}


def _error(result: Any) -> dict[str, Any]:
    assert result.exit_code in (1, 2), result.stderr
    return dict(json.loads(result.stdout)["error"])


@pytest.mark.parametrize("command", ["stage", "prepare"])
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_request_documents_beyond_the_caps_are_request_errors(
    gm: Any, repo: Repo, tmp_path: Path, command: str, name: str
) -> None:
    request = tmp_path / "request.json"
    request.write_text(DOCUMENTS[name])
    result = gm([command, "--request", str(request), "--format", "json"], cwd=repo.root)
    error = _error(result)
    assert error["code"] == "GM_REQUEST_INVALID"
    assert "refused" in error["problem"]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "directory"])
def test_special_files_are_refused_as_requests_without_blocking(
    gm_proc: Any, repo: Repo, tmp_path: Path, special: str
) -> None:
    path = special
    if special == "fifo":
        path = str(tmp_path / "request.fifo")
        os.mkfifo(path)
    elif special == "directory":
        path = str(tmp_path)
    done = gm_proc(
        ["stage", "--request", path, "--format", "json"], cwd=repo.root, timeout=HANG_CEILING
    )
    assert done.returncode in (1, 2), done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "GM_REQUEST_UNREADABLE"
    assert "not a regular file" in error["problem"]


def test_a_request_on_stdin_larger_than_the_cap_is_refused(gm_proc: Any, repo: Repo) -> None:
    data = b" " * (33 * 1024 * 1024)
    done = gm_proc(["stage", "--request", "-", "--format", "json"], cwd=repo.root, timeout=60,
                   input_bytes=data)  # fmt: skip
    assert done.returncode in (1, 2), done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "GM_REQUEST_TOO_LARGE"


@pytest.mark.parametrize("text", ["[" * DEEP, '{"secret": ' + "1" * DEEP + "}"])
def test_a_nested_secret_json_is_a_clear_error(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], text: str
) -> None:
    (hermetic_env["state"] / "secret.json").write_text(text)
    result = gm(["status", "--format", "json"], cwd=repo.root)
    assert _error(result)["code"] == "GM_SECRET_CORRUPT"


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
@pytest.mark.parametrize("check", [False, True])
def test_reindex_refuses_a_special_index_json_without_opening_it(
    gm: Any, repo: Repo, kind: str, check: bool
) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    index = repo.root / ".memory" / "index.json"
    index.unlink()
    if kind == "fifo":
        os.mkfifo(index)
    elif kind == "symlink":
        index.symlink_to(repo.root / "README.md")
    else:
        index.mkdir()
    result = gm(["reindex", *(["--check"] if check else []), "--format", "json"], cwd=repo.root)
    expected = "GM_SYMLINK_REFUSED" if kind == "symlink" else "GM_NOT_A_FILE"
    assert _error(result)["code"] == expected


def test_private_state_files_nested_100000_deep_are_never_an_internal_error(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    """The caches and records of the state home (assemble, context, verify) replaced by
    documents nested 100,000 deep: each is taken as unreadable, and the commands go on."""
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/skills/release/SKILL.md", '---\nname: "release"\ndescription: "x"\n---\n')
    commands = [["context"], ["verify"], ["assemble", "--provider", "claude"], ["status"]]
    for command in commands:
        assert gm(command, cwd=repo.root).exit_code in (0, 1)
    states = [p for p in (hermetic_env["state"] / "artifacts").rglob("*.json") if p.is_file()]
    assert states, "the commands above keep state files"
    for path in states:
        path.write_text("[" * DEEP)
    for command in commands:
        result = gm(command, cwd=repo.root)
        assert result.exit_code in (0, 1), (command, result.stderr)
