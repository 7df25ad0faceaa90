"""The lexicon's look-up (issue 39): a cue's pattern is searched only in a sentence that holds
one of the words any of its matches must hold (`lexicon.required_words`), and that shortcut
never loses a cue the pattern alone would find."""

from __future__ import annotations

import re
from collections.abc import Callable

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


def _reach(items: list[tuple[object, object]]) -> tuple[bool, bool]:
    """Whether a parsed pattern's classes (not its literal words) can consume a letter of a
    word, and a blank."""
    c = lexicon.re_constants
    word = blank = False
    for op, value in items:
        found = (False, False)
        if op in (c.ANY, c.NOT_LITERAL):
            found = (True, True)
        elif op is c.IN:
            found = _class_reach(value)  # type: ignore[arg-type]
        elif op is c.SUBPATTERN:
            found = _reach(list(value[3]))  # type: ignore[index]
        elif op is c.BRANCH:
            reached = [_reach(list(branch)) for branch in value[1]]  # type: ignore[index]
            found = (any(r[0] for r in reached), any(r[1] for r in reached))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            found = _reach(list(value[2]))  # type: ignore[index]
        word, blank = word or found[0], blank or found[1]
    return word, blank


def _class_reach(members: list[tuple[object, object]]) -> tuple[bool, bool]:
    c = lexicon.re_constants
    if members[:1] == [(c.NEGATE, None)]:
        return True, True
    word = blank = False
    for op, value in members:
        if op is c.LITERAL:
            char = chr(value)  # type: ignore[arg-type]
            word, blank = word or char.isalnum(), blank or char.isspace()
        elif op is c.RANGE:
            low, high = value  # type: ignore[misc]
            word, blank = word or high >= ord("0"), blank or low <= ord(" ") <= high
        elif op is c.CATEGORY:
            word = word or value in (
                c.CATEGORY_WORD,
                c.CATEGORY_DIGIT,
                c.CATEGORY_NOT_SPACE,
                c.CATEGORY_NOT_DIGIT,
            )
            blank = blank or value in (c.CATEGORY_SPACE, c.CATEGORY_NOT_WORD, c.CATEGORY_NOT_DIGIT)
    return word, blank


def _spans_without_bound(
    items: list[tuple[object, object]],
    crosses: Callable[[list[tuple[object, object]]], bool] = lambda inner: all(_reach(inner)),
) -> list[str]:
    """The repeats of a parsed pattern with no upper bound whose classes run over words and
    blanks alike (`[^.]*`, `.*`, `(?:\\w+\\s+)*`, `[\\s\\S]*`): after any of a sentence's many
    starting points each scans the rest of it, so a long hostile sentence costs the square
    of its length. A run of one word (`\\w+`, `\\S+`), of blanks (`\\s+`, `\\W+`) or of
    given words (`(?:dir |euch )*`) does not."""
    c = lexicon.re_constants
    found: list[str] = []
    for op, value in items:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            _, high, inner = value  # type: ignore[misc]
            if high is c.MAXREPEAT and crosses(list(inner)):
                found.append(str(list(inner)))
            found += _spans_without_bound(list(inner), crosses)
        elif op is c.SUBPATTERN:
            found += _spans_without_bound(list(value[3]), crosses)  # type: ignore[index]
        elif op is c.BRANCH:
            for branch in value[1]:  # type: ignore[index]
                found += _spans_without_bound(list(branch), crosses)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            found += _spans_without_bound(list(value[1]), crosses)  # type: ignore[index]
    return found


def _reaches_cjk(items: list[tuple[object, object]]) -> bool:
    """Whether a parsed pattern's classes can consume a Chinese, Japanese or Korean letter:
    in those languages a run of letters has no blank to end it, so a repeat of them without
    a bound scans the rest of the sentence (`[\\w.+-]*` after `は`)."""
    c = lexicon.re_constants
    for op, value in items:
        if op in (c.ANY, c.NOT_LITERAL):
            return True
        if op is c.IN:
            for kind, member in value:  # type: ignore[union-attr]
                if kind is c.NEGATE or (
                    kind is c.CATEGORY
                    and member in (c.CATEGORY_WORD, c.CATEGORY_NOT_SPACE, c.CATEGORY_NOT_DIGIT)
                ):
                    return True
                if kind is c.RANGE and member[1] >= 0x3040:  # type: ignore[index]
                    return True
        else:
            inner: list[list[tuple[object, object]]] = []
            if op is c.SUBPATTERN:
                inner = [list(value[3])]  # type: ignore[index]
            elif op is c.BRANCH:
                inner = [list(branch) for branch in value[1]]  # type: ignore[index]
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
                inner = [list(value[2])]  # type: ignore[index]
            if any(_reaches_cjk(part) for part in inner):
                return True
    return False


_CJK_CUES = [cue for cue in lexicon.CUES if cue.language in ("zh", "ja", "ko")]


@pytest.mark.parametrize("cue", _CJK_CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_no_cjk_row_scans_the_rest_of_a_sentence_without_a_bound(cue: lexicon.Cue) -> None:
    assert _spans_without_bound(list(lexicon.re_parser.parse(cue.pattern)), _reaches_cjk) == []


def test_an_unbounded_run_of_letters_is_found_in_a_cjk_row() -> None:
    for pattern in (r"は[A-Za-z][\w.+-]*で", r"x\S*y", r"[^。]*で", r"(?:[가-힣]+ )*로"):
        assert _spans_without_bound(list(lexicon.re_parser.parse(pattern)), _reaches_cjk), pattern
    for pattern in (r"は[A-Za-z][A-Za-z0-9.+-]{0,40}で", r"[^。]{0,20}で", r"[a-z]*で"):
        parsed = list(lexicon.re_parser.parse(pattern))
        assert _spans_without_bound(parsed, _reaches_cjk) == [], pattern


@pytest.mark.parametrize("cue", lexicon.CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_no_row_scans_the_rest_of_a_sentence_without_a_bound(cue: lexicon.Cue) -> None:
    assert _spans_without_bound(list(lexicon.re_parser.parse(cue.pattern))) == []


def test_an_unbounded_span_is_found_where_it_hides() -> None:
    hidden = (
        r"\bher\b[^.!?]*?mal",
        r"(?:a|b.*)c",
        r"x(?:[^,]+,)?y",
        r"a.+?b",
        r"[\s\S]*x",
        r"[\w ]*x",
        r"(?:x|.)*",
        r"(?:\w+\s+)*x",
        r"(?=.*x)",
    )
    for pattern in hidden:
        assert _spans_without_bound(list(lexicon.re_parser.parse(pattern))), pattern
    fine = (r"\bher\b[^.!?]{0,120}?mal", r"\w+mayacak", r"\s+", r"[a-z]*", r"\S+", r"\W+x")
    for pattern in (*fine, r"(?:dir |euch )*gesagt"):
        assert _spans_without_bound(list(lexicon.re_parser.parse(pattern))) == [], pattern
