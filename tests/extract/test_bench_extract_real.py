"""The real-sessions extraction benchmark: its labels, its installation of sessions, its
matching, and a quick run whose figures must add up (no thresholds: the extractor changes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_quick_bench
from tests.perf.bench_extract_real import (
    PARTS,
    QUICK,
    Measured,
    by_kind,
    by_language,
    details,
    in_part,
    install,
    install_all,
    report,
    score,
)
from tests.perf.corpus_split import TUNING_SHARE, bucket, part
from tests.perf.extract_labels import Candidate, matches
from tests.perf.real_corpus import FIXTURE, ROUND_ONE, Repository, repositories, sessions
from tests.repos import Repo

KEYS = {"command": {"command"}, "trap": {"failing", "fix"}, "rule": {"keywords"}}


def test_every_label_names_its_verdict_kind_and_match_keys() -> None:
    labelled = {name: repository.labels for name, repository in repositories().items()}
    assert set(labelled) == {s["repo"] for s in sessions()}
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
    entry = next(s for s in sessions() if s["agent"] == "codex" and s["bytes"] < 100_000)
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
    entry = next(s for s in sessions() if s["agent"] == "gemini-cli")
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


def test_a_label_written_with_a_narrow_run_matches_its_general_command() -> None:
    said = "`uv run pytest` runs the tests (worked in 1 session)."
    candidate = Candidate("r", said, said)
    narrow = _label("KEEP", "uv run pytest tests/test_db.py -v")
    assert matches(narrow, candidate), "the label's command in the command model's normal form"
    assert not matches(_label("KEEP", "uv run ruff check"), candidate)
    trap = "Trap: `uv run pytest` fails with \"No module named 'x'\" unless `uv sync` runs first."
    label = {"verdict": "KEEP", "kind": "trap", "failing": "uv run pytest tests/a.py -q"}
    assert matches({**label, "fix": ["uv sync"]}, Candidate("r", trap, trap))
    assert not matches({**label, "fix": ["pip install"]}, Candidate("r", trap, trap))
    moved = {**label, "failing": 'cd "C:\\Users\\me\\app" && uv run pytest', "fix": ["uv sync"]}
    assert matches(moved, Candidate("r", trap, trap)), "a leading cd is kept apart"


def test_a_trap_label_on_inline_python_matches_the_trap_about_its_interpreter() -> None:
    trap = (
        "Trap: `python3` fails with \"ModuleNotFoundError: No module named 'x'\"; run "
        "`./.venv/bin/python` instead."
    )
    label = {"verdict": "KEEP", "kind": "trap", "fix": [".venv/bin/python"]}
    inline = {**label, "failing": 'python3 -c "\nimport x\nprint(x)\n"'}
    assert matches(inline, Candidate("r", trap, trap))
    script = {**label, "failing": "python3 tools/x.py"}
    assert not matches(script, Candidate("r", trap, trap)), "a script run is its own subject"


def test_a_label_copied_from_the_transcript_matches_the_path_as_review_shows_it() -> None:
    from git_memory.extract.select import path_scrubber

    shown = path_scrubber(Path("/Users/ana/Desktop/shop"))
    trap = (
        'Trap: `rm -rf .next` fails with "Reason: rm -rf is forbidden - use trash instead"; '
        "run `trash .next` instead."
    )
    label = {
        "verdict": "KEEP",
        "kind": "trap",
        "failing": ["rm -rf /Users/ana/Desktop/shop/.next"],
        "fix": ["trash /Users/ana/Desktop/shop/.next"],
    }
    assert not matches(label, Candidate("r", trap, trap)), "as the transcript spells it"
    assert matches(label, Candidate("r", trap, trap), shown), "as review shows it"
    elsewhere = {**label, "failing": ["rm -rf /Users/ana/Desktop/blog/.next"]}
    assert not matches(elsewhere, Candidate("r", trap, trap), shown), "another folder's"
    said = "`scripts/check.sh` runs the checks (worked in 1 session)."
    command = _label("KEEP", "/Users/ana/Desktop/shop/scripts/check.sh")
    assert not matches(command, Candidate("r", said, said))
    assert matches(command, Candidate("r", said, said), shown)


def test_a_label_is_shown_as_the_installed_sessions_are(tmp_path: Path) -> None:
    from tests.perf.bench_extract_real import _as_shown

    repository = repositories()["K3RN-LABS/k3rn.labs"]
    cwds = {"/Users/user/Desktop/N8N consultant", "/Users/user/Desktop/k3rn"}
    texts = [(FIXTURE / s["file"]).read_text(encoding="utf-8") for s in repository.sessions]
    assert all(any(f'"cwd":"{cwd}"' in text for text in texts) for cwd in cwds)
    shown = _as_shown(repository, tmp_path / "repo")
    assert shown("rm -rf /Users/user/Desktop/k3rn/.next") == "rm -rf .next"
    assert shown("ls /Users/user/Desktop/N8N consultant/flows") == "ls flows"
    # every working directory is the one worktree, as `install` renames them
    assert shown("cp /Users/user/Desktop/k3rn/.env '/Users/user/Desktop/N8N consultant/.env'") == (
        "cp .env '.env'"
    )
    assert shown("cat /Users/user/notes.md") == "cat ~/notes.md"
    # sessions that name no working directory: a home is `~` all the same
    nameless = Repository("x/y", "issue 39", (), ())
    assert _as_shown(nameless, tmp_path / "repo")("run /home/lr/a.py") == "run ~/a.py"


def test_a_label_word_shown_shorter_still_names_a_whole_path() -> None:
    from git_memory.extract.select import path_scrubber

    shown = path_scrubber(Path("/Users/ana/shop"))
    said = "Use pnpm, not npm."
    folder = {"verdict": "KEEP", "kind": "rule", "keywords": ["/Users/ana/shop"]}
    assert not matches(folder, Candidate("r", said, said), shown), "the folder alone is `.`"
    trap = 'Trap: `go build ./...` fails with "x"; run `cd services/api && go build ./...` instead.'
    label = {"verdict": "KEEP", "kind": "trap", "failing": "go build ./..."}
    root = {**label, "fix": ["cd /Users/ana/shop"]}
    assert not matches(root, Candidate("r", trap, trap), shown), "`cd .` is not `cd services`"
    below = {**label, "fix": ["cd /Users/ana/shop/services/api"]}
    assert matches(below, Candidate("r", trap, trap), shown)


def test_a_rule_label_matches_whatever_the_apostrophes() -> None:
    said = "Don't build the pipeline in a single file."
    label = {"verdict": "KEEP", "kind": "rule", "keywords": ["dont build the pipeline"]}
    assert matches(label, Candidate("r", said, said))
    assert not matches({**label, "keywords": ["do build"]}, Candidate("r", said, said))


def test_the_quick_run_reports_consistent_figures() -> None:
    figures = run_quick_bench("bench_extract_real.py", timeout=180)
    known = repositories()
    quick = [known[name] for name in QUICK]
    for name in PARTS:
        chosen = [r for r in quick if in_part(r, name)]
        _assert_consistent(figures[name], chosen)
    assert figures["all"]["repositories"] == len(QUICK)
    assert figures["seconds_per_session"] > 0


def _assert_consistent(figures: dict[str, Any], chosen: list[Repository]) -> None:
    used = [s for r in chosen for s in r.sessions]
    assert figures["sessions"] == len(used)
    assert figures["repositories"] == len(chosen)
    assert figures["agents"] == len({s["agent"] for s in used})
    keep = sum(1 for r in chosen for label in r.labels if label["verdict"] == "KEEP")
    assert figures["keep_labelled"] == keep
    total = figures["candidates"]
    parts = ("keep", "maybe", "noise", "unlabelled")
    assert sum(figures[part] for part in parts) == total
    expected = round((figures["keep"] + figures["maybe"]) / total, 3) if total else None
    assert figures["precision"] == expected
    assert figures["keep_recall"] == (round(figures["keep"] / keep, 3) if keep else None)
    foreign = sum(1 for s in used if s["language"] != "en")
    assert figures["non_english"] == (round(foreign / len(used), 3) if used else None)


def _measured(
    name: str,
    round_: str,
    pairs: list[tuple[Candidate, dict[str, Any] | None]],
    labels: list[dict[str, Any]],
) -> Measured:
    session = {"agent": "codex", "language": "ko", "file": f"codex/{name}.jsonl"}
    return Measured(Repository(name, round_, (session,), tuple(labels)), pairs, 1.0)


def _named_in(part_name: str, prefix: str) -> str:
    return next(f"{prefix}/{n}" for n in range(1000) if part(f"{prefix}/{n}") == part_name)


def test_the_test_part_is_printed_as_totals_and_never_as_verdicts() -> None:
    said = "`make check` runs the checks (worked in 2 sessions)."
    keep = {**_label("KEEP", "make check"), "why": "seen"}
    tuned = _measured(
        _named_in("tune", "tuned"), ROUND_ONE, [(Candidate("t", said, said), keep)], [keep]
    )
    held_said = "`make held-out-candidate` runs it (worked in 1 session)."
    held_label = {**_label("KEEP", "make held-out-label"), "why": "held-out-why"}
    held = _measured(
        _named_in("test", "held"),
        "issue 39",
        [(Candidate("h", held_said, held_said), None)],
        [held_label],
    )
    printed = "\n".join(details([tuned, held]))
    assert "make check" in printed
    assert "held-out" not in printed
    figures = report([tuned, held])
    assert figures["tune"]["keep_recall"] == 1.0
    assert figures["test"]["unlabelled"] == 1
    assert figures["test"]["keep_recall"] == 0.0
    assert figures["test_unseen"]["repositories"] == 1
    assert figures["all"]["candidates"] == 2
    assert figures["all"]["non_english"] == 1.0


def test_totals_per_kind_and_language_add_up_and_name_no_verdict() -> None:
    said = "`make check` runs the checks (worked in 2 sessions)."
    keep = {**_label("KEEP", "make check"), "why": "seen"}
    other = {**_label("KEEP", "make lint"), "why": "missed"}
    held = _measured(
        _named_in("test", "held"),
        "issue 39",
        [(Candidate("h", said, said), keep), (Candidate("h", "Never push.", "Never push."), None)],
        [keep, other],
    )
    kinds = by_kind([held])["test"]
    assert kinds == {
        "command": {
            "keep_labelled": 2, "candidates": 1, "keep": 1, "maybe": 0, "noise": 0,
            "unlabelled": 0,
        },
        "rule": {
            "keep_labelled": 0, "candidates": 1, "keep": 0, "maybe": 0, "noise": 0,
            "unlabelled": 1,
        },
    }  # fmt: skip
    assert by_language([held])["test"] == {"ko": kinds}
    assert "make" not in json.dumps(by_language([held]))


def test_a_repository_seen_in_round_one_is_not_counted_as_unseen() -> None:
    name = _named_in("test", "seen")
    said = "`make a` runs a (worked in 1 session)."
    figures = report([_measured(name, ROUND_ONE, [(Candidate("s", said, said), None)], [])])
    assert figures["test"]["repositories"] == 1
    assert figures["test_unseen"]["repositories"] == 0
    assert figures["test_unseen"]["precision"] is None


def test_the_split_is_a_fixed_hash_of_the_lower_cased_name() -> None:
    """Pinned: the rule may never change to move a repository between the parts."""
    assert [bucket(name) for name in ("owner/repo", "Owner/Repo", "git/git")] == [69, 69, 33]
    assert (part("owner/repo"), part("git/git"), TUNING_SHARE) == ("test", "tune", 60)


def test_the_split_puts_about_sixty_percent_of_names_in_the_tuning_part() -> None:
    names = [f"owner{n}/repo{n}" for n in range(2000)]
    share = sum(1 for name in names if part(name) == "tune") / len(names)
    assert 0.55 < share < 0.65


def test_a_working_directory_with_non_ascii_characters_is_renamed(tmp_path: Path) -> None:
    """A Windows home whose folder name holds full-width characters, as the agent wrote it."""
    entry = next(s for s in sessions() if "7466dcda" in s["file"])
    homes = {name: tmp_path / name for name in ("claude", "codex", "gemini", "qwen")}
    root = tmp_path / "repo"
    install(entry, root, homes)
    (copy,) = (homes["claude"] / "projects").rglob(Path(entry["path"]).name)
    records = [json.loads(line) for line in copy.read_text(encoding="utf-8").splitlines()]
    assert {r["cwd"] for r in records if "cwd" in r} == {str(root)}


def test_a_windows_folder_the_commands_spell_otherwise_is_renamed_too(tmp_path: Path) -> None:
    """Claude Code on Windows records `C:\\Users\\ubin`; its Git Bash commands name the same
    folder `/c/Users/ubin/…`: on the machine that ran them, the same folder."""
    entry = next(s for s in sessions() if "5c175bc4-27d8" in s["file"])
    assert "/c/Users/ubin/" in (FIXTURE / entry["file"]).read_text(encoding="utf-8")
    homes = {name: tmp_path / name for name in ("claude", "codex", "gemini", "qwen")}
    root = tmp_path / "repo"
    install(entry, root, homes)
    (copy,) = (homes["claude"] / "projects").rglob(Path(entry["path"]).name)
    text = copy.read_text(encoding="utf-8")
    assert "/c/Users/ubin/" not in text
    assert f"{root}/AppData/Local/Programs/Microsoft VS Code/bin/code.cmd" in text


def _format_of(entry: dict[str, Any]) -> str:
    return f"{entry['agent']}{Path(entry['file']).suffix}"


def _sources_of_keepers() -> set[str]:
    return {
        source["file"]
        for repository in repositories().values()
        for label in repository.labels
        if label["verdict"] == "KEEP"
        for source in label.get("sources", ())
    }


# One recorded session of each agent and file format where a labelled keeper shows (so a
# person typed in it), whole (an excerpt may lack the prompt that opens its turns).
FORMATS = {
    _format_of(entry): entry
    for entry in sorted(sessions(), key=lambda e: e["file"], reverse=True)
    if entry["excerpt"] is None and entry["file"] in _sources_of_keepers()
}


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_a_session_of_every_agent_and_format_is_indexed_for_the_repository(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], kind: str
) -> None:
    homes = {
        "claude": hermetic_env["claude"],
        "codex": hermetic_env["codex"],
        "gemini": hermetic_env["gemini"],
        "qwen": hermetic_env["qwen"],
        "copilot": hermetic_env["copilot"],
        "cursor": hermetic_env["cursor"],
    }
    install(FORMATS[kind], repo.root, homes)
    synced = gm(["sessions", "sync"], cwd=repo.root)
    assert synced.exit_code == 0, synced.stderr
    listed = gm(["sessions", "list", "--format", "json"], cwd=repo.root)
    assert [s["provider"] for s in listed.json()["sessions"]] == [FORMATS[kind]["agent"]]


def _excerpts_of_one_transcript() -> list[dict[str, Any]]:
    """The excerpts the corpus cut from one Codex rollout, as provenance lists them (the later
    excerpt first, so the order must come from their lines)."""
    by_path: dict[str, list[dict[str, Any]]] = {}
    for entry in sessions():
        by_path.setdefault(entry["path"], []).append(entry)
    pieces = next(group for group in by_path.values() if len(group) > 1)
    return sorted(pieces, key=lambda e: e["file"], reverse=True)


def test_excerpts_of_one_transcript_are_installed_as_that_transcript(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    """Installed side by side, the later excerpt took the rollout's name and the earlier one,
    with its labelled keepers, was never read."""
    pieces = _excerpts_of_one_transcript()
    homes = {name: hermetic_env[name] for name in ("claude", "codex", "gemini", "qwen")}
    install_all(pieces, repo.root, homes)
    (copy,) = (homes["codex"] / "sessions").rglob("*.jsonl")
    lines = copy.read_text(encoding="utf-8").splitlines()
    parts = [(FIXTURE / e["file"]).read_text(encoding="utf-8").splitlines() for e in pieces]
    earlier, later = sorted(parts, key=lambda p: json.loads(p[0])["type"] != "session_meta")
    assert len(lines) == len(earlier) + len(later)
    assert json.loads(lines[0])["type"] == "session_meta"  # the rollout opens with its meta
    assert lines[len(earlier)] == later[0].replace(*_renamed_cwd(later[0], repo.root))
    synced = gm(["sessions", "sync"], cwd=repo.root)
    assert synced.exit_code == 0, synced.stderr
    listed = gm(["sessions", "list", "--format", "json"], cwd=repo.root).json()["sessions"]
    (session,) = listed
    prompts = sum(1 for line in earlier + later if '"type":"user_message"' in line)
    assert session["turns"] == prompts


def _renamed_cwd(line: str, root: Path) -> tuple[str, str]:
    """The working directory a transcript line names and the one the copy names instead."""
    record = json.loads(line)
    cwd = record.get("cwd") or record.get("payload", {}).get("cwd") or ""
    return (json.dumps(cwd)[1:-1], json.dumps(str(root))[1:-1]) if cwd else ("", "")
