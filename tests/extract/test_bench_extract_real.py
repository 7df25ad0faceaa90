"""The real-sessions extraction benchmark: its labels, its installation of sessions, its
matching, and a quick run whose figures must add up (no thresholds: the extractor changes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_quick_bench
from tests.perf.bench_extract_real import FIXTURE, QUICK, corpus, install, score
from tests.perf.extract_labels import Candidate

KEYS = {"command": {"command"}, "trap": {"failing", "fix"}, "rule": {"keywords"}}


def test_every_label_names_its_verdict_kind_and_match_keys() -> None:
    sessions, labelled = corpus()
    assert set(labelled) == {s["repo"] for s in sessions}
    for repo, labels in labelled.items():
        for label in labels:
            kind = "rule" if label["kind"] == "fact" else label["kind"]
            assert label["verdict"] in {"KEEP", "MAYBE", "NOISE"}, (repo, label)
            assert KEYS[kind] <= set(label), (repo, label)
            assert label["why"], (repo, label)
    verdicts = [label["verdict"] for labels in labelled.values() for label in labels]
    assert {"KEEP", "MAYBE", "NOISE"} <= set(verdicts)


def test_labels_say_they_were_written_before_tuning() -> None:
    document = json.loads((FIXTURE / "labels.json").read_text(encoding="utf-8"))
    note = document["labelled_before_tuning"]
    assert "before" in note
    subject = note.split('"')[1]
    assert subject in (FIXTURE / "PROVENANCE.md").read_text(encoding="utf-8")


def test_a_session_is_installed_for_the_repository_and_the_fixture_is_untouched(
    tmp_path: Path,
) -> None:
    sessions, _ = corpus()
    entry = next(s for s in sessions if s["agent"] == "codex" and s["bytes"] < 100_000)
    before = (FIXTURE / entry["file"]).read_bytes()
    homes = {name: tmp_path / name for name in ("claude", "codex", "gemini", "qwen")}
    root = tmp_path / "repo"
    moments = install(entry, root, homes)
    (copy,) = (homes["codex"] / "sessions").rglob(Path(entry["path"]).name)
    meta = json.loads(copy.read_text(encoding="utf-8").splitlines()[0])
    assert meta["payload"]["cwd"] == str(root)
    assert moments
    assert min(moments).startswith("20")
    assert (FIXTURE / entry["file"]).read_bytes() == before


def test_gemini_sessions_name_their_project_root(tmp_path: Path) -> None:
    sessions, _ = corpus()
    entry = next(s for s in sessions if s["agent"] == "gemini-cli")
    homes = {name: tmp_path / name for name in ("claude", "codex", "gemini", "qwen")}
    root = tmp_path / "repo"
    install(entry, root, homes)
    (marker,) = (homes["gemini"] / ".gemini" / "tmp").rglob(".project_root")
    assert marker.read_text(encoding="utf-8") == str(root)
    assert (marker.parent / "chats" / Path(entry["path"]).name).is_file()


def _label(verdict: str, command: str) -> dict[str, Any]:
    return {"verdict": verdict, "kind": "command", "command": command, "why": "-"}


def test_each_label_and_each_candidate_is_matched_at_most_once_keep_first() -> None:
    said = "`npm test` runs the tests (worked in 1 session)."
    candidates = [Candidate("r", said, said), Candidate("r", said, said)]
    noise, keep = _label("NOISE", "npm test"), _label("KEEP", "npm test")
    pairs = score(candidates, [noise, keep])
    assert [label for _, label in pairs] == [keep, noise]
    assert [label for _, label in score(candidates, [keep])] == [keep, None]


def test_the_quick_run_reports_consistent_figures() -> None:
    figures = run_quick_bench("bench_extract_real.py", timeout=180)
    sessions, labelled = corpus()
    quick = [s for s in sessions if s["repo"] in QUICK]
    assert figures["sessions"] == len(quick)
    assert figures["repositories"] == len(QUICK)
    assert figures["agents"] == len({s["agent"] for s in quick})
    keep = sum(1 for repo in QUICK for label in labelled[repo] if label["verdict"] == "KEEP")
    assert figures["keep_labelled"] == keep
    total = figures["candidates"]
    parts = ("keep", "maybe", "noise", "unlabelled")
    assert sum(figures[part] for part in parts) == total
    expected = round((figures["keep"] + figures["maybe"]) / total, 3) if total else 1.0
    assert figures["precision"] == expected
    assert figures["keep_recall"] == round(figures["keep"] / keep, 3)
    assert figures["seconds_per_session"] > 0
