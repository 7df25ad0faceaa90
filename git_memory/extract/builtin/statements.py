"""Rules in any language: the sentences of a typed message, and which of them state a rule,
read through the lexicon's table (`lexicon.py`). Such a rule is quoted as typed.

A sentence ends at `.`, `!` or `?` before a capital of any alphabet (`¿¡` included), at
`…`, `..`, `!` or `?` before any word, at a word's `.` before a word (typed in lower case:
not after an abbreviation, before "that is why …" or before a word alone), at `。！？` in
Chinese, Japanese and Korean, and at a line's end. It states a rule when it is no question,
no task at hand (a `one-off` cue) and no rule about nothing (a `not-a-rule` cue), and:
- in a language written in Latin or Cyrillic letters (Vietnamese and Turkish among them): it
  holds every time, forbids, prefers, names the language to work in, says what the team uses
  with a tool named (`usamos pnpm`, as "we use pnpm"), or corrects the agent's last action;
  at least three words;
- in Chinese, Japanese or Korean: it holds every time, names the language to work in,
  forbids, corrects the agent's last action, or is a request that holds every time (`每次
  修改后请更新…`: "always", "every time" without a request is as often what a program keeps
  doing), holds from now on for all of a kind or with a tool (`以后都用 pnpm`, `从现在开始用
  yarn`: "now" in "from now on" is not the task at hand), prefers one thing to another or
  adopts a tool (`uvを利用し`, `统一使用 pnpm`): in
  Japanese and Korean by the topic it sets a convention for (`パッケージ管理は`) or by the
  tool's name, in Chinese (no topic particle) when it holds for all of the project (`统一`,
  `所有`, `默认`), not for one step of the task (`请使用pnpm安装依赖`); prefers a tool named
  (`优先使用 pnpm`); says what the team, the project or a part of its engineering uses, a
  tool named (`我们用 pnpm 管理依赖`, `我们的后端是 fastapi`, `测试用 pytest`); or a norm for the
  project's engineering: a normative modal with its code, tests, commits or documentation as
  the subject (`所有代码必须通过 TypeScript 类型检查`), not a page or a feature of the task.
"""

from __future__ import annotations

import re

from git_memory.command_line.program import TOOL_NAMES
from git_memory.extract.builtin.cue_forms import (
    ADOPT,
    CONVENTION,
    CORRECTION,
    DIRECTIVE,
    HABITUAL,
    HENCEFORTH,
    LANGUAGE,
    NOT_A_RULE,
    OBLIGATION,
    ONE_OFF,
    PREFERENCE,
    PROHIBITION,
    QUESTION,
    STANDING,
    SUBJECT,
    TEAM,
)
from git_memory.extract.builtin.lexicon import forms_of
from git_memory.extract.builtin.scripts import CJK, languages_of

