"""English sentences as rules: whether one sentence a person typed states a rule, and the
rule as a reviewer reads it ("From now on, always use X." → "Always use X."). English is
phrased by the forms `rules.py` lists; any other language, and English the phrasing does not
cover (a correction, the language to work in), is quoted as typed (`statements.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from git_memory.extract.builtin.cue_forms import LANGUAGE, NOT_A_RULE, ONE_OFF
from git_memory.extract.builtin.languages import language_named
from git_memory.extract.builtin.lexicon import forms_of
from git_memory.extract.builtin.prohibitions import about_engineering, bare_prohibition
from git_memory.extract.builtin.remembered import asks_to_remember
from git_memory.extract.builtin.statements import (
    MAX_RULE_CHARS,
    MIN_RULE_WORDS,
    asks_for_a_language,
    english_only,
    named_tools,
    states_rule,
)

_ENGLISH = frozenset(["en"])
# What a correction corrects: the agent's last command, asked for only when a sentence needs it.
PreviousCommand = Callable[[], str]

_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|good|great|nice|thanks|thank you|also|and|btw|ps|so|just|"
    r"please|pls|one more thing|important|note(?! that)|team rule|rule|for the team|"
    r"for everyone|reminder)\b[,:!.\-–—]*\s*)+",
    re.IGNORECASE,
)
_SIGNAL = re.compile(
    r"^(?:from now on|going forward|from this point (?:on|onwards?"
    r"|forward)|from here on(?: out)?|henceforth|in the future|in this repo(?:sitory)?"
    r"|in this project|"
    r"remember(?: that)?|keep in mind(?: that)?|as a rule|for this (?:repo|project)|"
    r"note that|note(?=\s*:)|fyi|just so you know|heads up|for the record)"
    r"\b[,:]?\s*",
    re.IGNORECASE,
)
# The signals that say "from now on" as often as "from this place on" (in a log, a trace, the
# code): a time only before what the agent is asked to do ("… create a branch for each task",
# "… you should use pnpm", "… pnpm only"), not before what describes a thing.
_PLACE_OR_TIME = re.compile(r"(?i)^(?:from this point|from here on|henceforth)")
# ("update events are dropped": a noun the verb list holds, then what is said of it)
_SAID_OF_IT = re.compile(
    r"(?i)^(?:\S+\s+){1,2}(?:is|are|was|were|gets?|got|has|have|had|fails?|hangs?|crash(?:es)?"
    r"|breaks?|returns?|times? out|takes?|shows?|works?|stops?|throws?)\b"
)


_ASKED = re.compile(
    r"(?i)^(?:please |you (?:should|must|need to|have to|will) |i(?: want| need|'d like"
    r"| would like) you to |let'?s |remember to |make sure |we )?(?:always|never|don'?t|do not"
    r"|only|use|run|call"
    r"|add|update|create|make|keep|write|commit|push|deploy|ask|tell|check|prefer|avoid|stop"
    r"|put|store|name|follow|test|build|lint|format|install|document|include|start|open|squash"
    r"|rebase|merge|tag|sign|bump|pin|branch|review|wait|leave|read)\b"
    r"|^[\w`.@/+-]+(?: [\w`.@/+-]+){0,2} only[.!]?$"
    r"|^i (?:want|need|expect) (?:all|every|each|you)\b|^you(?:'re| are) not allowed to\b"
)


def _asked(body: str) -> bool:
    """Whether what follows a signal of time or place asks the agent for something."""
    return bool(_ASKED.match(body)) and not _SAID_OF_IT.match(body)


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
    r"^(?:always|never|don'?ts?|do not|avoid|prefer|only use"
    r"|make sure (?:to |you )?(?:always|never)|"
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
    # nor to look at something once ("use git log to see what changed")
    r"(?!(?:see|view|look|inspect|find out|check (?:what|whether|if|why|how))\b)"
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
FUNCTION_WORDS = frozenset(
    """the a an this that these those it its here there do does did done doing so again just
    please me you we us i to of in on at for with be is are was were not don't dont don t
    never always ever anything something thing things like way then now yet too also any all
    more less and or but no yes ok okay one ones stuff""".split()  # noqa: SIM905
)


def stated(sentence: str, previous: PreviousCommand | None) -> list[tuple[str, str]]:
    """English is phrased as the rule; any other language, and English the phrasing does not
    cover (a correction, the language to work in), is quoted as typed (`statements.py`)."""
    corrects = previous is not None
    if asks_to_remember(sentence):
        return []  # it points at what was said before it (`remembered.py`)
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
        rule = sentence_case(body)  # "Can you answer in …?"; "English please": the language
        return [(sentence, rule if len(rule.split()) > 1 else f"Work in {rule}")]
    if states_rule(body, corrects) and acceptable(body):
        return [(sentence, sentence_case(body))]
    if _forbids_too(body):
        return [(sentence, sentence_case(body))]
    return []


# A request that goes on to forbid the agent a way of working with the person ("Commit all and
# do not add your signature", "Guide me one step at a time, and don't rush to the next step",
# "… and do not ask me for confirmation"): how the person wants to be worked with holds beyond
# the request. What the task must leave alone ("Fix the bug and don't touch the tests") and
# what holds for now ("… don't run it yet") are the task's.
_AND_DONT = re.compile(
    r"(?i)^(?P<asked>.+?)(?:,?\s+(?:and|but)\s+|,\s+)(?P<no>(?:do not|don'?t|never)\s.+)$"
)
# The agent's ways with the person: asking, telling, bothering or waiting for them, rushing,
# assuming, signing its work (not what the person owns: "don't touch my config" is the task's).
_CONDUCT = re.compile(
    r"(?i)\b(?:ask|tell|bother|ping|wait for|interrupt|confirm with|check with)\s+me\b"
    r"(?!\s+about\s+(?:the|this|that|it)\b)|\bme for\b|\bwait for my\b"
    r"|\bask (?:for )?(?:permission|confirmation|approval)\b"
    r"|\b(?:rush|assume|guess)\b|\byourself as\b|\bco-?author"
    r"|\byour (?:signature|name|attribution|trailer)\b"
)
# What holds for the moment: a time, or the person away for a while (not "until I say so",
# "until I assure you …").
_FOR_NOW = re.compile(
    r"(?i)\b(?:now|yet|this time|today|tonight|for the moment"
    r"|until (?:i|we)(?:'m|'re| am| are| get| come) (?:back|done|finished)\b|until (?:i|we) return"
    r"|until (?:tomorrow|later|monday|the weekend)"
    r"|while (?:i'?m|i am|we'?re|we are)\b)"
)
# What describes a thing rather than asks for something: a sentence that opens on it.
_A_THING = re.compile(r"(?i)^(?:the|this|that|these|those|it|its|it's|there|a|an|my|our|his|her)\b")


def conduct_key(rule: str) -> str | None:
    """The key of a rule that forbids the agent a way of working with the person: the first
    words of its prohibition ("ask me for", "add your signature"), so that one preference said
    in several requests ("… and do not ask me for confirmation", "… don't ask me for choices")
    is one memory; None for any other rule."""
    clause = _AND_DONT.match(rule.strip())
    if clause is None or not _CONDUCT.search(clause.group("no")):
        return None
    words = [w for w in re.findall(r"[a-z]+", clause.group("no").lower()) if w not in _NEGATION]
    return "rule:conduct:" + " ".join(words[:_CONDUCT_KEY_WORDS])


_NEGATION = frozenset(["do", "not", "don", "dont", "t", "never"])
_CONDUCT_KEY_WORDS = 3


def _forbids_too(body: str) -> bool:
    """Whether a request's last clause forbids the agent a way of working with the person."""
    clause = _AND_DONT.match(body)
    if clause is None or _FOR_NOW.search(body):
        return False
    asked = clause.group("asked")
    if _ONE_OFF.search(asked):
        return False  # "Fix this bug and don't …": the request is of the task at hand
    if _QUESTION.match(asked) or _A_THING.match(asked):
        return False  # a question, or what a thing does ("The script … and never asks me")
    forbidden = clause.group("no")
    return bool(_CONDUCT.search(forbidden)) and not _AND_DONT.match(forbidden)


