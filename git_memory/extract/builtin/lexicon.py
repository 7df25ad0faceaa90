"""The words people state rules in: one row per language and cue, each with the real sentence
it was written from (typed in a session of the labelled corpus,
`tests/fixtures/real-sessions/`, or written by a person into a public repository: its agent
instructions, documentation or the text of its program).

A cue names the *form* of what a sentence does (`cue_forms.py`).
A language has a row for a form where a real sentence shows it, or where English already has
the form and the language says it the same way ("stop using …", "use X in the whole
project"): such a row, until a sentence of a public repository is found for it, says so beside
the sentence of that form it carries.
English is recognised by `rules.py` first, which also rephrases it as the rule ("From now on,
always use X" → "Always use X."); the English rows here add what that does not cover.
Words in other languages are quoted as typed. `forms_of` is the one reader of the table.
"""

from __future__ import annotations

import importlib
import re
from functools import cache, lru_cache
from typing import Any

from git_memory.extract.builtin.cue_forms import (
    CORRECTION,
    LANGUAGE,
    NOT_A_RULE,
    ONE_OFF,
    PREFERENCE,
    STANDING,
    Cue,
)
from git_memory.extract.builtin.cues_cjk import CJK_CUES
from git_memory.extract.builtin.cues_latin import LATIN_CUES
from git_memory.extract.builtin.cues_russian import RUSSIAN_CUES
from git_memory.extract.builtin.scripts import languages_of

_LANGUAGES = (
    r"(?:english|chinese|japanese|korean|russian|spanish|portuguese|german|french|vietnamese"
    r"|turkish)"
)

