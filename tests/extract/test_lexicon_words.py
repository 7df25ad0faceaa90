"""The lexicon's look-up (issue 39): a cue's pattern is searched only in a sentence that holds
one of the words any of its matches must hold (`lexicon.required_words`), and that shortcut
never loses a cue the pattern alone would find."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from git_memory.extract.builtin import lexicon


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("always", ("always",)),
        (r"\bdon't (?:use|touch)\b", ("don't ",)),  # the longest word every match holds
        (r"\b(?:use|try) pnpm\b", (" pnpm",)),
        (r"never|(?:from now on)", ("from now on", "never")),  # every branch
        (r"[记記]住", ("記", "记")),  # a class of letters: one of them
        (r"(?:please )?commit", ("commit",)),  # an optional part holds nothing
        (r"(?:ab)+c?", ("ab",)),  # a repeat that occurs at least once
        (r"(?<!not )ever", ("ever",)),  # a look-behind holds nothing
    ],
)
def test_the_words_any_match_must_hold(pattern: str, words: tuple[str, ...]) -> None:
    assert lexicon.required_words(pattern) == words


@pytest.mark.parametrize("pattern", [r"\w+", r"(?:x)?", r"a|\d", r"^[a-z]{2,}$", "(unclosed"])
def test_a_pattern_that_needs_no_word_is_always_searched(pattern: str) -> None:
    assert lexicon.required_words(pattern) == ()


@pytest.mark.parametrize("cue", lexicon.CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_every_row_has_words_and_its_sentence_holds_one(cue: lexicon.Cue) -> None:
    words = lexicon.required_words(lexicon._lower_case(cue.pattern))
    assert words, "a row whose pattern needs no word is searched in every sentence"
    assert any(word in cue.example.lower() for word in words)


def _every_cue(sentence: str) -> frozenset[tuple[str, str]]:
    """What the table finds with no shortcut: every row's pattern searched."""
    return frozenset(
        (cue.form, cue.language)
        for cue in lexicon.CUES
        if re.search(cue.pattern, sentence, re.IGNORECASE)
    )


# Sentences made of the rows' own sentences and the words around them, cut and joined: where
# a shortcut would lose a cue, it is in text like this.
_PIECES = [cue.example for cue in lexicon.CUES] + [
    "Please always run the tests before you commit.",
    "以后所有的提交都要先跑 lint",
    "앞으로는 pnpm 을 사용하세요",
    "ДОБАВЬ В AGENTS.MD: ВСЕГДА ПИШИ ТЕСТЫ",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3),
    st.integers(0, 40),
    st.sampled_from([str, str.upper, str.lower, str.swapcase]),
)
def test_the_shortcut_finds_what_every_pattern_finds(
    pieces: list[str], cut: int, case: type[str]
) -> None:
    sentence = case(" ".join(pieces)[cut:])
    assert lexicon._found.__wrapped__(sentence, None) == _every_cue(sentence)


def _spans_without_bound(items: list[tuple[object, object]]) -> list[str]:
    """The repeats of a parsed pattern that run over spaces and sentence ends with no upper
    bound (`[^.]*`, `.*`): after any of a sentence's many starting points each scans the rest
    of it, so a long hostile sentence costs the square of its length."""
    constants = lexicon.re_constants
    found: list[str] = []
    for op, value in items:
        if op in (constants.MAX_REPEAT, constants.MIN_REPEAT):
            _, high, inner = value  # type: ignore[misc]
            item = list(inner)
            wide = len(item) == 1 and (
                item[0][0] in (constants.ANY, constants.NOT_LITERAL)
                or (item[0][0] is constants.IN and item[0][1][:1] == [(constants.NEGATE, None)])
            )
            if wide and high is constants.MAXREPEAT:
                found.append(str(item))
            found += _spans_without_bound(item)
        elif op is constants.SUBPATTERN:
            found += _spans_without_bound(list(value[3]))  # type: ignore[index]
        elif op is constants.BRANCH:
            for branch in value[1]:  # type: ignore[index]
                found += _spans_without_bound(list(branch))
    return found


@pytest.mark.parametrize("cue", lexicon.CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_no_row_scans_the_rest_of_a_sentence_without_a_bound(cue: lexicon.Cue) -> None:
    assert _spans_without_bound(list(lexicon.re_parser.parse(cue.pattern))) == []


def test_an_unbounded_span_is_found_where_it_hides() -> None:
    for pattern in (r"\bher\b[^.!?]*?mal", r"(?:a|b.*)c", r"x(?:[^,]+,)?y", r"a.+?b"):
        assert _spans_without_bound(list(lexicon.re_parser.parse(pattern))), pattern
    for pattern in (r"\bher\b[^.!?]{0,120}?mal", r"\w+mayacak", r"\s+", r"[a-z]*", r"\S+"):
        assert _spans_without_bound(list(lexicon.re_parser.parse(pattern))) == [], pattern
