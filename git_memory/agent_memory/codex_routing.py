"""Which Codex sessions a handbook task names: its rollout summaries and rollout files.

Each `## Task <n>` of a `# Task Group:` block lists under `### rollout_summary_files` the
rollout summaries it was consolidated from, one bullet each: `rollout_summaries/<stem>.md
(cwd=<path>, rollout_path=<path>, updated_at=<time>, thread_id=<id>, <note>)` (the
consolidation template, codex-rs/memories/write/templates/memories/consolidation.md, which
requires only `cwd`, `rollout_path` and `updated_at`). The summary file opens with
`thread_id:`, `updated_at:`, `rollout_path:`, `cwd:` and `git_branch:` lines before a blank
line (codex-rs/memories/write/src/storage.rs; older versions wrote `thread_id`, `updated_at`
and `cwd`, or the first two only). Its name has carried the thread id (`<thread_id>.md`,
`<thread_id>-<slug>.md`, `<time>-<thread_id>-<slug>.md`) or only a short hash of it
(`<time>-<4 characters>-<slug>.md`), and a rollout file's name ends with its thread id
(`rollout-<time>-<thread_id>.jsonl`).

A task's sessions are the thread ids and rollout paths any of these name: the bullet's own
fields, and when one is missing the summary's header lines, then the ids in the names. Only
a summary's header is read: its recap is never an item.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Reads `rollout_summaries/<name>` of the store (None when it is not there or not readable).
SummaryReader = Callable[[str], str | None]
_TASK = re.compile(r"^## Task (\d+)\b[^\n]*\n(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
_ROUTING = re.compile(
    r"^### rollout_summary_files[ \t]*\n(.*?)(?=^#{1,3} |\Z)", re.MULTILINE | re.DOTALL
)
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$", re.MULTILINE)
_SUMMARY = re.compile(r"rollout_summaries/([^\s`<>()\[\],/\\]+\.md)")
_THREAD = re.compile(r"\bthread_id=([0-9A-Za-z-]+)")
_ROLLOUT = re.compile(r"\brollout_path=(.+?\.jsonl(?:\.zst)?)(?=[,)\s]|$)")
_HEADER = re.compile(r"^(thread_id|rollout_path|cwd|updated_at|git_branch):[ \t]*(\S.*?)\s*$")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass(frozen=True)
class Sessions:
    """The Codex sessions a task names: thread ids and rollout file paths."""

    threads: tuple[str, ...] = ()
    rollouts: tuple[str, ...] = ()


def joined(found: Iterable[Sessions]) -> Sessions:
    """Every thread id and rollout path of `found`, each once, in order."""
    found = list(found)
    return Sessions(
        tuple(dict.fromkeys(t for s in found for t in s.threads)),
        tuple(dict.fromkeys(r for s in found for r in s.rollouts)),
    )


def task_sessions(block: str, read_summary: SummaryReader) -> dict[str, Sessions]:
    """Task number → the sessions its `### rollout_summary_files` name."""
    tasks: dict[str, Sessions] = {}
    for number, body in _TASK.findall(block):
        routing = _ROUTING.search(body)
        lines = _BULLET.findall(routing.group(1)) if routing else []
        tasks[number] = joined(_bullet_sessions(line, read_summary) for line in lines)
    return tasks


def _bullet_sessions(line: str, read_summary: SummaryReader) -> Sessions:
    threads = _THREAD.findall(line)
    rollouts = _ROLLOUT.findall(line)
    for name in _SUMMARY.findall(line):
        if not (threads and rollouts):
            header = summary_header(read_summary(name) or "")
            threads += header.get("thread_id", [])
            rollouts += header.get("rollout_path", [])
        threads += _UUID.findall(name)
    threads += [t for path in rollouts for t in _UUID.findall(os.path.basename(path))]
    rollouts = [os.path.normpath(path) for path in rollouts if os.path.isabs(path)]
    return joined([Sessions(tuple(threads), tuple(rollouts))])


def summary_header(text: str) -> dict[str, list[str]]:
    """The `field: value` lines a rollout summary opens with (up to its first blank line)."""
    found: dict[str, list[str]] = {}
    for line in text.replace("\r\n", "\n").split("\n"):
        match = _HEADER.match(line)
        if match is None:
            break
        found.setdefault(match.group(1), []).append(match.group(2))
    return found
