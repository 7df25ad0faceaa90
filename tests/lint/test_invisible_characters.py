"""Issue 27 item 7: invisible characters (every format character, Unicode tags, zero-width
space, soft hyphen) never reach a memory file, CLAUDE.md or `context`, and wherever a person
reviews they are shown escaped."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

import pytest

from git_memory.assemble.run import file_diff
from git_memory.consolidate.review_text import _diff
from git_memory.formats.controls import (
    HIDDEN,
    escape_controls,
    escape_json_controls,
    invisible_pattern,
)
from git_memory.mcp.tools import document_text
from git_memory.promote.plan import PlannedFile, unified_diff
from tests.assemble.test_assemble_command import write_entry
from tests.lint.attacks import TAGS
from tests.repos import Repo

SHOWN_TAGS = "".join(f"\\U{ord(c):08x}" for c in TAGS)
HOSTILE = f"Run the tests first.{TAGS} Then\u200b push, tes\u00adted\ufeff.\n"
ESCAPED = f"Run the tests first.{SHOWN_TAGS} Then\\u200b push, tes\\xadted\\ufeff."


def test_every_format_character_is_blocked_and_escaped() -> None:
    """The hard-coded classes hold every Cf character this interpreter knows, and the tags."""
    for code in [*range(0x110000)]:
        char = chr(code)
        if unicodedata.category(char) == "Cf" or 0xE0000 <= code <= 0xE007F:
            assert invisible_pattern().fullmatch(char) or HIDDEN.fullmatch(char), hex(code)
            assert escape_controls(char) != char, hex(code)
    assert sys.maxunicode == 0x10FFFF


def test_plan_assemble_and_consolidation_diffs_show_them_escaped() -> None:
    planned = PlannedFile(".memory/entries/a.md", None, HOSTILE.encode())
    for diff in (
        unified_diff([planned]),
        file_diff("CLAUDE.md", b"before\n", HOSTILE.encode()),
        _diff("doctrine.md", "before\n", HOSTILE),
    ):
        assert ESCAPED in diff
        assert not invisible_pattern().search(diff), repr(diff)


@pytest.mark.parametrize(
    "render", [document_text, lambda d: escape_json_controls(json.dumps(d, ensure_ascii=False))]
)
def test_json_for_a_person_escapes_them_and_keeps_the_document(render: Any) -> None:
    document = {"claim": HOSTILE, "nested": [{"text": TAGS}]}
    text = render(document)
    assert not invisible_pattern().search(text)
    assert "\\u200b" in text
    assert "\\udb40\\udc69" in text
    assert json.loads(text) == document


def test_they_never_reach_context_or_claude_md(repo: Repo, gm: Any) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_entry(repo, "no-pip", "Never pip install into the system interpreter.")
    write_entry(repo, "hidden", f"Run the tests first.{TAGS}")
    linted = gm(["lint"], cwd=repo.root)
    assert linted.exit_code == 1
    assert "BLOCK GM_LINT_INVISIBLE_CHARACTER" in linted.stdout
    printed = gm(["context"], cwd=repo.root)
    assert "Never pip install" in printed.stdout
    assert not invisible_pattern().search(printed.stdout + printed.stderr)
    assert "Run the tests first" not in printed.stdout
    gm(["assemble", "--provider", "claude"], cwd=repo.root)
    written = repo.root / "CLAUDE.md"
    assert not written.exists() or not invisible_pattern().search(
        written.read_text(encoding="utf-8")
    )


def test_the_approval_question_shows_them_escaped() -> None:
    from git_memory.mcp.elicitation import Question

    message = Question(f"Promote 1 entry: {TAGS}", HOSTILE).message()
    assert not invisible_pattern().search(message)
    assert SHOWN_TAGS in message
    assert ESCAPED in message
