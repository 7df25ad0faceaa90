"""Where a piece of a turn came from: typed by a person, a pasted document, a program's prompt,
the agent's own words, or a tool's output.

A turn's user text is not always something a person typed. The readers already drop what the
agents inject themselves (system reminders, hook output, meta records, compaction summaries);
what is left can still be a prompt a program wrote (a Codex `exec`/`mcp` session, an Agent
SDK entry point: the reader marks the whole session) or a document the person pasted: a plan
an agent wrote ("Implement the following plan"), a report, a benchmark task, any long prompt
with Markdown headings or code fences. Rules and stated facts come only from text typed by a
person; review shows every quote with its origin.
"""

from __future__ import annotations

import re

from git_memory.contracts.review import Origin

ORIGIN_WORDS: dict[str, str] = {
    "person": "typed by a person",
    "document": "a pasted document",
    "program": "a prompt a program wrote",
    "agent": "written by the agent",
    "tool": "a tool call and its output",
}

# Longer than this, a prompt is a pasted document rather than a message typed in a chat box.
MAX_TYPED_CHARS = 1200
# A heading starts a line, or follows on its line the sentence that introduces the section
# quoted ("… le chapitre suivant : ## Gouvernance"); there a single `#` is as often a number
# ("Reason: # of CVEs", "issue: #12").
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S|[:：][ \t]*#{2,6}[ \t]+\S", re.MULTILINE)
_FENCE = re.compile(r"^\s*(?:```|~~~)", re.MULTILINE)
_PASTED = re.compile(
    r"(?i)^\s*(?:implement the following plan|a previous agent produced the plan"
    r"|here is the plan|please implement (?:this|the following)|execute the following plan"
    r"|this session is being continued from a previous conversation"
    r"|base directory for this skill|<uploaded_files>|<pr_description>|<issue_description>"
    r"|<task>|i'?ve uploaded a (?:python )?code repository|consider the following pr description"
    r"|you are (?:an? )?(?:autonomous|expert|senior|helpful)\b)"
)
_PASTED_ANYWHERE = re.compile(
    r"(?i)\bthe plan below\b|\bfollowing (?:plan|report|audit|findings)\s*:|<uploaded_files>"
    # A persona's activation prompt ("You must fully embody this agent's persona … NEVER break
    # character", then `<agent-activation CRITICAL="TRUE">`): a tag with attributes is
    # markup a program wrote, not words typed in a chat box.
    r"|\bembody this agent'?s persona\b|<[a-z][\w-]*(?:\s+[\w-]+=\"[^\"]*\")+\s*>"
)


def typed_origin(text: str, program: bool = False) -> Origin:
    """The origin of a turn's user text: `program` when a program drove the session,
    `document` when it reads as pasted (a plan, a report, a long or structured prompt),
    else `person`."""
    if program:
        return "program"
    if (
        len(text) > MAX_TYPED_CHARS
        or _HEADING.search(text)
        or _FENCE.search(text)
        or _PASTED.match(text)
        or _PASTED_ANYWHERE.search(text)
    ):
        return "document"
    return "person"
