"""What the agent took as standing: a person's statement is a rule when the agent's answer
says it will hold from now on ("Understood — I'll never use `agent-intercom-ctl`", "好的，之後我會
以繁體中文回覆", "Понял, общаемся на русском") or saves it to its memory (a `save_memory` or
`store_memory` call).

"Noted" alone (记下了, tomo nota, c'est noté) is no such answer: an agent says it to whatever it
was told, a thought to come back to ("先记下来") or "let's go on" ("我们继续").

A person states rules in every language and in every shape; the agents acknowledge them in a
few stereotyped ones, in their first person and their future. One row per language, each with
an answer of its shapes: the English, Chinese, Russian and Spanish ones are agents' replies in
sessions of the labelled corpus (`tests/fixtures/real-sessions/`, tuning part); the others are
the same acknowledgements in those languages. Only the first words
of the answer are read: an acknowledgement comes first, and a long answer that later says
"from now on the page loads faster" describes the program, not a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from git_memory.records import Record
from git_memory.sessions.turns import ToolCall

# How much of an answer an acknowledgement is looked for in.
ANSWER_HEAD_CHARS = 400


class Phrasing(Record):
    """One shape of words in one language that takes something as standing (here, an agent's
    answer that says it will hold to what the person said; in `remembered.py`, a person's
    request to remember it), and the sentence it was written from."""

    language: str
    pattern: str
    example: str


def any_of(rows: tuple[Phrasing, ...]) -> re.Pattern[str]:
    """One pattern that finds any row's shape, in any letter case."""
    return re.compile("|".join(f"(?:{row.pattern})" for row in rows), re.IGNORECASE)


ACKNOWLEDGEMENTS: tuple[Phrasing, ...] = (
    Phrasing(
        language="en",
        pattern=r"\b(?:from now on|going forward|moving forward|in (?:the )?future),? I(?:'ll|’ll"
        r"| will| am going to)\b|\bI(?:'ll|’ll| will) (?:always|never|remember|keep (?:that|this"
        r"|it) in mind|stick (?:to|with)|make sure to (?:always|never))\b|\bI(?:'ll|’ll| will)\b"
        r"[^.!?\n]{0,60}\b(?:from now on|going forward|from here on|for (?:all )?future"
        r" (?:changes|work|edits|commits|sessions|tasks|responses))\b"
        r"|\b(?:sav|add|stor)(?:e|ed|ing) (?:this|that|it) (?:to|in) (?:my |the )?memory\b",
        example="Understood — I'll never use `agent-intercom-ctl`, that's operator-only.",
    ),
    Phrasing(
        language="zh",
        pattern=r"(?:以[后後]|今[后後]|往[后後]|之[后後]都|[后後][续續])[^。！\n]{0,8}?(?:我|都)"
        r"(?:[会會]|[将將]|都|一律|[统統]一|始[终終])|我(?:[会會]|[将將])(?:[记記]住|一直|始[终終])"
        r"|已(?:[经經])?[记記]住|[记記]住了|保存到[记記]忆|保存到[记記]憶"
        # "afterwards I'll …" is a standing promise only as the answer to what was said
        r"|(?:好的|明白|了解|收到|知道了|[没沒][问問]题)[^。\n]{0,4}?之[后後]我(?:[会會]|[将將])",
        example="好的，之後我會以繁體中文回覆。",
    ),
    Phrasing(
        language="ja",
        # (not これから: "これから3ファイルを変更します" is what the agent does next; 以降 and
        # 以後 only where a sentence or clause starts, or after これ/それ/今回: "`Requirement
        # 2` 以降のブロック", "10行目以降" are what comes after a thing)
        pattern=r"(?:今後|(?:(?<![^\n。、，,！!])|これ|それ|今回)(?:以後|以降)|次回から)"
        r"は?[^。\n]{0,30}(?:します|いたします|ます)"
        r"|覚えておきます",
        example="承知しました。今後は日本語で回答します。",
    ),
    Phrasing(
        language="ko",
        pattern=r"(?:앞으로|지금부터|이제부터)(?:는)? [^.\n]{0,30}"
        r"(?:하겠습니다|할게요|드리겠습니다)|기억하겠|명심하겠",
        example="알겠습니다. 앞으로는 한국어로 답변하겠습니다.",
    ),
    Phrasing(
        language="ru",
        pattern=r"впредь|с этого момента|теперь (?:буду|всегда)|буду (?:всегда|общаться|отвечать"
        r"|писать|использовать|следить)|запомн(?:ил|ю)|сохраню в памят|общаемся на|\bучту\b",
        example="Понял, общаемся на русском.",
    ),
    Phrasing(
        language="es",
        pattern=r"\b(?:a partir de ahora|de ahora en adelante|lo tendré en cuenta|lo recordaré"
        r"|olvidé (?:explicarte|responderte|usar))\b",
        example="Lo siento, olvidé explicarte en español.",
    ),
    Phrasing(
        language="pt",
        pattern=r"\b(?:a partir de agora|de agora em diante|daqui para frente),? (?:vou|irei)\b"
        r"|\bvou (?:sempre|lembrar)\b|\b(?:vou levar|levarei) em conta\b",
        example="Entendido, a partir de agora vou responder em português.",
    ),
    Phrasing(
        language="de",
        pattern=r"\b(?:ab jetzt|von nun an|künftig|in zukunft) (?:werde ich|antworte ich)\b"
        r"|\b(?:werde ich|ich werde) (?:ab jetzt|künftig|von nun an|in zukunft|immer)\b"
        r"|\b(?:merke ich mir|ich merke mir)\b",
        example="Verstanden, ab jetzt werde ich auf Deutsch antworten.",
    ),
    Phrasing(
        language="fr",
        pattern=r"\b(?:désormais|dorénavant|à l'avenir),? je\b|\bje (?:vais|répondrai|"
        r"travaillerai) (?:désormais|dorénavant)\b|\bje retiens\b"
        r"|\bje m'en souviendrai\b",
        example="Compris, désormais je répondrai en français.",
    ),
)

# A call that saves what the person said to the agent's own memory (Gemini CLI and Qwen Code
# `save_memory`, Copilot CLI `store_memory`).
_MEMORY_CALL = re.compile(r"(?i)^(?:save|store|add|remember)_?(?:memory|memories|fact)$")


def acknowledgement(answer: str, calls: Iterable[ToolCall]) -> str | None:
    """The agent's words that take what the person said as standing: the sentence of its
    answer that says so, "" when it only saved it to its memory; None when it did neither."""
    match = _compiled().search(answer[:ANSWER_HEAD_CHARS])
    if match is not None:
        return _sentence_around(answer, match.start(), match.end())
    return "" if any(_MEMORY_CALL.match(call.name) for call in calls) else None


# Where a sentence of an answer ends, in any of the languages.
_SENTENCE_END = re.compile(r"[.!?。！？\n]")
MAX_QUOTED_CHARS = 240


def _sentence_around(answer: str, start: int, end: int) -> str:
    """The sentence of the answer holding `answer[start:end]`, as written (cut to a length a
    reviewer reads at a glance, never before the words that acknowledge)."""
    before = [m.end() for m in _SENTENCE_END.finditer(answer, 0, start)]
    after = _SENTENCE_END.search(answer, end)
    first = before[-1] if before else 0
    last = after.end() if after is not None else len(answer)
    return answer[first : max(end, min(last, first + MAX_QUOTED_CHARS))].strip()


@cache
def _compiled() -> re.Pattern[str]:
    return any_of(ACKNOWLEDGEMENTS)
