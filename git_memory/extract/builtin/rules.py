"""`user-rule@1`: rules the user stated, phrased as the rule, quoted as the user said it.

Forms: "always …", "never …", "don't …"/"do not …", "use X instead of Y", "prefer X over
Y", "X, not Y", "from now on …", "remember: …", "we use …", "make sure to always …",
instructions for every time ("before pushing, run …"), and a correction right after an agent
action ("no, run … instead"). The candidate reads as the rule
("Always run the tests through `uv run`."); its statement keeps the user's exact sentence,
which stays `unverified` until a human confirms it. Questions, everyday phrases ("don't
worry"), one-off instructions about the task at hand ("don't commit yet"), code and pasted
logs are not rules.

Only text a person typed counts (`sessions.origin.typed_origin`): a session a program drove,
a pasted plan, report or benchmark task, any long prompt with headings or code fences give no
rules. A statement is kept whole, continuations after `;` or "—" included; a wrapped line is
joined to its sentence first, so no rule starts mid-sentence. "Remember …", "note that …",
"FYI …" mark a statement the person wants kept; conventions ("commits must carry the `X`
trailer", "schema changes go through an alembic migration") read as rules, and what is only
described ("FYI the staging database is shared") stays a fact. A short directive in Chinese,
Japanese or Korean is a rule when it holds every time or adopts a tool by name (`_cjk_rule`);
a statement the person later replaced ("OK switch to Google Sheets") is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from git_memory.command_line.program import TOOL_NAMES
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.renderers import RENDERER_USER_RULE, BuiltinFact, Quote
from git_memory.lint.engine import scan_secrets
from git_memory.sessions.origin import typed_origin

if TYPE_CHECKING:
    from git_memory.sessions.query import TurnRecord

MAX_RULE_CHARS = 300
MIN_RULE_WORDS = 3

_LIST_ITEM = re.compile(r"^(?:[-*•+]|\d+[.)])\s+")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
_FENCE = re.compile(r"```.*?(```|$)", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])|(?<=[.!?])$|\n+")
_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|good|great|nice|thanks|thank you|also|and|btw|ps|so|just|"
    r"please|pls|one more thing|important|note(?! that)|team rule|rule|for the team|"
    r"for everyone|reminder)\b[,:!.\-–—]*\s*)+",
    re.IGNORECASE,
)
_SIGNAL = re.compile(
    r"^(?:from now on|going forward|in the future|in this repo(?:sitory)?|in this project|"
    r"remember(?: that)?|keep in mind(?: that)?|as a rule|for this (?:repo|project)|"
    r"note that|note(?=\s*:)|fyi|just so you know|heads up|for the record)"
    r"\b[,:]?\s*",
    re.IGNORECASE,
)
_RULE_START = re.compile(
    r"^(?:always|never|don'?t|do not|avoid|prefer|only use|make sure (?:to|you) always|"
    r"we (?:use|always|never|don'?t|do not|prefer|run|deploy|release|name|keep|store|follow|"
    r"squash|rebase|pin|vendor|tag)|our \w+ (?:is|are|uses?)|"
    r"use\b.+\binstead of\b|run\b.+\binstead of\b|prefer\b.+\bover\b|"
    r"stop (?:using|running|calling|adding|committing)|let'?s (?:always|never)|"
    r"(?!(?:like|so|and|but|or|because|if|when|which|that|this|it|there|i|you|maybe|well|"
    r"basically|honestly|anyway|then)\b)"
    r"(?:the |all |every |each |any |our )?[\w`.*/@:-]+(?: [\w`.*/@:-]+){0,4} "
    r"(?:must(?: always| never| not)?|should (?:always|never)|mustn'?t|go(?:es)? through)"
    r"\b(?! have))\b",
    re.IGNORECASE,
)
_CORRECTION = re.compile(
    r"^(?:no|nope|stop|wrong|not like that|actually|wait)\b[,.!:;\s\-–—]+(?:please\s+)?"
    r"(?=(?:use|run|call|do|don'?t|do not|never|always|try)\b)",
    re.IGNORECASE,
)
_INSTEAD = re.compile(r"^(?:use|run|call|try)\b.+\binstead\b(?!\s+of)", re.IGNORECASE)
_STANDING = re.compile(
    r"(?i)\b(?:before (?:you )?(?:commit|push|merg|open|send|releas|deploy|tag)\w*"
    r"|whenever|every time|each time|after every|any time you)\b"
)
_IMPERATIVE = re.compile(
    r"(?i)^(?:run|use|call|add|update|regenerate|rebuild|bump|check|format|lint|test|rebase|"
    r"squash|sign|keep|write|put|restart|clear|reset|make sure)\b"
)
# "No — we use pnpm here": the refusal itself is not part of the rule.
_REFUSAL = re.compile(r"^(?:no|nope|actually)\b[,.!:;\s\-–—]+", re.IGNORECASE)
_NOT_RULES = re.compile(
    r"^(?:don'?t|do not|never)\s+(?:worry|know|think|bother|mind|see|understand|care|get|"
    r"remember|have|want|like|feel|hesitate|forget|believe|recall|seem|mean|agree|expect|"
    r"panic|stress|apologi[sz]e|need|really|even|you|we|i|seen|heard|been|had|thought)\b"
    r"|^never\s*mind\b|^(?:don'?t|do not|never) do (?:that|this|it)\b",
    re.IGNORECASE,
)
_ONE_OFF = re.compile(
    r"\b(?:for now|right now|yet|this time|today|tonight|this (?:pr|commit|change|branch|file|"
    r"function|test|bug|fix|task|one|session|method|class|issue|line|step|run)|that (?:file|"
    r"function|test|one|change|line)|these (?:files|tests|changes|lines)|until (?:i|we)\b|"
    r"the (?:above|previous|last) (?:one|change|commit)|anything else|everything else)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^(?:why|what|how|when|where|which|who|can|could|would|should|do you|does|did|is|are|"
    r"will|shall)\b",
    re.IGNORECASE,
)
_CODE_OR_LOG = re.compile(
    r"^\s{4,}|^\t|^[>$#|]|^\s*(?:at |File \"|Traceback|\d{4}-\d\d-\d\d[ T]|\[\w+\]|[{}\[\]]|"
    r"def |class |import |from \S+ import|const |let |var |function |fn |func |return )|"
    r"[{};]\s*$|=>|\b(?:Error|Exception):|^\s*(?:WARN|WARNING|ERROR|INFO|DEBUG|FATAL)\b|"
    r"</?[a-z][\w-]*>|^\s*[\w.]+\(.*\)\s*;?\s*$",
)
_FUNCTION_WORDS = frozenset(
    """the a an this that these those it its here there do does did done doing so again just
    please me you we us i to of in on at for with be is are was were not don't dont don t
    never always ever anything something thing things like way then now yet too also any all
    more less and or but no yes ok okay one ones stuff""".split()  # noqa: SIM905
)
_STOP = frozenset(
    """a an the to of in on for and or with by is are be it this that we our you your i
    always never do not don't dont please use using instead""".split()  # noqa: SIM905
)


