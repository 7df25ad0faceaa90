"""Codex memories folders of every layout Codex has written (tests/agent_memory/codex_folders.py
builds them from Codex's own templates): what harvest offers, what evidence it cites, what it
never offers, and what doctor says of a layout this reader does not know."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
import zstandard

from git_memory.agent_memory.codex_layout import BUCKET_ENTRIES, ROOT_ENTRIES
from tests.agent_memory.codex_folders import (
    OFFERED,
    OTHER,
    QUOTE,
    RELEASE,
    bucket,
    bucket_folder,
    current_folder,
    rollout_path,
    write,
)
from tests.agent_memory.conftest import Project, review_and_promote, snapshot
from tests.conftest import run_cli
from tests.sessions.transcripts import codex_lines, write_jsonl

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agent-memory.md"
# Words only the files that are never offered hold (the profile, raw memories, recaps, a
# skill, an extension's note, another checkout's block) and paths outside the worktree.
NEVER_SHOWN = ("Lisbon", "Backend developer", "on leave", "gradlew", "/home/dev", "/nowhere")


def _cwd(project: Project) -> str:
    return str(project.root.resolve())


def _review(project: Project) -> dict[str, Any]:
    code, review = project.gm("review")
    assert code == 0, review
    return review  # type: ignore[no-any-return]


def _item(review: dict[str, Any], key: str) -> dict[str, Any]:
    (item,) = [i for i in review["items"] if key in i["statements"][0]["evidence"][0]["display"]]
    return item  # type: ignore[no-any-return]


def _evidence(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for s in item["statements"] for e in s["evidence"]]


def _assert_nothing_private(review: dict[str, Any], codex_home: Path) -> None:
    shown = json.dumps(review)
    for words in (*NEVER_SHOWN, str(codex_home)):
        assert words not in shown


def _doctor_line(project: Project) -> dict[str, Any]:
    result = run_cli(["doctor", "--format", "json"], cwd=project.root)
    (check,) = [c for c in result.json()["checks"] if c["name"] == "codex memories"]
    return check  # type: ignore[no-any-return]


def _session(project: Project, cwd: str, path: Path | None = None) -> None:
    """A Codex session run in `cwd`, indexed; its rollout file is the one the summaries name
    unless `path` says otherwise (compressed when it ends in `.zst`)."""
    lines = codex_lines(cwd, ["cut the patch release", "now tag it"])
    lines[0]["payload"]["id"] = RELEASE
    path = path or rollout_path(project.homes["codex"], RELEASE)
    write_jsonl(path, lines)
    if path.suffix == ".zst":
        path.write_bytes(zstandard.ZstdCompressor().compress(path.read_bytes()))
    old = time.time() - 3 * 3600  # idle long enough for its turns to count as closed
    os.utime(path, (old, old))
    assert project.gm("sessions", "sync")[0] == 0


def test_the_current_folder_offers_only_this_repositorys_know_how(project: Project) -> None:
    memories = current_folder(project.homes["codex"], _cwd(project))
    before = snapshot(memories)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [(s["store"], s["files"]) for s in harvested["stores"]] == [("codex-memories", 1)]
    kinds = sorted(o["kind"] for o in harvested["offered"])
    assert kinds == ["fact", "fact", "rule", "rule", "rule", "trap"]
    assert harvested["diagnostics"] == []
    _assert_nothing_private(_review(project), project.homes["codex"])
    assert snapshot(memories) == before, "harvest never writes to Codex's folder"


def test_the_persons_quoted_words_back_the_preference_as_typed_by_a_person(
    project: Project,
) -> None:
    current_folder(project.homes["codex"], _cwd(project))
    project.gm("harvest")
    review = _review(project)
    preference = _item(review, "User preferences#1")
    assert preference["content"] == OFFERED
    (statement,) = preference["statements"]
    assert statement["origins"] == ["person"]
    (store_item,) = _evidence(preference)
    assert store_item["quotes"] == [{"origin": "person", "text": QUOTE}]
    assert store_item["excerpt"].startswith("when releasing, the user asked / corrected:")
    # A preference in no quoted shape is the agent's summary: no person's words back it.
    plain = _item(review, "User preferences#3")
    assert plain["content"] == "Keep release notes short."
    assert "origins" not in plain["statements"][0]
    shown = run_cli(["review"], cwd=project.root).stdout
    assert f"[typed by a person] {QUOTE}" in shown
    review_and_promote(project, only=[preference["candidateId"]])
    (entry,) = (project.root / ".memory" / "entries").glob("*.md")
    assert OFFERED in entry.read_text()


@pytest.mark.parametrize(
    "bullet",
    [
        "rollout_summaries/2026-03-02T09-00-00-{thread}-patch_release.md",
        "rollout_summaries/2026-03-02T09-00-00-Qx2b-patch_release.md (cwd={cwd}, "
        "updated_at=2026-03-02T09:40:12+00:00)",
    ],
    ids=["named-summary", "summary-header"],
)
def test_the_session_a_named_summary_describes_is_cited_where_indexed(
    project: Project, bullet: str
) -> None:
    cwd = _cwd(project)
    name = bullet.split(maxsplit=1)[0].removeprefix("rollout_summaries/").format(thread=RELEASE)
    memories = current_folder(
        project.homes["codex"], cwd, bullet=bullet.format(thread=RELEASE, cwd=cwd)
    )
    real = memories / "rollout_summaries" / f"2026-03-02T09-00-00-{RELEASE}-patch_release.md"
    if name != real.name:
        real.rename(memories / "rollout_summaries" / name)
    _session(project, cwd)
    project.gm("harvest")
    review = _review(project)
    learned = [
        e
        for e in _evidence(_item(review, "Reusable knowledge#1"))
        if e["display"].startswith("the first turn of the session")
    ]
    assert [e["excerpt"] for e in learned] == ["cut the patch release"]
    _assert_nothing_private(review, project.homes["codex"])


def test_a_summary_that_is_gone_names_no_session(project: Project) -> None:
    # Its name carries only a short hash of the thread: without the file, nothing says which.
    bullet = "rollout_summaries/2026-03-02T09-00-00-Qx2b-patch_release.md"
    current_folder(project.homes["codex"], _cwd(project), bullet=bullet)
    _session(project, _cwd(project))
    project.gm("harvest")
    cited = _evidence(_item(_review(project), "Reusable knowledge#1"))
    assert [e for e in cited if "first turn" in e["display"]] == []


@pytest.mark.parametrize("compressed", [False, True], ids=["as-named", "compressed-since"])
def test_the_rollout_file_a_summary_names_is_matched_by_its_path(
    project: Project, compressed: bool
) -> None:
    cwd = _cwd(project)
    # A resumed session's rollout is named after two threads, and the sessions index calls
    # it by both at once (tests/sessions/test_sync_incremental.py): only its path matches.
    rollout = rollout_path(project.homes["codex"], f"{RELEASE}_{OTHER}")
    current_folder(
        project.homes["codex"],
        cwd,
        bullet=f"rollout_summaries/a.md (cwd={cwd}, rollout_path={rollout})",
    )
    if compressed:  # Codex may archive a rollout as `.jsonl.zst` after the summary named it
        rollout = rollout.with_name(rollout.name + ".zst")
    _session(project, cwd, path=rollout)
    project.gm("harvest")
    cited = _evidence(_item(_review(project), "Reusable knowledge#2"))
    assert [e["excerpt"] for e in cited if "first turn" in e["display"]] == [
        "cut the patch release"
    ]


@pytest.mark.parametrize("era", ["traces", "raw", "rollouts"])
def test_a_legacy_bucket_of_the_worktree_root_is_read_as_plain_notes(
    project: Project, era: str
) -> None:
    folder = bucket_folder(project.homes["codex"], _cwd(project), era=era)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    files = 2 if era == "raw" else 1
    assert [(s["store"], s["files"]) for s in harvested["stores"]] == [("codex-memories", files)]
    review = _review(project)
    contents = sorted(item["content"] for item in review["items"])
    expected = [
        "Run `make bootstrap` before the first test run in this checkout.",
        '`pytest` fails with "ModuleNotFoundError: app" outside the virtualenv; activate '
        "`.venv` first.",
    ]
    if era == "raw":
        expected.insert(0, "Tag releases from `main` only.")
    assert contents == sorted(expected)
    place = f"codex-memories {folder.parent.name}/memory/"
    assert all(_evidence(item)[0]["display"].startswith(place) for item in review["items"])
    _assert_nothing_private(review, project.homes["codex"])


@pytest.mark.parametrize("digits", [16, 64])
def test_a_bucket_of_a_directory_inside_the_worktree_is_read(project: Project, digits: int) -> None:
    project.repo.write("services/api/main.py", "print('api')\n")
    project.repo.commit_all("api")
    inside = os.path.join(_cwd(project), "services", "api")
    bucket_folder(project.homes["codex"], inside, era="rollouts", digits=digits)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert len(harvested["offered"]) == 2


def test_a_bucket_of_a_directory_where_an_indexed_session_ran_is_read(project: Project) -> None:
    scratch = project.root / "build" / "scratch"  # not tracked: only the index knows it
    scratch.mkdir(parents=True)
    _session(project, str(scratch.resolve()))
    bucket_folder(project.homes["codex"], str(scratch.resolve()), era="rollouts")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert len(harvested["offered"]) == 2


def test_other_buckets_and_the_user_wide_folder_are_never_read(project: Project) -> None:
    codex_home = project.homes["codex"]
    bucket_folder(codex_home, "/home/dev/other-service", era="rollouts")
    write(
        codex_home / "memories" / "user" / "memory" / "MEMORY.md",
        "- Always answer in Lisbon time.\n",
    )
    write(codex_home / "memories" / "consolidated.md", "- The person prefers tabs.\n")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert harvested["offered"] == []


def test_a_handbook_without_task_groups_is_reported_and_not_read(project: Project) -> None:
    memories = project.homes["codex"] / "memories"
    write(memories / "MEMORY.md", f"# Notes\n\n- Always run `make lint` in {_cwd(project)}.\n")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert harvested["offered"] == []
    assert [(d["file"], d["code"]) for d in harvested["diagnostics"]] == [
        ("MEMORY.md", "unknown-layout")
    ]
    check = _doctor_line(project)
    assert check["status"] == "warn"
    assert "MEMORY.md (no `# Task Group:` block)" in check["detail"]


def test_doctor_names_every_entry_this_reader_does_not_know(project: Project) -> None:
    cwd = _cwd(project)
    memories = current_folder(project.homes["codex"], cwd)
    folder = bucket_folder(project.homes["codex"], cwd, era="rollouts")
    write(memories / "notes.md", "- The person's notes: `make secret-thing`.\n")
    write(memories / "memory_summary.md", "v2\n\n## User Profile\n\nA person.\n")
    write(folder / "index.json", "{}\n")
    check = _doctor_line(project)
    assert check["status"] == "warn"
    for named in (
        "notes.md",
        "memory_summary.md (its first line is not `v1`)",
        f"{folder.parent.name}/memory/index.json",
    ):
        assert named in check["detail"]
    assert "MEMORY.md" not in check["detail"].replace("memory/index.json", "")
    project.gm("harvest")
    assert "secret-thing" not in json.dumps(_review(project)), "nothing is read from them"


def test_doctor_says_a_documented_folder_is_known_and_names_the_buckets(
    project: Project,
) -> None:
    cwd = _cwd(project)
    current_folder(project.homes["codex"], cwd)
    folder = bucket_folder(project.homes["codex"], cwd, era="raw")
    bucket_folder(project.homes["codex"], "/home/dev/other-service", era="traces")
    write(folder.parent.parent / bucket("/home/dev/other-service") / "memory" / "x.bin", "?")
    check = _doctor_line(project)
    assert check["status"] == "ok", check
    assert check["detail"].endswith(f"legacy folder(s) of this repository: {folder.parent.name}")


def test_the_guide_names_every_entry_codex_writes() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    for entry in (*ROOT_ENTRIES, *BUCKET_ENTRIES):
        assert f"`{entry.name}" in guide, entry.name
