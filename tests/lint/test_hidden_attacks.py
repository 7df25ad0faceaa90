"""Issue 27 items 3-8 through the lint and the promotion gate: hidden, encoded, hex-bodied and
relabelled secrets, invisible text, every agent's transcript paths and home directories."""

from __future__ import annotations

import os
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.formats.entry import Commit, Entry, Evidence, serialize_entry
from git_memory.formats.index_json import build_index, render_index
from git_memory.lint.engine import lint_text
from git_memory.lint.home import home_findings
from git_memory.ops.base import run
from tests.lint.attacks import BLOCKING, HEX40, HOMES, KEY, RANDOM, TAGS
from tests.promote.helpers import prepare_request, seed_candidate
from tests.repos import Repo


def _entry(body: str, commits: tuple[Commit, ...] = ()) -> str:
    return serialize_entry(Entry(id="note", body=body, evidence=Evidence(commits=commits)))


def _blocking(text: str) -> set[str]:
    return {f.code for f in lint_text("entries/note.md", _entry(text)) if f.blocks}


@pytest.mark.parametrize("name", sorted(BLOCKING))
def test_the_lint_blocks_it_on_its_own_line(name: str) -> None:
    line, code = BLOCKING[name]
    findings = lint_text("entries/note.md", _entry(f"Notes.\n{line}\nMore notes.\n"))
    matching = [f for f in findings if f.code == code and f.blocks]
    assert matching, findings
    body_line = _entry("Notes.\n").split("\n").index("Notes.") + 1
    assert {f.line for f in matching} <= set(
        range(body_line + 1, body_line + 1 + line.count("\n") + 1)
    )
    for finding in findings:
        assert len(finding.excerpt) <= 24
        assert KEY not in finding.excerpt
        assert RANDOM not in finding.excerpt


def _refused(repo: Repo, text: str) -> GitMemoryError:
    item = seed_candidate(repo.root, "c1", text)
    with pytest.raises(GitMemoryError) as caught:
        run("prepare", prepare_request(item), repository=repo.root)
    return caught.value


def _codes(error: GitMemoryError) -> set[str]:
    assert error.code == "GM_LINT_BLOCKED", error
    assert error.details is not None
    return {finding["code"] for finding in error.details["findings"]}


@pytest.mark.parametrize("name", sorted(BLOCKING))
def test_the_promotion_gate_refuses_it(repo: Repo, name: str) -> None:
    line, code = BLOCKING[name]
    error = _refused(repo, f"Use this for the deploy: {line}")
    assert code in _codes(error)
    assert KEY not in str(error.details)
    assert RANDOM not in str(error.details)
    assert not (repo.root / ".memory" / "entries").exists()


@pytest.mark.parametrize("name", sorted(HOMES))
def test_home_directories_block_in_the_lint_and_promotion(repo: Repo, name: str) -> None:
    findings = lint_text("entries/note.md", _entry(HOMES[name] + "\n"))
    assert [(f.code, f.severity) for f in findings] == [("GM_LINT_ABSOLUTE_PATH", "block")]
    assert "GM_LINT_ABSOLUTE_PATH" in _codes(_refused(repo, HOMES[name]))


