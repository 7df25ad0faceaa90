"""Codex memories: the handbook `$CODEX_HOME/memories/MEMORY.md`, read for one repository.

Codex (when its memories feature is on) consolidates what it learned in past sessions into
one handbook for all projects of a person. The file is a run of blocks, each opened by a
`# Task Group: <name>` heading, a `scope:` line and an `applies_to: cwd=<path>; reuse_rule=…`
line, then `## Task <n>` sections holding routing data (`### rollout_summary_files`, whose
bullets carry rollout paths and thread ids, and `### keywords`), then the block's know-how
in `## User preferences`, `## Reusable knowledge` and `## Failures and how to do differently`.

A block belongs to this repository when one of its `applies_to` working directories is the
repository's root or lies below it. Only the bullets of its three know-how sections are items,
filed as the section says (preferences are rules, reusable knowledge facts, failures traps);
their `[Task <n>]` references (and `[ad-hoc note]` tags) point inside the handbook and are
dropped from the text, the thread ids of the tasks they name kept beside it (the Codex sessions
the item was learned in, cited when the sessions index holds them). `memory_summary.md` (a
profile of the person across all projects), `raw_memories.md`, `rollout_summaries/` and
`skills/` are never read.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from git_memory.agent_memory.items import MemoryItem, split_items

HANDBOOK = "MEMORY.md"
# Each know-how section and what its bullets are, as the consolidation template describes
# them: the person's preferences and corrections ("when <situation>, the user asked /
# corrected: \"<quote>\" -> <default>") are rules, validated facts and procedures are facts,
# "symptom -> cause -> fix" failure shields are traps.
SECTION_KINDS = {
    "User preferences": "rule",
    "Reusable knowledge": "fact",
    "Failures and how to do differently": "trap",
}
SECTIONS = tuple(SECTION_KINDS)
_GROUP = re.compile(r"^# Task Group:", re.MULTILINE)
_APPLIES = re.compile(r"^applies_to:\s*(.*)$", re.MULTILINE)
_CWD = re.compile(r"cwd=(.+?)(?=\s+and\s+cwd=|\s*,\s*cwd=|\s*;|\s*$)")
_REFS = re.compile(r"(?:\s*\[(?:Task \d+|ad-hoc note)\])+")
_TASK = re.compile(r"^## Task (\d+)\b[^\n]*\n(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
_THREAD = re.compile(r"thread_id=([0-9A-Za-z-]+)")
_TASK_REF = re.compile(r"\[Task (\d+)\]")
_MARK = re.compile(r"\s*\[\[threads ([^\]]*)\]\]")


def split_handbook(store: str, file: str, text: str, roots: tuple[Path, ...]) -> list[MemoryItem]:
    """The know-how bullets of the handbook's blocks that apply to one of `roots`."""
    text = text.replace("\r\n", "\n")
    starts = [match.start() for match in _GROUP.finditer(text)] + [len(text)]
    blocks = [text[start:end] for start, end in pairwise(starts)]
    mine = "\n".join(_threads_marked(b) for b in blocks if _applies_here(b, roots))
    items: list[MemoryItem] = []
    for section in SECTIONS:
        for item in split_items(store, file, mine, section):
            threads = tuple(dict.fromkeys(t for m in _MARK.findall(item.text) for t in m.split()))
            cleaned = _REFS.sub("", _MARK.sub("", item.text)).strip()
            if cleaned:
                kind = SECTION_KINDS[section]
                items.append(replace(item, text=cleaned, threads=threads, kind=kind))
    return items


def _threads_marked(block: str) -> str:
    """The block with each `[Task <n>]` reference replaced by the thread ids that task's
    `### rollout_summary_files` name, so every item keeps the sessions it was learned in."""
    threads: dict[str, list[str]] = {}
    for number, body in _TASK.findall(block):
        threads[number] = _THREAD.findall(body)
    return _TASK_REF.sub(lambda m: f"[[threads {' '.join(threads.get(m.group(1), []))}]]", block)


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
