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