# The English rows; the other languages' are in `cues_latin.py`, `cues_russian.py` and
# `cues_cjk.py` (Chinese, Japanese and Korean).
_OWN: tuple[Cue, ...] = (
    # --- English: what rules.py's phrasing does not cover ---
    Cue(
        "en",
        STANDING,
        r"\byou (?:should|must) (?:always|never)\b",
        "You should NEVER use the agent-intercom-ctl tool; that is for local operator use only.",
    ),
    Cue(
        "en",
        STANDING,
        # "from now on" closing the sentence, as it opens others ("From now on, …")
        r"\b(?:from now on|going forward|from here on(?: out)?|from this point (?:on|onwards?"
        r"|forward))\s*[.!]*$",
        "I manaully changed to gemini.md file, so it should be #mem from now on",
    ),
    Cue(
        "en",
        LANGUAGE,
        r"\b(?:answer|respond|reply|write|explain|talk|speak|work|keep (?:it|everything|them)"
        rf"|switch (?:back )?to)\b[^.!?]{{0,30}}\b{_LANGUAGES}\b"
        # the language alone, asked for: "English please", "in English only"
        rf"|^(?:in )?{_LANGUAGES}(?: only)?,? (?:please|pls|only)\b",
        "keep it english please",
    ),
    Cue(
        "en",
        CORRECTION,
        # not a condition or a guess ("unless you didn't have any activity", "probably you
        # didn't call it right"): what the agent left out, said as such
        r"(?<!\bunless )(?<!\bif )(?<!\bwhen )(?<!\bwhether )(?<!\bprobably )(?<!\bmaybe )"
        r"(?<!\bperhaps )(?<!\bin case )"
        r"\byou\b[^.!?]{0,40}?\b(?:didn'?t|did not|forgot to) (?!understand|get|see|read|know"
        r"|listen)\w+",
        "you did T012 but didn't update the checkbox",
    ),
    Cue(
        "en",
        CORRECTION,
        r"^(?:(?:no|but|again)\W+)?I (?:told|asked) you (?:to|not to)\b",
        "i told you to use pnpm, not npm",
    ),
    Cue(
        "en",
        CORRECTION,
        # what the agent leaves out again and again: "you keep forgetting to …"
        r"\byou (?:keep|kept) (?:forgetting|skipping|missing) (?:to )?\w+"
        r"|\byou (?:always|often) forget (?:to )?\w+|\byou forgot (?:again )?to\b",
        "you keep forgetting to update the changelog",
    ),
    Cue(
        "en",
        CORRECTION,
        r"\bdon'?t (?:ever )?\w+.{0,60}\bagain\b",
        "you screwed up there, don't do that again.",
    ),
    Cue(
        "en",
        CORRECTION,
        r"^(?:it'?s|that'?s) not \S+.{0,40}\bin(?:s)?te(?:a)?d\b",
        "it's not DECISION.md, intead, create a new subdir called DECISIONS",
    ),
    Cue(
        "en",
        PREFERENCE,
        r"\bno [\w./+-]+(?: [\w./+-]+)?,\s*(?:only|just)\b",
        "I'd like it to be completely in the front-end, no database, only local storage.",
    ),
    Cue(
        "en",
        PREFERENCE,
        # a setting the project keeps from then on: the port, host or address it runs on
        r"\b(?:change|set|switch|move)\b[^.!?]{0,30}\b(?:port|host|base url|url|address)"
        r"\b[^.!?]{0,20}\bto\s+\S*\d",
        "change port number from 5000 to 5001",
    ),
    Cue("en", ONE_OFF, r"\blet'?s see\b", "Don't set it, let's see if it keeps happening."),
    Cue(
        "en",
        ONE_OFF,
        # when a program will run from now on (its schedule), not what the agent will do
        r"\b(?:it|this|that|the (?:script|job|cron|task|service|server|bot|backup))\s+"
        r"(?:runs?|starts?|fires?|executes?|happens?)\b[^.!?]{0,40}"
        r"\b(?:at \d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|at \d{1,2}:\d\d|daily|hourly"
        r"|nightly|weekly|(?:every|each) (?:day|night|hour|week|morning|evening|\d))"
        r"[^.!?]{0,30}\bfrom now on\b",
        # a session of a public repository
        "Update the script accordingly, save it, and then restart it to ensure it runs at 11:45"
        " PM daily from now on.",
    ),
    Cue(
        "en",
        ONE_OFF,
        r"\b(?:is|are) still\b|\bstill (?:fails?|failing|broken|crash\w*|doesn'?t|does not"
        r"|not|the same)\b",
        "But on my other terminal where i asked you to work on my site folder it is still slow.",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        r"^(?:don'?t|do not|never)\s+\w+\s+(?:it|this|that|them)\b\s*(?:[,.;!]|$)",
        "Don't set it, let's see if it keeps happening.",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        # a sentence that presents what follows (an example, a log, an error): an account
        r"^(?:here(?:'s| is| are)|below (?:is|are)|attached (?:is|are)|this is (?:the|an?|my) "
        r"(?:error|output|log|example|trace|result|message))\b",
        "Here is an example of an error, where there is no code shown, only the error and the"
        " position.",
    ),
    Cue(
        "en",
        ONE_OFF,
        # a requirement of the product's behaviour (a page, a button, the app, its users):
        # the feature of the task, as "首页必须显示…" is in Chinese; not its engineering
        r"(?:^|,\s*)(?:the |each |every |all |any |our |this |my )?(?:[\w'-]+ ){0,2}?"
        r"(?:page|screen|modal|dialog|popup|button|form|field|input|list|table|card|chart|graph|sidebar|header|footer"
        r"|menu|navbar|tab|panel|widget|banner|tooltip|timer|counter|icon|image|logo|layout|view"
        r"|app|application|site|website|game|player|users?|customers?|notifications?|dashboard"
        r"|map|calendar|cart|checkout|profile|feed|window|axis|legend|slider|toggle|dropdown"
        r"|badge|avatar|toast)s? (?:must|should|shall|needs? to|has to|have to|will)\b",
        "If there are only 1 chart on the dashboard, the chart should be expanded to occupy the"
        " whole width",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        # the person introducing themselves: who they are is theirs, not the project's
        r"^(?:hi|hello|hey)?[,!]?\s*(?:my name is|my name's)\b",
        # a session of a public repository
        "My name is Jeremie Rykner remember it.",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        # a dispute of what the agent said: an account of the moment, whatever the agent does
        r"^(?:no,? )?(?:that|this|it)(?:'s| is| was)(?: actually| just| simply)? ?(?:not )?"
        r"(?:correct|right|wrong|true|false|incorrect)\b",
        "That is actually not correct.",
    ),
    Cue(
        "en",
        ONE_OFF,
        # the rest of the task at hand: "other files" are the files this change does not touch
        r"\b(?:any|the|all) other (?:files?|code|parts?|places?|things?|components?|modules?"
        r"|functions?|pages?|tests?)\b",
        "Don't change any other files.",
    ),
)
CUES: tuple[Cue, ...] = (*_OWN, *LATIN_CUES, *RUSSIAN_CUES, *CJK_CUES)
# The parser `re` compiles with, to read a cue's syntax tree (`required_words`).
re_parser: Any = importlib.import_module("re._parser")
re_constants: Any = importlib.import_module("re._constants")