def test_the_real_home_blocks_promotion_wherever_it_is(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A home no pattern knows, short and plain (a temporary directory's random name would
    # trip the entropy rule and hide what this test is about).
    monkeypatch.setenv("HOME", "/srv/builder")
    home = os.path.expanduser("~")
    assert home == "/srv/builder"
    text = f"The cache lives in {home}."
    assert lint_text("entries/note.md", _entry(text + "\n")) == []  # no pattern knows it
    found = home_findings(text, home)
    assert [(f.code, f.severity, f.column) for f in found] == [
        ("GM_LINT_ABSOLUTE_PATH", "block", len("The cache lives in ") + 1)
    ]
    assert home_findings(f"{home}x/other", home) == []  # a longer name is not the home
    assert "GM_LINT_ABSOLUTE_PATH" in _codes(_refused(repo, text))


def test_an_evidence_commit_is_allowed_and_any_other_bare_hash_blocks() -> None:
    commit = Commit("github.com/org/repo", HEX40)
    assert _blocking_with(f"Fixed in {HEX40}.\n", (commit,)) == set()
    other = HEX40[::-1]
    assert _blocking_with(f"Fixed in {other}.\n", (commit,)) == {"GM_LINT_HEX_TOKEN"}


def _blocking_with(body: str, commits: tuple[Commit, ...]) -> set[str]:
    return {f.code for f in lint_text("entries/note.md", _entry(body, commits)) if f.blocks}


def _index_entry(**fields: Any) -> dict[str, Any]:
    return {"id": "deploy", "type": "work_fact", "scene": None, "priority": 60, **fields}


@pytest.mark.parametrize(
    ("section", "item"),
    [
        ("entries", _index_entry(summary=f"deploy token {RANDOM}")),
        ("entries", _index_entry(id=RANDOM, summary="deploy")),  # not a slug: no id
        ("scenes", {"name": RANDOM, "heat": 1, "summary": "deploy"}),
        ("scenes", {"name": "deploy", "heat": 1, "summary": f"token {RANDOM}"}),
        ("skills", {"name": "deploy", "description": f"token {RANDOM}"}),
        ("entries", _index_entry(summary=f"signed with {HEX40}")),
    ],
)
def test_index_text_is_linted_like_entry_text(section: str, item: dict[str, Any]) -> None:
    text = render_index(**{section: [item]}).decode()
    findings = lint_text("index.json", text)
    assert {f.code for f in findings if f.blocks} & {"GM_LINT_HIGH_ENTROPY", "GM_LINT_HEX_TOKEN"}


def test_an_index_summary_names_an_evidence_commit_by_its_short_form() -> None:
    commit = Commit("github.com/org/repo", HEX40)
    built = build_index({"entries/note.md": _entry(f"Fixed in {HEX40}.\n", (commit,))})
    text = built.data.decode()
    assert HEX40 not in text
    assert f"Fixed in {HEX40[:7]}." in text
    assert [f for f in lint_text("index.json", text) if f.blocks] == []


@pytest.mark.parametrize(
    "text",
    [
        "Tom &amp; Jerry use <b>bold</b> and <!-- a note --> at 100% or 50 %.",
        "Escape a quote as \\u0022 and a tab as \\x09 in JSON and C.",
        "The family emoji 👨\u200d👩\u200d👧 and 👍🏽 are fine; so is ❤\ufe0f.",
        "Generics like Map<String, List<Item>> and a <https://example.com> link.",
    ],
)
def test_ordinary_html_escapes_and_emoji_add_no_finding(text: str) -> None:
    assert lint_text("entries/note.md", _entry(text + "\n")) == []


def test_the_index_copies_no_blocked_summary_from_a_file_committed_past_the_hook(
    repo: Repo, gm: Any
) -> None:
    bodies = {
        "note": f"Deploy with token {RANDOM} first.",
        "hidden": f"Run the tests first.{TAGS}",
        "fine": "Run the tests first.",
    }
    for entry_id, body in bodies.items():
        text = serialize_entry(Entry(id=entry_id, body=body + "\n"))
        repo.write(f".memory/entries/{entry_id}.md", text)
    assert gm(["reindex"], cwd=repo.root).exit_code in (0, 1)
    index = (repo.root / ".memory" / "index.json").read_text(encoding="utf-8")
    assert RANDOM not in index
    assert TAGS[0] not in index
    assert '"summary": "Run the tests first."' in index
    assert [f for f in lint_text("index.json", index) if f.blocks] == []


def test_a_promotion_writes_an_index_without_the_text_of_a_file_committed_past_the_hook(
    repo: Repo, gm: Any
) -> None:
    leaked = serialize_entry(Entry(id="leaked", body=f"Deploy with token {RANDOM} first.\n"))
    repo.write(".memory/entries/leaked.md", leaked)
    repo.git("add", "-A")
    repo.git("commit", "-qm", "a memory file committed without the hook")
    item = seed_candidate(repo.root, "c1", "Run make check before pushing")
    plan = run("prepare", prepare_request(item), repository=repo.root).to_json()
    applied = gm(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], cwd=repo.root
    )
    assert applied.exit_code == 0, applied.stderr
    index = (repo.root / ".memory" / "index.json").read_text(encoding="utf-8")
    assert '"id": "leaked"' in index
    assert RANDOM not in index
    assert '"summary": "Run make check before pushing"' in index
