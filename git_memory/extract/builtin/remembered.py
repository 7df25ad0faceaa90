"""What a person asks the agent to remember: "Check src/locale before adding a key. Remember
this.", "…。这个要求添加到你的记忆文档里", "…. Merk dir das als Grundregel." The sentences before
such a request, in the same message, are what it points at: the person says themselves that
they hold from now on, as an agent's acknowledgement says it (`acknowledged.py`).

One row per language, each with a request of its shapes: the Chinese one is a person's in a
session of a public repository; the others are the same request in those languages. Alone,
with nothing before it in the message, the request points at an earlier message: no rule.
"""

from __future__ import annotations

import re
from functools import cache

from git_memory.records import Record


class Request(Record):
    """One shape in which a person asks the agent to keep what they just said."""

    language: str
    pattern: str
    example: str


REQUESTS: tuple[Request, ...] = (
    Request(
        language="en",
        pattern=r"^(?:please |pls )?(?:remember|memori[sz]e|keep in mind) (?:this|that|these"
        r"|it)\b|^(?:please |pls )?(?:keep|bear) (?:this|that|these|it) in mind\b"
        r"|^(?:please |pls )?(?:add|save|write|put|store) (?:this|that|these|it)(?: rules?"
        r"| requirements?| conventions?)? (?:to|in|into) (?:your |the )?(?:memory|memories"
        r"|claude\.md|agents\.md|gemini\.md|rules|instructions)\b",
        example="Remember this for the future.",
    ),
    Request(
        language="zh",
        pattern=r"(?:[这這][个個条條点點]|此|以上|上面的?)(?:要求|[规規]则|[规規]范|[约約]定|[内內]容)?"
        r"[^，。！？,]{0,4}?(?:添加|加|[写寫]|[记記]|保存|存)(?:到|进|進|入)(?:你的)?"
        r"(?:[记記]忆|[记記]憶|memory|claude\.?md|agents\.?md|[规規]则)"
        r"|^[请請]?[记記]住(?:[这這][个個条條点點]|以上|上面)",
        example="这个要求添加到你的记忆文档里，且仅限hse，之后让你整理翻译时按此逻辑来，限hse）",
    ),
    Request(
        language="ja",
        pattern=r"^(?:これ|この(?:ルール|こと|方針)|以上)を?(?:覚えて|記憶して|メモリに)",
        example="これを覚えておいてください。",
    ),
    Request(
        language="ko",
        pattern=r"^(?:이거|이것|이 규칙|위 내용)(?:을|를)? ?(?:기억해|메모리에)",
        example="이거 기억해 줘.",
    ),
    Request(
        language="de",
        pattern=r"^merke? (?:dir|euch) (?:das|dies|diese[sn]?)\b",
        example="Merk dir das als Grundregel.",
    ),
    Request(
        language="fr",
        pattern=r"^(?:retiens|souviens-toi de|mémorise) (?:ça|cela|ceci)\b"
        r"|^ajoute (?:ça|cela|ceci) (?:à|dans) (?:ta mémoire|claude\.md|agents\.md)\b",
        example="Retiens ça pour la suite.",
    ),
    Request(
        language="es",
        pattern=r"^(?:recuerda|memoriza) (?:esto|eso)\b"
        r"|^(?:añade|agrega|guarda) (?:esto|eso) (?:a|en) (?:tu memoria|claude\.md|agents\.md)\b",
        example="Recuerda esto para el futuro.",
    ),
    Request(
        language="pt",
        pattern=r"^(?:lembre-se disso|lembre disso|memorize isso|guarde isso)\b",
        example="Lembre-se disso daqui pra frente.",
    ),
    Request(
        language="ru",
        pattern=r"^(?:запомни|запомните) (?:это|этот|эти)\b",
        example="Запомни это на будущее.",
    ),
)


def asks_to_remember(sentence: str) -> bool:
    """Whether a sentence asks the agent to keep what was said before it."""
    return _compiled().search(sentence.strip()) is not None


def pointed_back(sentences: list[str]) -> list[str]:
    """The sentences of a message before the first that asks the agent to remember them;
    none when no sentence asks it or nothing comes before it."""
    for index, sentence in enumerate(sentences):
        if asks_to_remember(sentence):
            return sentences[:index]
    return []


@cache
def _compiled() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{row.pattern})" for row in REQUESTS), re.IGNORECASE)