@cache
def _compiled(languages: frozenset[str] | None) -> list[tuple[Cue, tuple[str, ...]]]:
    """The cues of `languages` (all when None), each with the words one of which is in any
    sentence it reads (`required_words`), in lower case: most sentences hold none of a cue's
    words, and looking for a few words is far faster than searching the cue's pattern. A
    sentence is looked at in lower case; each cue whose words it holds is then read as
    written (`_pattern`)."""
    return [
        (c, required_words(_lower_case(c.pattern)))
        for c in CUES
        if languages is None or c.language in languages
    ]


def required_words(pattern: str) -> tuple[str, ...]:
    """Words one of which is in any text `pattern` matches (found from its syntax tree: the
    literal runs of a sequence, every branch of an alternation, a repeat that must occur);
    () when the pattern needs no word, and every text must be searched."""
    try:
        found = _required(list(re_parser.parse(pattern)))
    except (re.error, TypeError, ValueError):
        return ()
    return tuple(sorted(found)) if found else ()


def _required(items: list[tuple[Any, Any]]) -> set[str] | None:
    """The words one of which any match of a parsed sequence holds; None when unknown."""
    best: set[str] | None = None
    run = ""  # the literal characters in a row

    def better(found: set[str] | None) -> None:
        nonlocal best
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found

    for op, value in [*items, (None, None)]:
        if op is re_constants.LITERAL:
            run += chr(value)
            continue
        better({run} if run else None)
        run = ""
        if op is re_constants.SUBPATTERN:
            better(_required(list(value[3])))
        elif op is re_constants.BRANCH:
            branches = [_required(list(branch)) for branch in value[1]]
            if all(branches):
                better(set().union(*(b for b in branches if b)))
        elif op in (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT) and value[0] >= 1:
            better(_required(list(value[2])))
        elif op is re_constants.IN and all(o is re_constants.LITERAL for o, _ in value):
            better({chr(v) for _, v in value})
        # Anchors, look-arounds, classes and optional parts hold no word a match must have.
    return best


def _lower_case(pattern: str) -> str:
    """A pattern's letters in lower case, its escapes (`\\b`, `\\S`, `\\W`) as written."""
    out: list[str] = []
    escaped = False
    for char in pattern:
        out.append(char if escaped else char.lower())
        escaped = not escaped and char == "\\"
    return "".join(out)


@cache
def _pattern(cue: Cue) -> re.Pattern[str]:
    return re.compile(cue.pattern, re.IGNORECASE)


def forms_of(sentence: str, languages: frozenset[str] | None = None) -> set[str]:
    """The forms the cues of `languages` (all when None) find in a sentence."""
    if languages is None:
        return {form for form, _ in _found(sentence, None)}
    script = languages_of(sentence)
    # A sentence is read for several sets of its script's languages (all of them, English
    # alone, all but English): one search over its script serves them all.
    pool = script if languages <= script else script | languages
    return {form for form, language in _found(sentence, pool) if language in languages}


# Letters whose lower case `str.lower` spells otherwise than a pattern that ignores case reads
# them: Turkish İ is "i̇" (i and a combining dot) for the one, "i" for the other; ſ is "s".
_SIMPLE_CASE = str.maketrans({"İ": "i", "ſ": "s"})


def lower_case(text: str) -> str:
    """A text in lower case as a pattern that ignores case reads it ("KEEP İT ENGLİSH" is
    "keep it english")."""
    return text.translate(_SIMPLE_CASE).lower()


@lru_cache(maxsize=4096)
def _found(sentence: str, languages: frozenset[str] | None) -> frozenset[tuple[str, str]]:
    # A team types the same instruction in many sessions: each is looked up once.
    lowered = lower_case(sentence)
    always, by_letter = _index(languages)
    held = set(always)
    for letter in set(lowered) & by_letter.keys():
        held.update(at for word, at in by_letter[letter] if at not in held and word in lowered)
    cues = _compiled(languages)
    return frozenset(
        (cues[at][0].form, cues[at][0].language)
        for at in sorted(held)
        if _pattern(cues[at][0]).search(sentence)
    )


@cache
def _index(
    languages: frozenset[str] | None,
) -> tuple[frozenset[int], dict[str, tuple[tuple[str, int], ...]]]:
    """The cues to search in every sentence (they need no word), and by the first letter of
    each of their words, the word and the cue (its place in `_compiled`): a sentence is looked
    up by the letters it holds, not cue by cue."""
    always: set[int] = set()
    by_letter: dict[str, list[tuple[str, int]]] = {}
    for at, (_cue, words) in enumerate(_compiled(languages)):
        if not words:
            always.add(at)
        for word in words:
            by_letter.setdefault(word[0], []).append((word, at))
    return frozenset(always), {letter: tuple(found) for letter, found in by_letter.items()}
