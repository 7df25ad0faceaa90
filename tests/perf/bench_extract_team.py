"""`git memory extract --runner builtin` at a team's scale, against the first `sessions sync`.

Builds a team's corpus in a hermetic temporary environment (`team_corpus.py`: the real
round-one sessions replicated for eight people over six weeks, plus generated sessions of a Go
project with large tool outputs), then, in the same run and as a user would type them (real
`git memory` processes in the repository):
- times the first `git memory sessions sync` of those sessions (`sync_s`);
- times `git memory extract --runner builtin` over a window that covers them (`extract_s`);
- reads the queue `git memory review --format json` shows, in its order.

Prints one JSON line: `sync_s`, `extract_s`, `ratio` (extract / sync), `sessions`, `bytes`,
`people`, `offered` (the candidates this run offered), `waiting` (how many more wait),
`queue` (what review shows), `first_15_kinds` (command / trap / rule, in review order),
`first_15` (their text, cut), `home_paths` (queue items naming a home directory) and
`duplicates` (queue items whose text another item already has).
`--quick` builds a small corpus (one copy of each real session, a few small generated ones);
`--copies`, `--generated` and `--big` size it; `--profile FILE` runs the extraction in this
process under cProfile instead and writes the statistics to FILE.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

from tests.perf.extract_labels import hermetic  # noqa: E402
from tests.perf.team_corpus import PEOPLE, START, WEEKS, build  # noqa: E402
from tests.repos import make_repo  # noqa: E402

_HOME_PATH = re.compile(r"/Users/[\w.-]+|/home/[\w.-]+|[A-Z]:\\+Users\\+[\w.-]+")


def _git_memory(root: Path, *args: str) -> tuple[float, str]:
    """Seconds taken by one `git memory` process in `root`, and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "git_memory", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"git memory {' '.join(args)} failed:\n{done.stderr}")
    return elapsed, done.stdout


def _window() -> tuple[str, str]:
    since = (START - timedelta(days=1)).date().isoformat()
    until = (START + timedelta(weeks=WEEKS, days=2)).date().isoformat()
    return since, until


def _kind(content: str) -> str:
    if content.startswith("Trap: "):
        return "trap"
    return "command" if content.startswith("`") and "(worked in " in content else "rule"


def _queue_figures(items: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [str(item["content"]).strip() for item in items]
    seen: set[str] = set()
    duplicates = 0
    for text in texts:
        duplicates += text.casefold() in seen
        seen.add(text.casefold())
    return {
        "queue": len(texts),
        "first_15_kinds": [_kind(text) for text in texts[:15]],
        "first_15": [text[:100] for text in texts[:15]],
        "home_paths": sum(1 for text in texts if _HOME_PATH.search(text)),
        "duplicates": duplicates,
    }


def _profiled(root: Path, since: str, until: str, target: Path) -> float:
    """The extraction in this process, under cProfile; its seconds."""
    from git_memory.cli.entry import main as cli_main

    os.chdir(root)
    profile = cProfile.Profile()
    started = time.perf_counter()
    profile.enable()
    with contextlib.suppress(SystemExit):  # the command line's exit
        cli_main(["extract", "--runner", "builtin", "--since", since, "--until", until])
    profile.disable()
    elapsed = time.perf_counter() - started
    profile.dump_stats(str(target))
    return elapsed


def measure(base: Path, copies: int, made: int, big: int, profile: Path | None) -> dict[str, Any]:
    """Build the corpus, sync it, extract it, read the queue."""
    homes = hermetic(base / "env")
    repo = make_repo(base / "team" / "cli")
    repo.write("README.md", "# cli\n")
    repo.commit_all("Initial commit")
    files = build(repo.root, homes, copies=copies, made=made, big=big)
    since, until = _window()
    sync_s, _ = _git_memory(repo.root, "sessions", "sync", "--format", "json")
    if profile is not None:
        extract_s = _profiled(repo.root, since, until, profile)
        answer: dict[str, Any] = {}
    else:
        extract_s, printed = _git_memory(
            repo.root,
            *("extract", "--runner", "builtin", "--since", since, "--until", until),
            *("--format", "json"),
        )
        answer = json.loads(printed)
    _, shown = _git_memory(repo.root, "review", "--format", "json")
    items = json.loads(shown)["items"]
    return {
        "sync_s": round(sync_s, 2),
        "extract_s": round(extract_s, 2),
        "ratio": round(extract_s / sync_s, 2),
        "sessions": len(files),
        "bytes": sum(path.stat().st_size for path in files),
        "people": len(PEOPLE),
        "offered": len(answer.get("quarantined", [])),
        "waiting": answer.get("waiting", 0),
        **_queue_figures(items),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small corpus")
    parser.add_argument("--copies", type=int, default=None, help="copies of each real session")
    parser.add_argument("--generated", type=int, default=None, help="generated sessions")
    parser.add_argument("--big", type=int, default=None, help="bytes of a large tool output")
    parser.add_argument("--profile", type=Path, help="profile the extraction into this file")
    args = parser.parse_args(argv)
    copies = args.copies or (1 if args.quick else 4)
    made = args.generated if args.generated is not None else (12 if args.quick else 112)
    big = args.big or (40_000 if args.quick else 1_000_000)
    profile = args.profile.resolve() if args.profile else None
    with tempfile.TemporaryDirectory(prefix="bench-extract-team-") as tmp:
        result = measure(Path(tmp), copies, made, big, profile)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
