"""Yield of `git memory extract --runner builtin` on real public sessions, against labels.

`tests/fixtures/real-sessions/` holds real transcripts from public repositories and their
labels, written before any extractor was tuned on them (`real_corpus.py` reads both layouts):
per source repository, what a team lead keeps (KEEP), what is plausible but weak (MAYBE) and
what should not be proposed (NOISE). Each source repository's sessions are installed, in a
temporary copy whose `cwd` fields name a throw-away repository, for the agents' homes of a
hermetic environment (the excerpts cut from one transcript put back into one file, as the
agent wrote it); the sessions are indexed and extracted with the builtin runner over a
window that covers them; the candidates review would show are matched to the labels by robust
keys (`extract_labels.py`), each label and each candidate at most once, KEEP labels first. A
label's command matches as written and in the command model's normal form: a label that
copied the run it saw (`uv run pytest tests/test_db.py -v`) is the memory of its general
command (`uv run pytest`), which is the one a candidate names; a leading `cd X &&` is kept
apart; inline Python (`python3 -c "…"`) is the interpreter a trap about it names; a rule's
keywords match whatever the apostrophes ("dont" is "Don't"); a path a label copied as the
transcript spells it (`rm -rf /Users/ana/app/.next`) matches as review shows it, made
relative inside the session's working directory and a home written `~` (`rm -rf .next`).

The corpus is split by repository (`corpus_split.py`, a fixed hash of the name) into a tuning
part and a test part. **The test part's figures are the ones that count**; its individual
verdicts and misses are never printed, only its totals.

Prints one JSON line with `tune`, `test`, `test_unseen` (the test part's repositories that came
after round one, whose sessions were never tuned on) and `all`, each holding:
- `candidates`, and how they matched: `keep`, `maybe`, `noise` (a NOISE label), `unlabelled`;
- `precision`: (KEEP + MAYBE matched) / candidates (an unlabelled candidate counts against;
  null when there is no candidate);
- `keep_recall`: KEEP labels found / KEEP labels (`keep_labelled`; null when there is none);
- `sessions`, `repositories`, `agents`, `non_english` (the share of sessions whose person
  writes in a language other than English);
and `seconds_per_session`: extraction (indexing included) per session, over every part.
`--details` prints the tuning part's candidates with their verdicts, and its KEEP labels
missed, to stderr; `--by-kind` and `--by-language` print every part's totals per kind of
memory, and per language and kind, to stderr (totals only, for the test part too). `--quick`
runs three small repositories only; `--repos a/b,c/d` names them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

from git_memory.extract.select import path_scrubber, root_spellings  # noqa: E402
from tests.perf.extract_labels import Candidate, extract, hermetic, matches  # noqa: E402
from tests.perf.real_corpus import FIXTURE, Repository, file_stem, repositories  # noqa: E402

QUICK = ("daphatpharm4/rosesein", "AnthonyontheHub/TP-Tutor", "haidonglethqb/CloudSchool")
VERDICTS = ("KEEP", "MAYBE", "NOISE")
PARTS = ("tune", "test", "test_unseen", "all")


@dataclass(frozen=True)
class Measured:
    """One repository's extraction: each candidate with the label it matched, and the time."""

    repository: Repository
    pairs: list[tuple[Candidate, dict[str, Any] | None]]
    seconds: float

    def missed(self) -> list[dict[str, Any]]:
        hits = {id(label) for _, label in self.pairs if label is not None}
        keep = (label for label in self.repository.labels if label["verdict"] == "KEEP")
        return [label for label in keep if id(label) not in hits]


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
            if key in {"cwd", "gitRoot"} and value:
                cwds.add(value)
            elif key in {"timestamp", "startTime", "lastUpdated"} and value[:2] == "20":
                moments.append(value)

    for record in _records(text):
        for key in ("cwd", "timestamp", "startTime", "lastUpdated"):
            visit(record.get(key), key)
        data = record.get("data")
        if isinstance(data, dict):  # Copilot CLI: the working directory in data.context
            visit(data.get("context"), "context")
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


def _escaped(path: str, *, ascii_only: bool = True) -> str:
    return json.dumps(path, ensure_ascii=ascii_only)[1:-1]


