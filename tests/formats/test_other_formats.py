"""Scenes, doctrine, SKILL.md, index.json and slugs (docs/formats.md)."""

from __future__ import annotations

import json

import pytest

from git_memory.errors import FormatError
from git_memory.formats.doctrine import parse_doctrine, serialize_doctrine
from git_memory.formats.index_json import build_index, parse_index, summarize
from git_memory.formats.normalize import normalize_text
from git_memory.formats.scene import parse_scene, serialize_scene
from git_memory.formats.skill_md import parse_skill, serialize_skill
from git_memory.formats.slug import allocate_entry_id, slugify
from tests.conftest import FIXTURES

ORIGINAL = FIXTURES / "original-memory" / ".threadshare" / "memory"
SCENE = (
    "-----META-START-----\ncreated: 2026-08-21\nupdated: 2026-08-21\n"
    'summary: "Memory pipeline"\nheat: 1\n-----META-END-----\n## Heading\n- bullet'
)
SKILL = '---\nname: "demo"\ndescription: "Do the demo."\n---\n## Steps\n'


def code_of(parser: object, text: str) -> str:
    with pytest.raises(FormatError) as caught:
        parser(text)  # type: ignore[operator]
    return caught.value.code


def test_original_scene_and_skill_round_trip() -> None:
    scene_text = (ORIGINAL / "scenes" / "team-memory-design.md").read_text(encoding="utf-8")
    assert serialize_scene(parse_scene(scene_text)) == scene_text
    skill_path = ORIGINAL / "skills" / "threadshare-stable-release" / "SKILL.md"
    skill_text = skill_path.read_text(encoding="utf-8")
    assert serialize_skill(parse_skill(skill_text)) == skill_text


def test_scene_normalizes_crlf_and_trailing_blanks() -> None:
    messy = SCENE.replace("\n", "  \r\n")
    assert serialize_scene(parse_scene(messy)) == SCENE


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("## no meta\n", "GM_FORMAT_MISSING_META"),
        ("-----META-START-----\ncreated: 2026-01-01\n", "GM_FORMAT_UNTERMINATED_META"),
        (SCENE.replace("heat: 1", "heat: 0"), "GM_FORMAT_META_INVALID_FIELD"),
        (SCENE.replace('"Memory pipeline"', '"' + "x" * 41 + '"'), "GM_FORMAT_META_INVALID_FIELD"),
        (
            SCENE.replace("2026-08-21\nupdated", "2026-02-30\nupdated"),
            "GM_FORMAT_META_INVALID_FIELD",
        ),
        (SCENE.replace("heat: 1", "heat: 1\nowner: x"), "GM_FORMAT_META_UNKNOWN_FIELD"),
        (SCENE.replace("heat: 1\n", ""), "GM_FORMAT_META_MISSING_FIELD"),
        (SCENE.replace("heat: 1", "heat 1"), "GM_FORMAT_META_INVALID_LINE"),
        (SCENE + "x" * 1500, "GM_FORMAT_SCENE_BODY_TOO_LONG"),
        ("\ufeff" + SCENE, "GM_FORMAT_BOM_NOT_ALLOWED"),
        (SCENE.replace("\n## Heading", "\r## Heading"), "GM_FORMAT_BARE_CR_NOT_ALLOWED"),
    ],
)
def test_scene_errors(text: str, code: str) -> None:
    assert code_of(parse_scene, text) == code


def test_doctrine_limits_count_code_points() -> None:
    assert parse_doctrine("🙂" * 1200).text == "🙂" * 1200
    assert code_of(parse_doctrine, "x" * 1201) == "GM_FORMAT_DOCTRINE_TOO_LONG"
    assert code_of(parse_doctrine, " \n\t\n") == "GM_FORMAT_DOCTRINE_EMPTY"
    assert serialize_doctrine(parse_doctrine("# D  \r\n- a\t\n")) == "# D\n- a\n"


def test_normalize_counts_zwj_sequences_as_several() -> None:
    family = "👨\u200d👩\u200d👧"
    assert len(normalize_text(family)) == 5


def test_skill_body_gets_newline_and_limits() -> None:
    assert parse_skill("---\nname: demo\ndescription: d\n---\nbody").body == "body\n"
    assert parse_skill(f'---\nname: "x"\ndescription: "d"\n---\n{"x" * 65535}').body
    big = f'---\nname: "x"\ndescription: "d"\n---\n{"x" * 65536}'
    assert code_of(parse_skill, big) == "GM_FORMAT_SKILL_BODY_TOO_LARGE"


