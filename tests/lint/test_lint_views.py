"""Issue 42 L1–L5 through the lint: folded, joined, rendered and decoded views block what
they hide; hashes where hashes are written and the joiners scripts need pass."""

from __future__ import annotations

import pytest

from git_memory.formats.entry import Entry, serialize_entry
from git_memory.lint.engine import lint_text
from git_memory.lint.fold import lookalikes
from git_memory.lint.fragments import joined_runs
from tests.lint.views_samples import BLOCKING, KEY, L5, SECRETS, pieces


def _entry(body: str) -> str:
    return serialize_entry(Entry(id="note", body=body))


def _body_line() -> int:
    return _entry("Notes.\n").split("\n").index("Notes.") + 1


@pytest.mark.parametrize("name", sorted(BLOCKING))
def test_each_hidden_secret_blocks_at_its_line(name: str) -> None:
    line, code = BLOCKING[name]
    findings = lint_text("entries/note.md", _entry(f"Notes.\n{line}\nMore notes.\n"))
    matching = [f for f in findings if f.code == code and f.blocks]
    assert matching, findings
    first = _body_line() + 1
    assert {f.line for f in matching} <= set(range(first, first + line.count("\n") + 1))
    for finding in findings:
        assert len(finding.excerpt) <= 24
        assert not any(secret in finding.excerpt for secret in SECRETS)


@pytest.mark.parametrize("name", sorted(L5))
def test_ordinary_text_with_hashes_and_script_joiners_passes(name: str) -> None:
    findings = lint_text("entries/note.md", _entry(L5[name] + "\n"))
    assert [f for f in findings if f.blocks] == []


def test_a_commit_this_repository_has_passes_and_another_hex_still_blocks() -> None:
    known = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
    text = _entry(f"Bisected to {known} and {known[::-1]}.\n")
    blocking = [f for f in lint_text("entries/note.md", text) if f.blocks]
    assert [f.code for f in blocking] == ["GM_LINT_HEX_TOKEN", "GM_LINT_HEX_TOKEN"]
    only_known = lint_text("entries/note.md", text, known_commit=lambda hex_id: hex_id == known)
    assert [f.code for f in only_known if f.blocks] == ["GM_LINT_HEX_TOKEN"]


def test_a_key_after_words_that_name_no_hash_still_blocks() -> None:
    hex40 = "5d41402abc4b2a76b9719d911017c592a9f1c3e7"
    for words in ("the signing key is", "fixed in", "deploy token"):
        findings = lint_text("entries/note.md", _entry(f"{words} {hex40}\n"))
        assert "GM_LINT_HEX_TOKEN" in {f.code for f in findings if f.blocks}, words


def test_a_joiner_between_latin_letters_is_still_hiding() -> None:
    for joiner in ("\u200c", "\u200d"):
        findings = lint_text("entries/note.md", _entry(f"Run the te{joiner}sts.\n"))
        assert "GM_LINT_INVISIBLE_CHARACTER" in {f.code for f in findings if f.blocks}


def test_prose_and_word_lists_never_join() -> None:
    wrapped = (
        "The release workflow must run the full verification suite before tagging\n"
        "a version and the engine keeps its state in sqlite with write ahead logging\n"
        "| name | value |\n| retries | 3 |\n| timeout | 30s |\n"
        "- pytest\n- ruff\n- mypy\n"
        'cmd = "git" + " " + "status"\n'
    )
    assert list(joined_runs(wrapped)) == []
    assert [f for f in lint_text("entries/note.md", _entry(wrapped)) if f.blocks] == []


def test_a_joined_run_reports_the_key_at_its_first_fragment() -> None:
    body = "Notes.\n" + "\n".join(pieces(KEY, 15)) + "\n"
    [run] = list(joined_runs(body))
    assert run.joined == KEY
    assert body[run.start : run.end].replace("\n", "") == KEY


def test_the_lookalike_table_maps_only_non_ascii_to_ascii() -> None:
    table = lookalikes()
    assert len(table) > 500
    assert all(not source.isascii() for source in table)
    assert all(target.isascii() and target.isalnum() for target in table.values())
    # Case and digits are kept: a Cyrillic capital I reads as I, a small one as i.
    assert table["\u0406"] == "I"
    assert table["\u0430"] == "a"
