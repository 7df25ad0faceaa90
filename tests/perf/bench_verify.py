"""Benchmark of `git memory verify` against reading and parsing the same entries.

Builds a throw-away repository whose entries each cite a tracked path and a commit and name a
make target and an npm script, then measures in one process:
- the baseline: reading every memory file no-follow and parsing every entry (what any reader
  of approved memory pays);
- `verify_memory` over the same tree (paths, commit reachability, Makefile and package.json);
- which manifest files were read (each once per run);
- the stale ids of assembled context: a first call (the first sync of the approved
  projection, then a check that is recorded) and a repeat over the unchanged worktree
  (answered from the record);
- the pre-commit hook's cost with `memory.hookVerify` off: one `git config` read, against a
  `git --version` run as the baseline for starting git at all.
Prints one JSON line. `--quick` makes a small tree (used by the test suite).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a file, only this directory is on the module path: the checkout holds `tests.repos`.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

TARGETS = 50
SCRIPTS = 30


def _build(root: Path, entries: int) -> Any:
    from git_memory.formats.entry import Commit, Entry, Evidence, serialize_entry
    from tests.repos import make_repo

    repo = make_repo(root)
    repo.write("Makefile", "".join(f"target-{k}:\n\techo {k}\n" for k in range(TARGETS)))
    scripts = ", ".join(f'"script-{k}": "echo {k}"' for k in range(SCRIPTS))
    repo.write("package.json", '{"scripts": {' + scripts + "}}\n")
    for k in range(20):
        repo.write(f"src/module_{k}.py", f"VALUE = {k}\n")
    commit = repo.commit_all("project")
    entries_dir = root / ".memory" / "entries"
    entries_dir.mkdir(parents=True)
    for n in range(entries):
        body = f"Run `make target-{n % TARGETS}` then `npm run script-{n % SCRIPTS}` ({n}).\n"
        evidence = Evidence((Commit("example.com/team/app", commit),), (f"src/module_{n % 20}.py",))
        entry = Entry(id=f"entry-{n}", body=body, evidence=evidence, claim_support="typed-fact")
        (entries_dir / f"entry-{n}.md").write_text(serialize_entry(entry))
    return repo


def _timed(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return (time.perf_counter() - started) * 1000


def _parse_all(worktree: Any) -> None:
    from git_memory.formats.entry import parse_entry
    from git_memory.repo.memory_tree import worktree_files

    for memory_file in worktree_files(worktree.root, worktree.memory_root):
        if memory_file.data is not None:
            parse_entry(memory_file.data.decode("utf-8"))


def _median_ms(function: Callable[[], Any], runs: int = 15) -> float:
    return statistics.median(_timed(function) for _ in range(runs))


def measure(entries: int) -> dict[str, Any]:
    """Build, measure, return the figures."""
    from git_memory.repo.binding import discover_worktree
    from git_memory.verify import manifests
    from git_memory.verify.check import counts, verify_memory
    from tests.repos import git

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "repo"
        _build(root, entries)
        worktree = discover_worktree(root)
        reads: list[str] = []
        original = manifests.Manifests._read

        def counting(self: Any, relpath: str) -> str | None:
            reads.append(relpath)
            return original(self, relpath)

        manifests.Manifests._read = counting  # type: ignore[method-assign]
        parse_ms = _timed(lambda: _parse_all(worktree))
        found: list[Any] = []
        verify_ms = _timed(lambda: found.extend(verify_memory(worktree)))
        manifest_reads = sorted(reads)
        from git_memory.store.session import open_workspace
        from git_memory.verify.recorded import context_stale_ids

        def recorded_stale() -> frozenset[str]:
            with open_workspace(worktree) as workspace:
                return context_stale_ids(workspace)

        recorded_first_ms = _timed(recorded_stale)
        recorded_again_ms = _median_ms(recorded_stale, runs=3)
        setting_ms = _median_ms(
            lambda: git(root, "config", "--get", "memory.hookVerify", check=False)
        )
        git_ms = _median_ms(lambda: git(root, "--version"))
    return {
        "bench": "verify",
        "entries": entries,
        "states": counts(found),
        "parse_baseline_ms": round(parse_ms, 1),
        "verify_ms": round(verify_ms, 1),
        "verify_over_parse": round(verify_ms / parse_ms, 2),
        "manifest_reads": manifest_reads,
        "context_first_ms": round(recorded_first_ms, 1),
        "context_recorded_ms": round(recorded_again_ms, 1),
        "hook_setting_ms": round(setting_ms, 2),
        "git_start_baseline_ms": round(git_ms, 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: prints one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=5000)
    parser.add_argument("--quick", action="store_true", help="a small tree (tests)")
    args = parser.parse_args(argv)
    print(json.dumps(measure(200 if args.quick else args.entries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
