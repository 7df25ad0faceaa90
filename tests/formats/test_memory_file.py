"""One loader of memory files: the kind comes from the path and the file is bound to it."""

from __future__ import annotations

import pytest

from git_memory.errors import FormatError
from git_memory.formats.entry import Entry, serialize_entry
from git_memory.formats.memory_file import load_memory_file
from git_memory.formats.skill_md import Skill

SKILL = '---\nname: "demo"\ndescription: "A demo."\n---\nbody\n'


def _code(relpath: str, data: bytes | str) -> str:
    with pytest.raises(FormatError) as caught:
        load_memory_file(relpath, data)
    return caught.value.code


def test_an_entry_is_loaded_by_its_path_and_bound_to_its_file_name() -> None:
    text = serialize_entry(Entry(id="sample-entry", body="Run the tests.\n"))
    loaded = load_memory_file("entries/sample-entry.md", text.encode())
    assert isinstance(loaded, Entry)
    assert loaded.id == "sample-entry"
    assert _code("entries/other-name.md", text) == "GM_FORMAT_ID_MISMATCH"


def test_a_skill_is_bound_to_its_directory() -> None:
    loaded = load_memory_file("skills/demo/SKILL.md", SKILL)
    assert isinstance(loaded, Skill)
    assert _code("skills/other/SKILL.md", SKILL) == "GM_FORMAT_SKILL_BINDING_DRIFT"


def test_bytes_must_be_utf8_and_other_paths_are_not_memory_files() -> None:
    assert _code("entries/sample-entry.md", b"\xff\xfe") == "GM_FORMAT_INVALID_UTF8"
    assert load_memory_file("index.json", b"{}") is None
    assert load_memory_file("notes/readme.md", "text") is None
