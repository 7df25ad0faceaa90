"""A merge plan (one write, one delete) killed at each promote failpoint converges on resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.failpoints import FAILPOINT_EXIT_STATUS
from git_memory.formats.scene import parse_scene
from tests.consolidate.flow_support import (
    cli_json,
    operation,
    patch,
    prepare_plan,
    scene_content,
    stage_doc,
    write_entries,
    write_scene,
)
from tests.repos import Repo

POINTS = ["promote.after-intent", "promote.after-write", "promote.before-finalize"]


@pytest.mark.parametrize("point", POINTS)
def test_merge_plan_crash_then_promote_converges(
    gm_proc: Any, repo: Repo, tmp_path: Path, point: str
) -> None:
    ids = write_entries(repo.root, 2)
    alpha = write_scene(repo.root, "alpha", "Alpha", heat=2)
    beta = write_scene(repo.root, "beta", "Beta", heat=3)
    old_alpha, old_beta = alpha.read_bytes(), beta.read_bytes()
    task = cli_json(["synthesize"], repo.root)["task"]
    merge = operation(
        "merge", "alpha", scene_content("Alpha", ["all of it"]), ids, sources=["alpha", "beta"]
    )
    assert stage_doc(repo.root, patch(task, [merge]), tmp_path).exit_code == 0
    plan = json.loads(prepare_plan(repo.root, "consolidation", tmp_path).stdout)
    args = ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]]
    crashed = gm_proc(args, cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": point})
    assert crashed.returncode == FAILPOINT_EXIT_STATUS, crashed.stderr
    # Each file holds its old or its planned bytes, never anything in between.
    assert alpha.read_bytes() == old_alpha or parse_scene(alpha.read_text()).heat == 6
    assert not beta.exists() or beta.read_bytes() == old_beta
    resumed = gm_proc(args, cwd=repo.root)
    assert resumed.returncode == 0, resumed.stderr
    assert parse_scene(alpha.read_text()).heat == 6
    assert not beta.exists()
    assert not [p.name for p in alpha.parent.iterdir() if p.name.startswith(".gm-promote-")]
    assert "No new or changed" in cli_json(["synthesize"], repo.root)["note"]  # run applied
