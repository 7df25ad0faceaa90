"""The words a draft quotes, found in the turns it cites, with where they came from.

An extractor may back a statement with quotes (`DraftQuote`): the person's sentence, the
command as run, its result line, each with the part of the turn it is from. The host does not
take the extractor's word for it: it looks for each quote in that part of the cited turn
(whitespace-insensitive, paths scrubbed as the task showed them) and records its origin: the
user's message is typed by a person, a pasted document or a program's prompt
(`sessions.origin.typed_origin`), the assistant text is the agent's own words, tool inputs
and outputs are a tool's. A quote not found there is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from git_memory.command_line.signature import ANSI
from git_memory.contracts.extraction import DraftCandidate
from git_memory.contracts.host_records import CatalogItem, RecallRecord
from git_memory.contracts.review import Origin, ReviewQuote
from git_memory.extract.select import path_scrubber
from git_memory.sessions.origin import typed_origin
from git_memory.sessions.query import TurnRecord, program_sessions, select_turns
from git_memory.store.session import Workspace

# statement id -> evidence id -> the quotes found, with origin and time
Located = dict[str, dict[str, list[ReviewQuote]]]


@dataclass(frozen=True)
class TurnSource:
    """Turn records already read (by turn key) and the sessions a program drove, so an
    in-process extractor that read them does not make the host read them again."""

    turns: Mapping[str, TurnRecord]
    programs: Collection[str]


def locate_quotes(
    workspace: Workspace,
    record: RecallRecord,
    catalog: dict[str, CatalogItem],
    drafts: list[DraftCandidate],
    source: TurnSource | None = None,
) -> list[Located]:
    """Per draft (in order), the quotes found in their cited turns, with origin and time."""
    if not any(s.quotes for draft in drafts for s in draft.statements):
        return [{} for _ in drafts]
    turns = {t.turn_index: t for t in record.turns}
    if source is None:
        source = read_turns(workspace, sorted({t.session_key for t in record.turns}))
    found, programs = source.turns, source.programs
    scrub = path_scrubber(workspace.worktree.root)
    located: list[Located] = []
    for draft in drafts:
        by_statement: Located = {}
        for statement in draft.statements:
            for quote in statement.quotes or []:
                item = catalog.get(quote.evidence_id)
                if (
                    item is None
                    or item.kind != "turn"
                    or quote.evidence_id not in (statement.evidence_ids)
                ):
                    continue
                turn = turns.get(int(item.pointer["turnIndex"]))
                held = found.get(turn.turn_key) if turn else None
                if turn is None or held is None:
                    continue
                program = held.session_key in programs
                origin = origin_of(held, quote.part, quote.text, program, scrub)
                if origin is None:
                    continue
                shown = ReviewQuote(origin=origin, text=quote.text, at=turn.started or None)
                by_statement.setdefault(statement.statement_id, {}).setdefault(
                    quote.evidence_id, []
                ).append(shown)
        located.append(by_statement)
    return located


def read_turns(workspace: Workspace, session_keys: list[str]) -> TurnSource:
    """Every turn of these sessions from the session index (one read), and which of them a
    program drove."""
    closures = ("hard-sealed", "quiescent", "open")
    found = select_turns(workspace.worktree, session_keys=session_keys, closures=closures)
    return TurnSource(
        {r.turn_key: r for r in found}, program_sessions(workspace.worktree, session_keys)
    )


def origin_of(
    turn: TurnRecord, part: str, text: str, program: bool, scrub: Callable[[str], str]
) -> Origin | None:
    """The origin of `text` when it occurs in that `part` of the turn record (user message:
    person, document or program; assistant text: agent; tool calls and outputs: tool)."""
    wanted = _flat(text)
    if not wanted:
        return None
    if part == "user":
        user = scrub(turn.user_text or "")
        return typed_origin(user, program) if wanted in _flat(user) else None
    if part == "assistant":
        return "agent" if wanted in _flat(scrub(turn.assistant_text or "")) else None
    for call in turn.tool_calls:
        pieces = [*strings_in(call.input), _joined(call.input), call.output or ""]
        if any(wanted in _flat(scrub(piece)) for piece in pieces):
            return "tool"
    return None


# A backslash typed right after a word at the end of a line: the agent's prompt takes it as a
# line break the person asked for ("1. No, we dont use mermaid.js anymore\"), and the
# transcript keeps it; not one of two (an escaped backslash), nor a drive's root (`C:\`). One
# standing apart is a line break too when a next line follows (a shell's `docker compose up \`
# then `-d --build` reads on in it: `prose._GOES_ON`); with none it is a word ("never use a
# trailing \").
TYPED_LINE_BREAK = re.compile(
    # (the backslash first: a text is searched for it, not tried at each of its letters)
    r"\\(?:(?<=[^\s\\]\\)(?<![^A-Za-z][A-Za-z]:\\)(?<!^[A-Za-z]:\\)[ \t\r]*$"
    r"|(?<=\s\\)[ \t]*(?=\r?\n))",
    re.MULTILINE,
)


def _flat(text: str) -> str:
    """The text's words: its white space one space, a typed line break none, and the colour
    codes and hyperlinks of a terminal none (an extractor quotes a tool's words without them)."""
    if "\x1b" in text:
        text = ANSI.sub("", text)
    return " ".join((TYPED_LINE_BREAK.sub("", text) if "\\" in text else text).split())


def strings_in(value: Any) -> Iterator[str]:
    """Every string of a tool input, however nested (`{"file_path": …}`, an argv list)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def _joined(value: Any) -> str:
    """An argv-style input (`["bash", "-lc", "…"]`) as one line."""
    return " ".join(strings_in(value))
