"""`git memory verify --changed BASE`: drift in review, on a real history."""

from __future__ import annotations

from typing import Any

import pytest

from tests.repos import Repo
from tests.verify.helpers import ORIGIN, write_entry

MAKEFILE = "build:\n\tcc main.c\n\ntest:\n\tpytest\n\ndeploy:\n\t./scripts/deploy.sh\n"


@pytest.fixture
def reviewed(repo: Repo) -> dict[str, str]:
    """main: a project and its memory; a branch `pr` removes the deploy target and edits a
    module no memory cites."""
    repo.git("remote", "add", "origin", ORIGIN)
    repo.write("Makefile", MAKEFILE)
    repo.write("src/app.py", "print('app')\n")
    repo.write("src/other.py", "print('other')\n")
    repo.write("docs/notes.md", "notes\n")
    write_entry(repo, "deploy-with-make", "Deploy with `make deploy`.")
    write_entry(repo, "tests-run-with-make", "Run the tests with `make test`.")
    write_entry(repo, "app-entry-point", "The entry point is `src/app.py`.", paths=("src/app.py",))
    write_entry(repo, "notes-live-in-docs", "Notes live in docs/.", paths=("docs/",))
    base = repo.commit_all("project and memory")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("Makefile", MAKEFILE.replace("\ndeploy:\n\t./scripts/deploy.sh\n", ""))
    repo.write("src/other.py", "print('changed')\n")
    head = repo.commit_all("drop the deploy target")
    return {"base": base, "head": head}