MAX_RULE_CHARS = 300
MAX_CJK_RULE_CHARS = 160
MIN_RULE_WORDS = 3
_CAPITAL = "A-Z`\"'(¿¡À-ÖØ-ÞА-ЯЁ"
# Letters of the alphabets whose short words before a full stop are abbreviations (`e.g.`,
# `vs.`, `т.е.`, `см.`), not those of Korean, where `해줘.` ends a sentence.
_ALPHABETIC = "A-Za-zÀ-ɏͰ-ϿЀ-ӿ"
# Longer abbreviations typed in lower case, in the languages the lexicon reads.
ABBREVIATIONS = (
    *("etc", "esp", "resp", "approx", "incl", "excl", "max", "min", "inc", "ltd", "dept"),
    *("misc", "env", "ref", "refs", "fig", "vol", "obs", "aprox", "ecc", "pág"),
    *("bzw", "usw", "ggf", "evtl", "inkl", "vgl", "bspw", "bzgl", "sog"),
    *("örn", "bkz", "tzn", "itd", "напр", "стр"),
)
_NOT_AFTER_AN_ABBREVIATION = "".join(
    f"(?<!\\b{re.escape(word)}\\.)(?<!\\b{re.escape(word.capitalize())}\\.)"
    for word in ABBREVIATIONS
)
_SENTENCE = re.compile(
    rf"(?<=[.!?])\s+(?=[{_CAPITAL}])|(?<=[.!?])$|(?<=[。！？])\s*|\n+"
    # Typed in a hurry: "…", "...." or "!"/"?" end a sentence before a lower-case word too.
    r"|(?:(?<=\.\.)|(?<=[!?…]))\s+(?=[^\W\d_])"
    # Typed in lower case: a word's full stop before a word, except after an abbreviation,
    # before what gives its reason ("… for security reasons. that is why I push …") and
    # before a word that is all of its sentence ("restore it using. restore.bat. I saw").
    rf"|(?<=[^\W\d_]\.)(?<!\b[{_ALPHABETIC}]\.)(?<!\b[{_ALPHABETIC}]{{2}}\.)"
    + _NOT_AFTER_AN_ABBREVIATION
    + r"\s+(?!(?:that(?:'s| is) why|this is why|because|so|which|hence|therefore|otherwise)\b)"
    rf"(?!\S+(?:\s+[{_CAPITAL}]|\s*$))(?=[^\W\d_])"
)
# Code quoted in a sentence (`foo.bar. baz`): no sentence ends inside it.
_CODE_SPAN = re.compile(r"`[^`\n]+`")
# A list's marker: "- ", "1. ", "2) ", and as Chinese and Japanese lists number their items,
# "3、", "二、", "4．" or "4." right before the item's first character ("4.所有md文档…"; not
# the "1." of "1.5").
LIST_ITEM = re.compile(
    r"^(?:[-*•+]|\d+[.)])\s+"
    # (not a number that goes on: "二、三级标题" is "levels two and three", "１．５" is 1.5)
    r"|^(?:\d+|[一二三四五六七八九十]+)[、．]\s*(?!\d|[一二三四五六七八九十]+(?:[、，,和与與及或到至级級个個号號层層类類种種"
    r"项項点點章节節次年月日]|$))"
    r"|^\d+[.)](?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
# A topic the sentence sets a convention for (`パッケージ管理は`, as for package management).
_TOPIC = re.compile(r"[\u30a0-\u30ff\u3400-\u9fffA-Za-z0-9]は(?![\u3040-\u309f])")
_EXCLUDED = frozenset([ONE_OFF, QUESTION, NOT_A_RULE])
# First in preference (not "而不是", which as often tells what a program did instead).
_PREFERRED = re.compile(r"[优優]先")
_STATES = frozenset([STANDING, PROHIBITION, PREFERENCE, LANGUAGE])
# "This" one thing of the task (a function, a file, a line), not this project.
_THIS_ONE = re.compile(
    # (not "this kind of": 这类, 此类)
    r"[这這此](?:个|個|段|张|張|条|條|行|处|處|里|裡|次|些|份)?(?!项目|項目|仓库|倉庫|工程|repo|[类類])"
    r"(?:函[数數]|文件(?![夹夾])|方法|[组組]件|接口|[页頁]面|[变變]量|[脚腳]本|表|字段|按[钮鈕]"
    r"|功能|模[块塊])"
)


# A Japanese sentence that opens on the verb of the one before it ("…をコミットする。する際
# 変更点をコメントに必ず記入すること": "when doing so"), no sentence without it: one statement
# with it. ("その際、…" is a sentence of its own.)
_GOES_BACK = re.compile(r"(?:する|した)(?:際|とき|時|場合)")


def sentences(line: str) -> list[str]:
    """The sentences of one line of a message, list markers left out."""
    text = LIST_ITEM.sub("", line.strip())
    code = [span.span() for span in _CODE_SPAN.finditer(text)]
    spans: list[tuple[int, int]] = []
    start = at = 0  # where the sentence starts; the first code span not before the end
    for end in _SENTENCE.finditer(text):
        while at < len(code) and code[at][1] <= end.start():
            at += 1
        if at < len(code) and code[at][0] < end.start():
            continue  # inside quoted code
        spans.append((start, end.start()))
        start = end.end()
    spans.append((start, len(text)))
    merged: list[tuple[int, int]] = []
    for begin, finish in spans:
        if merged and text[begin:finish].strip() and _GOES_BACK.match(text[begin:finish].lstrip()):
            merged[-1] = (merged[-1][0], finish)
        else:
            merged.append((begin, finish))
    return [text[b:f].strip() for b, f in merged if text[b:f].strip()]


def stating_forms(sentence: str) -> tuple[frozenset[str], set[str]] | None:
    """The languages and forms of a sentence that can state something for every time; None
    for a question, the task at hand or a rule about nothing. A request put as a question is
    no question when it asks the agent to work in a language ("能用中文回答吗？", "Can you
    answer in Spanish?")."""
    languages = languages_of(sentence)
    read = _WRITTEN_TEXT.sub("“”", sentence) if _A_DOCUMENT.search(sentence) else sentence
    forms = forms_of(read, languages)
    if sentence.rstrip().endswith(("?", "？")) or QUESTION in forms:
        if LANGUAGE not in forms or not asks_for_a_language(sentence):
            return None
        forms.discard(QUESTION)
    return None if forms & _EXCLUDED else (languages, forms)


# Words the person asks to be written into a document or a page, quoted after the verb that
# writes them ("在README中…着重说明“如非必要请不要提交…”"): the document's words, not the
# person's to the agent.
_WRITTEN_TEXT = re.compile(
    r"(?<=说明|說明|注明|註明|写上|寫上|写成|寫成|改成|改为|改為|提示|显示|顯示|标注|標註|加上)"
    r"\s?(?:“[^”]{1,200}”|「[^」]{1,200}」|『[^』]{1,200}』)"
)
# The document or page those words go into, named in the sentence ("在README中…"): without
# it, "再次说明“以后不要…”" restates the person's own rule.
_A_DOCUMENT = re.compile(
    r"(?i)readme|\.md\b|文[档檔]|[页頁]面|界面|[弹彈][窗框]|[页頁]脚|[页頁]眉|按[钮鈕]|[标標]题|[标標]題"
    r"|提示|信息|[注註][释釋]|[帮幫]助|文案|消息|[报報][错錯]|日志|日誌"
    r"|在[^，。“”「」]{1,30}(?:里|裡|中|上)"
)


# A polite request put as a question ("can you …", "能不能…", "можешь …", "…してくれますか").
_POLITE_REQUEST = re.compile(
    r"(?i)^(?:please )?(?:can|could|would|will) you\b|^(?:[请請][问問])?(?:你)?(?:能|可以|可否|能否"
    r"|可不可以|能不能)|^(?:можешь|можете|могли бы|мог бы)\b|^(?:puedes|podrías|podes|pode|poderia"
    r"|kannst du|könntest du|peux-tu|pourrais-tu|tu peux)\b|(?:くれますか|もらえますか"
    r"|いただけますか|줄래|줄 수 있|주실 수 있|해줘요)"
)


def asks_for_a_language(sentence: str) -> bool:
    """Whether a question asks the agent to work in a language: a polite request."""
    return bool(_POLITE_REQUEST.search(sentence.strip()))


def states_rule(sentence: str, corrects: bool) -> bool:
    """Whether a sentence states a rule in any language (`corrects`: it follows an agent
    action, so a correction of it counts)."""
    read = stating_forms(sentence)
    if read is None:
        return False
    languages, forms = read
    if languages & CJK:
        return len(sentence) <= MAX_CJK_RULE_CHARS and _cjk_rule(sentence, forms, corrects)
    # A language to work in is asked for in a word or two ("по-русски", "English please"),
    # what the team uses in two ("usamos pnpm", as "we use pnpm").
    uses = TEAM in forms and bool(named_tools(sentence))
    least = 1 if LANGUAGE in forms else 2 if uses else MIN_RULE_WORDS
    if len(sentence) > MAX_RULE_CHARS or len(sentence.split()) < least:
        return False
    return bool(forms & _STATES) or (CORRECTION in forms and corrects) or uses


def _cjk_rule(sentence: str, forms: set[str], corrects: bool) -> bool:
    """A sentence in Chinese, Japanese or Korean that states a standing rule, not a request
    about the task at hand (`上記を修正してください`, `pushしてください`): it holds every time,
    names the language, forbids (`永远不要直接改…`, `…남기지 마세요`) or corrects the agent's
    last action."""
    if forms & {STANDING, LANGUAGE, PROHIBITION} or (CORRECTION in forms and corrects):
        return True
    if {OBLIGATION, SUBJECT} <= forms:
        return True  # a norm for the project's engineering: "所有代码必须通过…检查"
    tools = named_tools(sentence)
    if TEAM in forms and tools:
        return True  # what the project is built with: "我们用 pnpm 管理依赖"
    if HENCEFORTH in forms and (CONVENTION in forms or tools):
        return True  # from now on, for all of a kind or with a tool: "以后都用 pnpm"
    if ADOPT in forms and _PREFERRED.search(sentence) and (tools or "`" in sentence):
        return True  # a tool preferred: "优先使用 pnpm", "在 PowerShell 中优先使用 `npm.cmd`"
    if DIRECTIVE not in forms and PREFERENCE not in forms:
        return False
    if forms & {HENCEFORTH, HABITUAL}:
        return True  # from now on, every time, before each step: a request for every time
    if "zh" in languages_of(sentence):
        # No topic particle: a tool is the project's when the request holds for all of it.
        adopts = ADOPT in forms and CONVENTION in forms
    else:
        adopts = ADOPT in forms and bool(_TOPIC.search(sentence) or tools)
    # one thing over another, asked for: not of "this" one thing of the task ("把这个函数改成
    # 异步的，而不是用回调")
    return adopts or (PREFERENCE in forms and DIRECTIVE in forms and not _THIS_ONE.search(sentence))


def named_tools(sentence: str) -> set[str]:
    """The development tools a sentence names (`pnpm`, `vite`, `pytest`): whole words, not
    the letters of one written with accents around them (Vietnamese "dùng" holds no `ng`);
    a particle of Chinese, Japanese or Korean may follow (`pnpm으로`)."""
    return set(_TOOL_WORD.findall(sentence.casefold())) & TOOL_NAMES


# Latin letters, accented ones among them: a tool's name stands apart from them.
_LATIN = "a-z\u00c0-\u024f\u1e00-\u1eff"
_TOOL_WORD = re.compile(rf"(?<![{_LATIN}])[a-z](?:[a-z0-9.+-]*[a-z0-9+])?(?![{_LATIN}])")


def english_only(sentence: str) -> bool:
    """Whether a sentence can be read by English phrasing: Latin letters, no other
    language's cue."""
    languages = languages_of(sentence)
    return "en" in languages and not forms_of(sentence, languages - {"en"})
