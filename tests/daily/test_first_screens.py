"""The first screens say their words plainly: the demo and review give the meaning of each
term they show first, and `git memory help glossary` and docs/glossary.md give every term
(issue 45, item 10)."""

from __future__ import annotations

import re
from pathlib import Path

from git_memory.glossary import GLOSSARY, plain
from tests.conftest import PROJECT_ROOT, run_cli
from tests.daily.terminal import Terminal
from tests.daily.test_review_terminal import CLAIM, TYPED, _queued

# The terms a newcomer meets on the demo's and review's first screens.
FIRST_SEEN = ("quarantine", "typed-fact", "unverified", "plan digest")


def _explained_where_first_seen(screen: str, term: str) -> None:
    """The first line that shows `term` says its plain words, or the lines right after do."""
    lines = screen.splitlines()
    first = next(n for n, line in enumerate(lines) if term in line)
    nearby = " ".join(lines[first : first + 12])
    assert plain(term) in nearby, (term, lines[first])


def test_the_demo_says_each_term_in_plain_words_where_it_first_shows_it(tmp_path: Path) -> None:
    demo = Terminal(["demo"], tmp_path)
    assert demo.finish() == 0, demo.screen
    for term in FIRST_SEEN:
        _explained_where_first_seen(demo.screen, term)
    assert "git memory help glossary" in demo.screen


def test_review_says_what_typed_facts_and_unverified_claims_are_before_asking(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = _queued(tmp_path, hermetic_env)
    review = Terminal(["review"], sample.root)
    review.expect(re.escape(f"(typed-fact: {plain('typed-fact')}):"))
    review.expect(TYPED)
    review.type("s")
    review.expect(re.escape(f"Claims marked unverified are {plain('unverified')}."))
    review.expect(r"claim: .*\(unverified, direct\)")
    review.expect(CLAIM)
    review.type("q")
    assert review.finish() == 0, review.screen


def test_the_glossary_command_and_page_give_every_term_alike(tmp_path: Path) -> None:
    shown = run_cli(["help", "glossary"], cwd=tmp_path)
    assert shown.exit_code == 0
    text = " ".join(shown.stdout.split())
    page = (PROJECT_ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", page, re.M)[2:]  # past the header rows
    assert [term for term, _ in rows] == [row.term for row in GLOSSARY]
    for row, (_, meaning) in zip(GLOSSARY, rows, strict=True):
        assert meaning.lower().rstrip(".") == row.plain.lower()
        assert f"{row.term} {row.plain[:1].upper()}{row.plain[1:]}." in text
    for term in FIRST_SEEN:
        assert any(term in row.term for row in GLOSSARY), term
    assert "git memory help glossary" in " ".join(run_cli(["-h"], cwd=tmp_path).stdout.split())
