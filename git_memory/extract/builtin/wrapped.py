"""The words a person typed inside a prompt a program wrapped around them.

Several agents send the person's message with text of their own around it, so the whole
prompt reads as a pasted document (`sessions.origin.typed_origin`) and no rule would be read
from it. Each row of `WRAPPERS` names one such shape: the contents of the files an `@path`
reference pulls in after the message (Gemini CLI, Qwen Code), the file an IDE attaches after
it, and a slash-command template that quotes what was typed after the command in a fenced
block under its "User Input" heading (Spec Kit's commands and templates built like them).
What is left is the person's, and it is read as typed text again (it must still read as
typed: short, no headings, no fences, no list of items pasted in: a list of principles copied
from a document is that document's, not a rule the person typed).
"""

from __future__ import annotations

import re

from git_memory.records import Record


class Wrapper(Record):
    """One shape of program text around a typed message: `pattern` finds the program's part;
    its `typed` group, when it has one, is the person's words, else what precedes it is."""

    name: str
    pattern: str


WRAPPERS: tuple[Wrapper, ...] = (
    Wrapper(
        name="referenced files (Gemini CLI, Qwen Code)",
        pattern=r"\s*-{3}\s*Content from referenced files\s*-{3}.*\Z",
    ),
    Wrapper(name="a file an IDE attached", pattern=r"\s*Current File Path:\s*```.*\Z"),
    Wrapper(
        name="a slash-command template's input",
        pattern=r"^[ \t]*#{1,6}[ \t]*User Input[ \t]*\n\s*```[\w-]*[ \t]*\n"
        r"(?P<typed>.*?)\n?[ \t]*```",
    ),
)
_COMPILED = tuple(re.compile(w.pattern, re.DOTALL | re.MULTILINE) for w in WRAPPERS)
_TEMPLATE = next(n for n, w in enumerate(WRAPPERS) if w.name == "a slash-command template's input")
# An item of a list, on a line of its own or after the end of the item before it.
_ITEM = re.compile(r"(?:^|[.!?;:]\s)\s*(?:[-*•+]|\d+[.)])\s+\S", re.MULTILINE)
PASTED_ITEMS = 3


def a_command_template(text: str) -> bool:
    """Whether a prompt is a slash-command template (its "User Input" block, empty or not)."""
    return _COMPILED[_TEMPLATE].search(text) is not None


def typed_within(text: str) -> str | None:
    """The person's words a program wrapped (None when no known wrapper holds any)."""
    for pattern in _COMPILED:
        match = pattern.search(text)
        if match is None:
            continue
        typed = match.group("typed") if "typed" in pattern.groupindex else text[: match.start()]
        typed = typed.strip()
        return typed if typed and len(_ITEM.findall(typed)) < PASTED_ITEMS else None
    return None
