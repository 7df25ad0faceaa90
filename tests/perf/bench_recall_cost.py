"""What the agent path costs in bytes handed to the agent, on the real labelled corpus.

Each source repository of `tests/fixtures/real-sessions/` is installed for a throw-away
repository (as `bench_extract_real.py` installs it), then driven as an agent drives the default
flow: `recall` (8 tasks at most) and a `stage` of every task it handed out, until recall hands
out nothing more. Each task is staged with no candidate (`"candidates": []`, the visible no-op
that consumes its chunk), so the figures count what recall and stage print for the
transcript, not the drafts or adjudication tasks an agent's own answers would add. Every byte
is counted as the MCP tools print it (`document_text`, the `--format json` text).

Bytes are attributed to sessions: a task's own bytes and its stage to the session its chunk
comes from; what a recall prints once (contracts, contexts, guidance) shared equally among the
sessions of its tasks. Prints one JSON line with, per part (`tune`, `test`, `all`; the split of
`corpus_split.py`):
- `per_session`: bytes handed out per session, `median` and `p90`;
- `baseline_per_session`: the same sessions and recalls counted as if each task repeated the
  prompt and answer schema (what every task carried before the recall shared them), measured in
  this run from the same documents;
- `transcript_share`: the share of those bytes that is transcript (`chunk.transcript`);
- `coverage`: the share of KEEP labels with a source line whose words are in the transcripts
  handed out for their repository (`keep_covered` of `keep_labelled`).
`--quick` runs three small repositories only; `--repos a/b,c/d` names them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

from tests.perf.bench_extract_real import QUICK, install  # noqa: E402
from tests.perf.extract_labels import hermetic  # noqa: E402
from tests.perf.real_corpus import FIXTURE, Repository, file_stem, repositories  # noqa: E402

PARTS = ("tune", "test", "all")
PROBE_CHARS = 32
MIN_PROBE_CHARS = 16


@dataclass
class Spent:
    """One repository's bytes: per session handed out, and as the baseline counts them; the
    transcript bytes; the transcripts themselves (for coverage)."""

    repository: Repository
    sessions: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    baseline: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    transcript_bytes: int = 0
    transcripts: list[str] = field(default_factory=list)


def _size(document: Any) -> int:
    from git_memory.mcp.tools import document_text

    return len(document_text(document).encode("utf-8"))


def _full_contract_bytes() -> int:
    """What one task's `contract` grows by when it carries the prompt and schema itself."""
    from git_memory.extract.tasks import extraction_contract

    full = extraction_contract()
    return _size({"contract": full.to_json()}) - _size({"contract": full.pointing().to_json()})


def drive(root: Path, since: str, until: str, spent: Spent) -> None:
    """Recall and stage until nothing is handed out, counting every printed byte."""
    from git_memory.extract import artifacts
    from git_memory.ops.base import OpContext, load_operation
    from git_memory.repo.binding import discover_worktree

    state_home = discover_worktree(root).state_home
    recall, stage = load_operation("recall"), load_operation("stage")
    window = {"after": f"{since}T00:00:00.000Z", "before": f"{until}T00:00:00.000Z"}
    contract_bytes = _full_contract_bytes()
    for _ in range(1000):
        printed = recall.invoke(OpContext(repository=root), {"request": {"window": window}})
        document = printed.to_json()
        tasks = document.get("tasks") or []
        if not tasks:
            return
        owners = [artifacts.load_recall(state_home, t["taskId"]).session_key for t in tasks]
        shared = _size(document) - sum(_size(task) for task in tasks)
        for task, session in zip(tasks, owners, strict=True):
            answer = {
                "format": "git-memory-candidate-draft-batch@v1",
                "taskId": task["taskId"],
                "binding": task["binding"],
                "candidates": [],
            }
            staged = stage.invoke(OpContext(repository=root), answer).to_json()
            own = _size(task) + _size(staged) + shared / len(tasks)
            spent.sessions[session] += own
            spent.baseline[session] += own + contract_bytes
            transcript = task["chunk"]["transcript"]
            spent.transcript_bytes += len(transcript.encode("utf-8"))
            spent.transcripts.append(transcript)
    raise RuntimeError("recall kept handing out tasks")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for inner in value.values() for s in _strings(inner)]
    if isinstance(value, list):
        return [s for inner in value for s in _strings(inner)]
    return []


