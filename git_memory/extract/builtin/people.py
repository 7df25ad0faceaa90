"""Who ran a session: the person a fact's corroboration counts, from what the index holds.

No agent writes a user name into its transcripts (Claude Code's `userType` is `external` for
everyone; Codex, Gemini CLI, Qwen Code, Copilot CLI, Cursor and OpenCode record none), so a
person is known by the home directory their machine shows. The index keeps each turn's
working directory and every tool call's input and output. The working directory says
nothing here: a turn belongs to this worktree because it ran in it, so paths inside the
worktree are set aside. What is left names the machine's home where the agent reached
outside the repository (a module cache, a config file, a sibling checkout); the signals
below are read in order and the first that names a home decides. A session that names no
home but this machine's is this machine's user: sessions copied from teammates' machines
count as their people, and corroboration never invents people.

The name itself stays in the private state: only its digest is kept with a candidate, and
what a reviewer reads has every home and name rewritten (`formats/homes.py`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from git_memory.extract.quotes import strings_in
from git_memory.formats.homes import home_names, may_name_a_home

LOCAL = "local"
# How much of a tool output is looked at for a home (paths in a stack trace or a listing
# appear early; a large output is mostly the file or log it printed).
OUTPUT_HEAD = 4096


def _inputs(records: Sequence[Any]) -> Iterator[str]:
    """Paths the tools were given (`Read /home/bob/go/pkg/mod/…`, `cd /Users/alice/x`)."""
    for record in records:
        for call in record.tool_calls:
            yield from strings_in(call.input)


def _outputs(records: Sequence[Any]) -> Iterator[str]:
    """The head of each tool output (`/Users/carol/Library/Caches/…: permission denied`)."""
    for record in records:
        for call in record.tool_calls:
            if call.output:
                yield call.output[:OUTPUT_HEAD]


def _prompts(records: Sequence[Any]) -> Iterator[str]:
    """What the person typed or pasted (`see /Users/dave/Desktop/error.txt`)."""
    yield from (record.user_text for record in records if record.user_text)


# The signals, in order, with the example each was written from.
SIGNALS: tuple[tuple[str, Callable[[Sequence[Any]], Iterable[str]], str], ...] = (
    ("tool inputs", _inputs, "Read file_path: /Users/bob/go/pkg/mod/github.com/x/y.go"),
    ("tool outputs", _outputs, "open /home/carol/.cache/go-build/ab: permission denied"),
    ("the person's words", _prompts, "the log is in C:\\Users\\dave\\AppData\\Local\\app.log"),
)


def person_of(records: Sequence[Any], root: str, local_home: str) -> str:
    """The person who ran a session: a digest of the home's name its tools reached outside
    the worktree at `root`, or `LOCAL` (this machine's user, `local_home`)."""
    inside = root.rstrip("/\\") + "/"
    local = set(home_names(local_home.rstrip("/\\") + "/"))
    for _, texts, _ in SIGNALS:
        names: Counter[str] = Counter()
        for text in texts(records):
            if may_name_a_home(text):
                names.update(home_names(text.replace(inside, "")) - local)
        if names:
            top = max(sorted(names), key=lambda name: names[name])
            return hashlib.sha256(top.encode("utf-8")).hexdigest()[:16]
    return LOCAL


class _Said(NamedTuple):
    """A session's calls or one of its person's messages, in the shape `person_of` reads."""

    tool_calls: Sequence[Any]
    user_text: str | None


class ActivityPeople:
    """`person_of` for sessions known by their tool calls and their person's messages alone
    (what the index's activity holds), all run in the worktree at `root`.

    Most sessions reach no home outside the worktree, and one look at what they hold tells
    so; sessions repeat their calls and share one decoded input per distinct call, so each
    input is looked at once (by identity: the sessions keep them alive while this reads)."""

    def __init__(self, root: str, local_home: str) -> None:
        self.root, self.local_home = root, local_home
        self._inside = root.rstrip("/\\") + "/"
        self._inputs: dict[int, bool] = {}

    def person(self, calls: Sequence[Any], asks: Sequence[str]) -> str:
        """The person who ran a session of these calls and messages."""
        said = "\n".join([*(call.output[:OUTPUT_HEAD] for call in calls if call.output), *asks])
        if not (may_name_a_home(said) and self._names_a_home(said)) and not any(
            self._input_names_a_home(call.input) for call in calls
        ):
            return LOCAL
        records = [_Said(calls, None), *(_Said((), ask) for ask in asks)]
        return person_of(records, self.root, self.local_home)

    def _input_names_a_home(self, value: Any) -> bool:
        # A `repr` escapes no letter of a home's hint, so it hides none.
        key = id(value)
        if key not in self._inputs:
            self._inputs[key] = self._names_a_home(repr(value))
        return self._inputs[key]

    def _names_a_home(self, text: str) -> bool:
        return may_name_a_home(text) and may_name_a_home(text.replace(self._inside, ""))


def person_labels(people: Sequence[str]) -> list[str]:
    """A name a reader can use for each session's person: `you` for this machine's user,
    `teammate N` for the others, numbered in the order their first session came (their
    digests mean nothing to a reader, and their names stay private)."""
    numbers: dict[str, int] = {}
    for person in people:
        if person != LOCAL and person not in numbers:
            numbers[person] = len(numbers) + 1
    return ["you" if person == LOCAL else f"teammate {numbers[person]}" for person in people]
