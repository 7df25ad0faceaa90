"""The labelled real-session corpus of `tests/fixtures/real-sessions/`, from both its layouts.

Round one (issue 26) keeps its two files: `PROVENANCE.json` (a list of session records) and
`labels.json` (`{"repositories": {"owner/repo": [label, ...]}}`). Every later repository has
two files of its own, so that several people can add repositories without touching one file:
- `provenance/<owner>__<repo>.json`: a list of session records, the same shape as
  `PROVENANCE.json`'s (file, agent, repo, path, commit, licence, agent_version, excerpt,
  bytes, sha256, language);
- `labels/<owner>__<repo>.json`: `{"repo", "round", "labelled_before_tuning": true,
  "labels": [...]}`; every KEEP label names its `sources` (the transcript lines that show it).
The part a repository belongs to (tuning or test) is `corpus_split.part`, a fixed hash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.perf.corpus_split import Part, part

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "real-sessions"
ROUND_ONE = "issue 26"
LABELS_DIR = "labels"
PROVENANCE_DIR = "provenance"


@dataclass(frozen=True)
class Repository:
    """One source repository of the corpus: its sessions, its labels, its round and part."""

    name: str
    round: str
    sessions: tuple[dict[str, Any], ...]
    labels: tuple[dict[str, Any], ...]

    @property
    def part(self) -> Part:
        return part(self.name)

    @property
    def unseen(self) -> bool:
        """Whether the repository came after round one, whose sessions were tuned on."""
        return self.round != ROUND_ONE


def file_stem(repository: str) -> str:
    """`owner__repo`: the name of a repository's own label and provenance files."""
    return repository.replace("/", "__")


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def label_documents(root: Path = FIXTURE) -> dict[str, dict[str, Any]]:
    """Each later repository's label document, by the file's path under `root`."""
    return {
        f"{LABELS_DIR}/{path.name}": _json(path)
        for path in sorted((root / LABELS_DIR).glob("*.json"))
    }


def provenance_files(root: Path = FIXTURE) -> dict[str, list[dict[str, Any]]]:
    """Every provenance file's session records, by the file's path under `root`."""
    files = {"PROVENANCE.json": _json(root / "PROVENANCE.json")}
    for path in sorted((root / PROVENANCE_DIR).glob("*.json")):
        files[f"{PROVENANCE_DIR}/{path.name}"] = _json(path)
    return files


def sessions(root: Path = FIXTURE) -> list[dict[str, Any]]:
    """Every recorded session of both layouts."""
    return [record for records in provenance_files(root).values() for record in records]


def repositories(root: Path = FIXTURE) -> dict[str, Repository]:
    """Every labelled source repository of both layouts, by `owner/repo`."""
    rounds: dict[str, tuple[str, list[dict[str, Any]]]] = {
        name: (ROUND_ONE, labels)
        for name, labels in _json(root / "labels.json")["repositories"].items()
    }
    for document in label_documents(root).values():
        rounds[document["repo"]] = (document["round"], document["labels"])
    recorded = sessions(root)
    return {
        name: Repository(
            name, round_, tuple(s for s in recorded if s["repo"] == name), tuple(labels)
        )
        for name, (round_, labels) in sorted(rounds.items())
    }
