"""Which languages a sentence can be written in, by its script alone: what the rule lexicon
reads a sentence's cues by (`lexicon.py`, `statements.py`)."""

from __future__ import annotations

import re


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
    return frozenset(["en", "es", "pt", "de", "fr", "tr"])


CJK = frozenset(["zh", "ja", "ko"])
# Runs of the scripts written without spaces between words (Chinese, Japanese).
UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Letters only Vietnamese writes among the languages of the table (ă đ ĩ ơ ũ ư, dot below,
# hook), and its common words written with accents other languages share too ("Chúng tôi
# dùng pnpm", "không").
_VIETNAMESE = re.compile(r"[ăĂđĐĩĨơƠũŨưƯ\u1ea0-\u1ef9]|(?i:(?<!\w)(?:tôi|dùng|chúng|không)(?!\w))")
