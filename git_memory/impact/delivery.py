"""Whether an entry reached the agents after it landed (docs/guide-verify.md).

A landing is not a delivery. An entry that is only in the memory root is read by no agent
until one of these happens: an instruction file the agent loads holds it (the block `git
memory assemble` writes, or the team's own words in CLAUDE.md, AGENTS.md, …), a session-start
hook in the project's settings runs `git memory context`, or a session asks for the memory
itself (the `memory_context` tool, a read of the memory root). Files count as committed on
the current branch when a session started. A rate that moved after an entry landed that
nothing delivered is not that entry's effect, so `impact` says `not read` instead of helped
or worse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from git_memory.assemble.constraints import as_constraint
from git_memory.assemble.entries import one_line
from git_memory.assemble.render import TARGET_FILES
from git_memory.impact.measure import SessionIndex
from git_memory.repo.file_history import Version, file_versions, files_named
from git_memory.sessions.activity import SessionActivity

INSTRUCTION_FILES = tuple(sorted({*TARGET_FILES.values(), ".claude/CLAUDE.md"}))
# The same files further down the tree: an agent working there loads them too.
INSTRUCTION_NAMES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md", "QWEN.md")
# Where the session-start hooks of docs/guide-context.md live, per agent.
HOOK_SETTINGS = (".claude/settings.json", ".gemini/settings.json", ".qwen/settings.json")
_CONTEXT_COMMAND = re.compile(r"\bmemory\s+context\b")
_CODE = re.compile(r"`([^`\n]+)`")
# Where a compound command line splits into the commands the team's own words may name
# one by one ("run `mise run fmt`, then `mise run lint`").
_STEPS = re.compile(r"\s*(?:&&|\|\||;|\|)\s*")
# How much of an entry's one-line form shows that an assembled block lists it (the block may
# cut a long line; its opening is always there).
OPENING_CHARS = 60


@dataclass(frozen=True)
class Marks:
    """What of an entry's text shows that a file holds it: the opening of its one-line
    form (an assembled block), or every code span of its first paragraph (the team's own
    words naming the same commands)."""

    openings: tuple[str, ...]
    spans: tuple[str, ...]

    @classmethod
    def of(cls, body: str) -> Marks:
        """The marks of an entry body: the opening of its line as the block lists it (a trap
        among the guardrails as a constraint) and its code spans."""
        first = body.strip().split("\n\n")[0]
        spans = tuple(flattened(span) for span in _CODE.findall(first) if len(span.strip()) > 2)
        line = one_line(body)
        openings = {flattened(text)[:OPENING_CHARS] for text in (line, as_constraint(line))}
        return cls(tuple(sorted(opening for opening in openings if opening)), spans)

    def held_by(self, text: str) -> bool:
        """Whether a normalized text holds the entry."""
        if any(opening in text for opening in self.openings):
            return True
        steps = [step for span in self.spans for step in _STEPS.split(span) if len(step) > 2]
        return bool(steps) and all(step.strip() in text for step in steps)


@dataclass(frozen=True)
class _Period:
    """From `start` (UTC seconds) until the next period: what the files held."""

    start: int
    instructions: str
    hooked: bool


class Deliveries:
    """What the instruction files and settings held, period by period, and which sessions
    asked for the memory themselves."""

    def __init__(
        self,
        versions: dict[str, list[Version]],
        sessions: Sequence[SessionActivity],
        memory_root: str,
    ) -> None:
        moments = sorted({moment for found in versions.values() for moment, _ in found})
        self.periods = [_period(versions, moment) for moment in moments]
        self.consulted = [
            number
            for number, session in enumerate(sessions)
            if any(_consults(call, memory_root) for call in session.calls)
        ]

    @classmethod
    def read(
        cls, repository: Any, sessions: Sequence[SessionActivity], memory_root: str, since: int
    ) -> Deliveries:
        """The deliveries of a repository's current branch from `since` (UTC seconds) on."""
        nested = files_named(repository, INSTRUCTION_NAMES)
        instructions = sorted({*INSTRUCTION_FILES, *nested})
        versions = file_versions(repository, [*instructions, *HOOK_SETTINGS], since)
        return cls(versions, sessions, memory_root)

    def reached(self, marks: Marks, landed: int, index: SessionIndex) -> bool:
        """Whether some session that started after `landed` had the entry: it asked for
        the memory, or started while a file the agents load held it (or a hook ran
        `git memory context`)."""
        cut = index.split(_moment(landed))
        if any(number >= cut for number in self.consulted):
            return True
        total = len(index.started)
        for number, period in enumerate(self.periods):
            following = self.periods[number + 1].start if number + 1 < len(self.periods) else None
            if following is not None and following <= landed:
                continue
            first = max(cut, index.split(_moment(period.start)))
            last = total if following is None else index.split(_moment(following))
            if first < last and (period.hooked or marks.held_by(period.instructions)):
                return True
        return False


def _period(versions: dict[str, list[Version]], moment: int) -> _Period:
    texts = {path: _in_effect(found, moment) or "" for path, found in versions.items()}
    instructions = " \n ".join(
        flattened(text) for path, text in sorted(texts.items()) if path not in HOOK_SETTINGS
    )
    hooked = any(_CONTEXT_COMMAND.search(texts.get(path, "")) for path in HOOK_SETTINGS)
    return _Period(moment, instructions, hooked)


def _in_effect(found: list[Version], moment: int) -> str | None:
    text = None
    for committed, version in found:
        if committed > moment:
            break
        text = version
    return text


def _consults(call: Any, memory_root: str) -> bool:
    """A call that reads approved memory: the `memory_context` tool (as each client names
    an MCP tool), `git memory context`, or a file of the memory root."""
    if "memory_context" in (call.name or ""):
        return True
    payload = call.input
    values = payload.values() if isinstance(payload, dict) else [payload]
    root = memory_root.rstrip("/") + "/"
    for value in values:
        if isinstance(value, str) and (
            _CONTEXT_COMMAND.search(value) or value.startswith(root) or f"/{root}" in value
        ):
            return True
    return False


def flattened(text: str) -> str:
    """Text as the marks compare it: code quotes and runs of space gone, case folded."""
    return " ".join(text.replace("`", " ").split()).casefold()


def _moment(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