def test_skill_keeps_optional_keys() -> None:
    text = SKILL.replace("\n---\n##", '\nlicense: "MIT"\nmetadata: {"a":1}\n---\n##')
    skill = parse_skill(text)
    assert dict(skill.extra) == {"license": '"MIT"', "metadata": '{"a":1}'}
    assert parse_skill(serialize_skill(skill)) == skill


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not a skill", "GM_FORMAT_SKILL_INVALID"),
        (SKILL.replace('"demo"', '"Demo!"'), "GM_FORMAT_SKILL_NAME_INVALID"),
        (SKILL.replace('"Do the demo."', '"a <b>"'), "GM_FORMAT_SKILL_DESCRIPTION_INVALID"),
        (SKILL.replace('"Do the demo."', '" padded"'), "GM_FORMAT_SKILL_DESCRIPTION_INVALID"),
        (SKILL.replace("name:", "title:"), "GM_FORMAT_UNKNOWN_FIELD"),
        (SKILL.replace('name: "demo"', 'name: "demo"\nname: "demo"'), "GM_FORMAT_DUPLICATE_KEY"),
        (SKILL.replace('name: "demo"', "name: demo # x"), "GM_FORMAT_COMMENT_NOT_ALLOWED"),
        (SKILL.replace('name: "demo"', "Name: demo"), "GM_FORMAT_INVALID_LINE"),
        (SKILL.replace("## Steps\n", ""), "GM_FORMAT_SKILL_BODY_EMPTY"),
        ("\ufeff" + SKILL, "GM_FORMAT_BOM_NOT_ALLOWED"),
        (SKILL.replace("\n", "\r\n"), "GM_FORMAT_CRLF_NOT_ALLOWED"),
    ],
)
def test_skill_errors(text: str, code: str) -> None:
    assert code_of(parse_skill, text) == code


def test_slugify_folds_and_cuts() -> None:
    assert slugify("Café Déjà-vu!") == "cafe-deja-vu"
    assert slugify("a" * 59 + " next") == "a" * 59
    assert slugify("稳定发布") == ""
    assert slugify("Don't run the team’s seed") == "dont-run-the-teams-seed"
    assert slugify("say 'hello' twice") == "say-hello-twice"
    cjk = (ORIGINAL / "entries").glob("0-7-x*.md")
    assert next(cjk).stem == slugify(
        "0.7.x 稳定发布只包含 macOS/Linux 四个 Insights Engine 目标；"
        "Windows 保留 core CLI，明确不发布或签名 Windows Engine"
    )


def test_allocate_entry_id_suffixes_and_fallback() -> None:
    digest = "ab12cd34" + "0" * 56
    assert allocate_entry_id("稳定发布", set(), digest) == "entry-ab12cd34"
    assert allocate_entry_id("Use ruff", {"use-ruff"}, digest) == "use-ruff-2"
    assert allocate_entry_id("Use ruff", {"use-ruff", "use-ruff-2"}, digest) == "use-ruff-3"
    long_id = allocate_entry_id("b" * 80, {"b" * 60}, digest)
    assert long_id == "b" * 58 + "-2"


def test_an_entry_id_names_the_statement_not_its_closing_remark() -> None:
    digest = "ab12cd34" + "0" * 56
    text = "`uv run pytest` runs the tests (worked in 3 sessions)."
    assert allocate_entry_id(text, set(), digest) == "uv-run-pytest-runs-the-tests"
    assert allocate_entry_id("Use uv (not pip)", set(), digest) == "use-uv"
    # A remark inside the sentence stays; a text that is only a remark keeps its words.
    assert allocate_entry_id("Run (once) the seed", set(), digest) == "run-once-the-seed"
    assert allocate_entry_id("(see the runbook)", set(), digest) == "see-the-runbook"
    assert allocate_entry_id("(稳定发布)", set(), digest) == "entry-ab12cd34"


def test_index_build_is_sorted_and_parses() -> None:
    files = {
        p.relative_to(ORIGINAL).as_posix(): p.read_text(encoding="utf-8")
        for p in ORIGINAL.rglob("*.md")
    }
    built = build_index(files)
    assert built.skipped == []
    index = parse_index(built.data)
    assert [e["id"] for e in index.entries] == sorted(e["id"] for e in index.entries)
    assert len(index.entries) == 25
    assert index.scenes[0] == {
        "name": "team-memory-design",
        "heat": 1,
        "summary": "Threadshare memory pipeline",
    }
    assert index.skills[0]["name"] == "threadshare-stable-release"
    assert build_index(dict(reversed(list(files.items())))).data == built.data
    lines = built.data.decode().split("\n")
    assert all(json.loads(line.strip().rstrip(",")) for line in lines if line.startswith("    {"))


def test_index_skips_unparsable_and_parses_original_placeholder() -> None:
    built = build_index({"entries/bad.md": "nope", "notes.txt": "x"})
    assert built.skipped == ["entries/bad.md"]
    assert parse_index((ORIGINAL / "index.json").read_text()).entries == ()
    assert code_of(parse_index, '{"format": "other"}') == "GM_FORMAT_INDEX_INVALID"
    assert code_of(parse_index, '{"format": "git-memory-index@v1", "entries": {}}') == (
        "GM_FORMAT_INDEX_INVALID"
    )


def test_summary_is_first_line_without_markers() -> None:
    assert summarize("\n## Heading here\n- b\n") == "Heading here"
    assert len(summarize("x" * 500)) == 120
