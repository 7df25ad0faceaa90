"""index.json repeats entry ids: a slug that looks random is allowed there as in its file."""

from __future__ import annotations

from git_memory.formats.index_json import render_index
from git_memory.lint.engine import blocked, lint_text

SLUG = "commit-2ff943adc0d57f68b31833a55008ed56057dc46b-changed-src"


def test_entry_ids_in_the_index_do_not_block() -> None:
    text = render_index(
        entries=[
            {
                "id": SLUG,
                "type": "work_fact",
                "scene": None,
                "priority": 60,
                "summary": "Commit changed a file.",
            }
        ]
    ).decode()
    findings = lint_text("index.json", text)
    assert not blocked(findings), findings


def test_a_secret_in_an_index_summary_still_blocks() -> None:
    text = render_index(
        entries=[
            {
                "id": "deploy",
                "type": "work_fact",
                "scene": None,
                "priority": 60,
                "summary": "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
            }
        ]
    ).decode()
    assert blocked(lint_text("index.json", text))