# "always fails", "never worked": what something keeps doing, told without its subject
# (typed in lower case after a full stop: "i tried pnpm install. always fails …"), not the
# imperative of a rule ("always run", "always pass --frozen-lockfile", "always focus on …").
_ACCOUNT_OF_ALWAYS = re.compile(
    r"(?i)^(?:always|never)\s+(?:\w+[^su\W]s|worked|happened|was|were|is|are|does|did|had|has"
    r"|got)\b"
)
# "Can you …", "Could you please …": the request put as a question.
_POLITE = re.compile(r"(?i)^(?:please )?(?:can|could|would|will) you (?:please )?")


def _phrase(sentence: str, previous: PreviousCommand | None) -> list[str]:
    """The rules a sentence states, phrased as rules (none for an ordinary sentence)."""
    body = _LEAD.sub("", _EMPHASIS.sub("", sentence)).strip()
    correction = _CORRECTION.match(body)
    if correction and previous is not None:
        body = body[correction.end() :]
        return [_correction(body, previous())] if acceptable(body) else []
    if previous is not None and _INSTEAD.match(body) and acceptable(body) and previous():
        return [_correction(body, previous())]  # "use pnpm instead", after `npm test`
    body = _WISH.sub("", _REFUSAL.sub("", body))
    signal = _SIGNAL.match(body)
    if signal:
        noted = bool(_NOTE_SIGNAL.match(signal.group()))
        body = _LEAD.sub("", body[signal.end() :]).strip()
        body = re.sub(r"(?i)^to\s+", "", body)
        if noted and _ACCOUNT.search(body):
            signal = None  # "FYI the build is failing": a rule only if it states one itself
        elif _PLACE_OR_TIME.match(signal.group()) and not _asked(body):
            signal = None  # "From here on the code path is different": a place in the code
    # Two rules in one sentence ("Always X, and never Y") are two memories; "X but don't Y"
    # is one statement whose second half only qualifies the first.
    parts = re.split(r",?\s+and\s+(?=(?:always|never)\b)", body, flags=re.I)
    rules = []
    for part in parts:
        rule = part
        if not (signal or _states(part)):
            # "You should use pnpm for dependencies": the imperative of a convention.
            instruction = _ADDRESSED.sub("", part)
            rule = instruction if instruction != part and _convention(instruction) else ""
        # After "from now on" the instruction may be short ("From now on, use yarn.").
        if rule and acceptable(rule, min_words=2 if signal else MIN_RULE_WORDS):
            rules.append(sentence_case(rule))
    return rules


