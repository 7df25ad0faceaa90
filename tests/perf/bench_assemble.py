"""Benchmark of `assemble` and the recall context builders against plain file reads.

Builds a throw-away repository with 15 scenes, a doctrine and many skills (a few KiB each),
then measures in one process:
- the baseline: reading every memory file once with plain `open()`;
- a first assemble (block + every projection written), a no-op re-run and a dry run;
- `build_memory_context` over the scenes and many approved entries, `build_skill_context`
  over every skill (both over budget, so ranking and filling are exercised).
Prints one JSON line. `--quick` makes a small memory root (used by the test suite).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCENE = (
    "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
    'summary: "Scene number {n}"\nheat: {heat}\n-----META-END-----\n## Scene {n}\n{body}'
)
SKILL = '---\nname: "skill-{n}"\ndescription: "Procedure number {n}."\n---\n{body}'


def _build(root: Path, skills: int) -> None:
    from git_memory.testing.repos import make_repo

    make_repo(root)
    memory = root / ".memory"
    for sub in ("entries", "scenes", "skills"):
        (memory / sub).mkdir(parents=True, exist_ok=True)
    (memory / "doctrine.md").write_text("- Keep changes small.\n- Test before pushing.\n")
    bullets = "".join(f"- step {i} of the procedure, with a few words\n" for i in range(8))
    for n in range(15):
        text = SCENE.format(n=n, heat=n % 5 + 1, body=bullets)
        (memory / "scenes" / f"scene-{n}.md").write_text(text)
    for n in range(skills):
        directory = memory / "skills" / f"skill-{n}"
        directory.mkdir()
        (directory / "SKILL.md").write_text(SKILL.format(n=n, body=bullets * 12))


def _timed(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return (time.perf_counter() - started) * 1000


def _read_all(root: Path) -> None:
    for path in sorted((root / ".memory").rglob("*.md")):
        with open(path, "rb") as handle:
            handle.read()


def _contexts(entries: int, skills: int) -> tuple[float, float]:
    from git_memory.skills import context as ctx

    scenes = [ctx.SceneSource(f"s{n}", n + 1, "summary", "0" * 64, "x" * 1500) for n in range(15)]
    approved = [
        ctx.EntrySource(
            f"e{n:05d}", 1, "0" * 64, "work_fact", None, n % 100, "high", (), "y" * 2000
        )
        for n in range(entries)
    ]
    documents = [ctx.SkillSource(f"k{n}", "d", "0" * 64, "z" * 9000) for n in range(skills)]
    memory_ms = _timed(lambda: ctx.build_memory_context(scenes, None, approved, "s3 e00042 y"))
    skill_ms = _timed(lambda: ctx.build_skill_context(documents, "k7 procedure"))
    return memory_ms, skill_ms


def measure(skills: int, entries: int) -> dict[str, Any]:
    """Run every measurement; returns the figures."""
    from git_memory.ops.base import OpContext, load_operation

    with tempfile.TemporaryDirectory() as temp:
        os.environ["GIT_MEMORY_HOME"] = str(Path(temp) / "state")
        root = Path(temp) / "repo"
        _build(root, skills)
        operation = load_operation("assemble")

        def run(dry: bool = False) -> Any:
            request = {"provider": "claude", "dryRun": dry}
            return operation.invoke(OpContext(repository=root), request)

        baseline_ms = _timed(lambda: _read_all(root))
        first_ms = _timed(run)
        noop_ms = _timed(run)
        dry_ms = _timed(lambda: run(True))
        if run().changed:
            raise SystemExit("a second assemble changed something")
    memory_ms, skill_ms = _contexts(entries, skills)
    return {
        "bench": "assemble",
        "skills": skills,
        "entries": entries,
        "baseline_read_ms": round(baseline_ms, 2),
        "first_assemble_ms": round(first_ms, 2),
        "noop_assemble_ms": round(noop_ms, 2),
        "dry_run_ms": round(dry_ms, 2),
        "noop_over_baseline": round(noop_ms / max(baseline_ms, 0.001), 1),
        "memory_context_ms": round(memory_ms, 2),
        "skill_context_ms": round(skill_ms, 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: prints one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="20 skills, 200 entries")
    args = parser.parse_args(argv)
    skills, entries = (20, 200) if args.quick else (256, 5000)
    sys.stdout.write(json.dumps(measure(skills, entries)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
