"""The sentences of what a person typed: its prose, with wrapped lines joined and the lines of
code, logs and terminal boxes left out (`prose_sentences`)."""

from __future__ import annotations

import re

from git_memory.extract.builtin.shouted import without_dumps
from git_memory.extract.builtin.statements import LIST_ITEM, sentences
from git_memory.extract.quotes import TYPED_LINE_BREAK

FENCE = re.compile(r"```.*?(```|$)", re.DOTALL)
CODE_OR_LOG = re.compile(
    r"^\s{4,}|^\t|^[>$#|]|^\s*(?:at |File \"|Traceback|\d{4}-\d\d-\d\d[ T]|\[\w+\]|[{}\[\]]|"
    r"def |class |import |from \S+ import|const |let |var |function |fn |func |return )|"
    r"[{};]\s*$|=>|\b\w*(?:Error|Exception):|^\s*(?:WARN|WARNING|ERROR|INFO|DEBUG|FATAL)\b|"
    r"</?[a-z][\w-]*>|^\s*[\w.]+\(.*\)\s*;?\s*$"
    # a line after a program's prompt, copied from a terminal (`claude> …`, `sqlite> …`)
    r"|^\s*[a-z][\w.-]{0,15}>\s",
)
# The frame of a terminal box a message was copied from (`│ … │`): not part of the words.
BOX_EDGE = re.compile(r"(?m)(?<![ \t])[ \t]*[│┃║][ \t]*$|^[ \t]*[│┃║][ \t]*")


def prose_sentences(text: str) -> list[str]:
    """The sentences of a text's prose: wrapped lines joined, code and log lines left out, and
    the files a pasted log dumps as JSON strings."""
    lines = [without_dumps(line) for line in _unwrapped(text)]
    lines = [line for line in lines if not CODE_OR_LOG.search(line)]
    return [sentence for line in lines for sentence in sentences(line)]


# A line that stops at its verb "to be" has its complement on the next line ("the priority
# of price updates is" / "Event > weekend > Season"), whatever that line starts with.
_UNFINISHED = re.compile(
    r"(?i)(?:(?<!\w)(?:is|are|was|were|là|es|son|é|são|ist|sind|est|sont|это)|[是为為=])\s*$"
)


# A backslash standing apart at the end of a line a next one follows: the line goes on in it
# when it goes on as a command's (indented, or a switch first: `docker compose up \` then
# `  -d --build`); else it is a line break the person typed (`TYPED_LINE_BREAK`). At the end
# of the text it is a word ("never use a trailing \").
_GOES_ON = re.compile(r"\s\\[ \t]*$")


def _unwrapped(text: str) -> list[str]:
    """The text's lines with wrapped sentences joined: a line that starts in lower case (not
    a list item) continues the line before when that one did not end its sentence, and any
    line continues one that stopped at its verb "to be"."""
    lines: list[str] = []
    for typed in text.splitlines():
        line = TYPED_LINE_BREAK.sub("", typed)
        stripped = line.strip()
        if lines and _GOES_ON.search(lines[-1]):
            # the line before broke here: it goes on in this one only as a command does
            lines[-1] = _GOES_ON.sub("", lines[-1]).rstrip()
            if typed[:1].isspace() or stripped[:1] == "-":
                lines[-1] = f"{lines[-1]} {stripped}"
                continue
        joins = (
            lines
            and stripped
            and (stripped[:1].islower() or _UNFINISHED.search(lines[-1]))
            and lines[-1].strip()
            and not lines[-1].rstrip().endswith((".", "!", "?", ":"))
            and not LIST_ITEM.match(stripped)
        )
        if joins:
            lines[-1] = f"{lines[-1].rstrip()} {stripped}"
        else:
            lines.append(line)
    return lines
