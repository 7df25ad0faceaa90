"""Which language a sentence asks the agent to work in: what makes several such sentences one
memory (`window.py`). Which languages it is written in is its script's (`scripts.py`)."""

from __future__ import annotations

import re

from git_memory.extract.builtin.cue_forms import LANGUAGE
from git_memory.extract.builtin.lexicon import forms_of, lower_case
from git_memory.extract.builtin.scripts import languages_of

# The language a `language` cue names, by the words that name it in any of the languages.
_LANGUAGE_NAMES: tuple[tuple[str, str], ...] = (
    ("en", r"english|англий|inglés|ingles|inglês|anglais|englisch|ingilizce|英文|英语|英語|영어"),
    ("ru", r"russian|русск"),
    ("es", r"spanish|español|espanol"),
    ("pt", r"portuguese|português|portugues"),
    ("de", r"german|deutsch"),
    ("fr", r"french|français|francais"),
    ("zh", r"chinese|中文|简体|簡體|繁体|繁體"),
    ("ja", r"japanese|日本語"),
    ("ko", r"korean|한글|한국어"),
    ("vi", r"vietnamese|tiếng việt"),
    ("tr", r"turkish|türkçe|turkce"),
)


def language_named(sentence: str) -> str | None:
    """The language a sentence asks the agent to work in (`ru` for "работай на русском"),
    None when it names none: what makes several such sentences one memory."""
    if LANGUAGE not in forms_of(sentence, languages_of(sentence)):
        return None
    folded = lower_case(sentence)
    return next((code for code, words in _LANGUAGE_NAMES if re.search(words, folded)), None)
