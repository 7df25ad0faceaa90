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
always …", "好的，以后我会…", a `save_memory` call: `acknowledged.py`). In code the person
pastes, a comment shouting a rule about its line (`"phone": "", // ALWAYS try to get this!`)
is one (`shouted.py`); what a person types into the agent's memory is dictated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from git_memory.extract.builtin import shell
from git_memory.extract.builtin.acknowledged import acknowledgement
from git_memory.extract.builtin.cue_forms import LANGUAGE, NOT_A_RULE, ONE_OFF
from git_memory.extract.builtin.dictated import dictated
from git_memory.extract.builtin.languages import language_named
from git_memory.extract.builtin.lexicon import forms_of
from git_memory.extract.builtin.prohibitions import about_engineering, bare_prohibition
from git_memory.extract.builtin.prose import BOX_EDGE, FENCE, LIST_ITEM, prose_sentences
from git_memory.extract.builtin.rejected import corrects_with_a_tool, rejection_reasons
from git_memory.extract.builtin.renderers import RENDERER_USER_RULE, BuiltinFact, Quote
from git_memory.extract.builtin.rule_keys import KEY_STOP_WORDS, rule_key
from git_memory.extract.builtin.shouted import shouted_comments
from git_memory.extract.builtin.statements import (
    MAX_RULE_CHARS,
    asks_for_a_language,
    english_only,
    named_tools,
    states_rule,
    stating_forms,
)
from git_memory.extract.builtin.wrapped import typed_within
from git_memory.lint.engine import scan_secrets
from git_memory.sessions.origin import typed_origin

if TYPE_CHECKING:
    from git_memory.sessions.query import TurnRecord

MIN_RULE_WORDS = 3
# How a sentence that introduces what follows it (a list, a quote, an error) ends.
_INTRODUCES = (":", "：")

