"""Yield of `git memory extract --runner builtin` against what a team lead would keep.

The sessions of `tests/fixtures/extract-yield/` (four projects: Python/uv, Node/pnpm,
Rust/Cargo, Go; Claude Code and Codex transcripts with traps, rules, noise and repeats) are
installed for one throw-away repository per project, indexed, and extracted with the builtin
runner and no window flags (the default window). The candidates are then matched against
`labels.json` by robust keys (the normalized command a candidate names, a trap's failing
command and fix words, a rule's keywords), each label and each candidate at most once:
- `recall`: required labels matched / required labels;
- `precision`: candidates that match a label / candidates (a second candidate for the same
  label counts as imprecise);
- `noise`: candidates holding a noise marker (navigation, one-off runs, everyday phrases).
Baseline, measured in the same run: the yield when only the first pending task is extracted
(`--limit 1`, the old default). Goals: recall ≥ 0.9, precision ≥ 0.9, noise 0.
Prints one JSON line. `--projects a,b` limits the run to some projects.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

from tests.perf.extract_labels import Candidate, extract, hermetic, matches  # noqa: E402

FIXTURE = PROJECT_ROOT / "tests" / "fixtures" / "extract-yield"


def labels() -> dict[str, Any]:
    """The labelled list of the fixture."""
    document: dict[str, Any] = json.loads((FIXTURE / "labels.json").read_text())
    return document


def score(candidates: list[Candidate], document: dict[str, Any]) -> dict[str, Any]:
    """recall, precision and noise of `candidates` against the labels."""
    required = matched = precise = 0
    missed: list[str] = []
    imprecise: list[str] = []
    for project, items in document["projects"].items():
        pool = [c for c in candidates if c.project == project]
        taken: set[int] = set()
        for label in items:
            required += 0 if label.get("optional") else 1
            hit = next(
                (i for i, c in enumerate(pool) if i not in taken and matches(label, c)), None
            )
            if hit is not None:
                taken.add(hit)
                precise += 1
                matched += 0 if label.get("optional") else 1
            elif not label.get("optional"):
                missed.append(f"{project}: {json.dumps(label)}")
        imprecise += [c.content for i, c in enumerate(pool) if i not in taken]
    noise = [c.content for c in candidates if any(m in c.content for m in document["noise"])]
    total = len(candidates)
    return {
        "candidates": total,
        "recall": round(matched / required, 3) if required else 1.0,
        "precision": round(precise / total, 3) if total else 1.0,
        "noise": len(noise),
        "noise_items": noise,
        "missed": missed,
        "imprecise": imprecise,
    }


def install(project: str, root: Path, claude_home: Path, codex_home: Path, home: Path) -> None:
    """Write the project's sessions for a repository at `root`, dated the last few days."""
    today = datetime.now(UTC).date()
    values = {"@@ROOT@@": json.dumps(str(root))[1:-1], "@@HOME@@": json.dumps(str(home))[1:-1]}
    for day in range(1, 4):
        values[f"@@DAY{day}@@"] = (today - timedelta(days=5 - day)).isoformat()
    source = FIXTURE / "projects" / project
    slug = "-" + str(root).strip("/").replace("/", "-").replace(".", "-")
    idle = time.time() - 3600
    for path in sorted(source.glob("*/*.jsonl")):
        text = path.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        if path.parent.name == "claude":
            target = claude_home / "projects" / slug / path.name
        else:
            target = codex_home / "sessions" / f"{today:%Y/%m/%d}" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        os.utime(target, (idle, idle))


def extract_project(project: str, base: Path, limit: int | None = None) -> list[Candidate]:
    """A repository for `project`, its sessions installed, one builtin extraction; the
    candidates it proposed."""
    from tests.repos import make_repo

    repo = make_repo(base / project)
    repo.write("README.md", f"# {project}\n")
    repo.commit_all("Initial commit")
    home = Path(os.environ["HOME"])
    install(
        project,
        repo.root,
        Path(os.environ["CLAUDE_CONFIG_DIR"]),
        Path(os.environ["CODEX_HOME"]),
        home,
    )
    return extract(project, repo.root, limit=limit)


def measure(
    base: Path, projects: list[str] | None = None, limit: int | None = None
) -> dict[str, Any]:
    """Extract every (or the named) project under `base` and score the candidates."""
    document = labels()
    chosen = projects or sorted(document["projects"])
    document = {**document, "projects": {p: document["projects"][p] for p in chosen}}
    candidates: list[Candidate] = []
    for project in chosen:
        candidates += extract_project(project, base / ("limit" if limit else "all"), limit)
    return {**score(candidates, document), "items": [c.content for c in candidates]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", help="comma list of fixture projects")
    parser.add_argument("--show", action="store_true", help="print every candidate to stderr")
    args = parser.parse_args(argv)
    projects = args.projects.split(",") if args.projects else None
    with tempfile.TemporaryDirectory(prefix="bench-extract-yield-") as tmp:
        base = Path(tmp)
        hermetic(base / "env")
        started = time.perf_counter()
        result = measure(base, projects)
        seconds = time.perf_counter() - started
        hermetic(base / "env-baseline")
        baseline = measure(base, projects, limit=1)
    if args.show:
        for item in ("items", "missed", "imprecise"):
            print(f"--- {item}", *result[item], sep="\n", file=sys.stderr)
    figures = {key: result[key] for key in ("candidates", "recall", "precision", "noise")} | {
        "extract_s": round(seconds, 2),
        "baseline_limit1": {k: baseline[k] for k in ("candidates", "recall", "precision", "noise")},
        "noise_items": result["noise_items"],
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
