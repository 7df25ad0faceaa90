"""Against a real model: selected with GIT_MEMORY_LIVE_RUNNER=claude|codex, never skipped.

When selected, a missing binary or credential is a failure. The run probes conformance with
the production argv, then runs a batch extraction of the sample sessions (extraction plan,
then the adjudication plan, each approved by digest), and proves nothing was left behind: no
provider session or history file in the host's provider directories and no one-time runner
directory in the temporary root.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from git_memory.contracts.extraction import MemoryExtractionRequest
from git_memory.errors import GitMemoryError
from git_memory.extract.pipeline import BatchOutcome, run_batch
from git_memory.repo.binding import Worktree, discover_worktree
from git_memory.runners import conformance
from git_memory.runners.config import profile_for
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.runner import DeliveryApproval
from git_memory.store.session import open_workspace
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.runners.conftest import LIVE_SETTINGS

CREDENTIAL = {"claude": "ANTHROPIC_API_KEY", "codex": "OPENAI_API_KEY"}
REQUEST = MemoryExtractionRequest.model_validate({"window": {"after": SINCE, "before": UNTIL}})


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def _leftovers() -> list[str]:
    temp = Path(tempfile.gettempdir())
    return sorted(
        p.name
        for p in temp.glob("git-memory-*")
        if p.name.startswith(("git-memory-runner-", "git-memory-conformance-"))
    )


def _approve_all(worktree: Worktree, options: RunnerOptions) -> BatchOutcome:
    digest: str | None = None
    for _ in range(3):  # extraction, then adjudication (if the model kept anything)
        try:
            with open_workspace(worktree) as workspace:
                return run_batch(
                    workspace, options, REQUEST, approval=DeliveryApproval(plan=digest)
                )
        except GitMemoryError as exc:
            if exc.code != "GM_APPROVAL_REQUIRED":
                raise
            digest = exc.details["plans"][0]["planDigest"]
    raise AssertionError("the batch did not finish after three approvals")


@pytest.mark.live("claude", "codex")
def test_live_runner_batch(
    tmp_path: Path, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in LIVE_SETTINGS.items():
        monkeypatch.setenv(key, value)
    name = LIVE_SETTINGS["GIT_MEMORY_LIVE_RUNNER"]
    assert name in CREDENTIAL, f"GIT_MEMORY_LIVE_RUNNER must be claude or codex, not {name!r}"
    binary = LIVE_SETTINGS.get(f"GIT_MEMORY_{name.upper()}_BIN", name)
    assert shutil.which(binary), f"{name} is not on PATH"
    # a plain bool, so a failure message never prints the environment (it holds the key)
    has_credential = bool(os.environ.get(CREDENTIAL[name]))
    assert has_credential, f"{CREDENTIAL[name]} is not set"
    model = LIVE_SETTINGS.get("GIT_MEMORY_RUNNER_MODEL") if name == "codex" else None
    options = RunnerOptions(name, model=model or ("gpt-5" if name == "codex" else None))
    sample = build_sample_repo(tmp_path, hermetic_env)
    worktree = discover_worktree(sample.root)
    history = {key: _tree(hermetic_env[key]) for key in ("claude", "codex")}
    before = _leftovers()
    profile = profile_for(worktree, options)
    conformance.ensure(worktree.state_home, profile, worktree.secret(), force=True)
    outcome = _approve_all(worktree, options)
    assert len(outcome.extracted) == 1
    assert len(outcome.adjudicated) <= 1
    assert history == {key: _tree(hermetic_env[key]) for key in ("claude", "codex")}
    assert _leftovers() == before
