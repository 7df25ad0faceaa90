"""What an approved entry is about, as far as sessions can show it (pure).

- a trap (`Trap: `…`, the `command-fix@1` text): the failing command and its fix;
- a command (`command-exit@1`: "`uv run pytest` runs the tests (worked in 3 sessions)."):
  the command and its kind (tests, lint, …), whose other forms are its variants;
- a rule (a text the `user-rule@1` phrasing reads as a rule: "Never run `pip install`…"):
  the commands it forbids (inline code after never/don't/do not/avoid/instead of) and its
  rule key, which a person asking the same again states too.
Any other entry (a fact, a task) is not measured.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from git_memory.command_line.line import parse
from git_memory.extract.builtin.renderers import TRAP_PREFIX
from git_memory.extract.builtin.rules import rule_facts

SubjectKind = Literal["trap", "rule", "command"]

_TRAP = re.compile(
    r"^`(?P<failing>[^`]+)` (?:fails|is refused by the repository's hook)"
    r"(?: with \"[^\"]*\")?(?:; run `(?P<variant>[^`]+)` instead| unless `(?P<prereq>[^`]+)`"
    r" runs first| until `(?P<hook>[^`]+)` has run)\."
)
_COMMAND = re.compile(r"^`(?P<command>[^`]+)` [a-z -]+ \(worked in \d+ sessions?\)\.")
_FORBIDS = re.compile(r"(?i)\b(?:never|don'?t|do not|avoid|instead of|not)\b[^`.;]{0,40}`([^`]+)`")


@dataclass(frozen=True)
class Subject:
    """An entry's measurable subject. `command` is the failing command of a trap, the
    command of a command entry; `fix` a trap's fix; `kind` a command's kind; `forbids` and
    `rule_keys` a rule's."""

    kind: SubjectKind
    command: str = ""
    fix: str = ""
    command_kind: str = ""
    forbids: tuple[str, ...] = ()
    rule_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Said:
    """A text read as a person's message (what `rule_facts` reads)."""

    user_text: str
    turn_key: str = "entry"
    tool_calls: tuple[object, ...] = ()
    assistant_text: str = ""


def subject_of(body: str) -> Subject | None:
    """The subject of an entry body, or None when sessions cannot show its effect."""
    text = body.strip()
    if text.startswith(TRAP_PREFIX):
        trap = _TRAP.match(text[len(TRAP_PREFIX) :])
        if trap is None:
            return None
        fix = trap.group("variant") or trap.group("prereq") or trap.group("hook")
        return Subject("trap", command=_normal(trap.group("failing")), fix=_normal(fix))
    command = _COMMAND.match(text)
    if command is not None:
        normal, kind = command_form(command.group("command"))
        return Subject("command", command=normal, command_kind=kind or "")
    facts = rule_facts([Said(text.split("\n\n")[0])])
    if not facts:
        return None
    forbids = tuple(dict.fromkeys(_normal(m) for m in _FORBIDS.findall(text)))
    return Subject("rule", forbids=forbids, rule_keys=tuple(f.key for f in facts))


def _normal(command: str) -> str:
    return command_form(command)[0]


@functools.lru_cache(maxsize=65536)
def command_form(command: str) -> tuple[str, str | None]:
    """(normal form, kind) of a command line's main project command; without one, its
    words as written and no kind. Sessions repeat their commands, so each is parsed once."""
    main = parse(command).main
    if main is None:
        return " ".join(command.split()), None
    return main.normal, main.kind
