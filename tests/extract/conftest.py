"""A repository with the bundled sample sessions installed and indexed."""

from __future__ import annotations

import datetime
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from git_memory.samples import InstalledSamples, install_samples
from tests.conftest import run_cli
from tests.repos import Repo, make_repo

DAY1 = datetime.date(2026, 11, 20)
DAY2 = datetime.date(2026, 11, 21)
SINCE = "2026-11-01T00:00:00.000Z"
UNTIL = "2026-12-01T00:00:00.000Z"


@dataclass
class SampleRepo:
    """The repository, its sample transcripts and the commit they mention."""

    repo: Repo
    samples: InstalledSamples
    commit: str

    @property
    def root(self) -> Path:
        """Worktree root."""
        return self.repo.root

    def recall(self, *extra: str) -> Any:
        """`git memory recall --format json` over the samples' window."""
        result = run_cli(
            ["recall", "--since", SINCE, "--until", UNTIL, "--format", "json", *extra],
            cwd=self.root,
        )
        assert result.exit_code == 0, result.stderr + result.stdout
        return result.json()


def build_sample_repo(base: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """Create the repository, install the samples (idle for an hour) and sync the index."""
    repo = make_repo(base / "repo")
    repo.write("src/app.py", "import os\nprint('app')\n")
    repo.commit_all("add app")
    repo.write("src/app.py", "print('app')\n")
    commit = repo.commit_all("Remove unused import")
    samples = install_samples(
        repo.root, commit, hermetic_env["claude"], hermetic_env["codex"], day1=DAY1, day2=DAY2
    )
    idle = time.time() - 3600
    for path in (samples.claude, samples.codex):
        os.utime(path, (idle, idle))
    synced = run_cli(["sessions", "sync"], cwd=repo.root)
    assert synced.exit_code == 0, synced.stderr
    return SampleRepo(repo, samples, commit)


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)