def install(entry: dict[str, Any], root: Path, homes: dict[str, Path]) -> list[str]:
    """Write a temporary copy of one recorded session where its agent keeps sessions, its
    working directories renamed to `root`; the timestamps it holds (for a format that records
    none, the moment the copy's file time says)."""
    return install_all([entry], root, homes)


# Where an excerpt starts in the transcript it was cut from (`….excerpt-L1828-2310.jsonl`).
_EXCERPT_START = re.compile(r"\.excerpt-L(\d+)")


def install_all(entries: list[dict[str, Any]], root: Path, homes: dict[str, Path]) -> list[str]:
    """Install a repository's recorded sessions (`install`); the excerpts cut from one
    transcript (the same `path`) go back into one file, in the order of their lines, as the
    agent wrote them: copied side by side, the later one would replace the earlier (the same
    name) or be read as a duplicate of its session."""
    moments: list[str] = []
    for excerpts in _by_transcript(entries).values():
        texts = [_renamed(FIXTURE / entry["file"], root) for entry in excerpts]
        found = [moment for text in texts for moment in _cwds_and_moments(text)[1]]
        target = _target(excerpts[0], root, homes, found)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(_as_lines(text) for text in texts), encoding="utf-8")
        idle = time.time() - 3600
        os.utime(target, (idle, idle))
        moments += found or [datetime.fromtimestamp(idle, UTC).isoformat()]
    return moments


