"""Lint by file kind: format errors block, id and evidence spans, skill lint."""

from __future__ import annotations

from pathlib import Path

from git_memory.formats.entry import Commit, Entry, Evidence, serialize_entry
from git_memory.lint.engine import blocked, lint_bytes, lint_text
from tests.conftest import FIXTURES

ORIGINAL = FIXTURES / "original-memory" / ".threadshare" / "memory"
COMMIT = "3f786850e387550fdab836ed7e6dc881de23001b"
RANDOM_SLUG = "a7fk9mq2xvbz8crt4ywpl6nhe3sdgu1ozq5j"


def entry_text(body: str, **fields: object) -> str:
    values: dict[str, object] = {"id": "sample-entry", "body": body}
    values.update(fields)
    return serialize_entry(Entry(**values))  # type: ignore[arg-type]


def codes(relpath: str, text: str) -> list[str]:
    return [f.code for f in lint_text(relpath, text)]


def test_cjk_body_is_clean() -> None:
    assert codes("entries/sample-entry.md", entry_text("发布流程只包含四个目标。\n")) == []


def test_email_in_entry_warns_only() -> None:
    findings = lint_text("entries/sample-entry.md", entry_text("ask dev@example.com\n"))
    assert [f.code for f in findings] == ["GM_LINT_EMAIL"]
    assert not blocked(findings)


def test_github_token_in_entry_blocks() -> None:
    text = entry_text("token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n")
    assert blocked(lint_text("entries/sample-entry.md", text))


def test_hex64_in_body_blocks_but_evidence_hash_is_exempt() -> None:
    evidence = Evidence(commits=(Commit("github.com/org/repo", COMMIT),))
    clean = entry_text("see the commit\n", evidence=evidence)
    assert codes("entries/sample-entry.md", clean) == []
    # the entry's own evidence commit is public wherever the entry names it; another hash warns
    in_body = entry_text(f"see {COMMIT}\n", evidence=evidence)
    assert codes("entries/sample-entry.md", in_body) == []
    other = entry_text(f"see {'f' * 39}1\n", evidence=evidence)
    assert codes("entries/sample-entry.md", other) == ["GM_LINT_POSSIBLE_ENCODED_SECRET"]
    secret = entry_text("secret " + "0123456789abcdef" * 4 + "\n", evidence=evidence)
    assert "GM_LINT_HIGH_ENTROPY" in codes("entries/sample-entry.md", secret)


def test_id_span_is_exempt_but_the_same_token_in_body_blocks() -> None:
    relpath = f"entries/{RANDOM_SLUG}.md"
    assert codes(relpath, entry_text("plain body\n", id=RANDOM_SLUG)) == []
    text = entry_text(f"again {RANDOM_SLUG}\n", id=RANDOM_SLUG)
    assert codes(relpath, text) == ["GM_LINT_HIGH_ENTROPY"]


def test_format_error_is_a_blocking_finding() -> None:
    [finding] = lint_text("entries/broken.md", "---\nid: broken\n---\nbody\n")
    assert (finding.code, finding.severity, finding.line) == ("GM_FORMAT_MISSING_FIELD", "block", 1)
    assert len(finding.message) <= 120


def test_unverified_claim_support_blocks() -> None:
    text = entry_text("x\n").replace("claim_support: mixed", "claim_support: unverified")
    assert codes("entries/sample-entry.md", text) == ["GM_FORMAT_UNVERIFIED_CLAIM_SUPPORT"]


def test_id_must_match_file_name() -> None:
    assert codes("entries/other-name.md", entry_text("x\n")) == ["GM_FORMAT_ID_MISMATCH"]


def test_format_error_and_secret_both_reported() -> None:
    found = codes("entries/x.md", "---\nid: x\n---\nAKIAIOSFODNN7EXAMPLE\n")
    assert found == ["GM_FORMAT_MISSING_FIELD", "GM_LINT_AWS_ACCESS_KEY"]


def test_skill_lint_reports_token_and_session_path() -> None:
    text = (
        '---\nname: "demo"\ndescription: "A demo."\n---\n'
        "use npm_12345678901234567890 from ~/.claude/projects/\n"
    )
    assert codes("skills/demo/SKILL.md", text) == [
        "GM_LINT_NPM_TOKEN",
        "GM_LINT_PROVIDER_SESSION_ID",
    ]


def test_not_a_skill_blocks() -> None:
    assert codes("skills/demo/SKILL.md", "not a skill") == ["GM_FORMAT_SKILL_INVALID"]


def test_skill_directory_must_match_name() -> None:
    text = '---\nname: "demo"\ndescription: "A demo."\n---\nbody\n'
    assert codes("skills/other/SKILL.md", text) == ["GM_FORMAT_SKILL_BINDING_DRIFT"]


def test_scene_name_must_be_a_slug() -> None:
    text = (ORIGINAL / "scenes" / "team-memory-design.md").read_text(encoding="utf-8")
    assert codes("scenes/Bad_Name.md", text) == ["GM_FORMAT_NAME_INVALID"]


def test_invalid_utf8_blocks() -> None:
    [finding] = lint_bytes("entries/x.md", b"---\n\xff\n")
    assert finding.code == "GM_FORMAT_INVALID_UTF8"


def test_malformed_index_blocks() -> None:
    assert codes("index.json", "{not json") == ["GM_FORMAT_INDEX_INVALID"]


def test_original_tool_files_are_clean() -> None:
    files = sorted(p for p in ORIGINAL.rglob("*") if p.is_file())
    assert len(files) > 20
    for path in files:
        relpath = path.relative_to(ORIGINAL).as_posix()
        assert lint_bytes(relpath, path.read_bytes()) == [], relpath


def test_doctrine_too_long_blocks(tmp_path: Path) -> None:
    assert codes("doctrine.md", "x" * 1201) == ["GM_FORMAT_DOCTRINE_TOO_LONG"]
    assert codes("doctrine.md", "🙂" * 1200) == []