# "We should not …": a prohibition put as what the team ought not to do, read as a bare
# "don't …" is (`prohibitions.py`); "I think" may open it. Not "you shouldn't …" (as often
# what the person expects: "you shouldn't run into the conflict again"), nor what ought not
# to be, to have been or to happen ("we shouldn't be getting a 404", "… have deleted it",
# "we shouldn't lose any commits").
# What the team does, also as it goes on ("we shouldn't be committing .env"): the step.
_GOING_ON = {
    "using": "use",
    "committing": "commit",
    "pushing": "push",
    "hardcoding": "hardcode",
    "adding": "add",
    "installing": "install",
    "importing": "import",
    "deploying": "deploy",
    "merging": "merge",
    "rebasing": "rebase",
    "running": "run",
    "writing": "write",
    "leaving": "leave",
    "putting": "put",
    "storing": "store",
    "bumping": "bump",
}
_OUGHT_NOT = re.compile(
    r"(?i)^(?:i think )?we (?:should(?:n'?t| not)|must(?:n'?t| not)|ought not to)\s+"
    rf"(?:be (?=(?:{'|'.join(_GOING_ON)})\b)(?!running (?:into|out)\b))?"
    r"(?!(?:have|be|lose|see|get|need|hit|face|encounter|run (?:out|into))\b)(?=\w)"
)
# "I don't want comments in my code", "I DONT NEED COMMENTS IN MY CODE", "I don't want to see
# any comments in the code": what the person will not have in the project's code.
_NOT_WANTED_IN_CODE = re.compile(
    r"(?i)^i (?:really )?(?:don'?t|do not) (?:want|need) (?:to see )?(?:any )?(?!to\b)\w[^,;:]*?"
    r"\bin (?:\w+ ){0,3}(?:my|the|our) (?:source )?code\b(?!\s+(?:review|reviews|search))"
)


