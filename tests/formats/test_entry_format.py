"""Entry dialect (docs/formats.md): framing, values, fields, canonical form, original files."""

from __future__ import annotations

import pytest

from git_memory.errors import FormatError
from git_memory.formats.entry import Commit, Entry, Evidence, parse_entry, serialize_entry
from tests.conftest import FIXTURES

ORIGINAL = FIXTURES / "original-memory" / ".threadshare" / "memory"
CANONICAL = (
    "---\nid: sample\ntype: work_method\nstatus: approved\npriority: 90\nconfidence: high\n"
    "provenance_strength: direct\nclaim_support: human-confirmed\n"
    'limitations: ["source-local-only"]\nscope: repo\nscene: release-readiness\noccurred: []\n'
    'evidence: {"commits":[],"paths":[]}\nsuperseded_by: null\n---\nA body.\n'
)


def fm(**overrides: str) -> str:
    """CANONICAL with some frontmatter lines replaced (value None drops the line)."""
    lines = CANONICAL.split("\n")
    for key, value in overrides.items():
        index = next(i for i, line in enumerate(lines) if line.startswith(f"{key}: "))
        lines[index] = f"{key}: {value}"
    return "\n".join(lines)


def error(text: str) -> FormatError:
    with pytest.raises(FormatError) as caught:
        parse_entry(text)
    return caught.value


def test_original_tool_entries_round_trip_byte_for_byte() -> None:
    paths = sorted((ORIGINAL / "entries").glob("*.md"))
    assert len(paths) == 25
    for path in paths:
        text = path.read_text(encoding="utf-8")
        entry = parse_entry(text)
        assert entry.id == path.stem
        assert serialize_entry(entry) == text


def test_canonical_round_trip_and_fields() -> None:
    entry = parse_entry(CANONICAL)
    assert entry.priority == 90
    assert entry.limitations == ("source-local-only",)
    assert entry.scene == "release-readiness"
    assert entry.body == "A body.\n"
    assert serialize_entry(entry) == CANONICAL


def test_multiline_json_collapses_to_canonical() -> None:
    text = CANONICAL.replace(
        'limitations: ["source-local-only"]', 'limitations: [\n  "source-local-only"\n]'
    )
    assert serialize_entry(parse_entry(text)) == CANONICAL


def test_field_order_is_canonicalized() -> None:
    lines = CANONICAL.split("\n")
    swapped = [lines[0], lines[2], lines[1], *lines[3:]]
    assert serialize_entry(parse_entry("\n".join(swapped))) == CANONICAL


def test_strings_are_quoted_only_when_needed() -> None:
    entry = parse_entry(CANONICAL)._replace(scene="  padded # scene ")
    text = serialize_entry(entry)
    assert 'scene: "  padded # scene "' in text
    assert parse_entry(text) == entry
    for tricky in ("true", "42", "[x]", '"q', "a\nb", "8.5"):
        again = entry._replace(scene=tricky)
        assert parse_entry(serialize_entry(again)) == again


@pytest.mark.parametrize("scope", ["path:web", "path:services/api", "path:pkg_1/v2.0", "path:."])
def test_a_path_scope_names_a_worktree_directory(scope: str) -> None:
    entry = parse_entry(fm(scope=scope))
    assert entry.scope == scope
    assert parse_entry(serialize_entry(entry)) == entry