def probes(source: dict[str, Any]) -> list[str]:
    """The opening words of each text a labelled source line holds (a message, a command, an
    output): if the line's turn was handed out, its texts open the same way in a transcript."""
    lines = (FIXTURE / source["file"]).read_text(encoding="utf-8").splitlines()
    found: list[str] = []
    for number in source.get("lines") or []:
        if not 1 <= number <= len(lines):
            continue
        try:
            record = json.loads(lines[number - 1])
        except json.JSONDecodeError:
            continue
        for text in _strings(record):
            flat = _flat(text)
            if len(flat) >= MIN_PROBE_CHARS and not flat.startswith(("{", "[", "/")):
                found.append(flat[:PROBE_CHARS])
    return found


def covered(label: dict[str, Any], handed_out: str) -> bool:
    """Whether some source line of `label` has a text whose opening is in `handed_out`."""
    return any(probe in handed_out for source in label["sources"] for probe in probes(source))


def measure_one(base: Path, homes: dict[str, Path], repository: Repository) -> Spent:
    """Install one repository's sessions for a throw-away repository and drive the flow."""
    from tests.repos import make_repo

    repo = make_repo(base / "repos" / file_stem(repository.name))
    repo.write("README.md", f"# {repository.name}\n")
    repo.commit_all("Initial commit")
    moments: list[str] = []
    for entry in repository.sessions:
        moments += install(entry, repo.root, homes)
    days = sorted(m[:10] for m in moments)
    since = (datetime.fromisoformat(days[0]) - timedelta(days=1)).date().isoformat()
    until = (datetime.fromisoformat(days[-1]) + timedelta(days=2)).date().isoformat()
    spent = Spent(repository)
    drive(repo.root, since, until, spent)
    return spent


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _spread(values: list[float]) -> dict[str, int | None]:
    median = statistics.median(values) if values else None
    p90 = _percentile(values, 0.9)
    return {
        "median": None if median is None else round(median),
        "p90": None if p90 is None else round(p90),
    }


def figures(spent: list[Spent]) -> dict[str, Any]:
    """One part's figures."""
    per_session = [b for s in spent for b in s.sessions.values()]
    baseline = [b for s in spent for b in s.baseline.values()]
    keep = [
        (label, s)
        for s in spent
        for label in s.repository.labels
        if label["verdict"] == "KEEP" and label.get("sources")
    ]
    handed = {id(s): _flat("\n".join(s.transcripts)) for s in spent}
    hits = sum(1 for label, s in keep if covered(label, handed[id(s)]))
    total = sum(per_session)
    return {
        "repositories": len(spent),
        "sessions": len(per_session),
        "per_session": _spread(per_session),
        "baseline_per_session": _spread(baseline),
        "transcript_share": round(sum(s.transcript_bytes for s in spent) / total, 3)
        if total
        else None,
        "keep_labelled": len(keep),
        "keep_covered": hits,
        "coverage": round(hits / len(keep), 3) if keep else None,
    }


def report(spent: list[Spent]) -> dict[str, Any]:
    """The JSON line: the figures of every part."""
    chosen = {
        "tune": [s for s in spent if s.repository.part == "tune"],
        "test": [s for s in spent if s.repository.part == "test"],
        "all": spent,
    }
    return {"benchmark": "recall_cost", **{name: figures(chosen[name]) for name in PARTS}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three small repositories")
    parser.add_argument("--repos", help="comma-separated owner/repo names")
    args = parser.parse_args(argv)
    known = repositories()
    names = list(QUICK) if args.quick else (args.repos.split(",") if args.repos else sorted(known))
    with tempfile.TemporaryDirectory(prefix="gm-bench-recall-") as tmp:
        base = Path(tmp)
        homes = hermetic(base / "env")
        spent = [measure_one(base, homes, known[name]) for name in names]
    print(json.dumps(report(spent), sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
