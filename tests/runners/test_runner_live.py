"""Against a real model: selected with GIT_MEMORY_LIVE_RUNNER=claude|codex, never skipped.

When selected, a missing binary or credential is a failure. The run probes conformance with
the production argv, sends one approved plan, parses the answer, and proves nothing was left
behind: no provider session or history file in the host's provider directories and no
one-time runner directory in the temporary root.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from git_memory.repo.secret import load_or_create_secret
from git_memory.runners import conformance, plans
from git_memory.runners.answer import parse_document
from git_memory.runners.deliver import Delivery, deliver
from git_memory.runners.profiles import RunnerOptions, resolve_profile
from tests.runners.conftest import LIVE_SETTINGS, RecordingLedger

CREDENTIAL = {"claude": "ANTHROPIC_API_KEY", "codex": "OPENAI_API_KEY"}


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


@pytest.mark.live("claude", "codex")
def test_live_runner_round_trip(
    tmp_path: Path, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in LIVE_SETTINGS.items():
        monkeypatch.setenv(key, value)
    name = LIVE_SETTINGS["GIT_MEMORY_LIVE_RUNNER"]
    assert name in CREDENTIAL, f"GIT_MEMORY_LIVE_RUNNER must be claude or codex, not {name!r}"
    assert shutil.which(LIVE_SETTINGS.get(f"GIT_MEMORY_{name.upper()}_BIN", name)), (
        f"{name} is not on PATH"
    )
    # a plain bool, so a failure message never prints the environment (it holds the key)
    has_credential = bool(os.environ.get(CREDENTIAL[name]))
    assert has_credential, f"{CREDENTIAL[name]} is not set"
    options = RunnerOptions(name)
    if name == "codex":
        options = RunnerOptions(name, model=LIVE_SETTINGS.get("GIT_MEMORY_RUNNER_MODEL", "gpt-5"))
    profile = resolve_profile(options)
    history = {key: _tree(Path(os.environ[key])) for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME")}
    temp_root = tmp_path / "runner-tmp"
    temp_root.mkdir()
    home = tmp_path / "state"
    secret = load_or_create_secret(home)
    conformance.ensure(home, profile, secret, force=True, temp_root=temp_root)
    stdin = json.dumps(
        {
            "taskId": "live-1",
            "instruction": 'Answer with exactly this JSON and nothing else: {"taskId": "live-1"}',
        }
    ).encode()
    plan = plans.build_plan(profile, task_kind="extraction", task_id="live-1", stdin=stdin)
    approved = plans.approve_plan(plan, plan.planDigest or "", ledger)
    out = deliver(Delivery(home, secret, profile, ledger, temp_root=temp_root), approved, stdin)
    assert parse_document(out) == {"taskId": "live-1"}
    assert [entry[2] for entry in ledger.approvals] == ["digest"]
    assert history == {
        key: _tree(Path(os.environ[key])) for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME")
    }
    assert list(temp_root.iterdir()) == []