def test_empty_frontmatter_is_missing_fields() -> None:
    assert error("---\n---\n").code == "GM_FORMAT_MISSING_FIELD"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\ufeff" + CANONICAL, "GM_FORMAT_BOM_NOT_ALLOWED"),
        (CANONICAL.replace("\n", "\r\n"), "GM_FORMAT_CRLF_NOT_ALLOWED"),
        ("id: x\n", "GM_FORMAT_MISSING_FRONTMATTER"),
        ("---\nid: x\n---", "GM_FORMAT_UNTERMINATED_FRONTMATTER"),
        ("---\n" + "a: b\n" * 513 + "---\n", "GM_FORMAT_TOO_MANY_LINES"),
        ("---\n" + ("a: " + "b" * 8000 + "\n") * 9 + "---\n", "GM_FORMAT_FRONTMATTER_TOO_LARGE"),
        ("---\na: " + "b" * 8200 + "\n---\n", "GM_FORMAT_LINE_TOO_LONG"),
        (fm(evidence="[" * 17 + "]" * 17), "GM_FORMAT_JSON_TOO_DEEP"),
        (fm(scope="repo extra:"), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:../outside"), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:/etc"), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:web/"), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:web/../.."), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:"), "GM_FORMAT_INVALID_FIELD"),
        (fm(scope="path:./web"), "GM_FORMAT_INVALID_FIELD"),
        (CANONICAL.replace("scope: repo", "scope:repo"), "GM_FORMAT_INVALID_LINE"),
        (CANONICAL.replace("scope: repo", "scope:  "), "GM_FORMAT_INVALID_LINE"),
        (
            CANONICAL.replace("scope: repo\n", "scope: repo\nscope: repo\n"),
            "GM_FORMAT_DUPLICATE_KEY",
        ),
        (fm(occurred="[2026-08-12]"), "GM_FORMAT_INVALID_JSON_VALUE"),
        (fm(limitations='["a",]'), "GM_FORMAT_INVALID_JSON_VALUE"),
        (fm(limitations='["a"'), "GM_FORMAT_UNTERMINATED_JSON"),
        (fm(scene="release # note"), "GM_FORMAT_COMMENT_NOT_ALLOWED"),
        (CANONICAL.replace("scope: repo\n", "scope: repo\nowner: me\n"), "GM_FORMAT_UNKNOWN_FIELD"),
        (CANONICAL.replace("scope: repo\n", ""), "GM_FORMAT_MISSING_FIELD"),
        (fm(claim_support="unverified"), "GM_FORMAT_UNVERIFIED_CLAIM_SUPPORT"),
        (fm(priority="085"), "GM_FORMAT_INVALID_FIELD"),
        (fm(priority="8.5"), "GM_FORMAT_INVALID_FIELD"),
        (fm(priority="101"), "GM_FORMAT_INVALID_FIELD"),
        (fm(priority="true"), "GM_FORMAT_INVALID_FIELD"),
        (fm(id="Bad_Id"), "GM_FORMAT_INVALID_FIELD"),
        (fm(type="work_note"), "GM_FORMAT_INVALID_FIELD"),
        (fm(occurred='["2026-02-30"]'), "GM_FORMAT_INVALID_FIELD"),
        (fm(limitations='[""]'), "GM_FORMAT_INVALID_FIELD"),
        (fm(scene='""'), "GM_FORMAT_INVALID_FIELD"),
        (fm(evidence='{"commits":[]}'), "GM_FORMAT_INVALID_FIELD"),
        (
            fm(evidence='{"commits":[{"repo":"r","hash":"ABC"}],"paths":[]}'),
            "GM_FORMAT_INVALID_FIELD",
        ),
        (fm(superseded_by="Not A Slug"), "GM_FORMAT_INVALID_FIELD"),
        (fm(limitations='"\\ud800"'), "GM_FORMAT_INVALID_JSON_VALUE"),
        (fm(priority="NaN"), "GM_FORMAT_INVALID_FIELD"),
    ],
)
def test_error_codes(text: str, code: str) -> None:
    assert error(text).code == code


def test_error_points_at_the_line() -> None:
    assert error(fm(scene="release # note")).line == 11


def test_integral_json_numbers_are_integers() -> None:
    assert parse_entry(fm(priority="9e1")).priority == 90


def test_evidence_and_dates_round_trip() -> None:
    entry = Entry(
        id="with-evidence",
        occurred=("2026-02-28", "2024-02-29"),
        evidence=Evidence(
            commits=(Commit("github.com/org/repo", "3f786850e387550fdab836ed7e6dc881de23001b"),),
            paths=("src/app.py",),
        ),
        body="x\n",
    )
    text = serialize_entry(entry)
    assert '"commits":[{"repo":"github.com/org/repo","hash":"3f78' in text
    assert parse_entry(text) == entry


def test_serialize_refuses_cr_body() -> None:
    with pytest.raises(FormatError) as caught:
        serialize_entry(Entry(id="x", body="a\r\n"))
    assert caught.value.code == "GM_FORMAT_CRLF_NOT_ALLOWED"
