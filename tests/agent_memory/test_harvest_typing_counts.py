"""A harvested item is typed and checked like an extracted one, and status, harvest and
extract give the same number in the same words (issue 45, items 5 and 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from git_memory.extract.builtin.harvest import kind_of
from tests.agent_memory.conftest import Project, review_and_promote
from tests.conftest import run_cli

PARSER = "The parser lives in `src/dotenv/parser.py` and reads the `.env` file."
DEV = "`make dev` starts the stack."


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (PARSER, "fact"),  # a path in backticks is not a command
        ("The public API lives in `api/v2/`; `api/v1/` is frozen.", "fact"),
        ("Common shell tools: `ls`, `rg` for searches, `git status`.", "fact"),
        ("`DATABASE_URL` points at the local Postgres.", "fact"),
        (DEV, "command"),
        ("Run `make migrate` from the repository root.", "command"),  # a set-up step
        ('`make migrate` fails with "lock timeout" while a dev server runs.', "trap"),
        ("Always use `uv run` instead of calling python directly.", "rule"),
    ],
)
def test_an_item_is_typed_by_the_extractors_command_model(text: str, kind: str) -> None:
    assert kind_of(text) == kind


def _section(block: str, title: str) -> str:
    return block.split(f"### {title}\n", 1)[1].split("###", 1)[0]


def test_a_harvested_fact_cites_the_files_it_names_and_verify_checks_them(
    project: Project,
) -> None:
    project.repo.write("src/dotenv/parser.py", "def parse(): ...\n")
    project.repo.write("Makefile", "dev:\n\ttrue\n")
    project.repo.commit_all("parser and make dev")
    (project.root / "CLAUDE.local.md").write_text(f"- {PARSER}\n- {DEV}\n")
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert [o["kind"] for o in harvested["offered"]] == ["fact", "command"]
    _, review = project.gm("review")
    parser = next(i for i in review["items"] if "parser" in i["content"])
    shown = [e["display"] for e in parser["statements"][0]["evidence"]]
    assert "path src/dotenv/parser.py (tracked by git)" in shown
    assert parser["statements"][0]["provenanceStrength"] == "contextual", "nothing inflated"
    review_and_promote(project)

    entries = {p.stem: p.read_text() for p in (project.root / ".memory/entries").glob("*.md")}
    (fact,) = [text for text in entries.values() if "parser" in text]
    assert "type: work_fact" in fact
    assert 'evidence: {"commits":[],"paths":["src/dotenv/parser.py"]}' in fact
    assert project.gm("assemble", "--provider", "claude")[0] == 0
    block = (project.root / "CLAUDE.md").read_text()
    assert PARSER in _section(block, "Facts about the project")
    assert DEV in _section(block, "Commands that work")
    assert "parser" not in _section(block, "Commands that work")

    code, verified = project.gm("verify")
    assert code == 0, verified
    assert {e["state"] for e in verified["entries"]} == {"fresh"}, verified
    project.repo.git("rm", "-q", "src/dotenv/parser.py")
    project.repo.git("commit", "-q", "-m", "parser moved")
    code, verified = project.gm("verify")
    assert code == 1
    (stale,) = [e for e in verified["entries"] if e["state"] == "stale"]
    assert "src/dotenv/parser.py" in json.dumps(stale["reasons"])


def _status(project: Project) -> tuple[int, str]:
    _, document = project.gm("status")
    text = run_cli(["status"], cwd=project.root).stdout
    return document["counts"]["agentMemory"]["unharvested"], text


def _harvest_text(project: Project) -> str:
    result = run_cli(["harvest"], cwd=project.root)
    assert result.exit_code == 0, result.stderr
    return str(result.stdout).splitlines()[-1]


def test_status_and_harvest_give_one_number_in_the_same_words(
    project: Project, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = project.root / "CLAUDE.local.md"
    notes.write_text(f"- {DEV}\n")
    project.gm("harvest")
    review_and_promote(project)
    # Two new items, and one whose words approved memory already holds.
    serena = project.root / ".serena" / "memories" / "notes.md"
    serena.parent.mkdir(parents=True)
    serena.write_text(f"- {DEV}\n- {PARSER}\n- Run `make migrate` first.\n")
    number, text = _status(project)
    assert number == 2
    assert "2 agent memory items to review: git memory harvest" in text
    assert _harvest_text(project) == (
        "2 agent memory items to review, now in the review queue: git memory review"
        " (1 already in approved memory; 1 unchanged since a harvest)"
    )
    number, text = _status(project)
    assert number == 0
    assert "agent memory item" not in text
    assert "2 candidates wait for review: git memory review" in text
    assert _harvest_text(project) == "no agent memory item to review (4 unchanged since a harvest)"

    serena.write_text(serena.read_text().replace("first", "before the tests"))
    number, text = _status(project)
    assert number == 1
    assert "1 agent memory item to review: git memory harvest" in text
    code, harvested = project.gm("harvest")
    assert code == 0
    assert len(harvested["offered"]) == 1

    # A state home with nothing in it yet (another clone, a new machine): status reads the
    # memory files, so an item they hold is not counted, as harvest then does not offer it.
    fresh = hermetic_env["home"] / "fresh-state"
    fresh.mkdir(mode=0o700)
    monkeypatch.setenv("GIT_MEMORY_HOME", str(fresh))
    number, text = _status(project)
    assert number == 2, "`make dev`, in both stores, is in the memory files"
    assert "2 agent memory items to review: git memory harvest" in text
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    assert (len(harvested["offered"]), harvested["alreadyApproved"]) == (2, 2)


def test_extract_says_it_in_the_words_of_harvest(project: Project) -> None:
    (project.root / "CLAUDE.local.md").write_text(f"- {DEV}\n- {PARSER}\n")
    number, _ = _status(project)
    result = run_cli(["extract", "--runner", "builtin"], cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert (
        f"agents' own memory (claude-local): {number} agent memory items to review,"
        " now in the review queue: git memory review"
    ) in result.stdout
