"""Rendering confirmed candidates into entry bytes, and the pure plan helpers."""

from __future__ import annotations

import pytest

from git_memory.errors import GitMemoryError
from git_memory.formats.entry import Entry, parse_entry, serialize_entry
from git_memory.promote.plan import PlannedFile, assessment_digest, check_target_path, unified_diff
from git_memory.promote.render import (
    CandidateInput,
    CitedEvidence,
    StatementToRender,
    TreeView,
    render_candidates,
)

HASH = "a" * 40
MISSING = "b" * 40


def _statement(
    sid: str, strength: str = "direct", support: str = "human-confirmed", **kw: object
) -> StatementToRender:
    return StatementToRender(
        statement_id=sid,
        provenance_strength=strength,
        limitations=tuple(kw.get("limitations", ())),  # type: ignore[arg-type]
        claim_support=support,
        citations=tuple(kw.get("citations", ())),  # type: ignore[arg-type]
    )


def _tree(existing: dict[str, bytes] | None = None) -> TreeView:
    return TreeView(
        memory_root=".memory",
        existing=existing or {},
        repository_identity="example.com/team/app",
        commit_exists=lambda h: h == HASH,
    )


def test_new_entry_fields_and_public_evidence() -> None:
    citations = (
        CitedEvidence("commit", commit_hash=HASH),
        CitedEvidence("commit", commit_hash=MISSING),
        CitedEvidence("path", path="src/app.py"),
        CitedEvidence("path", path="../etc/passwd"),
        CitedEvidence("path", path="/home/u/x"),
        CitedEvidence("turn", occurred="2026-03-04"),
        CitedEvidence("turn", occurred="2026-03-01"),
    )
    candidate = CandidateInput(
        candidate_id="c1",
        content="  Run make test before pushing  ",
        statements=(
            _statement("s1", "direct", "typed-fact", limitations=["b"], citations=citations),
            _statement("s2", "observed", "human-confirmed", limitations=["a", "b"]),
        ),
        type="work_method",
        priority=70,
        scene="testing",
    )
    [rendered] = render_candidates([candidate], _tree())
    assert rendered.target_path == ".memory/entries/run-make-test-before-pushing.md"
    assert rendered.old_content is None
    entry = parse_entry(rendered.content.decode())
    assert entry.provenance_strength == "observed"
    assert entry.claim_support == "mixed"
    assert entry.limitations == ("a", "b")
    assert entry.occurred == ("2026-03-01", "2026-03-04")
    assert [(c.repo, c.hash) for c in entry.evidence.commits] == [("example.com/team/app", HASH)]
    assert entry.evidence.paths == ("src/app.py",)
    assert entry.body == "Run make test before pushing\n"
    assert (entry.type, entry.priority, entry.scene, entry.status) == (
        "work_method",
        70,
        "testing",
        "approved",
    )


def test_colliding_ids_get_suffixes_and_never_replace() -> None:
    existing = {"use-uv": serialize_entry(Entry(id="use-uv", body="x\n")).encode()}
    first = CandidateInput("c1", "Use uv", (_statement("s"),))
    second = CandidateInput("c2", "Use UV!", (_statement("s"),))
    files = render_candidates([first, second], _tree(existing))
    assert [f.entry_id for f in files] == ["use-uv-2", "use-uv-3"]
    assert all(f.old_content is None for f in files)


def test_unverified_statement_is_refused() -> None:
    candidate = CandidateInput("c1", "x", (_statement("s", support="unverified"),))
    with pytest.raises(GitMemoryError) as caught:
        render_candidates([candidate], _tree())
    assert caught.value.code == "GM_UNVERIFIED_CLAIM"


def test_update_and_merge_rewrite_targets() -> None:
    old_a = Entry(
        id="a",
        provenance_strength="direct",
        claim_support="typed-fact",
        limitations=("old",),
        occurred=("2025-01-01",),
        body="A\n",
    )
    old_b = Entry(id="b", body="B\n")
    existing = {e.id: serialize_entry(e).encode() for e in (old_a, old_b)}
    merge = CandidateInput(
        "c1", "A and B", (_statement("s", "observed"),), action="merge", target_ids=("a", "b")
    )
    survivor, merged_away = render_candidates([merge], _tree(existing))
    assert survivor.old_content == existing["a"]
    entry = parse_entry(survivor.content.decode())
    assert (entry.id, entry.body, entry.provenance_strength) == ("a", "A and B\n", "unknown")
    assert entry.limitations == ("old",)
    assert entry.occurred == ("2025-01-01",)
    assert entry.claim_support == "mixed"
    gone = parse_entry(merged_away.content.decode())
    assert (gone.status, gone.superseded_by, gone.body) == ("deprecated", "a", "B\n")
    update = CandidateInput("c2", "A2", (_statement("s"),), action="update", target_ids=("zz",))
    with pytest.raises(GitMemoryError) as caught:
        render_candidates([update], _tree(existing))
    assert caught.value.code == "GM_PLAN_TARGET_MISSING"
    twice = CandidateInput("c3", "A3", (_statement("s"),), action="update", target_ids=("a",))
    with pytest.raises(GitMemoryError) as caught:
        render_candidates([merge, twice], _tree(existing))
    assert caught.value.code == "GM_PLAN_CONFLICT"


@pytest.mark.parametrize(
    "path",
    [
        "/etc/x",
        ".memory/../x",
        ".memory/./a.md",
        ".memory//a.md",
        "src/a.md",
        ".memory",
        ".memory\\a.md",
        ".memory/a:b.md",
        ".memory/a\x01.md",
        "",
    ],
)
def test_bad_target_paths(path: str) -> None:
    with pytest.raises(GitMemoryError) as caught:
        check_target_path(path, ".memory")
    assert caught.value.code == "GM_PLAN_PATH_INVALID"


def test_diff_and_assessment_digest_are_deterministic() -> None:
    files = [
        PlannedFile(".memory/entries/a.md", None, b"new\n"),
        PlannedFile(".memory/entries/b.md", "c" * 40, b"two\n", b"one\n"),
    ]
    diff = unified_diff(files)
    assert "--- /dev/null\n+++ b/.memory/entries/a.md\n" in diff
    assert "-one\n+two\n" in diff
    rows = [{"candidateId": "c2", "statementId": "s"}, {"candidateId": "c1", "statementId": "s"}]
    assert assessment_digest(rows) == assessment_digest(list(reversed(rows)))
