"""A set-up step the person ran themselves and said so ("npm install は私が実施した", "I ran
`pip install -r requirements.txt`"): a run of the session like the agent's own, so a failure
it fixed is a trap (`traps.py`: `npm test` fails with "vitest: not found" unless `npm install`
runs first) though no tool call of the agent ran it.

The person's message counts when it is short, typed (not pasted), no question, names one
set-up step (a command in backticks, or the words of one typed in Latin letters among any
others, nothing of the sentence after it: "npm install in the backend folder" says where, not
what) and says in the same clause, in the past and not negated, that it was done ("I ran",
"запустил", not "I run", "не запустил", "実行したら"), with no word of a failure ("I ran npm
install but it still fails" tells that the step fixed nothing). A build or a check the person
ran is left out: a command memory counts the runs a transcript shows, not what someone says
of one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from git_memory.extract.builtin import shell
from git_memory.sessions.turns import ToolCall

# Longer than this, a message is no note that a step was done.
MAX_TOLD_CHARS = 200
# The call id of a step the person ran.
TOLD = "told-by-the-person"

# (language, pattern, a sentence it reads): the words saying a step was done, in the past
# ("I ran", not "I run"; not "when you have run it": したら, "whether": 했는지).
DONE_CUES: tuple[tuple[str, str, str], ...] = (
    (
        "en",
        r"(?i)\bi(?:'ve| have) (?:just |already )?(?:run|done|executed|installed)\b"
        r"|\bi (?:just |already )?(?:ran|did|executed|installed)\b"
        r"|\b(?:already|just) (?:ran|installed)\b|^(?:ran|done)\b|\b(?:is )?done[.!]?$",
        "ok I ran npm install",
    ),
    (
        "zh",
        r"(?:执行|運行|运行|跑|安装|安裝|装|裝)(?:了|过|過|好了|完了|完成)"
        r"|已(?:经|經)?(?:执行|運行|运行|安装|安裝)",
        "npm install 已经跑了",
    ),
    (
        "ja",
        r"(?:実施|実行|インストール)(?:しました|した|済み)(?![らか])|やった|やりました",
        "npm install は私が実施した",
    ),
    ("ko", r"(?:실행|설치)(?:했|함|완료)(?!는지|나|니|습)", "npm install 실행했어요"),
    ("es", r"(?i)\b(?:ya )?(?:ejecuté|instalé|corrí)\b", "ya ejecuté npm install"),
    ("pt", r"(?i)\b(?:já )?(?:rodei|executei|instalei)\b", "já rodei npm install"),
    (
        "de",
        r"(?i)\bhabe\b[^.!?]{0,40}\b(?:ausgeführt|installiert|laufen lassen)\b",
        "ich habe npm install ausgeführt",
    ),
    ("fr", r"(?i)\bj'ai (?:lancé|exécuté|installé|fait)\b", "j'ai lancé npm install"),
    ("ru", r"(?i)\b(?:запустил|выполнил|установил|сделал)\b", "запустил npm install"),
)
# A failure told with the step: it fixed nothing.
_FAILURE = re.compile(
    r"(?i)\b(?:still|same|error|errors|fail\w*|doesn'?t work|not working|broken|but|no luck"
    r"|crash\w*|denied|eacces|didn'?t work|did not work)\b"
    r"|(?:didn'?t|did not|doesn'?t|does not) help"
    r"|还是|還是|报错|報錯|失败|失敗|不行|错误|錯誤|没用|沒用|まだ|エラー|ダメ|だめ"
    r"|여전히|에러|실패|안 ?돼"
    r"|\b(?:sigue|falla|no funcion\w*|não funcion\w*|ainda|erro|immer noch|fehler|toujours"
    r"|erreur|всё ещё|ошибк\w*|не помогл\w*)"
)
# A step not done: a negation before (or within) the words saying it was.
_NOT_DONE = re.compile(
    r"(?i)\b(?:didn'?t|did not|haven'?t|have not|hasn'?t|never|not|no|nunca|não|nicht|nie"
    r"|kein\w*|pas|jamais|не|ни)\b|[没沒未不]"
)
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_HELD = re.compile(r"`(\d+)`")
# A clause of a note: a command is told done only with the words saying so beside it.
_CLAUSE = re.compile(
    r"[,;!?，。；！？、]\s*|(?<=\S)\.(?:\s|$)|\s+(?:and|but|then|y|e|und|et|и|а|но)\s+"
)
# The words of a command typed among others: words of Latin letters, digits and a shell's
# marks in a row (a word of any other letters ends them).
_COMMAND_WORD = re.compile(r"[A-Za-z0-9_./:@=+'\"<>^~-]+")
# The words of an English sentence that are no argument of a step typed in it ("i" is one:
# `npm i`).
_PROSE = frozenset(
    """in on at for with from inside into under the a an it you we my our to of as before
    after when since because so that this there""".split()  # noqa: SIM905 (a list of words)
)
# Chinese, Japanese and Korean letters typed against a command (`npm installは`).
_CJK = re.compile(r"([\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]+)")
# Words that close a sentence after a command, not arguments of it ("I ran npm install
# already"); any other word after it is the sentence's ("… in the backend folder"), and the
# step is not taken.
_CLOSING = frozenset(
    """now already too again just then it ok okay done you yesterday today earlier first
    myself manually locally here is was""".split()  # noqa: SIM905 (a list of words)
)
MAX_COMMAND_WORDS = 8
_DONE = [re.compile(pattern) for _, pattern, _ in DONE_CUES]


def told_steps(text: str) -> list[ToolCall]:
    """The set-up step the person's message says they ran, as a shell call that worked (at
    most one; none for anything but such a note)."""
    text = text.strip()
    if not text or len(text) > MAX_TOLD_CHARS or "\n\n" in text or _FAILURE.search(text):
        return []
    if _QUESTION.search(text):
        return []  # "npm install やった？", "Did you run npm install?"
    if not any(done.search(text) for done in _DONE):
        return []  # (most messages: no command is looked for)
    spans: list[str] = []
    found, told = set(), set()
    for clause in _CLAUSE.split(_CJK.sub(r" \1 ", _held(text, spans))):
        named = set(_commands(clause, spans))
        found |= named
        cue = next((m for done in _DONE if (m := done.search(clause))), None)
        if cue is not None:
            if _NOT_DONE.search(clause[: cue.end()]):
                return []  # "I didn't run npm install", "не запустил npm install"
            told |= named
    if len(found) != 1 or found != told:
        return []  # none, or which of two steps did it?
    return [ToolCall(TOLD, "Bash", {"command": found.pop()}, "", "completed")]


# A question, in any of the languages: a question mark, or Chinese 吗, or the formal
# Korean question …습니까.
_QUESTION = re.compile(r"[?？]|[吗嗎]|습니까")


def _held(text: str, spans: list[str]) -> str:
    """The text with each backticked command held aside (its place: `` `0` ``), so that no
    full stop or comma in it splits a clause (`uv pip install -e . --system`)."""

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(1))
        return f"`{len(spans) - 1}`"

    return _BACKTICKED.sub(hold, text)


def _commands(clause: str, spans: Sequence[str]) -> list[str]:
    """The set-up steps a clause names: in backticks (held aside in `spans`), else the words
    of one typed in it (from its program's name on, nothing but its arguments after it)."""
    quoted = [spans[int(held)].strip() for held in _HELD.findall(clause)]
    if quoted:
        return [command for command in quoted if _a_step(command)]
    found = []
    run: list[str] = []
    for word in [*clause.split(), ""]:
        if word and _COMMAND_WORD.fullmatch(word):
            run.append(word)
            continue
        step = _step_in(run)
        if step is not None:
            found.append(step)
        run = []
    return found


def _step_in(words: list[str]) -> str | None:
    """The set-up step a run of words ends with, from its program's name on; none when the
    sentence's own words follow it ("npm install in the backend folder": not where it ran)."""
    while words and words[-1].casefold() in _CLOSING:
        words = words[:-1]
    for start in range(max(0, len(words) - MAX_COMMAND_WORDS), len(words)):
        command = words[start:]
        if _a_step(" ".join(command)):
            prose = any(word.casefold() in _PROSE for word in command[1:])
            return None if prose else " ".join(command)
    return None


def _a_step(command: str) -> bool:
    """One set-up step and nothing else (`npm install`, `uv sync`)."""
    segments = shell.segments(command)
    return len(segments) == 1 and segments[0].setup
