"""The reason a person typed when refusing one of the agent's tool calls: a correction of that
very action ("使用pnpm build", "use pnpm, not npm"), the moment a tool or command of the
project is named.

Claude Code records a refusal as the call's failed result, "The user doesn't want to proceed
with this tool use. … The user provided the following reason for the rejection: <reason>";
the reason is the person's own words. It becomes a rule only when it adopts, prefers or
forbids a tool or command of the project (a name of `TOOL_NAMES`, or a backticked command):
a reason about the task's behaviour ("not lazy loading but preloading") corrects one change,
and a question or pasted output corrects nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from git_memory.command_line.program import TOOL_NAMES
from git_memory.extract.builtin.cue_forms import ADOPT, DIRECTIVE, PREFERENCE, PROHIBITION
from git_memory.extract.builtin.scripts import CJK
from git_memory.extract.builtin.statements import stating_forms
from git_memory.sessions.turns import ToolCall

_REASON = re.compile(
    r"(?s)^The user doesn't want to proceed with this tool use\b.*?"
    r"the following reason for the rejection:\s*(?P<reason>\S.*)$"
)
_ACTS = frozenset([ADOPT, DIRECTIVE, PREFERENCE, PROHIBITION])
_IMPERATIVE = re.compile(r"(?i)^(?:please\s+)?(?:use|run|prefer|don'?t|do not|never|always)\b")
# "用pnpm构建", "改用 yarn": a reason in Chinese that starts with the tool to use instead.
_CJK_USE = re.compile(r"^(?:[请請])?(?:用|改用|[换換]用|[换換]成)")
_NAMES = re.compile(r"[a-z][a-z0-9.+-]*")


def rejection_reasons(tool_calls: Iterable[ToolCall]) -> Iterator[str]:
    """The reasons a person typed for the tool calls of a turn they refused."""
    for call in tool_calls:
        match = _REASON.match(call.output or "") if call.state == "failed" else None
        if match is not None:
            yield match.group("reason").strip()


def corrects_with_a_tool(sentence: str) -> bool:
    """Whether one sentence of a refusal's reason adopts, prefers or forbids a tool or
    command of the project."""
    read = stating_forms(sentence)
    if read is None:
        return False
    languages, forms = read
    if languages & CJK:
        acts = bool(forms & _ACTS or _CJK_USE.match(sentence))
    else:
        acts = bool(_IMPERATIVE.match(sentence))
    return acts and ("`" in sentence or any(map(_names_a_tool, _NAMES.findall(sentence.lower()))))


def _names_a_tool(word: str) -> bool:
    """A tool's name, alone or run together with what it runs (`pnpmbuild`, typed without a
    space in a reason written in Chinese): a name of three letters or more may start a word."""
    return word in TOOL_NAMES or any(
        len(name) >= 3 and word.startswith(name) for name in TOOL_NAMES
    )