def test_removed_make_target_flags_the_entry_naming_it(
    repo: Repo, reviewed: dict[str, str], gm: Any
) -> None:
    result = gm(["verify", "--changed", "main", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1, result.stderr
    report = result.json()
    states = {item["id"]: item["state"] for item in report["entries"]}
    # Both make entries read the Makefile the change edits; only one lost its target.
    assert states == {"deploy-with-make": "stale", "tests-run-with-make": "fresh"}
    drift = report["drift"]
    assert drift["base"] == reviewed["base"] == drift["mergeBase"]
    assert drift["head"] == reviewed["head"]
    assert drift["changedPaths"] == 2
    touched = {item["id"]: item for item in drift["touched"]}
    assert touched["deploy-with-make"]["paths"] == ["Makefile"]
    # The blank line and rule removed were lines 6-8; line 6 is past the new file's end,
    # where they stood.
    assert touched["deploy-with-make"]["locations"] == [{"file": "Makefile", "line": 6}]
    assert report["counts"] == {"fresh": 1, "stale": 1, "unverifiable": 0, "total": 2}


def test_entries_whose_evidence_is_untouched_are_not_listed(
    repo: Repo, reviewed: dict[str, str], gm: Any
) -> None:
    result = gm(["verify", "--changed", "main", "--format", "json"], cwd=repo.root)
    listed = {item["id"] for item in result.json()["entries"]}
    assert "app-entry-point" not in listed  # cites src/app.py; the change edits src/other.py
    assert "notes-live-in-docs" not in listed


def test_a_change_inside_a_cited_directory_touches_the_entry(repo: Repo, gm: Any) -> None:
    write_entry(repo, "notes-live-in-docs", "Notes live in docs/.", paths=("docs/",))
    repo.write("docs/notes.md", "notes\n")
    repo.commit_all("memory")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("docs/notes.md", "notes\nmore\n")
    repo.commit_all("more notes")
    report = gm(["verify", "--changed", "main", "--format", "json"], cwd=repo.root).json()
    assert [(e["id"], e["state"]) for e in report["entries"]] == [("notes-live-in-docs", "fresh")]
    assert report["drift"]["touched"][0]["locations"] == [{"file": "docs/notes.md", "line": 2}]


def test_a_deleted_cited_file_is_stale_without_a_line(repo: Repo, gm: Any) -> None:
    repo.write("src/app.py", "print('app')\n")
    write_entry(repo, "app-entry-point", "The entry point is `src/app.py`.", paths=("src/app.py",))
    repo.commit_all("memory")
    repo.git("checkout", "-q", "-b", "pr")
    repo.git("rm", "-q", "src/app.py")
    repo.commit_all("remove the app")
    report = gm(["verify", "--changed", "main", "--format", "json"], cwd=repo.root).json()
    assert [(e["id"], e["state"]) for e in report["entries"]] == [("app-entry-point", "stale")]
    assert report["drift"]["touched"][0]["locations"] == [{"file": "src/app.py", "line": None}]


def test_text_output_names_each_touched_entry_and_sums_up(
    repo: Repo, reviewed: dict[str, str], gm: Any
) -> None:
    result = gm(["verify", "--changed", "main"], cwd=repo.root)
    lines = result.stdout.strip().split("\n")
    assert lines[0].startswith(".memory/entries/deploy-with-make.md: stale: relies on Makefile:6: ")
    assert "Makefile has no target `deploy`" in lines[0]
    assert lines[1] == ".memory/entries/tests-run-with-make.md: fresh: relies on Makefile:6"
    assert lines[2] == (
        f"2 changed paths since {reviewed['base'][:12]} touch the evidence of 2 entries;"
        " 1 of them stale now"
    )


def test_github_format_prints_workflow_annotations_on_the_changed_lines(
    repo: Repo, reviewed: dict[str, str], gm: Any
) -> None:
    result = gm(["verify", "--changed", "main", "--format", "github"], cwd=repo.root)
    assert result.exit_code == 1
    lines = result.stdout.strip().split("\n")
    assert lines[0] == (
        "::warning file=Makefile,line=6,title=git memory%3A deploy-with-make::memory "
        "deploy-with-make (.memory/entries/deploy-with-make.md) is stale after this change: "
        "`make deploy`: Makefile has no target `deploy`"
    )
    assert lines[1].startswith("::notice file=Makefile,line=6,title=git memory%3A tests-run")
    assert lines[2].startswith("::notice::2 changed paths since ")


def test_nothing_touched_says_so_and_exits_zero(repo: Repo, gm: Any) -> None:
    repo.write("src/app.py", "print('app')\n")
    write_entry(repo, "app-entry-point", "The entry point is `src/app.py`.", paths=("src/app.py",))
    repo.commit_all("memory")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("README.md", "changed\n")
    repo.commit_all("readme")
    result = gm(["verify", "--changed", "main"], cwd=repo.root)
    assert result.exit_code == 0
    assert result.stdout.strip().endswith("no approved entry relies on them")


def test_a_base_that_names_no_commit_is_refused(repo: Repo, gm: Any) -> None:
    result = gm(["verify", "--changed", "no-such-branch", "--format", "json"], cwd=repo.root)
    assert result.exit_code != 0
    assert result.json()["error"]["code"] == "GM_BASE_NOT_FOUND"


def test_github_format_without_changed_warns_on_each_stale_memory_file(
    repo: Repo, reviewed: dict[str, str], gm: Any
) -> None:
    result = gm(["verify", "--format", "github"], cwd=repo.root)
    assert result.exit_code == 1
    assert result.stdout.strip().split("\n") == [
        "::warning file=.memory/entries/deploy-with-make.md,title=git memory%3A deploy-with-make"
        "::memory deploy-with-make is stale: `make deploy`: Makefile has no target `deploy`"
    ]


def test_a_renamed_cited_file_touches_the_entry_under_its_old_name(repo: Repo, gm: Any) -> None:
    repo.write("src/app.py", "print('app')\n" * 20)
    write_entry(repo, "app-entry-point", "The entry point is `src/app.py`.", paths=("src/app.py",))
    repo.commit_all("memory")
    repo.git("checkout", "-q", "-b", "pr")
    repo.git("mv", "src/app.py", "src/main.py")
    repo.commit_all("rename the app")
    report = gm(["verify", "--changed", "main", "--format", "json"], cwd=repo.root).json()
    assert [(e["id"], e["state"]) for e in report["entries"]] == [("app-entry-point", "stale")]
    assert report["drift"]["touched"][0]["paths"] == ["src/app.py"]
    assert report["drift"]["touched"][0]["locations"] == [{"file": "src/app.py", "line": None}]
