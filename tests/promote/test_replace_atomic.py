"""Replacing a memory file never leaves a moment without it (docs/guide-review-promote.md:
"each file with either its old bytes or its new bytes").

A retire plan replaces existing entry files. It is killed in a real subprocess at every
failpoint of a replace, and at random moments while a reader watches the files, and each
entry is looked at right after the kill, before any recovery runs.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.failpoints import FAILPOINT_EXIT_STATUS, FAILPOINTS
from git_memory.formats.entry import parse_entry
from git_memory.promote.writer import ARTIFACT_PREFIX
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo
from tests.verify.helpers import write_entry
from tests.waiting import HANG_CEILING

# Every step of a promotion from its journal intent to its finalize, the replace's own
# filesystem steps among them.
STEPS = [
    "promote.after-intent",
    "promote.write.staged",
    "promote.write.swapped",
    "promote.after-write",
    "promote.before-finalize",
    "promote.after-finalize",
]
# Random kills in the suite; GIT_MEMORY_TEST_KILLS asks for more (a few hundred, by hand).
KILLS = int(os.environ.get("GIT_MEMORY_TEST_KILLS", "6"))
# Entries each random-kill plan retires: enough writes that kills land among them.
ENTRIES = 20


def _entries(repo: Repo, prefix: str, count: int) -> dict[str, bytes]:
    """`count` approved entries, committed; their paths and bytes."""
    paths = [
        write_entry(repo, f"{prefix}-{n}", f"Run `make check-{prefix}-{n}` before a release.")
        for n in range(count)
    ]
    repo.commit_all(f"memory {prefix}")
    return {path: (repo.root / path).read_bytes() for path in paths}


def _retire_plan(gm: Any, repo: Repo, old: dict[str, bytes]) -> list[str]:
    ids = [Path(path).stem for path in old]
    plan = gm(["retire", *ids, "--reason", "replaced", "--format", "json"], cwd=repo.root)
    assert plan.exit_code == 0, plan.stdout + plan.stderr
    document = plan.json()
    return ["promote", "--plan", document["planId"], "--approve", document["planDigest"]]


def _held(repo: Repo, old: dict[str, bytes]) -> dict[str, str]:
    """What each entry path holds now: `old`, `new` (a valid retired entry) or what is wrong."""
    seen = {}
    for path, before in old.items():
        try:
            data = (repo.root / path).read_bytes()
        except FileNotFoundError:
            seen[path] = "missing"
            continue
        if data == before:
            seen[path] = "old"
        else:
            seen[path] = "new" if parse_entry(data.decode()).status == "deprecated" else "torn"
    return seen


def _converged(gm: Any, repo: Repo, promote: list[str], old: dict[str, bytes]) -> None:
    resumed = gm(promote, cwd=repo.root)
    assert resumed.exit_code == 0, resumed.stderr
    assert set(_held(repo, old).values()) == {"new"}
    # Only the memory root: git may pack and prune its objects while a scan is under way.
    assert sorted((repo.root / ".memory").rglob(f"{ARTIFACT_PREFIX}*")) == []


def test_every_step_is_a_declared_failpoint() -> None:
    assert set(STEPS) <= set(FAILPOINTS)


@pytest.mark.parametrize("step", STEPS)
def test_a_kill_at_any_step_of_a_replace_leaves_old_or_new_bytes(
    gm: Any, gm_proc: Any, repo: Repo, step: str
) -> None:
    old = _entries(repo, "entry", 3)
    promote = _retire_plan(gm, repo, old)
    killed = gm_proc(promote, cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": step})
    assert killed.returncode == FAILPOINT_EXIT_STATUS, killed.stderr
    held = _held(repo, old)
    assert set(held.values()) <= {"old", "new"}, held
    _converged(gm, repo, promote, old)


class Watcher:
    """A reader that looks at every entry path again and again until told to stop."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self.missing: set[str] = set()
        self.looks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=HANG_CEILING)

    def _watch(self) -> None:
        while not self._stop.is_set():
            for path in self.paths:
                if not os.path.lexists(path):
                    self.missing.add(path.name)
            self.looks += 1


def _promote_process(repo: Repo, promote: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "git_memory", *promote],
        cwd=repo.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _run_unkilled(repo: Repo, promote: list[str]) -> int:
    process = _promote_process(repo, promote)
    return process.wait(timeout=HANG_CEILING)


def test_random_kills_during_retire_plans_never_leave_an_entry_missing(gm: Any, repo: Repo) -> None:
    rng = random.Random(49)
    # How long a whole retire promotion takes here, measured once: kills land in its second
    # half, where the files are written (the first is mostly the interpreter starting).
    old = _entries(repo, "warmup", ENTRIES)
    started = time.monotonic()
    assert _run_unkilled(repo, _retire_plan(gm, repo, old)) == 0
    span = time.monotonic() - started
    outcomes: dict[str, int] = {}
    looks = 0
    for kill in range(KILLS):
        old = _entries(repo, f"round{kill}", ENTRIES)
        promote = _retire_plan(gm, repo, old)
        with Watcher([repo.root / path for path in old]) as watcher:
            process = _promote_process(repo, promote)
            time.sleep(span * rng.uniform(0.5, 1.0))
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=HANG_CEILING)
            held = _held(repo, old)
        assert watcher.missing == set(), f"kill {kill}: a reader found {watcher.missing} missing"
        assert set(held.values()) <= {"old", "new"}, f"kill {kill}: {held}"
        looks += watcher.looks
        state = "/".join(sorted(set(held.values())))
        outcomes[state] = outcomes.get(state, 0) + 1
        _converged(gm, repo, promote, old)
    print(f"{KILLS} kills, {looks} looks at every entry; right after each kill: {outcomes}")
