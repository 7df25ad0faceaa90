"""The CI sample and the pre-commit framework hook run real commands."""

from __future__ import annotations

import re

from tests.conftest import PROJECT_ROOT, resolve_cli_command


def test_ci_sample_runs_verify_with_full_history() -> None:
    text = (PROJECT_ROOT / "contrib" / "ci" / "github-workflow-verify.yml").read_text()
    runs = re.findall(r"^\s+run: (git memory .+)$", text, re.MULTILINE)
    assert runs == [
        'git memory verify --changed "origin/${{ github.base_ref }}" --format github',
        "git memory verify --format github",
    ]
    assert resolve_cli_command(("verify",)) is not None
    # Drift runs on pull requests, where a base exists.
    assert "if: github.event_name == 'pull_request'" in text
    assert "fetch-depth: 0" in text
    assert "paths:" not in text  # code changes make memory stale, so every PR is checked


def test_pre_commit_framework_offers_verify_as_an_opt_in_hook() -> None:
    text = (PROJECT_ROOT / ".pre-commit-hooks.yaml").read_text()
    block = text[text.index("- id: git-memory-verify") :]
    assert "entry: git-memory verify\n" in block
    assert "pass_filenames: false" in block
