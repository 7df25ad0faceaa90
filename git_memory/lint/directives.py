"""The directive rule family: text that steers an agent beyond a team memory's role. Pure.

Beside the secret rules and over the same views (`lint.views`): every row of
`lint.directive_rules.RULES` is searched in the text as rendered and folded, and a match is a
finding `GM_DIRECTIVE_<CLASS>` at its line in the file, unless its clause forbids the act
("never `git push --force`", "`curl | sh` is forbidden"): a prohibition is ordinary memory.

A directive is not a secret: it is shown whole (up to `MAX_SHOWN` characters, control
characters escaped) so the person reviewing it reads what it says. What happens to a finding
is the caller's: review asks for an explicit confirmation, prepare refuses an unconfirmed one
(`GM_DIRECTIVE_UNCONFIRMED`), `verify` and the pre-commit hook flag it (warn).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from git_memory.formats.controls import escape_controls
from git_memory.lint.directive_keywords import ASCII_KEYWORDS, CLASS_KEYWORDS, DIRECTIVE_CODES
from git_memory.lint.findings import Finding
from git_memory.lint.raw import RawFinding, resolve
from git_memory.lint.rules import WARN
from git_memory.lint.views import TextViews
from git_memory.patterns import compiled

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from git_memory.lint.directive_rules import DirectiveRule

MAX_SHOWN = 80
# Where a clause ends: a sentence or list item, a semicolon or colon, a comma, a dash between
# words, and the ideographic and fullwidth marks.
_CLAUSE_END = r"[.!?;:,\n。！？；：，、]|\s[—–-]\s|\s(?:and\s+then|then)\s"


def directive_findings(views: TextViews) -> list[RawFinding]:
    """Every directive in the text of `views`, at its offset in the file (warnings).

    Read twice: as written (a tag such as `<system>` is what a model reads; Cyrillic words
    stay Cyrillic) and as rendered and folded (Latin look-alikes, markup and escapes undone).
    """
    found: list[RawFinding] = []
    seen: set[tuple[str, int]] = set()
    readings: list[tuple[str, TextViews | None]] = [(views.text, None)]
    if views.rendered is not None:
        readings.append((views.shown, views))
    for text, mapped in readings:
        lowered = text.lower()
        keywords = ASCII_KEYWORDS if lowered.isascii() else CLASS_KEYWORDS
        classes = {c for c, words in keywords.items() if any(w in lowered for w in words)}
        if not classes:
            continue
        # Start-up seam (docs/architecture.md): the rule tables load for a text that may hold
        # a directive only.
        from git_memory.lint.directive_rules import COMMANDS, RULES  # noqa: PLC0415

        for rule in (rule for rule in RULES if rule.code in classes):
            for match in compiled(f"(?i:{rule.source})").finditer(text):
                if not rule.negative_form and forbidden(text, match, rule.language in COMMANDS):
                    continue
                offset = match.start() if mapped is None else mapped.file_offset(match.start())
                if (rule.code, offset) not in seen:
                    seen.add((rule.code, offset))
                    found.append(_finding(rule, match.group(), offset))
    return found


def _finding(rule: DirectiveRule, matched: str, offset: int) -> RawFinding:
    text = " ".join(matched.split())
    if len(text) > MAX_SHOWN:
        text = text[: MAX_SHOWN - 1] + "…"
    return RawFinding(
        rule.code, WARN, offset, escape_controls(text), DIRECTIVE_CODES[rule.code], len(matched)
    )


def clause(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) of the clause holding text[start:end] (it may span clause marks)."""
    begin = 0
    for mark in compiled(_CLAUSE_END).finditer(text, max(0, start - 240), start):
        begin = mark.end()
    after = compiled(_CLAUSE_END).search(text, end, end + 240)
    return begin, (after.start() if after is not None else min(len(text), end + 240))


def forbidden(text: str, match: re.Match[str], command: bool) -> bool:
    """Whether the clause around `match` forbids the act: a language's negation before it or
    after it ("never …", "… is forbidden", "…しないでください"), or inside a sentence's match
    ("überspringe niemals die Tests"; not inside a command, where `no-…` is a name), unless
    the negation affirms ("never forget to …")."""
    start, end = match.span()
    begin, finish = clause(text, start, end)
    before = text[begin:start] if command else text[begin:end]
    after = text[end:finish]
    # Start-up seam (docs/architecture.md): as the rule tables, once a rule matched.
    from git_memory.lint.directive_words import NEGATIONS  # noqa: PLC0415

    for negation in NEGATIONS:
        affirming = compiled(f"(?i:{negation.affirming})")
        if compiled(f"(?i:{negation.before})").search(affirming.sub(" ", before)):
            return True
        if compiled(f"(?i:{negation.after})").search(affirming.sub(" ", after)):
            return True
    return False


def directive_codes(text: str) -> list[str]:
    """The sorted directive codes found in `text` (what a person must confirm)."""
    return sorted({item.code for item in directive_findings(TextViews(text))})


def iter_directives(text: str) -> Iterator[RawFinding]:
    """The directive findings of `text` (its own views), in file order."""
    yield from sorted(directive_findings(TextViews(text)), key=lambda item: item.offset)


def lint_directives(text: str) -> list[Finding]:
    """The directive findings of `text`, each at its line and column."""
    return resolve(text, directive_findings(TextViews(text)))
