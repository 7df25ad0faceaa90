"""What an approved entry is about, as far as sessions can show it (pure).

- a trap (`Trap: `…`, the `command-fix@1` text): the failing command line as written, its
  error's signature (`command_line.signature`) and its fix;
- a command (`command-exit@1`: "`uv run pytest` runs the tests (worked in 3 sessions)."):
  the command and its kind (tests, lint, …), whose other forms are its variants;
- a rule (a text the `user-rule@1` phrasing reads as a rule: "Never run `pip install`…", or
  "Run `make fmt` before `make lint`."): the command lines it forbids (inline code after
  never/don't/do not/avoid/instead of/rather than/not/before), those it asks for (any other
  inline code: "A instead of B", "A before B"; only code that reads as a command line), and
  its rule key, which a person asking the
  same again states too.
Command lines stay as written: the command model (`command_line.match`) compares them with
what sessions ran, compound structure, `cd` prefixes and argument shapes included.
Any other entry (a fact, a task) is not measured.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from git_memory.command_line.line import memory_line, parse
from git_memory.command_line.signature import error_line, normalized
from git_memory.extract.builtin.renderers import TRAP_PREFIX, sanitize_error
from git_memory.extract.builtin.rules import rule_facts

SubjectKind = Literal["trap", "rule", "command"]

_TRAP = re.compile(
    r"^`(?P<failing>[^`]+)` (?:fails|is refused by the repository's hook)"
    r"(?: with \"(?P<error>[^\"]*)\")?(?:; run `(?P<variant>[^`]+)` instead| unless "
    r"`(?P<prereq>[^`]+)` runs first| until `(?P<hook>[^`]+)` has run)\."
)
_COMMAND = re.compile(r"^`(?P<command>[^`]+)` [a-z -]+ \(worked in \d+ sessions?\)\.")
_FORBIDS = re.compile(
    r"(?i)\b(?:never|don'?t|do not|avoid|instead of|rather than|not|before)\b[^`.;]{0,40}"
    r"`([^`]+)`"
)
_CODE = re.compile(r"`([^`]+)`")
# "Run `make fmt` before `make lint`": an order the rule reader does not read as a rule.
_BEFORE = re.compile(r"(?i)`[^`]+`(?: \w+){0,3} before `[^`]+`")


@dataclass(frozen=True)
class Subject:
    """An entry's measurable subject. `command` is the failing command line of a trap, the
    command of a command entry; `fix` a trap's fix and `error` the signature of its error
    ("" when the trap names none); `kind` a command's kind; `forbids`, `prefers` and
    `rule_keys` a rule's."""

    kind: SubjectKind
    command: str = ""
    fix: str = ""
    error: str = ""
    command_kind: str = ""
    forbids: tuple[str, ...] = ()
    prefers: tuple[str, ...] = ()
    rule_keys: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        """The command lines sessions are compared with."""
        if self.kind == "trap":
            return (self.command, self.fix)
        return (*self.forbids, *self.prefers) if self.kind == "rule" else ()


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
        error = error_key(trap.group("error") or "")
        return Subject("trap", command=_line(trap.group("failing")), fix=_line(fix), error=error)
    command = _COMMAND.match(text)
    if command is not None:
        normal, kind = command_form(command.group("command"), memory=True)
        return Subject("command", command=normal, command_kind=kind or "")
    first = text.split("\n\n")[0]
    facts = rule_facts([Said(first)], screen_secrets=False)
    if not facts and not _BEFORE.search(first):
        return None
    forbids = tuple(dict.fromkeys(_commands(_FORBIDS.findall(first))))
    named = dict.fromkeys(_commands(_CODE.findall(first)))
    prefers = tuple(line for line in named if line not in forbids)
    return Subject("rule", forbids=forbids, prefers=prefers, rule_keys=tuple(f.key for f in facts))


def error_key(error: str) -> str:
    """What of an error line two failures of the same kind share: its signature, cut where
    a memory's sanitized text was cut (`…`), so an observed signature starts with it."""
    return normalized(error).rstrip("…").strip()


def failure_key(output: str) -> str:
    """The same key of a failed run's output: its error line read and sanitized as the
    extractor writes a trap's error, then normalized."""
    return error_key(sanitize_error(error_line(output)))


def _line(command: str) -> str:
    return " ".join(command.split())


def _commands(spans: list[str]) -> list[str]:
    """The inline code spans that read as command lines: several words, or one project
    command (`pytest`); a lone file or branch name (`.env`, `main`) is not one, and a rule
    naming only such spans applies to every session."""
    lines = [_line(span) for span in spans]
    return [line for line in lines if " " in line or memory_line(line).main is not None]


@functools.lru_cache(maxsize=65536)
def command_form(command: str, *, memory: bool = False) -> tuple[str, str | None]:
    """(normal form, kind) of a command line's main project command; without one, its
    words as written and no kind. Sessions repeat their commands, so each is parsed once.
    `memory`: the line a memory names, read as it was written (`memory_line`)."""
    main = (memory_line(command) if memory else parse(command)).main
    if main is None:
        return " ".join(command.split()), None
    return main.normal, main.kind
