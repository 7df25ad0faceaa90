"""What a person asks the agent to remember: "Check src/locale before adding a key. Remember
this.", "…。这个要求添加到你的记忆文档里", "…. Merk dir das als Grundregel." The sentence right
before such a request, when the request ends the message, is what it points at: the person
says themselves that it holds from now on, as an agent's acknowledgement says it
(`acknowledged.py`).

One row per language, each with a request of its shapes: the Chinese one is a person's in a
session of a public repository; the others are the same request in those languages. Alone,
with nothing before it in the message, the request points at an earlier message: no rule.
"""

from __future__ import annotations

import re
from functools import cache

from git_memory.extract.builtin.acknowledged import Phrasing, any_of

# One shape in which a person asks the agent to keep what they just said, per row.
REQUESTS: tuple[Phrasing, ...] = (
    Phrasing(
        language="en",
        # "that" as the thing said, not opening a clause ("remember that we use pnpm")
        # the request alone, a time it holds for at most ("… for next time", "… going
        # forward"), not what to do with it ("keep this in mind when fixing")
        pattern=r"^(?:please |pls )?(?:(?:remember|memori[sz]e|keep in mind) (?:this|that|these"
        r"|it)|(?:keep|bear) (?:this|that|these|it) in mind|(?:add|save|write|put|store) (?:this"
        r"|that|these|it)(?: rules?| requirements?| conventions?)? (?:to|in|into) (?:your |the )?"
        r"(?:memory|memories|claude\.md|agents\.md|gemini\.md|rules|instructions)"
        r"(?: files?| docs?)?)"
        # what it is, and for how long it holds ("this rule", "for future sessions")
        r"(?: (?:rule|convention|requirement|instruction|preference)s?)?"
        r"(?:,? (?:(?:for|from|going|in|next|as)\b[^.!?]{0,30}|please|pls))?\s*[.!]*$",
        example="Remember this for the future.",
    ),
    Phrasing(
        language="zh",
        pattern=r"^(?:[请請]|[帮幫]我)?(?:把)?(?:[这這][个個条條点點]|此|以上|上面的?)"
        r"(?:要求|[规規]则|[规規]范|[约約]定|[内內]容)?"
        r"[^，。！？,]{0,4}?(?:添加|加|[写寫]|[记記]|保存|存)(?:到|进|進|入)(?:你的)?"
        r"(?:[记記]忆|[记記]憶|memory|claude\.?md|agents\.?md|[规規]则)(?![^，。！？]{0,3}[吗嗎么麼])"
        r"|^[请請]?[记記]住(?:[这這][个個条條点點]|以上|上面)(?![^，。！？]{0,3}[吗嗎么麼])",
        example="这个要求添加到你的记忆文档里，且仅限hse，之后让你整理翻译时按此逻辑来，限hse）",
    ),
    Phrasing(
        language="ja",
        pattern=r"^(?:これ|この(?:ルール|こと|方針)|以上)を?(?:覚えて|記憶して|メモリに)",
        example="これを覚えておいてください。",
    ),
    Phrasing(
        language="ko",
        pattern=r"^(?:이거|이것|이 규칙|위 내용)(?:을|를)? ?(?:기억해|메모리에)",
        example="이거 기억해 줘.",
    ),
    Phrasing(
        language="de",
        # the request alone ("Merk dir das als Grundregel."), not with the rule in it ("Merk dir
        # diese als Regel und verwende nie npm")
        pattern=r"^merke? (?:dir|euch) (?:das|dies|diese[sn]?)(?: bitte)?(?: als \w+)?"
        r"(?: (?:für|fürs|ab)\b[^.!?]{0,30})?\s*[.!]*$",
        example="Merk dir das als Grundregel.",
    ),
    Phrasing(
        language="fr",
        pattern=r"^(?:retiens|souviens-toi de|mémorise) (?:ça|cela|ceci)\b"
        r"|^ajoute (?:ça|cela|ceci) (?:à|dans) (?:ta mémoire|claude\.md|agents\.md)\b",
        example="Retiens ça pour la suite.",
    ),
    Phrasing(
        language="es",
        pattern=r"^(?:recuerda|memoriza) (?:esto|eso)\b"
        r"|^(?:añade|agrega|guarda) (?:esto|eso) (?:a|en) (?:tu memoria|claude\.md|agents\.md)\b",
        example="Recuerda esto para el futuro.",
    ),
    Phrasing(
        language="pt",
        pattern=r"^(?:lembre-se disso|lembre disso|memorize isso|guarde isso)\b",
        example="Lembre-se disso daqui pra frente.",
    ),
    Phrasing(
        language="ru",
        pattern=r"^(?:запомни|запомните) (?:это|этот|эти)\b",
        example="Запомни это на будущее.",
    ),
)


def asks_to_remember(sentence: str) -> bool:
    """Whether a sentence asks the agent to keep what was said before it: no question ("Remember
    this bug?", "这个记到记忆里了吗"), nothing it introduces ("Remember these steps:")."""
    typed = sentence.strip()
    if typed.endswith(("?", "？", ":", "：")):
        return False
    return _compiled().search(typed) is not None


# Words every request holds, one of them at least: most messages hold none, and are not split
# into sentences to find out.
_REQUEST_WORDS = (
    *("remember", "memor", "mind", "claude.md", "agents.md", "gemini.md", "merk", "retiens"),
    *("souviens", "mémoris", "mémoire", "recuerda", "añade", "agrega", "guard", "lembr"),
    *("запомн", "记", "記", "覚え", "기억", "메모리"),
)


def may_ask_to_remember(text: str) -> bool:
    """Whether a message could hold a request to remember (a plain scan of its words)."""
    lowered = text.lower()
    return any(word in lowered for word in _REQUEST_WORDS)


def pointed_back(sentences: list[str]) -> str | None:
    """The sentence a message's last sentence asks the agent to remember: the one right before
    it; None when the last sentence asks nothing or nothing comes before it (what it points at
    is then in another message, or after it)."""
    if len(sentences) < 2 or not asks_to_remember(sentences[-1]):
        return None
    return sentences[-2]


@cache
def _compiled() -> re.Pattern[str]:
    return any_of(REQUESTS)