def rule_facts(
    records: Sequence[Any], scrub: Callable[[str], str] = str, *, program: bool = False
) -> list[BuiltinFact]:
    """The rules one session's user turns state, once each, in order; none from the turns
    a person did not type (`program`: a program drove the whole session)."""
    found: dict[str, BuiltinFact] = {}
    previous: str | None = None  # the agent's last action: its command, "" for another tool
    for record in records:
        text = scrub(record.user_text or "")
        typed = typed_origin(text, program) == "person"
        for sentence, rule in _rules_of(text, previous) if typed else []:
            if any(f.severity == "block" for f in scan_secrets(sentence + " " + rule)):
                continue
            key = rule_key(rule)
            if key not in found:
                found[key] = BuiltinFact(
                    RENDERER_USER_RULE,
                    "unverified",
                    rule,
                    sentence,
                    (record.turn_key,),
                    key,
                    quotes=(Quote(record.turn_key, sentence, "user"),),
                )
        previous = _last_command(record, scrub) if record.tool_calls else None
    return [fact for fact in found.values() if not _superseded(fact, records, program)]


# "OK switch to Google Sheets", "let's move to Postgres", "we migrated to pnpm".
_CHANGE = re.compile(
    r"(?i)\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing)|mov(?:e|ed|ing)|chang(?:e|ed|ing)"
    r")\s+(?:over\s+|back\s+)?to\s+([\w`.+#/-]+(?:\s+[\w`.+#/-]+){0,2})"
)


def _superseded(fact: BuiltinFact, records: Sequence[Any], program: bool) -> bool:
    """A statement the person later replaced: a later message they typed changes to something
    else ("OK switch to Google Sheets") and the conversation in between weighed the two on the
    same subject (one turn names a word of the statement and a word of the replacement)."""
    keys = [record.turn_key for record in records]
    if not fact.turn_keys or fact.turn_keys[0] not in keys:
        return False
    start = keys.index(fact.turn_keys[0])
    subject = _named_words(fact.content)
    said = [_named_words(f"{r.user_text or ''} {r.assistant_text or ''}") for r in records]
    for index in range(start + 1, len(records)):
        text = records[index].user_text or ""
        if typed_origin(text, program) != "person":
            continue
        for change in _CHANGE.finditer(text):
            target = _named_words(change.group(1)) - subject
            weighed = (
                words >= target and bool(words & subject) for words in said[start : index + 1]
            )
            if target and any(weighed):
                return True
    return False


