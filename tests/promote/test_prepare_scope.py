"""The reviewer sets where an entry applies in the prepare request (`scope`), and the written
entry carries it (docs/guide-context.md, "Scoped memory")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.formats.entry import Entry, parse_entry, serialize_entry
from git_memory.promote.render import (
    CandidateInput,
    StatementToRender,
    TreeView,
    render_candidates,
)
from tests.daily.terminal import Terminal
from tests.promote.helpers import Statement, prepare_request, seed_candidate
from tests.repos import Repo


def _prepared_text(gm: Any, repo: Repo, tmp_path: Path, scope: str | None) -> Any:
    item = seed_candidate(
        repo.root,
        "cand-web",
        "The web bundle needs npm ci first",
        [
            Statement(
                "s1",
                "npm ci installs the web packages",
                evidence=[{"kind": "path", "path": "Makefile"}],
            )
        ],
    )
    if scope is not None:
        item["scope"] = scope
    path = tmp_path / "prepare.json"
    path.write_text(json.dumps(prepare_request(item)))
    return gm(["prepare", "--request", str(path), "--format", "json"], cwd=repo.root)


@pytest.mark.parametrize(
    ("scope", "written"), [(None, "repo"), ("path:web", "path:web"), ("path:.", "path:.")]
)
def test_the_reviewers_scope_is_written_into_the_entry(
    gm: Any, repo: Repo, tmp_path: Path, scope: str | None, written: str
) -> None:
    prepared = _prepared_text(gm, repo, tmp_path, scope)
    assert prepared.exit_code == 0, prepared.stderr
    assert f"+scope: {written}\n" in prepared.json()["diff"]


@pytest.mark.parametrize("scope", ["path:../outside", "path:/etc", "everywhere"])
def test_a_scope_that_is_not_a_worktree_directory_is_refused(
    gm: Any, repo: Repo, tmp_path: Path, scope: str
) -> None:
    prepared = _prepared_text(gm, repo, tmp_path, scope)
    assert prepared.exit_code != 0
    assert "scope must be repo or path:<dir>" in prepared.stderr


def test_an_update_keeps_the_scope_of_the_entry_it_rewrites_unless_one_is_given() -> None:
    old = Entry(id="a", scope="path:web", claim_support="human-confirmed", body="A\n")
    tree = TreeView(
        ".memory", {"a": serialize_entry(old).encode()}, "example.com/t/app", lambda _h: False
    )
    statement = StatementToRender("s", "direct", (), "human-confirmed", ())
    for given, expected in ((None, "path:web"), ("path:.", "path:.")):
        update = CandidateInput(
            "c", "A2", (statement,), action="update", target_ids=("a",), scope=given
        )
        (written,) = render_candidates([update], tree)
        assert parse_entry(written.content.decode()).scope == expected


def test_review_shows_the_scope_an_entry_would_get(gm: Any, repo: Repo) -> None:
    evidence = [{"kind": "path", "path": "web/package.json"}, {"kind": "path", "path": "web/a.ts"}]
    seed_candidate(
        repo.root, "cand-web", "The web bundle", [Statement("s1", "x", evidence=evidence)]
    )
    seed_candidate(
        repo.root, "cand-all", "Everything", [Statement("s1", "y", evidence=evidence[1:])]
    )
    review = gm(["review", "--format", "json"], cwd=repo.root)
    assert review.exit_code == 0, review.stderr
    scopes = {i["candidateId"]: i.get("scope") for i in review.json()["items"]}
    assert scopes == {"cand-web": "path:web", "cand-all": None}


def test_the_terminal_review_narrows_a_scope_and_the_entry_carries_it(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write("web/package.json", "{}\n")
    repo.write("web/api/handler.ts", "export {};\n")
    evidence = [{"kind": "path", "path": "web/package.json"}]
    seed_candidate(
        repo.root, "cand-web", "The web bundle", [Statement("s1", "x", evidence=evidence)]
    )
    terminal = Terminal(["review"], repo.root)
    terminal.expect(r"\(c\)onfirm, \(d\)iscard, \(s\)kip, \(q\)uit\?")
    terminal.type("c")
    terminal.expect(r"applies below web/ .*\n.*\(n\)arrow it to a directory below\?")
    terminal.type("n")
    terminal.expect(r"directory below web/ \(for example web/src\)")
    terminal.type("/etc")
    terminal.expect(
        r"! cannot narrow the scope to '/etc': it is an absolute path \[GM_SCOPE_INVALID\]"
    )
    terminal.expect(r"directory below web/")
    terminal.type("web/api")
    terminal.expect(r"applies below web/api/ now")
    terminal.expect(r"Write these \d+ file\(s\) into \.memory/ now")
    terminal.type("y")
    assert terminal.finish() == 0, terminal.screen
    (written,) = (repo.root / ".memory" / "entries").glob("*.md")
    assert parse_entry(written.read_text()).scope == "path:web/api"


def test_the_terminal_review_confirms_an_entry_for_one_directory(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write("services/api/Makefile", "test:\n\ttrue\n")
    seed_candidate(repo.root, "cand-all", "Run the tests", [Statement("s1", "x")])
    terminal = Terminal(["review"], repo.root)
    terminal.expect(r"\(q\)uit, or confirm for one \(p\)ath only\?")
    terminal.type("p")
    terminal.expect(r"directory it applies to \(for example web or services/api\)")
    terminal.type("services/nowhere")
    terminal.expect(r"\[GM_PATH_NOT_FOUND\]")
    terminal.type("services/api")
    terminal.expect(r"applies below services/api/ now")
    terminal.expect(r"Write these \d+ file\(s\) into \.memory/ now")
    terminal.type("y")
    assert terminal.finish() == 0, terminal.screen
    (written,) = (repo.root / ".memory" / "entries").glob("*.md")
    assert parse_entry(written.read_text()).scope == "path:services/api"
