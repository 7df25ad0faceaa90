"""A set-up step the person ran themselves and said so ("npm install は私が実施した", "I ran
`pip install -r requirements.txt`"): a run of the session like the agent's own, so a failure
it fixed is a trap (`traps.py`: `npm test` fails with "vitest: not found" unless `npm install`
runs first) though no tool call of the agent ran it.

The person's message counts when it is short, typed (not pasted), names one set-up step (a
command in backticks, or the words of one typed in Latin letters among any others) and says
in any language that it was done, with no word of a failure ("I ran npm install but it still
fails" tells that the step fixed nothing). A build or a check the person ran is left out: a
command memory counts the runs a transcript shows, not what someone says of one.
"""

from __future__ import annotations

import re

from git_memory.extract.builtin import shell
from git_memory.sessions.turns import ToolCall

# Longer than this, a message is no note that a step was done.
MAX_TOLD_CHARS = 200
# The call id of a step the person ran.
TOLD = "told-by-the-person"

# (language, pattern, a sentence it reads): the words saying a step was done.
DONE_CUES: tuple[tuple[str, str, str], ...] = (
    (
        "en",
        r"(?i)\b(?:i(?:'ve| have)? (?:just |already )?(?:ran|run|did|done|executed|installed)"
        r"|(?:already|just) (?:ran|run|did|installed)|ran it|it'?s done)\b|^done\b",
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
        r"(?:実施|実行|インストール)(?:した|しました|済み)|やった|やりました",
        "npm install は私が実施した",
    ),
    ("ko", r"(?:실행|설치)(?:했|함|완료)", "npm install 실행했어요"),
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
    r"(?i)\b(?:still|same|error|errors|fail\w*|doesn'?t work|not working|broken|but)\b"
    r"|还是|還是|报错|報錯|失败|失敗|不行|错误|錯誤|まだ|エラー|여전히|에러|실패|안 ?돼"
    r"|\b(?:sigue|falla|ainda|erro|immer noch|fehler|toujours|erreur|всё ещё|ошибк\w*)"
)
_BACKTICKED = re.compile(r"`([^`\n]+)`")
# The words of a command typed among others: words of Latin letters, digits and a shell's
# marks in a row (a word of any other letters ends them), up to a clause's end.
_COMMAND_WORD = re.compile(r"[A-Za-z0-9_./:@=+'\"<>^~-]+")
_CLAUSE_END = re.compile(r"[,;!?]|\.(?:\s|$)|\b(?:and|then)\b")
# Chinese, Japanese and Korean letters typed against a command (`npm installは`).
_CJK = re.compile(r"([\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]+)")
# Words that close a sentence, not a command typed in it ("I ran npm install already").
_NOT_ARGUMENTS = frozenset(
    ["now", "already", "too", "again", "just", "then", "and", "it", "ok", "okay", "done", "you"]
)
MAX_COMMAND_WORDS = 8
_DONE = [re.compile(pattern) for _, pattern, _ in DONE_CUES]


def told_steps(text: str) -> list[ToolCall]:
    """The set-up step the person's message says they ran, as a shell call that worked (at
    most one; none for anything but such a note)."""
    text = text.strip()
    if not text or len(text) > MAX_TOLD_CHARS or "\n\n" in text or _FAILURE.search(text):
        return []
    if not any(done.search(text) for done in _DONE):
        return []
    found = set(_commands(text))
    if len(found) != 1:
        return []
    return [ToolCall(TOLD, "Bash", {"command": found.pop()}, "", "completed")]


def _commands(text: str) -> list[str]:
    """The set-up steps a message names: in backticks, else the words of one typed in it
    (from its program's name to the clause's end, the sentence's own words left out)."""
    quoted = [span.strip() for span in _BACKTICKED.findall(text)]
    if quoted:
        return [command for command in quoted if _a_step(command)]
    found = []
    for clause in _CLAUSE_END.split(_CJK.sub(r" \1 ", text)):
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
    """The set-up step a run of words ends with, from its program's name on."""
    while words and words[-1].casefold() in _NOT_ARGUMENTS:
        words = words[:-1]
    for start in range(max(0, len(words) - MAX_COMMAND_WORDS), len(words)):
        command = " ".join(words[start:])
        if _a_step(command):
            return command
    return None


def _a_step(command: str) -> bool:
    """One set-up step and nothing else (`npm install`, `uv sync`)."""
    segments = shell.segments(command)
    return len(segments) == 1 and segments[0].setup
