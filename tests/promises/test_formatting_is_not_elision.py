"""A key wrapped in Markdown bold, said by the user as a rule, never reaches a commit.

The attack: the user writes "Always deploy with the key **sk-proj-…**." The builtin runner
quotes user rules; bold around the key once read as an elision, so the quote was staged,
confirmed, promoted (entry and index.json) and `git commit` went through the installed hook.
Written by hand, the entry is stopped by the hook and `index.json` never copies the key.
"""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import time
from pathlib import Path
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo
from tests.hooks.conftest import commit, head

KEY = "sk-proj-" + "".join(random.Random(16).choices(string.ascii_letters + string.digits, k=48))
RULE = f"Always deploy with the key **{KEY}**."


def _say_to_claude(transcript: Path, text: str) -> None:
    """Append a user message to the Claude session, then leave the file idle."""
    first = json.loads(transcript.read_text(encoding="utf-8").splitlines()[0])
    first["message"] = {"role": "user", "content": text}
    first["uuid"] = "u-bold-key"
    first["timestamp"] = first["timestamp"].replace("T09:00:00", "T18:00:00")
    with open(transcript, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(first) + "\n")
    idle = time.time() - 3600
    os.utime(transcript, (idle, idle))


def _json(args: list[str], root: Path) -> tuple[int, Any]:
    result = run_cli([*args, "--format", "json"], cwd=root)
    return result.exit_code, result.json() if result.stdout.strip() else {}


def _extract_review_promote(sample_repo: SampleRepo, tmp_path: Path) -> list[Any]:
    """The builtin flow as a user runs it: extract, confirm everything, prepare, promote."""
    from tests.review_helpers import prepare_document

    root = sample_repo.root
    code, extracted = _json(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        root,
    )
    assert code == 0, extracted
    _, review = _json(["review"], root)
    items: list[Any] = review["items"]
    if not items:
        return items
    request = tmp_path / "prepare.json"
    request.write_text(json.dumps(prepare_document(items)))
    code, plan = _json(["prepare", "--request", str(request)], root)
    if code == 0:
        code, applied = _json(
            ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], root
        )
        assert code == 0, applied
    return items


def _committed_text(sample_repo: SampleRepo) -> str:
    listed = sample_repo.repo.git("ls-tree", "-r", "--name-only", "HEAD").split()
    return "".join(sample_repo.repo.git("show", f"HEAD:{name}") for name in listed)


def test_bold_key_in_a_user_rule_never_reaches_a_commit(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample_repo = build_sample_repo(tmp_path, hermetic_env)
    root = sample_repo.root
    assert run_cli(["init"], cwd=root).exit_code == 0
    assert run_cli(["hooks", "install"], cwd=root).exit_code == 0
    _say_to_claude(sample_repo.samples.claude, RULE)
    assert run_cli(["sessions", "sync"], cwd=root).exit_code == 0

    items = _extract_review_promote(sample_repo, tmp_path)
    assert items, "the builtin flow produced memory to promote"
    sample_repo.repo.git("add", "-A")
    committed = commit(sample_repo.repo)
    assert KEY not in _committed_text(sample_repo), committed.stdout + committed.stderr
    assert not any(KEY in json.dumps(item) for item in items), "the runner quoted the key"

    # The same line written by hand is stopped by the hook; index.json never copies it.
    entry = root / ".memory" / "entries" / "deploy-key.md"
    entry.write_text(serialize_entry(Entry(id="deploy-key", body=RULE + "\n")))
    assert run_cli(["reindex"], cwd=root).exit_code in (0, 1)
    assert KEY not in (root / ".memory" / "index.json").read_text()
    sample_repo.repo.git("add", "-A")
    before = head(sample_repo.repo)
    stopped: subprocess.CompletedProcess[str] = commit(sample_repo.repo)
    assert stopped.returncode != 0, stopped.stdout + stopped.stderr
    assert "GM_LINT_MODEL_API_KEY" in stopped.stderr
    assert ".memory/entries/deploy-key.md" in stopped.stderr
    assert head(sample_repo.repo) == before
    assert KEY not in _committed_text(sample_repo)