def _named_words(text: str) -> set[str]:
    """The words of a text that can name a thing (four letters or more, not function words)."""
    words = set(re.findall(r"[a-z][a-z0-9+#.-]{3,}", text.casefold()))
    return {w.strip(".-") for w in words} - _FUNCTION_WORDS - _STOP


def rule_key(text: str) -> str:
    """What identifies a rule across sessions: its content words, order-free."""
    words = re.findall(
        r"[a-z0-9_.\-/]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+",
        text.casefold().replace("`", " "),
    )
    return "rule:" + " ".join(sorted({w.strip(".-") for w in words} - _STOP - {""}))


def _rules_of(text: str, previous_command: str | None) -> list[tuple[str, str]]:
    text = _BOX_EDGE.sub("", _FENCE.sub("\n", text))
    found = []
    for line in _unwrapped(text):
        if _CODE_OR_LOG.search(line):
            continue
        if _CJK.search(line):
            found += [(s, s) for s in _CJK_SENTENCE.split(line.strip()) if _cjk_rule(s)]
            continue
        for part in _SENTENCE.split(_LIST_ITEM.sub("", line.strip())):
            sentence = part.strip()
            if not sentence or len(sentence) > MAX_RULE_CHARS or sentence.endswith("?"):
                continue
            found += [(sentence, rule) for rule in _phrase(sentence, previous_command)]
    return found


# The frame of a terminal box a message was copied from (`│ … │`): not part of the words.
_BOX_EDGE = re.compile(r"(?m)[ \t]*[│┃║][ \t]*$|^[ \t]*[│┃║][ \t]*")
# Chinese, Japanese and Korean script: sentences end at 。！？ and words are not spaced.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_CJK_SENTENCE = re.compile(r"(?<=[。！？!?])\s*")
MAX_CJK_RULE_CHARS = 160
# A request or a directive ("…してください", "必ず", "禁止", "请", "必须", "반드시").
_CJK_DIRECTIVE = re.compile(
    r"してください|して下さい|すること|しないこと|しないで|禁止|必ず|常に|毎回|使用|利用|使う|使って"
    r"|用いる|用いて|请|必须|不要|不得|始终|总是|每次|采用"
    r"|해 ?주세요|하세요|반드시|항상|금지|매번|사용"
)
# What makes it a standing rule rather than a request for now: a condition that recurs
# ("機能作成前は", before building a feature), "always"/"every time"/"forbidden", or a topic
# the sentence sets a convention for ("パッケージ管理は", as for package management).
_CJK_STANDING = re.compile(
    r"必ず|常に|毎回|禁止|(?:前|後|時|とき|際|場合)は|必须|始终|总是|一律|每次|不得|반드시|항상|금지|매번"
)
_CJK_TOPIC = re.compile(r"[\u30a0-\u30ff\u3400-\u9fffA-Za-z0-9]は(?![\u3040-\u309f])")
# Adopting a tool ("uvを利用", "ruffで…を有効に", "使用 pnpm"): standing when a tool is named.
_CJK_ADOPT = re.compile(r"利用|使用|使う|使って|用い|有効|導入|採用|采用|启用|사용|도입")
# This time, the above, now: a request about the task at hand; what happened (past tense,
# "have never used"): an account, not a rule.
_CJK_ONE_OFF = re.compile(
    r"今回|今日|今は|今から|上記|さっき|先ほど|とりあえず|この|その|これ|それ|あの|这次|现在|上面|이번|지금|위의"
    r"|ました|でした|だった|ことがない|ことがある|했습니다|했어요|었습니다"
)
_TOOLS = TOOL_NAMES


def _cjk_rule(sentence: str) -> bool:
    """A sentence in Chinese, Japanese or Korean that states a standing rule: a short
    directive that either holds every time (a recurring condition, "always", a topic it sets
    a convention for) or adopts a tool the project runs by name ("パッケージ管理はuvを利用し").
    A request about the task at hand ("上記を修正してください", "pushしてください") is not."""
    if len(sentence) > MAX_CJK_RULE_CHARS or sentence.rstrip().endswith(("?", "？", "か", "か。")):
        return False
    if not _CJK_DIRECTIVE.search(sentence) or _CJK_ONE_OFF.search(sentence):
        return False
    tools = set(re.findall(r"[a-z][a-z0-9.+-]*", sentence.casefold())) & _TOOLS
    return bool(
        _CJK_STANDING.search(sentence)
        or (_CJK_TOPIC.search(sentence) and _CJK_ADOPT.search(sentence))
        or (tools and _CJK_ADOPT.search(sentence))
    )


