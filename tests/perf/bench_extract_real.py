"""Yield of `git memory extract --runner builtin` on real public sessions, against labels.

`tests/fixtures/real-sessions/` holds real transcripts (Claude Code, Codex, Gemini CLI, Qwen
Code) from public repositories and `labels.json`, written before any extractor was tuned on
them: per source repository, what a team lead keeps (KEEP), what is plausible but weak (MAYBE)
and what should not be proposed (NOISE). Each source repository's sessions are installed, in a
temporary copy whose `cwd` fields name a throw-away repository, for the agents' homes of a
hermetic environment; the sessions are indexed and extracted with the builtin runner over a
window that covers them; the candidates review would show are matched to the labels by robust
keys (`extract_labels.py`), each label and each candidate at most once, KEEP labels first.

Prints one JSON line:
- `candidates`, and how they matched: `keep`, `maybe`, `noise` (a NOISE label), `unlabelled`;
- `precision`: (KEEP + MAYBE matched) / candidates (an unlabelled candidate counts against);
- `keep_recall`: KEEP labels found / KEEP labels;
- `seconds_per_session`: extraction (indexing included) per session;
- `sessions`, `repositories`, `agents`.
`--details` prints every candidate with its verdict, and the KEEP labels missed, to stderr.
`--quick` runs three small repositories only; `--repos a/b,c/d` names them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

from tests.perf.extract_labels import Candidate, extract, hermetic, matches  # noqa: E402

FIXTURE = PROJECT_ROOT / "tests" / "fixtures" / "real-sessions"
QUICK = ("daphatpharm4/rosesein", "AnthonyontheHub/TP-Tutor", "haidonglethqb/CloudSchool")
VERDICTS = ("KEEP", "MAYBE", "NOISE")


def corpus() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """The recorded sessions, and the labels per source repository."""
    sessions: list[dict[str, Any]] = json.loads((FIXTURE / "PROVENANCE.json").read_text())
    document = json.loads((FIXTURE / "labels.json").read_text(encoding="utf-8"))
    return sessions, document["repositories"]


def _records(text: str) -> Iterable[dict[str, Any]]:
    """The JSON objects of a transcript: its lines, or the whole file as one object."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        yield whole
        return
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            yield record


