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
from typing import Any

from git_memory.extract.quotes import strings_in
from git_memory.formats.homes import home_names

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
            names.update(home_names(text.replace(inside, "")) - local)
        if names:
            top = max(sorted(names), key=lambda name: names[name])
            return hashlib.sha256(top.encode("utf-8")).hexdigest()[:16]
    return LOCAL
