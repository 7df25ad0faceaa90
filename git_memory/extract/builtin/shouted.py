"""A comment a person wrote into code they pasted, shouting a rule: `"phone": "", // ALWAYS
try to get this!`. The capitals are the person's emphasis; the code the comment annotates is
its subject. A quiet comment, a heading, or a shouted sentence with no code before it is
none (`rules.py` makes the rule of each)."""

from __future__ import annotations

import re

_COMMENT_MARK = re.compile(r"//|#|/\*|<!--|--")
_SHOUTS = r"(?:ALWAYS|NEVER|MUST(?: NOT)?|DO NOT|DON'?T)\b"
_SHOUTED = re.compile(rf"\b{_SHOUTS}")
_SHOUTED_COMMENT = re.compile(rf"\s*(?P<comment>(?:[A-Z]+ )*{_SHOUTS}.*?)\s*(?:\*/|-->)?\s*$")
_CODE_MARK = re.compile(r"[:=(){}\[\]\"'<>]")
# A line of escaped text: a file's content or a tool call's arguments dumped as one JSON
# string (`"# Copy this file to .env\n# NEVER commit .env\n…"`), pasted from an agent's
# log. Its lines are the dump's, not the person's, whatever they shout; a typed line names
# the escape once or twice at most (`remove the \n left in the titles`).
ESCAPED_LINES = re.compile(r"\\n(?:.*?\\n){2}")


def shouted_comments(text: str) -> list[tuple[str, str, str]]:
    """(the line as typed, the comment, the code before it) for each line of pasted code whose
    comment shouts; linear in the text (most messages shout nothing: one search says so)."""
    found: list[tuple[str, str, str]] = []
    if not _SHOUTED.search(text):
        return found
    for line in (line.strip() for line in text.splitlines()):
        if not _SHOUTED.search(line) or ESCAPED_LINES.search(line):
            continue
        for mark in _COMMENT_MARK.finditer(line):
            shouted = _SHOUTED_COMMENT.match(line, mark.end())
            code = line[: mark.start()].strip().rstrip(",;")
            if shouted is not None and _CODE_MARK.search(code):
                found.append((line, shouted.group("comment"), code))
                break
    return found
