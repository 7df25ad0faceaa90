"""Skills, scenes and doctrine read from a real memory root as recall context sources."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.skills.recall_context import build_memory_context, build_skill_context
from git_memory.skills.sources import parse_memory_files
from tests.repos import Repo

SKILL = '---\nname: "{name}"\ndescription: "Does {name}."\n---\n## Steps\n- go\n'
SCENE = (
    "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
    'summary: "Releases"\nheat: 4\n-----META-END-----\n## Releases\n- tag'
)


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/skills/release/SKILL.md", SKILL.format(name="release"))
    repo.write(".memory/scenes/release-flow.md", SCENE)
    repo.write(".memory/doctrine.md", "- Small commits.\n")
    return repo


def test_sources_carry_file_digests(memory: Repo) -> None:
    sources = parse_memory_files(memory.root, ".memory")
    [skill] = sources.skills
    [scene] = sources.scenes
    assert skill.name == "release"
    assert skill.description == "Does release."
    assert skill.content_digest == hashlib.sha256(SKILL.format(name="release").encode()).hexdigest()
    assert (scene.name, scene.heat, scene.summary) == ("release-flow", 4, "Releases")
    assert scene.document == SCENE
    assert sources.doctrine is not None
    assert sources.doctrine.content_digest == hashlib.sha256(b"- Small commits.\n").hexdigest()
    skills = build_skill_context(sources.skills, None).to_json()
    assert skills["items"][0]["document"] == SKILL.format(name="release")
    memory_context = build_memory_context(sources.scenes, sources.doctrine, [], None).to_json()
    assert [item["kind"] for item in memory_context["items"]] == ["scene", "doctrine"]


def test_malformed_and_misnamed_files_are_format_errors(memory: Repo) -> None:
    memory.write(".memory/skills/other/SKILL.md", SKILL.format(name="release"))
    with pytest.raises(GitMemoryError) as caught:
        parse_memory_files(memory.root, ".memory")
    assert caught.value.code == "GM_FORMAT_SKILL_BINDING_DRIFT"
    assert caught.value.details["path"] == "skills/other/SKILL.md"
    (memory.root / ".memory/skills/other/SKILL.md").unlink()
    memory.write(".memory/scenes/broken.md", "no meta\n")
    with pytest.raises(GitMemoryError) as broken:
        parse_memory_files(memory.root, ".memory")
    assert broken.value.code == "GM_FORMAT_MISSING_META"


def test_empty_memory_root(repo: Repo) -> None:
    sources = parse_memory_files(repo.root, ".memory")
    assert (sources.skills, sources.scenes, sources.doctrine) == ([], [], None)
