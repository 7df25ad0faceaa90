"""Codex memories: the handbook `$CODEX_HOME/memories/MEMORY.md`, read for one repository.

Codex (when its memories feature is on) consolidates what it learned in past sessions into
one handbook for all projects of a person. The file is a run of blocks, each opened by a
`# Task Group: <name>` heading, a `scope:` line and an `applies_to: cwd=<path>; reuse_rule=…`
line, then `## Task <n>` sections holding routing data (`### rollout_summary_files` and
`### keywords`), then the block's know-how in `## User preferences`, `## Reusable knowledge`
and `## Failures and how to do differently` (the consolidation template,
codex-rs/memories/write/templates/memories/consolidation.md).

A block belongs to this repository when one of its `applies_to` working directories is the
repository's root or lies below it. Only the bullets of its three know-how sections are items,
filed as the section says (preferences are rules, reusable knowledge facts, failures traps).
A preference in the template's shape (`when <situation>, the user asked / corrected:
"<quote>" -> <default>`) offers the situation and default as the rule and keeps the quote as
the person's words. `[Task <n>]` references (and `[ad-hoc note]` tags) point inside the
handbook and are dropped from the text; the sessions of the tasks they name are kept beside it
(`codex_routing.py`), cited when the sessions index holds them. `codex_layout.py` says what
else of the folder is read and what never is.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from git_memory.agent_memory.codex_routing import (
    Sessions,
    SummaryReader,
    joined,
    task_sessions,
)
from git_memory.agent_memory.items import MemoryItem, split_items

HANDBOOK = "MEMORY.md"
PREFERENCES = "User preferences"
# Each know-how section and what its bullets are, as the consolidation template describes
# them: the person's preferences and corrections are rules, validated facts and procedures
# are facts, "symptom -> cause -> fix" failure shields are traps.
SECTION_KINDS = {
    PREFERENCES: "rule",
    "Reusable knowledge": "fact",
    "Failures and how to do differently": "trap",
}
SECTIONS = tuple(SECTION_KINDS)
# Headings under which Codex writes routing data, never know-how (the same template).
ROUTING_SECTIONS = frozenset({"rollout_summary_files", "keywords"})
_GROUP = re.compile(r"^# Task Group:", re.MULTILINE)
_APPLIES = re.compile(r"^applies_to:\s*(.*)$", re.MULTILINE)
_CWD = re.compile(r"cwd=(.+?)(?=\s+and\s+cwd=|\s*,\s*cwd=|\s*;|\s*$)")
_REFS = re.compile(r"(?:\s*\[(?:Task \d+|ad-hoc note)\])+")
_TASK_REF = re.compile(r"\[Task (\d+)\]")
_MARK = re.compile(r"\s*\[\[sessions (\d+)\]\]")
# The template's preference shape; the quote in straight or typographic quotes.
_PREFERENCE = re.compile(
    r"^when\s+(?P<situation>.+?),\s*the user\s+(?:asked|corrected)(?:\s*(?:/|or)\s*"
    r"(?:asked|corrected))?\s*:\s*[\"“](?P<said>[^\"”]+)[\"”]\s*(?:->|→)\s*(?P<default>\S.*)$",
    re.IGNORECASE | re.DOTALL,
)


def _no_summaries(_name: str) -> str | None:
    return None


def has_task_groups(text: str) -> bool:
    """Whether the text holds a `# Task Group:` block (the handbook's documented layout)."""
    return _GROUP.search(text) is not None


def split_handbook(
    store: str,
    file: str,
    text: str,
    roots: tuple[Path, ...],
    read_summary: SummaryReader = _no_summaries,
) -> list[MemoryItem]:
    """The know-how bullets of the handbook's blocks that apply to one of `roots`."""
    text = text.replace("\r\n", "\n")
    starts = [match.start() for match in _GROUP.finditer(text)] + [len(text)]
    sessions: list[Sessions] = []
    mine = "\n".join(
        _refs_marked(block, task_sessions(block, read_summary), sessions)
        for block in (text[start:end] for start, end in pairwise(starts))
        if _applies_here(block, roots)
    )
    items: list[MemoryItem] = []
    for section in SECTIONS:
        for item in split_items(store, file, mine, section):
            items += _know_how(item, section, sessions)
    return items


def split_registry(store: str, file: str, text: str) -> list[MemoryItem]:
    """The items of a legacy per-directory registry (plain Markdown notes of that directory),
    without the routing lists Codex keeps beside know-how."""
    routing = {i.key for name in ROUTING_SECTIONS for i in split_items(store, file, text, name)}
    return [item for item in split_items(store, file, text) if item.key not in routing]


def _refs_marked(block: str, tasks: dict[str, Sessions], sessions: list[Sessions]) -> str:
    """The block with each `[Task <n>]` reference replaced by a mark of that task's sessions."""

    def mark(match: re.Match[str]) -> str:
        sessions.append(tasks.get(match.group(1), Sessions()))
        return f"[[sessions {len(sessions) - 1}]]"

    return _TASK_REF.sub(mark, block)


def _know_how(item: MemoryItem, section: str, sessions: list[Sessions]) -> list[MemoryItem]:
    """The item without its references, with the sessions they name and its section's kind."""
    cited = joined(sessions[int(number)] for number in _MARK.findall(item.text))
    cleaned = _REFS.sub("", _MARK.sub("", item.text)).strip()
    if not cleaned:
        return []
    kind = SECTION_KINDS[section]
    found = replace(item, text=cleaned, threads=cited.threads, rollouts=cited.rollouts, kind=kind)
    return [_with_person(found) if section == PREFERENCES else found]


def _with_person(item: MemoryItem) -> MemoryItem:
    """A preference in the template's shape: the person's quote apart, the rule its
    situation and default."""
    match = _PREFERENCE.match(item.text)
    if match is None:
        return item
    situation, default = match.group("situation").strip(), match.group("default").strip()
    return replace(item, said=match.group("said").strip(), offered=f"When {situation}, {default}")


def working_directories(block: str) -> list[str]:
    """The `cwd=` paths of a block's `applies_to:` line."""
    match = _APPLIES.search(block)
    return [cwd.strip() for cwd in _CWD.findall(match.group(1))] if match else []


def _applies_here(block: str, roots: tuple[Path, ...]) -> bool:
    for cwd in working_directories(block):
        if not os.path.isabs(cwd):
            continue  # `cwd=unknown` or a workflow name: no repository of its own
        path = Path(os.path.normpath(cwd))
        if any(path.is_relative_to(root) for root in roots):
            return True
    return False
