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
# A quoted string of JSON holding a file's lines: a tool call's arguments pasted from an
# agent's log (`{"content":"# Copy this file to .env\n# NEVER commit .env\n\nPORT=3000"}`).
# (A string starts at a quote no backslash escapes: a cut-off line of escaped quotes is read
# once, not once per quote.)
_JSON_STRING = re.compile(r"""(?<!\\)(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
# A value: after a key's colon or a name's `=` (`"content":"…"`, `content='…'`).
_A_VALUE = re.compile(r"[:=]\s{0,2}$")
# Lines of a file it holds: three escaped line ends, one of them where no word goes on (a
# blank line, a comment, an indent: `\n\n`, `\n#`, `\n  `), unlike a Windows path's folders
# (`D:\repos\nexus\node_modules`) or a person naming the escape (`use \r\n, not \n`).
_ESCAPED_LINES = re.compile(r"(?:\\n.*?){3}")
_LINE_OF_A_FILE = re.compile(r"\\n(?![A-Za-z0-9_])")
# A line of settings (`\nDB_URL=…`, `\nport: 3000`): two of them make a file too.
_SETTING_LINE = re.compile(r"\\n[\w.-]{1,40}\s?[=:]")


def without_dumps(line: str) -> str:
    """The line with each quoted string that holds a file's lines emptied (a JSON value or a
    program's repr of one): the dump's words, not the person's, whatever they say or shout."""
    if line.count("\\n") < 3:
        return line
    return _JSON_STRING.sub(_emptied, line)


def _emptied(string: re.Match[str]) -> str:
    text = string.group()
    if not _ESCAPED_LINES.search(text):
        return text
    value = bool(_A_VALUE.search(string.string, 0, string.start()))
    dumped = value or _LINE_OF_A_FILE.search(text) or len(_SETTING_LINE.findall(text)) >= 2
    return text[0] * 2 if dumped else text


def shouted_comments(text: str) -> list[tuple[str, str, str]]:
    """(the line as typed, the comment, the code before it) for each line of pasted code whose
    comment shouts; linear in the text (most messages shout nothing: one search says so)."""
    found: list[tuple[str, str, str]] = []
    if not _SHOUTED.search(text):
        return found
    for line in (without_dumps(line.strip()) for line in text.splitlines()):
        if not _SHOUTED.search(line):
            continue
        for mark in _COMMENT_MARK.finditer(line):
            shouted = _SHOUTED_COMMENT.match(line, mark.end())
            code = line[: mark.start()].strip().rstrip(",;")
            # the code it annotates: a word of it, not only a comment's opener (`<%!--`)
            if shouted is not None and _CODE_MARK.search(code) and re.search(r"\w", code):
                found.append((line, shouted.group("comment"), code))
                break
    return found