def _unwrapped(text: str) -> list[str]:
    """The text's lines with wrapped sentences joined: a line that starts in lower case (not
    a list item) continues the line before when that one did not end its sentence."""
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        joins = (
            lines
            and stripped[:1].islower()
            and lines[-1].strip()
            and not lines[-1].rstrip().endswith((".", "!", "?", ":"))
            and not _LIST_ITEM.match(stripped)
        )
        if joins:
            lines[-1] = f"{lines[-1].rstrip()} {stripped}"
        else:
            lines.append(line)
    return lines


def _phrase(sentence: str, previous_command: str | None) -> list[str]:
    """The rules a sentence states, phrased as rules (none for an ordinary sentence)."""
    body = _LEAD.sub("", _EMPHASIS.sub("", sentence)).strip()
    correction = _CORRECTION.match(body)
    if correction and previous_command is not None:
        body = body[correction.end() :]
        return [_correction(body, previous_command)] if _acceptable(body) else []
    if previous_command and _INSTEAD.match(body) and _acceptable(body):
        return [_correction(body, previous_command)]  # "use pnpm instead", after `npm test`
    body = _REFUSAL.sub("", body)
    signal = _SIGNAL.match(body)
    if signal:
        body = _LEAD.sub("", body[signal.end() :]).strip()
        body = re.sub(r"(?i)^to\s+", "", body)
    # Two rules in one sentence ("Always X, and never Y") are two memories; "X but don't Y"
    # is one statement whose second half only qualifies the first.
    parts = re.split(r",?\s+and\s+(?=(?:always|never)\b)", body, flags=re.I)
    rules = []
    for part in parts:
        stated = (
            bool(signal)
            or bool(_RULE_START.match(part))
            or _is_x_not_y(part)
            or _standing_imperative(part)
        )
        if stated and _acceptable(part):
            rules.append(_sentence_case(part))
    return rules


def _standing_imperative(body: str) -> bool:
    """An instruction for every time, not this once: "Before pushing, run the full suite.",
    "Run `make fmt` before you commit.", "Whenever you change the schema, regenerate…"."""
    if not _STANDING.search(body):
        return False
    clause = re.sub(
        r"(?i)^(?:before|after|whenever|every time|each time|any time)[^,]*,\s*", "", body
    )
    return bool(_IMPERATIVE.match(clause))


def _acceptable(body: str) -> bool:
    words = body.split()
    return (
        len(words) >= MIN_RULE_WORDS
        and len(_content_words(body)) >= 2
        and not _NOT_RULES.match(body)
        and not _ONE_OFF.search(body)
        and not _QUESTION.match(body)
    )


def _content_words(text: str) -> set[str]:
    """The words that say something ("Don't do that here" has none: it is not a rule)."""
    words = set(re.findall(r"[a-z0-9_.\-/*`]+", text.casefold().replace("’", "'")))
    return words - _FUNCTION_WORDS


def _is_x_not_y(body: str) -> bool:
    """ "X, not Y" / "X, never Y" about tools: an imperative or code on both sides."""
    match = re.search(r"^(.+?),\s+(?:not|never)\s+(.+)$", body)
    if not match:
        return False
    imperative = re.match(r"(?i)^(use|run|call|prefer|import|install|target|pin|put|keep)\b", body)
    return bool(imperative) or ("`" in match.group(1) and "`" in match.group(2))


def _correction(body: str, previous_command: str) -> str:
    rule = _sentence_case(body)
    if previous_command and re.search(r"(?i)\binstead\b(?!\s+of)", rule):
        rule = re.sub(
            r"(?i)\binstead\b(?!\s+of)", f"instead of `{previous_command}`", rule, count=1
        )
    return rule


def _sentence_case(body: str) -> str:
    body = re.sub(r"(?i)^dont\b", "don't", body.strip().rstrip(",;:"))
    body = re.sub(r"(?i)[,\s]*(please|thanks|thank you)[.!]*$", "", body).strip()
    body = body[:1].upper() + body[1:]
    return body if body.endswith((".", "!")) else body + "."


def _last_command(record: TurnRecord, scrub: Callable[[str], str]) -> str:
    """The last project command the agent ran in a turn (what a correction corrects)."""
    last = ""
    for call in record.tool_calls:
        command = shell.command_of(call)
        if command:
            main, _ = shell.main_segment(scrub(command))
            last = main.normal if main else last
    return last