_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
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
# The signals that only say where or that something is worth knowing ("In this project, …",
# "FYI …"): what follows is standing only when it is no account of the moment.
_NOTE_SIGNAL = re.compile(r"(?i)^(?:in this|for this|note|fyi|just so|heads up|for the record)")
# An account of the moment after such a signal: what the person did, wants or needs now
# ("I pushed a fix", "we need a dashboard"), or a state that is passing ("the build is
# failing", "there is a bug in the login page", "currently …").
_ACCOUNT = re.compile(
    r"(?i)^(?:i|i'm|i've|i'd|i'll|we need|we want|we'd like|let's|can you|could you|please)\b"
    r"|\b(?:is|are|was|were) (?:currently |still |now )?(?!going\b)\w+ing\b"
    r"|\bthere (?:is|are|was|were|'s) (?:a|an|some|\d+)\b[^.!?]{0,30}?"
    r"\b(?:bugs?|problems?|issues?|errors?|crash\w*)\b"
    r"|\b(?:currently|right now|at the moment|just now|yesterday|today)\b"
)
_RULE_START = re.compile(
    r"^(?:always|never|don'?t|do not|avoid|prefer|only use|make sure (?:to |you )?(?:always|never)|"
    r"(?:all|every|each) [\w`.*/@:-]+(?: [\w`.*/@:-]+){0,3} (?:should|must|ha(?:s|ve) to)\b|"
    r"we(?:'re| are) using [\w`.+-]+(?: [\w`.+-]+)?,? (?:not|instead of|rather than)\b|"
    r"we (?:use|always|never|don'?t|do not|prefer|run|deploy|release|name|keep|store|follow|"
    r"squash|rebase|pin|vendor|tag)|our \w+ (?:is|are|uses?)|"
    r"(?:this|our) (?:project|repo|repository|codebase) (?:uses?|is built with|runs on)|"
    r"stick (?:to|with)|only (?:commit|push|deploy|merge|release|install|delete|publish|tag)"
    r"(?: \w+){0,2}? (?:when|if|once|after) i (?:ask|tell|say|approve)|"
    r"use\b.+\binstead of\b|run\b.+\binstead of\b|prefer\b.+\bover\b|"
    r"stop (?:trying to \w+|using\s+(?:`|(?:npm|pnpm|yarn|bun|pip|conda|poetry|docker"
    r"|powershell|cmd|sudo|python2?|node|jest|mocha|webpack|eslint|prettier|black)\b)|"
    r"(?!being\b)\w{3,}ing\b)|let'?s (?:always|never)|"
    r"there (?:should(?:n'?t| not| never)|must(?:n'?t| not| never)) be\b|"
    # "The plan must include …": what one thing of the task must be, unless for every time.
    r"(?:the|this|that) [\w`.*/@:-]+(?: [\w`.*/@:-]+){0,4} (?:must|should) (?:always|never)|"
    r"(?!(?:like|so|and|but|or|because|if|when|which|that|this|these|those|the|it|there|i|"
    r"you|my|your|maybe|well|basically|honestly|anyway|then)\b)"
    r"(?:(?:all|every|each|any|our) )?[\w`.*/@:-]+(?: [\w`.*/@:-]+){0,4} "
    r"(?:must(?: always| never| not)?|should (?:always|never)|mustn'?t|go through)\b(?! have)|"
    # "Every change goes through review" (not "the agent goes through a check"): one of a kind.
    r"(?:every|each|any) [\w`.*/@:-]+(?: [\w`.*/@:-]+){0,3} goes through)\b",
    re.IGNORECASE,
)
_CORRECTION = re.compile(
    r"^(?:no|nope|stop|wrong|not like that|actually|wait)\b[,.!:;\s\-–—]+(?:please\s+)?"
    r"(?=(?:use|run|call|do|don'?t|do not|never|always|try)\b)",
    re.IGNORECASE,
)
_INSTEAD = re.compile(r"^(?:use|run|call|try)\b.+\binstead\b(?!\s+of)", re.IGNORECASE)
_STANDING = re.compile(
    r"(?i)\b(?:before (?:you )?(?:commit|push|merg|open|send|releas|deploy|tag|mak|start"
    r"|chang|edit|implement)\w*"
    # adding, installing, deleting: every time only for a kind of thing, not one of the task
    r"|before (?:you )?(?:add|install|delet|remov|upgrad|bump)\w* (?:any|new|dependenc\w*|anything"
    r"|packages?|librar\w*|modules?|files?)\b"
    r"|before (?:you )?(?:do|make|change) any\b"
    r"|whenever|every time|each time|after (?:each|every|any)|any time you|for everything"
    r"|everywhere|at all times)\b"
)
_IMPERATIVE = re.compile(
    r"(?i)^(?:run|use|call|add|update|regenerate|rebuild|bump|check|format|lint|test|rebase|"
    r"squash|sign|keep|write|put|restart|clear|reset|make sure|commit|push|do|document|notify|"
    r"ask|tell)\b"
)
# "No — we use pnpm here": the refusal itself is not part of the rule.
_REFUSAL = re.compile(r"^(?:no(?! more\b)|nope|actually)\b[,.!:;\s\-–—]+", re.IGNORECASE)
# "I want you to always …", "I'd like you to never …": a wish for every time is the rule itself.
_WISH = re.compile(
    r"^(?:i (?:want|need|expect|would like) you to|i'?d like you to)\s+(?=(?:always|never)\b)",
    re.IGNORECASE,
)
# "You should run the tests before committing": the agent addressed, then the instruction.
_ADDRESSED = re.compile(r"^(?:you (?:should|must|need to|have to)|please)\s+", re.IGNORECASE)
# What the project's engineering is made of: a norm about it is a convention of the project
# ("Commit messages should be in English", "Every PR needs a changelog entry").
_ENGINEERING = (
    r"(?:code|comments?|commit(?: message)?s?|tests?|test files?|unit tests?|docs?|"
    r"documentation|prs?|pull requests?|branch(?:es)?|migrations?|dependenc(?:y|ies)|"
    r"imports?|functions?|variables?|logs?|log messages?|changelog(?: entries)?|readme|"
    r"type hints?|types|api responses?|error messages?|endpoints?)"
)
_NORM = re.compile(
    rf"^(?:(?:all|every|each|any|our|new)\s+)?"
    r"(?:(?!(?:the|this|that|these|those|my|your|its|it|a|an)\b)[\w`.-]+\s+)?"
    rf"{_ENGINEERING}\s+"
    r"(?:should|must|need to|needs?|have to|has to|are to|is to)\b(?! have\b)",
    re.IGNORECASE,
)
# "… for this project", "… across the codebase": an instruction whose scope is the project.
_PROJECT_SCOPE = re.compile(
    r"(?i)\b(?:for|in|across|throughout) (?:this|the|our) (?:whole |entire )?"
    r"(?:project|repo|repository|codebase|code base|app)\b|\bproject[- ]wide\b"
)
# The verbs of a convention, for an instruction whose scope is the whole project.
_CONVENTION_VERB = re.compile(
    r"(?i)^(?:use|prefer|keep|write|put|follow|stick to|name|format|store|place)\b"
)
# ... or every thing of a kind named in two words or more: "Use snake_case for all Python
# function names", "Keep all API keys in the .env file" (not "all the …", "all of these":
# things of the task at hand; not "for each item": a loop of the code being written).
_KIND = r"(?!the\b|these\b|those\b|of\b)[\w`.-]+ (?!in\b|to\b|for\b|with\b)[\w`.-]+"
_EVERY_OF_A_KIND = re.compile(
    rf"(?i)^\w+(?: \w+)? (?:all|every|each) {_KIND}"
    rf"|\b(?:for|in|on|to) (?:all|every|each|any) {_KIND}"
)
# "Use Zod for validation", "Use nix flakes to manage dependencies": a tool kept for a kind
# of work, not one step of the task ("use curl to test the endpoint", "use chrome mcp to
# access http://localhost:5174/"): nothing definite, no address in what it is for.
_TOOL_FOR_A_PURPOSE = re.compile(
    r"(?i)^use (?!(?:the|this|that|these|those|your|my|it|them|a|an|one|some)\b)"
    r"[\w`.@/+-]+(?: [\w`.@/+-]+){0,3}? (?:to|for) "
    r"(?![^.;,]*\b(?:the|this|that|these|those|it|them|my|your|now|today)\b)"
    r"(?![^.;,]*(?:https?://|localhost|127\.0\.0\.1))\w"
)
# "Name files in kebab-case", "Use named exports only": a convention of the code's names and
# forms, nothing definite of the task in it ("use the second one only").
_NAMING_OR_ONLY = re.compile(
    r"(?i)^(?:name|use|write|keep)\b(?![^.;,]*\b(?:the|this|that|these|those|it)\b)[^.;]{0,60}"
    r"\b(?:kebab|camel|snake|pascal|screaming[-_ ]snake)[-_ ]?case\b"
    r"|^use (?!(?:the|this|that|these|those|your|my|it|them|a|an|one)\b)"
    r"[\w`.@/+-]+(?: [\w`.@/+-]+){0,3} only[.!]?$"
)
# "No more console.log in the code": a prohibition of a kind of thing from now on.
_NO_MORE = re.compile(r"(?i)^no more\s+(?!than\b)\S")
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
    r"the (?:above|previous|last) (?:one|change|commit)|anything else|everything else|"
    # what a demonstrative or "one" points at is in the conversation, not in the sentence:
    # "… for this", "… like that", "the second option", "option B", "the red one"
    r"(?:for|with|about|on|to|like|from|in) (?:this|that)(?=\s*[.!]*\s*$)|"
    r"the (?:first|second|third|fourth|last|other|former|latter) (?:option|one|approach|choice"
    r"|solution|proposal|suggestion|variant)|options? (?:[1-9]|(?-i:[A-D]))(?!\w)|the \w+ ones?)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^(?:why|what|how|when|where|which|who|can|could|would|should|do you|does|did|is|are|"
    r"will|shall)\b",
    re.IGNORECASE,
)
_FUNCTION_WORDS = frozenset(
    """the a an this that these those it its here there do does did done doing so again just
    please me you we us i to of in on at for with be is are was were not don't dont don t
    never always ever anything something thing things like way then now yet too also any all
    more less and or but no yes ok okay one ones stuff""".split()  # noqa: SIM905
)


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
            stated = [] if taken is None else _acknowledged_rules(text)
        agent = (Quote(record.turn_key, taken, "assistant"),) if taken else ()
        for sentence, rule in stated + ([] if program else _refusals(record, scrub)):
            if screen_secrets and any(
                f.severity == "block" for f in scan_secrets(f"{sentence} {rule} {taken or ''}")
            ):
                continue
            named = language_named(sentence)
            key = f"rule:language:{named}" if named else rule_key(rule)
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
    return {w.strip(".-") for w in words} - _FUNCTION_WORDS - KEY_STOP_WORDS


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
        rule = _sentence_case(comment.capitalize())
        if _acceptable(rule, min_words=2):
            found.append((line, f"{rule[:-1]} (`{code}`){rule[-1]}"))
    return found


