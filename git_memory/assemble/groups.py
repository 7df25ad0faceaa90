"""Which group of the context block an approved entry is shown in (data, not code).

An entry is shown under the first rule that matches it. A rule names entry types (empty: any
type) and a pattern searched in the entry's one-line text (None: any text). A new kind of
memory (for example a new typed renderer with a recognisable phrasing) slots in by adding a
rule here; nothing else changes. docs/guide-context.md lists the groups for users.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    """One section of the block: its key (used in reports) and its heading."""

    key: str
    title: str


@dataclass(frozen=True)
class GroupRule:
    """Entries of one of `types` (any when empty) whose text matches `pattern` go to `group`."""

    group: str
    pattern: re.Pattern[str] | None = None
    types: frozenset[str] = frozenset()

    def matches(self, entry_type: str, text: str) -> bool:
        """Whether an entry of `entry_type` with one-line `text` belongs to this rule's group."""
        if self.types and entry_type not in self.types:
            return False
        return self.pattern is None or self.pattern.search(text) is not None


# Display order of the groups in the block: guardrails (traps and prohibitions, stated as
# constraints) first (docs/guide-context.md, "Guardrails first").
GROUPS: tuple[Group, ...] = (
    Group("traps", "Do not (traps and prohibitions)"),
    Group("commands", "Commands that work"),
    Group("rules", "Rules the team stated"),
    Group("facts", "Facts about the project"),
)
# A rule that forbids: a guardrail, shown with the traps.
_PROHIBITION = r"^(?:the user said:\s*\W*)?(?:never|don'?t|do not|must not|mustn'?t|avoid)\b"

_FAILURE = (
    r"\b(?:fail(?:s|ed|ing|ure)?|errors?|crash(?:es|ed)?|breaks?|broke|refused"
    r"|trap|pitfall|gotcha)\b"
)
_RULE_START = (
    r"^(?:the user said:|always\b|never\b|don'?t\b|do not\b|must\b|prefer\b|avoid\b"
    r"|from now on\b|remember\b|we (?:use|always|never|prefer)\b|use\b.+\binstead of\b"
    r"|use\b[^,]+,\s*not\b"
    # conventions: "commits must carry the `X` trailer", "schema changes go through …"
    r"|[^.;:]{1,80}?\b(?:must|mustn'?t|should (?:always|never)|go(?:es)? through)\b)"
)
_COMMAND_PHRASE = (
    # `command-exit@1`, first and current phrasing
    r"^The \w+ command `[^`]+` succeeded"
    r"|^`[^`]+` (?:runs|lints|formats|type-checks|builds|regenerates|starts|checks)\b"
    r"|\(worked in \d+ sessions?\)"
)

GROUP_RULES: tuple[GroupRule, ...] = (
    # `command-fix@1` traps all start with "Trap: "
    GroupRule("traps", re.compile(r"^Trap:")),
    GroupRule("traps", re.compile(_PROHIBITION, re.IGNORECASE)),
    # `user-rule@1` quotes and rules written as rules
    GroupRule("rules", re.compile(_RULE_START, re.IGNORECASE)),
    # before the failure words: a successful command may be named `lint-errors`
    GroupRule("commands", re.compile(_COMMAND_PHRASE)),
    GroupRule("traps", re.compile(_FAILURE, re.IGNORECASE)),
    # a method that names a command in inline code
    GroupRule("commands", re.compile(r"`[^`]+`"), frozenset({"work_method"})),
    GroupRule("facts"),
)


def group_of(entry_type: str, text: str, rules: tuple[GroupRule, ...] = GROUP_RULES) -> str:
    """The key of the first group whose rule matches (the last rule should match anything)."""
    for rule in rules:
        if rule.matches(entry_type, text):
            return rule.group
    return GROUPS[-1].key
