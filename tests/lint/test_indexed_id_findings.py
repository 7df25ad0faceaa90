"""Known session ids are found whatever their case, shape or the characters before them."""

from __future__ import annotations

from git_memory.lint.home import indexed_id_findings, present_ids

UUID_ID = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
OTHER_ID = "rollout-2026-11-20t09-00-00-abcdef"


def test_ids_of_any_shape_are_found_in_any_case() -> None:
    text = f"run `claude --resume {UUID_ID.upper()}`\nthen open {OTHER_ID}.jsonl\n"
    ids = frozenset({UUID_ID, OTHER_ID, "0f9619ff-8b86-d011-b42d-00c04fc964ff"})
    assert present_ids(text, ids) == sorted([UUID_ID, OTHER_ID])


def test_findings_point_at_the_id_after_characters_that_lowercase_longer() -> None:
    # "İ".lower() is two characters: lowering the whole text would shift every column.
    text = f"İİİ `{UUID_ID}`"
    [finding] = indexed_id_findings(text, [UUID_ID])
    assert (finding.line, finding.column) == (1, 6)
    assert finding.code == "GM_LINT_PROVIDER_SESSION_ID"
    assert finding.blocks
    assert UUID_ID not in finding.excerpt


def test_an_id_not_in_the_set_is_not_reported() -> None:
    assert present_ids(f"resume {UUID_ID}", frozenset({OTHER_ID})) == []
