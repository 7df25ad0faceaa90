"""Which languages a sentence is written in, by its script, and which language it asks the
agent to work in: what `statements.py` reads a sentence's cues by (`lexicon.py`) and what makes
several such sentences one memory (`window.py`)."""

from __future__ import annotations

import re

from git_memory.extract.builtin.cue_forms import LANGUAGE
from git_memory.extract.builtin.lexicon import forms_of


def languages_of(sentence: str) -> frozenset[str]:
    """The languages whose cues the sentence could be read by: its script decides for
    Chinese, Japanese, Korean and Russian; a sentence in Latin letters is read by the
    cues of every language written in them."""
    if _KANA.search(sentence):
        return frozenset(["ja"])
    if _HANGUL.search(sentence):
        return frozenset(["ko"])
    if _HAN.search(sentence):
        return frozenset(["zh"])
    if _CYRILLIC.search(sentence):
        return frozenset(["ru"])
    if _VIETNAMESE.search(sentence):
        return frozenset(["vi"])
    return frozenset(["en", "es", "pt", "de", "fr"])


# The language a `language` cue names, by the words that name it in any of the languages.
_LANGUAGE_NAMES: tuple[tuple[str, str], ...] = (
    ("en", r"english|англий|inglés|ingles|inglês|anglais|englisch|英文|英语|英語|영어"),
    ("ru", r"russian|русск"),
    ("es", r"spanish|español|espanol"),
    ("pt", r"portuguese|português|portugues"),
    ("de", r"german|deutsch"),
    ("fr", r"french|français|francais"),
    ("zh", r"chinese|中文|简体|簡體|繁体|繁體"),
    ("ja", r"japanese|日本語"),
    ("ko", r"korean|한글|한국어"),
    ("vi", r"vietnamese|tiếng việt"),
)


def language_named(sentence: str) -> str | None:
    """The language a sentence asks the agent to work in (`ru` for "работай на русском"),
    None when it names none: what makes several such sentences one memory."""
    if LANGUAGE not in forms_of(sentence, languages_of(sentence)):
        return None
    folded = sentence.casefold()
    return next((code for code, words in _LANGUAGE_NAMES if re.search(words, folded)), None)


CJK = frozenset(["zh", "ja", "ko"])
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Letters only Vietnamese writes among the languages of the table (ă đ ơ ư, dot below, hook).
_VIETNAMESE = re.compile(r"[ăĂđĐơƠưƯ\u1ea0-\u1ef9]")