def _rules_of_sentences(text: str, previous: _PreviousCommand | None) -> list[tuple[str, str]]:
    """The rules the sentences of a message's prose state."""
    said = prose_sentences(text)
    found: list[tuple[str, str]] = []
    for index, sentence in enumerate(said):
        # "Every task must be:", "… me sale este error:": what it introduces follows it.
        stated = [] if sentence.endswith(_INTRODUCES) else _stated(sentence, previous)
        following = said[index + 1] if index + 1 < len(said) else ""
        if len(stated) == 1 and _ELABORATES.match(following) and not _stated(following, None):
            # "Never use X. You should call Y.": the second sentence says what to do instead.
            typed, rule = stated[0]
            stated = [(f"{typed} {following}", f"{rule} {_sentence_case(following)}")]
        found += stated
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
    for sentence in prose_sentences(text):
        body = _LEAD.sub("", _REFUSAL.sub("", _EMPHASIS.sub("", sentence))).strip()
        if stating_forms(body) is None or len(body) > MAX_RULE_CHARS:
            continue
        if english_only(body):
            if _acceptable(body, min_words=2):
                found.append((sentence, _sentence_case(body)))
        elif len(body.split()) >= MIN_RULE_WORDS or len(body) >= _MIN_CJK_RULE_CHARS:
            found.append((sentence, sentence))
    return found if len(found) <= _ACKNOWLEDGED_MAX_SENTENCES else []