def _forbidden(part: str) -> str:
    """The bare prohibition a sentence put as what the team ought not to do says ("we
    shouldn't commit X" → "don't commit X", "we shouldn't be using X" → "don't use X");
    "" for none."""
    ought_not = _OUGHT_NOT.match(part)
    if ought_not is None:
        return ""
    verb, _, after = part[ought_not.end() :].partition(" ")
    return f"don't {_GOING_ON.get(verb.casefold(), verb)} {after}"


# "We don't have it installed here", "we don't know why": what the team lacks or does not
# know, an account, not what it does not do ("we don't use npm", "we don't need X" stay).
_WE_LACK = re.compile(
    r"(?i)^we (?:don'?t|do not|never) (?:have|know|think|see|understand|remember|get|mind"
    r"|care|believe|recall|seem|mean|agree|expect)\b"
)


def _states(part: str) -> bool:
    """Whether one part of a sentence, typed without a signal, is phrased as a rule."""
    forbidden = _forbidden(part)
    if _WE_LACK.match(part):
        return False
    return (
        (bool(_RULE_START.match(part)) and (not bare_prohibition(part) or about_engineering(part)))
        or (bool(forbidden) and about_engineering(forbidden) and not _NOT_RULES.match(forbidden))
        or bool(_NOT_WANTED_IN_CODE.match(part))
        or _is_x_not_y(part)
        or _standing_imperative(part)
        or bool(_NORM.match(part) or _NO_MORE.match(part))
        or _convention(part)
    )


def _convention(instruction: str) -> bool:
    """An imperative that keeps a tool, a name or a form for a kind of work ("Use Zod for
    validation", "Name files in kebab-case", "Use pnpm for this project")."""
    return bool(
        _TOOL_FOR_A_PURPOSE.match(instruction)
        or _NAMING_OR_ONLY.match(instruction)
        or (
            _CONVENTION_VERB.match(instruction)
            and (_PROJECT_SCOPE.search(instruction) or _EVERY_OF_A_KIND.search(instruction))
        )
    )


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


def acceptable(body: str, min_words: int = MIN_RULE_WORDS) -> bool:
    words = body.split()
    return (
        len(words) >= min_words
        and len(content_words(body)) >= 2
        and not _NOT_RULES.match(body)
        and not _ONE_OFF.search(body)
        and not _QUESTION.match(body)
    )


def content_words(text: str) -> set[str]:
    """The words that say something ("Don't do that here" has none: it is not a rule)."""
    words = set(re.findall(r"[a-z0-9_.\-/*`]+", text.casefold().replace("’", "'")))
    return words - FUNCTION_WORDS


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
    rule = sentence_case(body)
    if previous_command and re.search(r"(?i)\binstead\b(?!\s+of)", rule):
        rule = re.sub(
            r"(?i)\binstead\b(?!\s+of)", f"instead of `{previous_command}`", rule, count=1
        )
    return rule


def sentence_case(body: str) -> str:
    body = re.sub(r"(?i)^donts?\b", "don't", body.strip().rstrip(",;:"))
    # What closes a turn of the conversation, not the rule: "…, please", "… then".
    body = re.sub(r"(?i)[,\s]*(please|thanks|thank you|then)[.!]*$", "", body).strip()
    body = body[:1].upper() + body[1:]
    return body if body.endswith((".", "!")) else body + "."


def bare(sentence: str) -> str:
    """A sentence without its emphasis, its lead-in ("OK", "btw") and a refusal before it
    ("No — …")."""
    return _LEAD.sub("", _REFUSAL.sub("", _EMPHASIS.sub("", sentence))).strip()
