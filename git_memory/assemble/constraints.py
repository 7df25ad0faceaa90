"""Traps stated as constraints, for the block's first group (docs/guide-context.md,
"Guardrails first").

Agents follow rules written as constraints ("do not …") better than positive directives, so
the block opens with its guardrails and words a trap as one: what not to do, what happens,
what to run instead. The shapes are the builtin runner's trap renderers
(`extract/builtin/renderers.py`, `command-fix@1`), one row each; a trap of another shape, or
a prohibition a person wrote ("Never …", "Do not …"), is shown as written.
"""

from __future__ import annotations

import re

# (the trap as `command-fix@1` renders it, the same trap as a constraint); `fail` is the
# renderer's failure clause (` with "…"` or nothing).
_CODE = r"`(?P<failing>[^`]+)`"
_FAIL = r"(?P<fail>(?: with \"[^\"]*\")?)"
CONSTRAINT_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(rf"^Trap: {_CODE} fails{_FAIL}; run `(?P<fix>[^`]+)` instead\.$"),
        "Do not run `{failing}`: it fails{fail}; run `{fix}`.",
    ),
    (
        re.compile(rf"^Trap: {_CODE} fails{_FAIL} unless `(?P<fix>[^`]+)` runs first\.$"),
        "Do not run `{failing}` before `{fix}`: it fails{fail}.",
    ),
    (
        re.compile(rf"^Trap: {_CODE} fails{_FAIL} until the file `(?P<fix>[^`]+)` is written\.$"),
        "Do not run `{failing}` before the file `{fix}` is written: it fails{fail}.",
    ),
    (
        re.compile(
            rf"^Trap: {_CODE} is refused by the repository's hook{_FAIL} "
            r"until `(?P<fix>[^`]+)` has run\.$"
        ),
        "Do not run `{failing}` before `{fix}`: the repository's hook refuses it{fail}.",
    ),
)


def as_constraint(text: str) -> str:
    """`text` (one line) as a constraint when it has a trap shape this table knows, else as
    written."""
    for pattern, form in CONSTRAINT_FORMS:
        match = pattern.match(text)
        if match is not None:
            return form.format(**match.groupdict())
    return text
