"""The interactive review: typed facts in one batch, one key per other statement."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.review import ReviewEvidence, ReviewItem
from git_memory.errors import GitMemoryError
from git_memory.extract.review_flow import (
    Narrowing,
    bulk_confirmable,
    interactive,
    is_typed_fact,
    narrowed_scope,
    prepare_request,
    quote_lines,
    support_warning,
)
from tests.review_helpers import prepare_document


def item(
    cid: str,
    support: str,
    texts: list[str],
    origins: list[str] | None = None,
    scope: str | None = None,
) -> ReviewItem:
    """A review item; a typed fact shows its observed run (a tool's quote) unless told."""
    return ReviewItem.model_validate(document(cid, support, texts, origins, scope))


def document(
    cid: str,
    support: str,
    texts: list[str],
    origins: list[str] | None = None,
    scope: str | None = None,
) -> dict[str, Any]:
    """The JSON document of a review item, as a client reads it."""
    if origins is None:
        origins = ["tool"] if support == "typed-fact" else ["person"]
    return {
        "candidateId": cid,
        "revision": 2,
        "kind": "entry",
        "type": "work_method",
        "content": f"content of {cid}",
        "statements": [
            {
                "statementId": f"s{n}",
                "text": t,
                "claimSupport": support,
                "provenanceStrength": "direct",
                "limitations": [],
                "statementTextDigest": "a" * 64,
                "citationsDigest": "b" * 64,
                "origins": origins,
                "evidence": [
                    {
                        "evidenceId": "ev-1-0123456789ab",
                        "display": "turn 0",
                        "excerpt": "user: run the tests",
                    }
                ],
            }
            for n, t in enumerate(texts, start=1)
        ],
        **({"scope": scope} if scope else {}),
    }


def scripted(answers: list[str]) -> tuple[Any, list[str]]:
    asked: list[str] = []
    replies: Iterator[str] = iter(answers)

    def ask(question: str, choices: str, default: str) -> str:
        asked.append(question)
        answer = next(replies)
        assert answer in choices
        return answer

    return ask, asked


def test_typed_facts_take_one_key_and_each_claim_one_key() -> None:
    items = [
        item("t1", "typed-fact", ["Command `make` exited with code 0."]),
        item("t2", "typed-fact", ["Commit abc changed src/app.py."]),
        item("u1", "unverified", ["Always use uv run."]),
        item("u2", "unverified", ["Never pip install globally.", "Use a venv."]),
        item("u3", "unverified", ["Skip me."]),
    ]
    ask, asked = scripted(["a", "c", "c", "d", "s"])
    said: list[str] = []
    decisions = interactive(items, ask, said.append)
    assert [i.candidate_id for i in decisions.confirmed] == ["t1", "t2", "u1"]
    assert [i.candidate_id for i in decisions.discarded] == ["u2"]
    assert decisions.skipped == 1
    assert len(asked) == 5, "two typed facts and three claims answered with five keys"
    assert any("[2/3]" in line for line in said), "progress shows how many remain"
    assert any("turn 0 — user: run the tests" in line for line in said)


def test_quit_skips_the_rest() -> None:
    items = [item("u1", "unverified", ["a"]), item("u2", "unverified", ["b"])]
    ask, _ = scripted(["q"])
    decisions = interactive(items, ask, lambda _line: None)
    assert decisions.confirmed == []
    assert decisions.skipped == 2


def test_prepare_document_echoes_both_digests() -> None:
    prepared = prepare_document([document("t1", "typed-fact", ["x"])])
    assert prepared == prepare_request([item("t1", "typed-fact", ["x"])]).to_json()
    assert is_typed_fact(item("t1", "typed-fact", ["x"]))
    assert not is_typed_fact(item("u", "unverified", ["x"]))
    assert prepared["candidates"] == [
        {
            "candidateId": "t1",
            "expectedRevision": 2,
            "statements": [
                {"statementId": "s1", "statementTextDigest": "a" * 64, "citationsDigest": "b" * 64}
            ],
        }
    ]


def test_only_typed_facts_showing_their_observed_run_are_confirmed_together() -> None:
    observed = item("t1", "typed-fact", ["`make test` runs the tests (worked in 1 session)."])
    unobserved = item("t2", "typed-fact", ["`make lint` lints the code."], origins=[])
    agent_only = item("u1", "unverified", ["The project uses tabs."], origins=["agent", "tool"])
    assert bulk_confirmable(observed)
    assert not bulk_confirmable(unobserved)
    assert not bulk_confirmable(agent_only)
    ask, asked = scripted(["a", "s", "s"])
    said: list[str] = []
    decisions = interactive([observed, unobserved, agent_only], ask, said.append)
    assert [i.candidate_id for i in decisions.confirmed] == ["t1"]
    assert len(asked) == 3, "the unobserved fact and the agent's claim are asked one by one"
    assert support_warning(agent_only.statements[0]) == (
        "no person stated this: only written by the agent, a tool call and its output"
    )
    assert any("! no person stated this" in line for line in said)
    assert support_warning(item("u2", "unverified", ["x"]).statements[0]) == ""


def test_each_quote_shows_its_origin_and_date() -> None:
    evidence = ReviewEvidence.model_validate(
        {
            "evidenceId": "ev-1-0123456789ab",
            "display": "turn 0",
            "excerpt": "",
            "quotes": [
                {
                    "origin": "person",
                    "text": "Never push to main.",
                    "at": "2026-02-03T10:00:00.000Z",
                },
                {"origin": "tool", "text": "uv run pytest -q"},
            ],
        }
    )
    assert quote_lines(evidence, "  ") == [
        "  [typed by a person, 2026-02-03] Never push to main.",
        "  [a tool call and its output] uv run pytest -q",
    ]


def test_a_scoped_entry_shows_where_it_applies_and_can_be_widened() -> None:
    web = item("w1", "unverified", ["Run `cd web && npm test`."], scope="path:web")
    api = item("a1", "unverified", ["Run `cd api && make test`."], scope="path:api")
    said: list[str] = []
    ask, asked = scripted(["c", "w", "c", "k"])
    decisions = interactive([web, api], ask, said.append)
    assert [i.candidate_id for i in decisions.confirmed] == ["w1", "a1"]
    assert "  applies below web/ (its agents read it only when working there)" in said
    assert asked[1] == "  keep it for web/ (k), or (w)iden it to the whole repository?"
    prepared = prepare_request(decisions.confirmed, scopes=decisions.scopes)
    assert [c.scope for c in prepared.candidates] == ["path:.", None]


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    """A worktree with `web/api/`, a file `web/notes.txt` and a link `web/out` leading out."""
    root = tmp_path / "worktree"
    (root / "web" / "api").mkdir(parents=True)
    (root / "web" / "notes.txt").write_text("notes\n")
    (tmp_path / "elsewhere").mkdir()
    (root / "web" / "out").symlink_to(tmp_path / "elsewhere")
    return root


def test_an_entry_for_everywhere_can_be_confirmed_for_one_directory(worktree: Path) -> None:
    everywhere = item("e1", "unverified", ["Run `make test` before pushing.", "Lint too."])
    kept = item("e2", "unverified", ["Never commit generated files."])
    lines: Iterator[str] = iter(["/etc", "web/api", ""])
    said: list[str] = []
    ask, asked = scripted(["c", "p", "p"])
    narrowing = Narrowing(worktree, lambda _question: next(lines))
    decisions = interactive([everywhere, kept], ask, said.append, narrowing)
    # Only the last statement of an entry offers the path; each statement is still asked.
    assert asked[0] == "  (c)onfirm, (d)iscard, (s)kip, (q)uit?"
    assert (
        asked[1]
        == asked[2]
        == ("  (c)onfirm, (d)iscard, (s)kip, (q)uit, or confirm for one (p)ath only?")
    )
    refused = [line for line in said if line.startswith("  ! ")]
    assert len(refused) == 1
    assert "GM_SCOPE_INVALID" in refused[0]
    assert "  applies below web/api/ now" in said
    # An empty directory answer confirms the entry for everywhere, as it was.
    assert [i.candidate_id for i in decisions.confirmed] == ["e1", "e2"]
    assert decisions.scopes == {"e1": "path:web/api"}
    prepared = prepare_request(decisions.confirmed, scopes=decisions.scopes)
    assert [c.scope for c in prepared.candidates] == ["path:web/api", None]


def test_without_narrowing_no_path_is_offered() -> None:
    ask, asked = scripted(["c"])
    decisions = interactive([item("e1", "unverified", ["Never commit build/."])], ask, print)
    assert asked == ["  (c)onfirm, (d)iscard, (s)kip, (q)uit?"]
    assert decisions.scopes == {}


def test_a_scoped_entry_can_be_narrowed_to_a_directory_below(worktree: Path) -> None:
    web = item("w1", "unverified", ["Run `cd web/api && make`."], scope="path:web")
    api = item("a1", "unverified", ["Run `cd web && npm test`."], scope="path:web")
    lines: Iterator[str] = iter(["../api", "web/nowhere", "web/api/", "   "])
    said: list[str] = []
    ask, asked = scripted(["c", "n", "c", "n"])
    narrowing = Narrowing(worktree, lambda _question: next(lines))
    decisions = interactive([web, api], ask, said.append, narrowing)
    assert asked[1] == (
        "  keep it for web/ (k), (w)iden it to the whole repository,"
        " or (n)arrow it to a directory below?"
    )
    # Each refused answer is said with its code, and the question comes again.
    refused = [line for line in said if line.startswith("  ! ")]
    assert [line.split("[")[1].split("]")[0] for line in refused] == [
        "GM_SCOPE_INVALID",
        "GM_PATH_NOT_FOUND",
    ]
    assert "  applies below web/api/ now" in said
    # An empty answer keeps the scope.
    prepared = prepare_request(decisions.confirmed, scopes=decisions.scopes)
    assert [c.scope for c in prepared.candidates] == ["path:web/api", None]


@pytest.mark.parametrize(
    ("current", "answer", "code", "why"),
    [
        ("web", "/etc", "GM_SCOPE_INVALID", "absolute path"),
        ("web", str(Path("/tmp/web/api")), "GM_SCOPE_INVALID", "absolute path"),
        ("web", "../outside", "GM_SCOPE_INVALID", "`..`"),
        ("web", "web/api/../../etc", "GM_SCOPE_INVALID", "`..`"),
        ("web", "web\\..\\etc", "GM_SCOPE_INVALID", "`..`"),
        ("web", "web/api\x1b[2J", "GM_SCOPE_INVALID", "control or invisible"),
        ("web", "web/api\n", "GM_SCOPE_INVALID", "control or invisible"),
        ("web", "web/\u202eipa", "GM_SCOPE_INVALID", "control or invisible"),
        ("web", "web/my api", "GM_SCOPE_INVALID", "letters, digits"),
        ("web", ".", "GM_SCOPE_INVALID", "whole worktree"),
        ("web", "web", "GM_SCOPE_INVALID", "already applies below web/"),
        ("web", "db", "GM_SCOPE_INVALID", "not below web/"),
        ("web", "webapp", "GM_SCOPE_INVALID", "not below web/"),
        ("web", "web/nowhere", "GM_PATH_NOT_FOUND", "no such directory"),
        ("web", "web/notes.txt", "GM_NOT_A_DIRECTORY", "not a directory"),
        ("web", "web/out", "GM_SYMLINK_REFUSED", "symbolic link"),
        ("", "web/out/deeper", "GM_SYMLINK_REFUSED", "symbolic link"),
    ],
)
def test_a_narrowed_scope_must_be_a_directory_below_in_the_worktree(
    worktree: Path, current: str, answer: str, code: str, why: str
) -> None:
    with pytest.raises(GitMemoryError) as raised:
        narrowed_scope(worktree, current, answer)
    assert raised.value.code == code
    assert why in raised.value.message


def test_a_narrowed_scope_is_normalized(worktree: Path) -> None:
    assert narrowed_scope(worktree, "web", "web/./api/") == "path:web/api"
    assert narrowed_scope(worktree, "", "web") == "path:web"