# In dictated text every sentence is a rule, and it is often typed without capitals ("…
# standart olacak. Türkçe açıklama … formatında. modüler bir yapı olacak …"): a full stop
# after a word ends the sentence before a lower-case word too (not after "e.g", "etc", "vs").
_DICTATED_END = re.compile(r"(?<=[^\W\d_]{3}\.)(?<!\betc\.)(?<!\bvs\.)\s+(?=[^\W\d_])")


def _dictated_lines(instructions: str) -> list[str]:
    """The sentences of text dictated into the agent's instruction file that can be rules:
    not a heading, code, a log line or a question."""
    lines = [line for line in instructions.splitlines() if not _HEADING.match(line)]
    return [
        sentence
        for typed in prose_sentences("\n".join(_with_their_items(lines)))
        for sentence in _DICTATED_END.split(typed)
        if len(sentence) <= MAX_RULE_CHARS
        and not sentence.endswith(("?", "？"))
        and (not english_only(sentence) or len(_content_words(sentence)) >= 2)
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
    return _sentence_case(sentence) if english_only(sentence) else sentence


_HEADING = re.compile(r"^\s*#")
_ENGLISH = frozenset(["en"])
# A sentence that says what to do instead of what the rule before it forbids.
_ELABORATES = re.compile(r"(?i)^(?:you should (?:call|use|run)|instead,? |use |call )\b")


def _stated(sentence: str, previous: _PreviousCommand | None) -> list[tuple[str, str]]:
    """English is phrased as the rule; any other language, and English the phrasing does not
    cover (a correction, the language to work in), is quoted as typed (`statements.py`)."""
    corrects = previous is not None
    if not english_only(sentence):
        return [(sentence, sentence)] if states_rule(sentence, corrects) else []
    forms = forms_of(sentence, _ENGLISH)
    language = LANGUAGE in forms and asks_for_a_language(sentence)
    if len(sentence) > MAX_RULE_CHARS or (sentence.endswith("?") and not language):
        return []
    if forms & {ONE_OFF, NOT_A_RULE} or _ACCOUNT_OF_ALWAYS.match(sentence):
        return []  # "Don't set it, let's see if it keeps happening.": this task only
    phrased = _phrase(sentence, previous)
    if phrased:
        return [(sentence, rule) for rule in phrased]
    body = _POLITE.sub("", _LEAD.sub("", _EMPHASIS.sub("", sentence))).strip().rstrip("?")
    asked = not (_ONE_OFF.search(body) or _QUESTION.match(body) or _NOT_RULES.match(body))
    if LANGUAGE in forms and language_named(body) and asked:
        rule = _sentence_case(body)  # "Can you answer in …?"; "English please": the language
        return [(sentence, rule if len(rule.split()) > 1 else f"Work in {rule}")]
    if states_rule(body, corrects) and _acceptable(body):
        return [(sentence, _sentence_case(body))]
    return []


# "always fails", "never worked": what something keeps doing, told without its subject
# (typed in lower case after a full stop: "i tried pnpm install. always fails …"), not the
# imperative of a rule ("always run", "always pass --frozen-lockfile", "always focus on …").
_ACCOUNT_OF_ALWAYS = re.compile(
    r"(?i)^(?:always|never)\s+(?:\w+[^su\W]s|worked|happened|was|were|is|are|does|did|had|has"
    r"|got)\b"
)
# "Can you …", "Could you please …": the request put as a question.
_POLITE = re.compile(r"(?i)^(?:please )?(?:can|could|would|will) you (?:please )?")


def _phrase(sentence: str, previous: _PreviousCommand | None) -> list[str]:
    """The rules a sentence states, phrased as rules (none for an ordinary sentence)."""
    body = _LEAD.sub("", _EMPHASIS.sub("", sentence)).strip()
    correction = _CORRECTION.match(body)
    if correction and previous is not None:
        body = body[correction.end() :]
        return [_correction(body, previous())] if _acceptable(body) else []
    if previous is not None and _INSTEAD.match(body) and _acceptable(body) and previous():
        return [_correction(body, previous())]  # "use pnpm instead", after `npm test`
    body = _WISH.sub("", _REFUSAL.sub("", body))
    signal = _SIGNAL.match(body)
    if signal:
        noted = bool(_NOTE_SIGNAL.match(signal.group()))
        body = _LEAD.sub("", body[signal.end() :]).strip()
        body = re.sub(r"(?i)^to\s+", "", body)
        if noted and _ACCOUNT.search(body):
            signal = None  # "FYI the build is failing": a rule only if it states one itself
    # Two rules in one sentence ("Always X, and never Y") are two memories; "X but don't Y"
    # is one statement whose second half only qualifies the first.
    parts = re.split(r",?\s+and\s+(?=(?:always|never)\b)", body, flags=re.I)
    rules = []
    for part in parts:
        stated = (
            bool(signal)
            or (
                bool(_RULE_START.match(part))
                and (not bare_prohibition(part) or about_engineering(part))
            )
            or _is_x_not_y(part)
            or _standing_imperative(part)
            or bool(_NORM.match(part) or _NO_MORE.match(part) or _TOOL_FOR_A_PURPOSE.match(part))
            or bool(_NAMING_OR_ONLY.match(part))
            or (
                bool(_CONVENTION_VERB.match(part))
                and bool(_PROJECT_SCOPE.search(part) or _EVERY_OF_A_KIND.search(part))
            )
        )
        # After "from now on" the instruction may be short ("From now on, use yarn.").
        if stated and _acceptable(part, min_words=2 if signal else MIN_RULE_WORDS):
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
    # "before committing run the tests": the clause typed without its comma
    clause = re.sub(r"(?i)^(?:before|after) (?:you )?\w+ (?:always )?", "", clause)
    return bool(_IMPERATIVE.match(_ADDRESSED.sub("", clause)))


def _acceptable(body: str, min_words: int = MIN_RULE_WORDS) -> bool:
    words = body.split()
    return (
        len(words) >= min_words
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
    """ "X, not Y" / "X, never Y" about tools: an imperative or code on both sides; typed
    without the comma, tools or code named on both sides ("use pnpm not npm")."""
    match = re.search(r"^(.+?),\s+(?:not|never)\s+(.+)$", body)
    if match is None:
        bare = re.search(r"^(\S+(?:\s+\S+){1,3}?)\s+(?:not|never)\s+([\w`.@/-]+)[.!]?$", body)
        named = bare is not None and all("`" in side or named_tools(side) for side in bare.groups())
        match = bare if named else None
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
    # What closes a turn of the conversation, not the rule: "…, please", "… then".
    body = re.sub(r"(?i)[,\s]*(please|thanks|thank you|then)[.!]*$", "", body).strip()
    body = body[:1].upper() + body[1:]
    return body if body.endswith((".", "!")) else body + "."


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
