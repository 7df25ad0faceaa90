"""`user-rule@1`: rules the user stated, phrased as the rule, quoted as the user said it.

Forms: "always …", "never …", "don't …"/"do not …" about the project's engineering (using,
installing or committing something, a tool, a path, its files, tests or dependencies: "don't
show the banner" is the task at hand), "use X instead of Y", "prefer X over Y", "X, not Y"
("use pnpm not npm" typed without the comma), "stop using X", a tool kept for a kind of work
("use Zod for validation"), a convention of names and forms ("name files in kebab-case",
"use named exports only"),
"from now on …", "remember: …", "we use …", "this project uses …", "stick to …", "make sure to
always …", "all X should …", instructions for every time ("before pushing, run …", "commit
after each task", "you should run the tests before committing"), a wish for every time ("I want
you to always …"), a norm about the project's engineering ("commit messages should be in
English": its code, tests, commits, docs as the subject), a convention for the whole project
("use pnpm for this project"), "no more …", and a correction right after an agent action ("no,
run … instead"). The candidate reads as the rule ("Always run the tests through `uv run`.");
its statement keeps the user's exact sentence, which stays `unverified` until a human confirms
it. Questions, everyday phrases ("don't worry"), one-off instructions about the task at hand
("don't commit yet"), code and pasted logs are not rules.

Only text a person typed counts (`sessions.origin.typed_origin`): a session a program drove,
a pasted plan, report or benchmark task, any long prompt with headings or code fences give no
rules, except the message a person typed inside a program's wrapping (`wrapped.py`: a
slash-command template's "User Input", the files an `@path` reference appended). A
statement is kept whole, continuations after `;` or "—" included; a wrapped line is joined
to its sentence first, so no rule starts mid-sentence. "Remember …", "note that …",
"FYI …" mark a statement the person wants kept; conventions ("commits must carry the `X`
trailer", "schema changes go through an alembic migration") read as rules, and what is only
described ("FYI the staging database is shared") stays a fact. What the English phrasing does
not cover, and every other language (Chinese, Japanese, Korean, Russian, Spanish,
Portuguese, German, French, Vietnamese, Turkish), is read through the lexicon's table (`lexicon.py`,
`statements.py`) and quoted as typed: a sentence that holds every time, forbids, prefers,
names the language to work in, or corrects the agent's last action ("you didn't update the
checkbox", "я тебя просил работать со мной на русском"). A statement the person later
replaced ("OK switch to Google Sheets") is dropped. What the person dictates into the agent's
instruction file ("写入AGENTS.md: …", "Add to CLAUDE.md: …") is a rule line by line, whatever
its wording (`dictated.py`); the reason typed when refusing a tool call is a correction of
it, a rule when it names a tool or command of the project (`rejected.py`). A short message
that no cue reads is a rule when the agent's answer takes it as standing ("Understood — I'll
always …", "好的，以后我会…", a `save_memory` call: `acknowledged.py`), and so are the sentences
a person asks the agent to remember ("… Remember this.", "…。这个要求添加到你的记忆文档里":
`remembered.py`). In code the person
pastes, a comment shouting a rule about its line (`"phone": "", // ALWAYS try to get this!`)
is one (`shouted.py`); what a person types into the agent's memory is dictated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from git_memory.command_line.signature import error_line
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.acknowledged import acknowledgement
from git_memory.extract.builtin.dictated import dictated
from git_memory.extract.builtin.languages import language_named
from git_memory.extract.builtin.phrased import (
    FUNCTION_WORDS,
    acceptable,
    bare,
    conduct_key,
    content_words,
    sentence_case,
    stated,
)
from git_memory.extract.builtin.prose import BOX_EDGE, FENCE, prose_sentences
from git_memory.extract.builtin.rejected import corrects_with_a_tool, rejection_reasons
from git_memory.extract.builtin.remembered import may_ask_to_remember, pointed_back
from git_memory.extract.builtin.renderers import RENDERER_USER_RULE, BuiltinFact, Quote
from git_memory.extract.builtin.rule_keys import KEY_STOP_WORDS, rule_key
from git_memory.extract.builtin.scripts import CJK, languages_of
from git_memory.extract.builtin.shouted import shouted_comments
from git_memory.extract.builtin.statements import (
    LIST_ITEM,
    MAX_RULE_CHARS,
    MIN_RULE_WORDS,
    english_only,
    stating_forms,
)
from git_memory.extract.builtin.wrapped import typed_within
from git_memory.lint.engine import scan_secrets
from git_memory.sessions.origin import typed_origin

if TYPE_CHECKING:
    from git_memory.sessions.query import TurnRecord

# How a sentence that introduces what follows it (a list, a quote, an error) ends.
_INTRODUCES = (":", "：")


def rule_facts(
    records: Sequence[Any],
    scrub: Callable[[str], str] = str,
    *,
    program: bool = False,
    screen_secrets: bool = True,
) -> list[BuiltinFact]:
    """The rules one session's user turns state, once each, in order; none from the turns
    a person did not type (`program`: a program drove the whole session). Without
    `screen_secrets` a rule holding a secret is kept: for a reader that wants only the rules'
    keys and never shows their text (impact's matching)."""
    found: dict[str, BuiltinFact] = {}
    before: Any = None  # the turn before: its agent's last action is what a correction corrects
    for record in records:
        text, typed = _typed_text(scrub(record.user_text or ""), program)
        previous = _previous_command(before, scrub)
        stated = _rules_of(text, previous) if typed else []
        if not typed and not program and typed_origin(text) == "document":
            stated = _emphatic_comments(text)  # pasted code keeps the person's shouted comments
        taken = None  # the agent's words that took the message as standing
        if typed and not stated:
            taken = acknowledgement(scrub(record.assistant_text or ""), record.tool_calls)
            stated = _remembered_rules(text) if taken is None else _acknowledged_rules(text)
        agent = (Quote(record.turn_key, taken, "assistant"),) if taken else ()
        for sentence, rule in stated + ([] if program else _refusals(record, scrub)):
            if screen_secrets and any(
                f.severity == "block" for f in scan_secrets(f"{sentence} {rule} {taken or ''}")
            ):
                continue
            named = language_named(sentence)
            key = f"rule:language:{named}" if named else conduct_key(rule) or rule_key(rule)
            if key not in found:
                found[key] = BuiltinFact(
                    RENDERER_USER_RULE,
                    "unverified",
                    rule,
                    sentence,
                    (record.turn_key,),
                    key,
                    quotes=(Quote(record.turn_key, sentence, "user"), *agent),
                )
        before = record
    return [fact for fact in found.values() if not _superseded(fact, records, program)]


def _refusals(record: TurnRecord, scrub: Callable[[str], str]) -> list[tuple[str, str]]:
    """The rules a person gave as the reason for refusing one of the agent's tool calls
    (`rejected.py`): quoted as typed, English in sentence case."""
    found = []
    for reason in rejection_reasons(record.tool_calls):
        for sentence in prose_sentences(scrub(reason)):
            if len(sentence) <= MAX_RULE_CHARS and corrects_with_a_tool(sentence):
                found.append((sentence, _dictated_rule(sentence)))
    return found


def _typed_text(text: str, program: bool) -> tuple[str, bool]:
    """The words of a turn a person typed, and whether there are any: the whole text when it
    reads as typed, else the message a program wrapped (`wrapped.typed_within`)."""
    if typed_origin(text, program) == "person":
        return text, True
    inner = None if program else typed_within(text)
    if inner is not None and typed_origin(inner) == "person":
        return inner, True
    return text, False


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
    return {w.strip(".-") for w in words} - FUNCTION_WORDS - KEY_STOP_WORDS


def _rules_of(text: str, previous: _PreviousCommand | None) -> list[tuple[str, str]]:
    """(sentence as typed, the rule it states) for each rule of a message."""
    pasted = _emphatic_comments(text)
    text = BOX_EDGE.sub("", FENCE.sub("\n", text))
    instructions = dictated(text)
    if instructions is not None:
        return [(line, _dictated_rule(line)) for line in _dictated_lines(instructions)]
    return _rules_of_sentences(text, previous) + pasted


def _emphatic_comments(text: str) -> list[tuple[str, str]]:
    """(the line as typed, the rule) for each comment of pasted code that shouts a rule
    (`shouted.py`), the code it annotates named."""
    found = []
    for line, comment, code in shouted_comments(text):
        rule = sentence_case(comment.capitalize())
        if acceptable(rule, min_words=2):
            found.append((line, f"{rule[:-1]} (`{code}`){rule[-1]}"))
    return found


def _rules_of_sentences(text: str, previous: _PreviousCommand | None) -> list[tuple[str, str]]:
    """The rules the sentences of a message's prose state."""
    said = prose_sentences(text)
    found: list[tuple[str, str]] = []
    for index, sentence in enumerate(said):
        # "Every task must be:", "… me sale este error:": what it introduces follows it.
        rules = [] if sentence.endswith(_INTRODUCES) else stated(sentence, previous)
        following = said[index + 1] if index + 1 < len(said) else ""
        if len(rules) == 1 and _ELABORATES.match(following) and not stated(following, None):
            # "Never use X. You should call Y.": the second sentence says what to do instead.
            typed, rule = rules[0]
            rules = [(f"{typed} {following}", f"{rule} {sentence_case(following)}")]
        found += rules
    return found


# A message the agent's acknowledgement can point at: a few sentences, not a brief.
_ACKNOWLEDGED_MAX_CHARS = 400
_ACKNOWLEDGED_MAX_SENTENCES = 3
_MIN_CJK_RULE_CHARS = 4


def _acknowledged_rules(text: str) -> list[tuple[str, str]]:
    """The rules of a short message the agent answered by taking it as standing
    (`acknowledged.py`): its sentences that are no question, no task at hand and no rule about
    nothing, English in sentence case, any other language as typed."""
    text = BOX_EDGE.sub("", FENCE.sub("\n", text)).strip()
    if len(text) > _ACKNOWLEDGED_MAX_CHARS:
        return []
    found = []
    # An error the person pasted above the statement, its own lines: what went wrong, not
    # the rule (a one-line statement about errors, "Error messages are in English", stays).
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    pasted = {line for line in lines if error_line(line)} if len(lines) > 1 else set()
    for sentence in prose_sentences(text):
        body = bare(sentence)
        if stating_forms(body) is None or len(body) > MAX_RULE_CHARS:
            continue
        if any(sentence in line for line in pasted):
            continue
        found += _taken_as_rule(sentence, body)
    return found if len(found) <= _ACKNOWLEDGED_MAX_SENTENCES else []


def _taken_as_rule(sentence: str, body: str) -> list[tuple[str, str]]:
    """A sentence someone took as standing, as its rule: English in sentence case, any other
    language as typed; none when too short to say anything."""
    if english_only(body):
        return [(sentence, sentence_case(body))] if acceptable(body, min_words=2) else []
    if len(body.split()) >= MIN_RULE_WORDS or len(body) >= _MIN_CJK_RULE_CHARS:
        return [(sentence, sentence)]
    return []


def _remembered_rules(text: str) -> list[tuple[str, str]]:
    """The rule of a message that ends by asking the agent to remember what it said
    (`remembered.py`): the sentence right before the request, unless it is a question, a line
    of a pasted error or log, or a few words only; English in sentence case, any other language
    as typed. The person marks it as standing themselves, so words of the moment in a Chinese,
    Japanese or Korean one ("当前", "是否") do not make it the task at hand."""
    if not may_ask_to_remember(text):
        return []
    text = BOX_EDGE.sub("", FENCE.sub("\n", text)).strip()
    sentence = pointed_back(prose_sentences(text))
    if sentence is None:
        return []
    body = bare(sentence)
    lines = [line for line in text.splitlines() if sentence in line]
    if body.endswith(("?", "？")) or len(body) > MAX_RULE_CHARS or _LOGGED.match(body):
        return []
    if any(error_line(line) for line in lines) or error_line(body):
        return []
    if not languages_of(body) & CJK and (
        len(body.split()) < _REMEMBERED_MIN_WORDS or stating_forms(body) is None
    ):
        return []
    return _taken_as_rule(sentence, body)


# The fewest words of a sentence the person asks to remember (not "Hmm, that's weird.").
_REMEMBERED_MIN_WORDS = 4
# A line a program printed: a time or a count first (`[12:01:02] compiled`, `42 passed`).
_LOGGED = re.compile(
    r"^\W{0,2}(?:\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|\d+ (?:passed|failed|errors?|warnings?|tests?"
    r"|files?|packages?)\b)"
)


def _dictated_lines(instructions: str) -> list[str]:
    """The sentences of text dictated into the agent's instruction file that can be rules:
    not a heading, code, a log line or a question."""
    lines = [line for line in instructions.splitlines() if not _HEADING.match(line)]
    # (a sentence typed in lower case ends at its full stop: `statements.sentences`)
    return [
        sentence
        for sentence in prose_sentences("\n".join(_with_their_items(lines)))
        if len(sentence) <= MAX_RULE_CHARS
        and not sentence.endswith(("?", "？"))
        and (not english_only(sentence) or len(content_words(sentence)) >= 2)
    ]


def _with_their_items(lines: list[str]) -> list[str]:
    """The lines of a dictated text with the items of a list that a line introduces (it ends
    with a colon) joined to it: "add a line between:" "- headers and body" "- body and bullet
    lists" is one rule, "add a line between: headers and body; body and bullet lists."."""
    joined: list[str] = []
    items: list[str] = []  # the items of the list the last line introduced
    for line in [*lines, ""]:
        item = LIST_ITEM.match(line.strip())
        if item and joined and (items or joined[-1].rstrip().endswith(_INTRODUCES)):
            items.append(line.strip()[item.end() :].rstrip(" ;.。"))
            continue
        if items:
            joined[-1] = f"{joined[-1].rstrip()} {'; '.join(items)}."
            items = []
        if line.strip() or not joined or not joined[-1].rstrip().endswith(_INTRODUCES):
            joined.append(line)
    return joined


def _dictated_rule(sentence: str) -> str:
    """A dictated line as the rule: English in sentence case, any other language as typed."""
    return sentence_case(sentence) if english_only(sentence) else sentence


_HEADING = re.compile(r"^\s*#")
_ENGLISH = frozenset(["en"])
# A sentence that says what to do instead of what the rule before it forbids.
_ELABORATES = re.compile(r"(?i)^(?:you should (?:call|use|run)|instead,? |use |call )\b")


class _PreviousCommand:
    """The agent's last command before a user turn, parsed only when a sentence asks for it
    (a correction): parsing every turn's commands for the few corrections was most of the
    rules' cost over a team's window."""

    def __init__(self, record: TurnRecord, scrub: Callable[[str], str]) -> None:
        self._record, self._scrub = record, scrub
        self._found: str | None = None

    def __call__(self) -> str:
        if self._found is None:
            self._found = _last_command(self._record, self._scrub)
        return self._found


def _previous_command(
    record: TurnRecord | None, scrub: Callable[[str], str]
) -> _PreviousCommand | None:
    """The agent's last action of `record` (None when it ran no tool)."""
    return _PreviousCommand(record, scrub) if record is not None and record.tool_calls else None


def _last_command(record: TurnRecord, scrub: Callable[[str], str]) -> str:
    """The last project command the agent ran in a turn (what a correction corrects)."""
    last = ""
    for call in record.tool_calls:
        command = shell.command_of(call)
        if command:
            main, _ = shell.main_segment(scrub(command))
            last = main.normal if main else last
    return last