def _by_transcript(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The entries by the transcript they were cut from, each transcript's excerpts in the
    order of their first line; excerpts of a transcript read whole (one JSON document) cannot
    be put back together."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        groups.setdefault(entry["path"], []).append(entry)
    for path, excerpts in groups.items():
        if len(excerpts) > 1 and not all(e["file"].endswith(".jsonl") for e in excerpts):
            raise SystemExit(f"excerpts of {path} are not JSON lines: they cannot be joined")
        excerpts.sort(key=_first_line)
    return groups


def _first_line(entry: dict[str, Any]) -> int:
    found = _EXCERPT_START.search(entry["file"])
    return int(found.group(1)) if found else 1


def _as_lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def _renamed(source: Path, root: Path) -> str:
    """A transcript's text with the working directories it names renamed to `root`."""
    text = source.read_bytes().decode("utf-8")
    cwds, _ = _cwds_and_moments(text)
    for cwd in sorted(cwds, key=len, reverse=True):
        # JSON may spell a non-ASCII character of a path as itself or as a \u escape.
        for spelling in {_escaped(cwd), _escaped(cwd, ascii_only=False)}:
            text = text.replace(spelling, _escaped(str(root)))
        # A Windows folder the agent's commands name otherwise (`C:/…`, Git Bash's `/c/…`),
        # as a path inside it: the same folder on the machine that ran the session.
        for form in root_spellings(cwd)[1:]:
            for spelling in {_escaped(form), _escaped(form, ascii_only=False)}:
                for separator in ("/", "\\\\"):
                    text = text.replace(spelling + separator, _escaped(str(root)) + "/")
    return text


def _target(entry: dict[str, Any], root: Path, homes: dict[str, Path], moments: list[str]) -> Path:
    """Where the session's agent keeps a session like this one, for the worktree `root`."""
    name = Path(entry["path"]).name
    slug = "-" + str(root).strip("/").replace("/", "-").replace(".", "-")
    agent = entry["agent"]
    if agent == "claude-code":
        return homes["claude"] / "projects" / slug / name
    if agent == "codex":
        day = datetime.fromisoformat(min(moments).replace("Z", "+00:00"))
        return homes["codex"] / "sessions" / f"{day:%Y/%m/%d}" / name
    if agent == "copilot-cli":
        session = Path(entry["path"]).parent.name
        return homes["copilot"] / "session-state" / session / "events.jsonl"
    if agent == "cursor":
        # Cursor names the project by its path with every non-alphanumeric character a dash.
        project = re.sub(r"[^A-Za-z0-9]", "-", str(root).strip("/"))
        return homes["cursor"] / "projects" / project / "agent-transcripts" / name
    if agent == "qwen-code" and name.endswith(".jsonl"):
        return homes["qwen"] / "projects" / slug / "chats" / name
    # Gemini CLI, and Qwen Code's early recordings in Gemini CLI's layout.
    base = homes["gemini"] / ".gemini" if agent == "gemini-cli" else homes["qwen"]
    project = base / "tmp" / root.name
    project.mkdir(parents=True, exist_ok=True)
    (project / ".project_root").write_text(str(root), encoding="utf-8")
    return project / "chats" / name


def score(
    candidates: list[Candidate],
    labels: Iterable[dict[str, Any]],
    shown: Callable[[str], str] = str,
) -> list[tuple[Candidate, dict[str, Any] | None]]:
    """Each candidate with the label it matched (KEEP labels taken first), or None; `shown`
    rewrites a label's words as review shows the sessions' text (`matches`)."""
    ordered = sorted(labels, key=lambda label: VERDICTS.index(label["verdict"]))
    taken: dict[int, dict[str, Any]] = {}
    for label in ordered:
        hit = next(
            (i for i, c in enumerate(candidates) if i not in taken and matches(label, c, shown)),
            None,
        )
        if hit is not None:
            taken[hit] = label
    return [(c, taken.get(i)) for i, c in enumerate(candidates)]


def measure_one(base: Path, homes: dict[str, Path], repository: Repository) -> Measured:
    """Install one source repository's sessions for a throw-away repository, extract, score."""
    from tests.repos import make_repo

    repo = make_repo(base / "repos" / file_stem(repository.name))
    repo.write("README.md", f"# {repository.name}\n")
    repo.commit_all("Initial commit")
    moments = install_all(list(repository.sessions), repo.root, homes)
    days = sorted(m[:10] for m in moments)
    since = (datetime.fromisoformat(days[0]) - timedelta(days=1)).date().isoformat()
    until = (datetime.fromisoformat(days[-1]) + timedelta(days=2)).date().isoformat()
    started = time.perf_counter()
    found = extract(repository.name, repo.root, since=since, until=until)
    seconds = time.perf_counter() - started
    shown = _as_shown(repository, repo.root)
    return Measured(repository, score(found, repository.labels, shown), seconds)


def _as_shown(repository: Repository, root: Path) -> Callable[[str], str]:
    """How review shows a path a label copied from the repository's sessions: as `install`
    does to the transcripts, each working directory they name renamed to the worktree `root`
    (the longest first, a Windows folder in each spelling a command line gives it); then the
    product's own rewriting, a path inside the worktree made relative and a home `~`."""
    cwds: set[str] = set()
    for entry in repository.sessions:
        cwds |= _cwds_and_moments((FIXTURE / entry["file"]).read_text(encoding="utf-8"))[0]
    scrub = path_scrubber(root)

    def shown(text: str) -> str:
        for cwd in sorted(cwds, key=len, reverse=True):
            text = text.replace(cwd, str(root))
            for form in root_spellings(cwd)[1:]:
                for separator in ("/", "\\"):
                    text = text.replace(form + separator, f"{root}/")
        return scrub(text)

    return shown


def measure(base: Path, repos: list[str] | None = None) -> list[Measured]:
    """Extract every (or each named) source repository's sessions and score the candidates."""
    known = repositories()
    unknown = sorted(set(repos or ()) - set(known))
    if unknown:
        raise SystemExit(f"not in the corpus: {', '.join(unknown)}")
    homes = hermetic(base / "env")
    return [measure_one(base, homes, known[name]) for name in repos or sorted(known)]


def in_part(repository: Repository, name: str) -> bool:
    """Whether a repository counts in the part `name` (one of `PARTS`)."""
    if name == "all":
        return True
    if name == "test_unseen":
        return repository.part == "test" and repository.unseen
    return repository.part == name


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def figures(measured: list[Measured]) -> dict[str, Any]:
    """The totals of some measured repositories."""
    pairs = [pair for m in measured for pair in m.pairs]
    counts = {v: sum(1 for _, label in pairs if label and label["verdict"] == v) for v in VERDICTS}
    keep_labelled = sum(1 for m in measured for x in m.repository.labels if x["verdict"] == "KEEP")
    used = [s for m in measured for s in m.repository.sessions]
    return {
        "candidates": len(pairs),
        "precision": _ratio(counts["KEEP"] + counts["MAYBE"], len(pairs)),
        "keep_recall": _ratio(counts["KEEP"], keep_labelled),
        "keep": counts["KEEP"],
        "keep_labelled": keep_labelled,
        "maybe": counts["MAYBE"],
        "noise": counts["NOISE"],
        "unlabelled": sum(1 for _, label in pairs if label is None),
        "sessions": len(used),
        "repositories": len(measured),
        "agents": len({s["agent"] for s in used}),
        "non_english": _ratio(sum(1 for s in used if s["language"] != "en"), len(used)),
    }


def report(measured: list[Measured]) -> dict[str, Any]:
    """The JSON line: each part's figures, and the time per session over all of them."""
    result: dict[str, Any] = {
        name: figures([m for m in measured if in_part(m.repository, name)]) for name in PARTS
    }
    sessions = sum(len(m.repository.sessions) for m in measured)
    seconds = sum(m.seconds for m in measured)
    result["seconds_per_session"] = round(seconds / sessions, 3) if sessions else None
    return result


def by_kind(measured: list[Measured]) -> dict[str, Any]:
    """Each part's totals per kind of memory: KEEP labels found of those labelled, and the
    candidates with what they matched. Totals only, so the test part can be read this way
    too without showing a single one of its verdicts."""
    return {
        name: _kind_totals([m for m in measured if in_part(m.repository, name)]) for name in PARTS
    }


def by_language(measured: list[Measured]) -> dict[str, Any]:
    """Each part's totals per language and kind of memory (`by_kind`), a repository counted
    in the language most of its sessions are in. Totals only."""
    result: dict[str, Any] = {}
    for name in PARTS:
        languages: dict[str, list[Measured]] = {}
        for m in measured:
            if in_part(m.repository, name):
                languages.setdefault(_language(m.repository), []).append(m)
        result[name] = {lang: _kind_totals(ms) for lang, ms in sorted(languages.items())}
    return result


def _language(repository: Repository) -> str:
    spoken = Counter(str(session["language"]) for session in repository.sessions)
    return spoken.most_common(1)[0][0] if spoken else "?"


def _kind_totals(chosen: list[Measured]) -> dict[str, dict[str, int]]:
    kinds: dict[str, dict[str, int]] = {}
    for m in chosen:
        for label in m.repository.labels:
            if label["verdict"] == "KEEP":
                row = kinds.setdefault(_kind(label["kind"]), _zero())
                row["keep_labelled"] += 1
        for candidate, label in m.pairs:
            row = kinds.setdefault(candidate.kind, _zero())
            row["candidates"] += 1
            row[label["verdict"].lower() if label else "unlabelled"] += 1
    return dict(sorted(kinds.items()))


def _kind(kind: str) -> str:
    return "rule" if kind == "fact" else kind  # review shows facts among the stated rules


def _zero() -> dict[str, int]:
    return dict.fromkeys(("keep_labelled", "candidates", "keep", "maybe", "noise", "unlabelled"), 0)


def details(measured: list[Measured]) -> list[str]:
    """The tuning part's verdicts and misses, one line each; the test part's count only."""
    tuning = [m for m in measured if m.repository.part == "tune"]
    lines = ["--- details (tuning part)"]
    lines += [_detail(c, label) for m in tuning for c, label in m.pairs]
    lines.append("--- missed (tuning part)")
    lines += [
        f"{m.repository.name}: {x['kind']} {_keys(x)} ({x['why']})"
        for m in tuning
        for x in m.missed()
    ]
    held = sum(1 for m in measured if m.repository.part == "test")
    lines.append(f"--- test part: {held} repositories, totals only (never its verdicts)")
    return lines


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
    parser.add_argument(
        "--details", action="store_true", help="the tuning part's verdicts and misses, to stderr"
    )
    parser.add_argument(
        "--by-kind", action="store_true", help="each part's totals per kind of memory, to stderr"
    )
    parser.add_argument(
        "--by-language",
        action="store_true",
        help="each part's totals per language and kind of memory, to stderr",
    )
    args = parser.parse_args(argv)
    repos = args.repos.split(",") if args.repos else list(QUICK) if args.quick else None
    with tempfile.TemporaryDirectory(prefix="bench-extract-real-") as tmp:
        measured = measure(Path(tmp), repos)
    if args.details:
        print(*details(measured), sep="\n", file=sys.stderr)
    if args.by_kind:
        print(json.dumps(by_kind(measured)), file=sys.stderr)
    if args.by_language:
        print(json.dumps(by_language(measured)), file=sys.stderr)
    print(json.dumps(report(measured)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