def _cwds_and_moments(text: str) -> tuple[set[str], list[str]]:
    """The working directories a transcript names, and its timestamps."""
    cwds: set[str] = set()
    moments: list[str] = []

    def visit(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for name, inner in value.items():
                visit(inner, name)
        elif isinstance(value, list):
            for inner in value:
                visit(inner, key)
        elif isinstance(value, str):
            if key == "cwd" and value:
                cwds.add(value)
            elif key in {"timestamp", "startTime", "lastUpdated"} and value[:2] == "20":
                moments.append(value)

    for record in _records(text):
        for key in ("cwd", "timestamp", "startTime", "lastUpdated"):
            visit(record.get(key), key)
        payload = record.get("payload")
        if isinstance(payload, dict):
            visit(payload.get("cwd"), "cwd")
        update = record.get("$set")
        if isinstance(update, dict):
            visit(
                [m.get("timestamp") for m in update.get("messages") or [] if isinstance(m, dict)],
                "timestamp",
            )
    return cwds, moments


def _escaped(path: str) -> str:
    return json.dumps(path)[1:-1]


def install(entry: dict[str, Any], root: Path, homes: dict[str, Path]) -> list[str]:
    """Write a temporary copy of one recorded session where its agent keeps sessions, its
    working directories renamed to `root`; the timestamps it holds."""
    source = FIXTURE / entry["file"]
    text = source.read_bytes().decode("utf-8")
    cwds, moments = _cwds_and_moments(text)
    for cwd in sorted(cwds, key=len, reverse=True):
        text = text.replace(_escaped(cwd), _escaped(str(root)))
    name = Path(entry["path"]).name
    slug = "-" + str(root).strip("/").replace("/", "-").replace(".", "-")
    agent = entry["agent"]
    if agent == "claude-code":
        target = homes["claude"] / "projects" / slug / name
    elif agent == "codex":
        day = datetime.fromisoformat(min(moments).replace("Z", "+00:00"))
        target = homes["codex"] / "sessions" / f"{day:%Y/%m/%d}" / name
    elif agent == "qwen-code":
        target = homes["qwen"] / "projects" / slug / "chats" / name
    else:
        project = homes["gemini"] / ".gemini" / "tmp" / root.name
        project.mkdir(parents=True, exist_ok=True)
        (project / ".project_root").write_text(str(root), encoding="utf-8")
        target = project / "chats" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    idle = time.time() - 3600
    os.utime(target, (idle, idle))
    return moments


def score(
    candidates: list[Candidate], labels: list[dict[str, Any]]
) -> list[tuple[Candidate, dict[str, Any] | None]]:
    """Each candidate with the label it matched (KEEP labels taken first), or None."""
    ordered = sorted(labels, key=lambda label: VERDICTS.index(label["verdict"]))
    taken: dict[int, dict[str, Any]] = {}
    for label in ordered:
        hit = next(
            (i for i, c in enumerate(candidates) if i not in taken and matches(label, c)), None
        )
        if hit is not None:
            taken[hit] = label
    return [(c, taken.get(i)) for i, c in enumerate(candidates)]


def measure(base: Path, repos: list[str] | None = None) -> dict[str, Any]:
    """Extract every (or the named) source repository's sessions and score the candidates."""
    from tests.repos import make_repo

    sessions, labelled = corpus()
    chosen = repos or sorted(labelled)
    homes = hermetic(base / "env")
    verdicts: list[tuple[Candidate, dict[str, Any] | None]] = []
    missed: list[str] = []
    keep_labels = seconds = 0.0
    used = [s for s in sessions if s["repo"] in chosen]
    for repo_name in chosen:
        repo = make_repo(base / "repos" / repo_name.replace("/", "__"))
        repo.write("README.md", f"# {repo_name}\n")
        repo.commit_all("Initial commit")
        moments: list[str] = []
        for entry in (s for s in used if s["repo"] == repo_name):
            moments += install(entry, repo.root, homes)
        days = sorted(m[:10] for m in moments)
        since = (datetime.fromisoformat(days[0]) - timedelta(days=1)).date().isoformat()
        until = (datetime.fromisoformat(days[-1]) + timedelta(days=2)).date().isoformat()
        started = time.perf_counter()
        found = extract(repo_name, repo.root, since=since, until=until)
        seconds += time.perf_counter() - started
        pairs = score(found, labelled[repo_name])
        verdicts += pairs
        hits = [id(label) for _, label in pairs if label is not None]
        for label in labelled[repo_name]:
            if label["verdict"] == "KEEP":
                keep_labels += 1
                if id(label) not in hits:
                    missed.append(f"{repo_name}: {label['kind']} {_keys(label)} ({label['why']})")
    counts = {
        v: sum(1 for _, label in verdicts if label and label["verdict"] == v) for v in VERDICTS
    }
    total = len(verdicts)
    return {
        "candidates": total,
        "precision": round((counts["KEEP"] + counts["MAYBE"]) / total, 3) if total else 1.0,
        "keep_recall": round(counts["KEEP"] / keep_labels, 3) if keep_labels else 1.0,
        "keep": counts["KEEP"],
        "keep_labelled": int(keep_labels),
        "maybe": counts["MAYBE"],
        "noise": counts["NOISE"],
        "unlabelled": sum(1 for _, label in verdicts if label is None),
        "seconds_per_session": round(seconds / len(used), 3) if used else 0.0,
        "sessions": len(used),
        "repositories": len(chosen),
        "agents": len({s["agent"] for s in used}),
        "details": [_detail(c, label) for c, label in verdicts],
        "missed": missed,
    }


def _keys(label: dict[str, Any]) -> str:
    if label["kind"] == "command":
        return f"`{label['command']}`"
    if label["kind"] == "trap":
        return f"`{' | '.join(label['failing'])}` fix {label['fix']}"
    return str(label["keywords"])


def _detail(candidate: Candidate, label: dict[str, Any] | None) -> str:
    verdict = label["verdict"] if label else "UNLABELLED"
    return f"{verdict:<10} {candidate.project}: {candidate.content}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three small repositories only")
    parser.add_argument("--repos", help="comma list of source repositories (owner/name)")
    parser.add_argument("--details", action="store_true", help="every verdict, to stderr")
    args = parser.parse_args(argv)
    repos = args.repos.split(",") if args.repos else list(QUICK) if args.quick else None
    with tempfile.TemporaryDirectory(prefix="bench-extract-real-") as tmp:
        result = measure(Path(tmp), repos)
    if args.details:
        for item in ("details", "missed"):
            print(f"--- {item}", *result[item], sep="\n", file=sys.stderr)
    print(json.dumps({k: v for k, v in result.items() if k not in ("details", "missed")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
