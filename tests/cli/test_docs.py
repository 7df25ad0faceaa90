"""The documents in docs/ keep up with the code: error codes, contracts, links."""

from __future__ import annotations

import re
from pathlib import Path

from git_memory.contracts.catalog import contract_models, format_of, schema_filename
from tests.conftest import PROJECT_ROOT

DOCS = PROJECT_ROOT / "docs"
PACKAGE = PROJECT_ROOT / "git_memory"
# A code as the package spells it: a quoted literal, or the quoted start of an f-string
# (`f"PREFIX_{name}"`), which leaves a family prefix ending in `_`.
QUOTED_CODE = re.compile(r"[\"'](GM_[A-Z0-9_]+)")
DOCUMENTED_CODE = re.compile(r"`(GM_[A-Z0-9_]+)(\*?)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def package_codes() -> tuple[set[str], set[str]]:
    """(exact codes, family prefixes) found in the package source."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for token in QUOTED_CODE.findall(path.read_text(encoding="utf-8")):
            if token == "GM_":  # the generic `startswith` check in errors.py
                continue
            (prefixes if token.endswith("_") else exact).add(token)
    return exact, prefixes


def documented_codes(text: str) -> tuple[set[str], set[str]]:
    """(exact codes, family prefixes written as `PREFIX_*`) in backticks in `text`."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    for code, star in DOCUMENTED_CODE.findall(text):
        (prefixes if star else exact).add(code)
    return exact, prefixes


def test_package_code_scan_finds_codes_and_families() -> None:
    exact, prefixes = package_codes()
    assert len(exact) > 100
    assert prefixes, "the f-string families (lint rules, conformance checks) were not found"
    assert all(code.startswith("GM_") and not code.endswith("_") for code in exact)


def test_every_error_code_is_in_troubleshooting() -> None:
    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    exact, prefixes = package_codes()
    doc_exact, doc_prefixes = documented_codes(text)
    missing = sorted(exact - doc_exact)
    assert missing == [], f"document these codes in docs/troubleshooting.md: {missing}"
    missing_families = sorted(prefixes - doc_prefixes)
    assert missing_families == [], f"document these families as `PREFIX_*`: {missing_families}"


def test_every_lint_rule_code_is_in_troubleshooting() -> None:
    from git_memory.lint.rules import LINT_CODES

    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    doc_exact, _ = documented_codes(text)
    assert sorted(set(LINT_CODES) - doc_exact) == []


def test_troubleshooting_names_no_code_the_package_lacks() -> None:
    from git_memory.lint.rules import LINT_CODES

    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    exact, prefixes = package_codes()
    doc_exact, doc_prefixes = documented_codes(text)
    known = exact | set(LINT_CODES)
    stale = sorted(
        code
        for code in doc_exact
        if code not in known and not any(code.startswith(p) for p in prefixes)
    )
    assert stale == [], f"docs/troubleshooting.md names codes nothing raises: {stale}"
    # A group heading such as `PREFIX_*` must name codes that exist.
    empty = sorted(p for p in doc_prefixes if not any(c.startswith(p) for c in known | prefixes))
    assert empty == [], f"docs/troubleshooting.md names empty code groups: {empty}"


def test_code_scan_sees_a_code_missing_from_a_document() -> None:
    # The check above must be able to fail: a document without one code is caught.
    exact, _ = package_codes()
    some = sorted(exact)[0]
    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    doc_exact, _ = documented_codes(text.replace(f"`{some}`", "`removed`"))
    assert some in exact - doc_exact


def contract_rows(text: str) -> dict[str, str]:
    """format string -> linked schema file, from the rows of the contracts table."""
    rows: dict[str, str] = {}
    for line in text.splitlines():
        found = re.match(r"\| `([^`]+)` \| \[[^\]]+\]\(\.\./git_memory/schemas/([^)]+)\) \|", line)
        if found:
            rows[found.group(1)] = found.group(2)
    return rows


def test_every_contract_is_in_contracts_md() -> None:
    rows = contract_rows((DOCS / "contracts.md").read_text(encoding="utf-8"))
    expected = {format_of(model): schema_filename(model) for model in contract_models()}
    missing = sorted(set(expected) - set(rows))
    assert missing == [], f"add these contracts to docs/contracts.md: {missing}"
    for fmt, filename in expected.items():
        assert rows[fmt] == filename, fmt
    assert sorted(set(rows) - set(expected)) == [], "docs/contracts.md lists unknown contracts"


def test_relative_links_in_docs_resolve() -> None:
    broken = []
    for document in [*DOCS.glob("*.md"), PROJECT_ROOT / "README.md"]:
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (document.parent / target).exists():
                broken.append(f"{document.name}: {target}")
    assert broken == []


def test_index_lists_every_document() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = {Path(target).name for target in LINK.findall(index)}
    present = {path.name for path in DOCS.glob("*.md")} - {"index.md"}
    assert sorted(present - linked) == []


def test_tests_named_in_privacy_md_exist() -> None:
    text = (DOCS / "privacy.md").read_text(encoding="utf-8")
    files = set(re.findall(r"`(tests/[\w/]+\.py)", text))
    assert files, "privacy.md names the tests that keep each promise"
    missing_files = sorted(f for f in files if not (PROJECT_ROOT / f).is_file())
    assert missing_files == []
    sources = "\n".join((PROJECT_ROOT / f).read_text(encoding="utf-8") for f in sorted(files))
    names = set(re.findall(r"\b(test_\w+)`", text))
    missing = sorted(n for n in names if f"def {n}(" not in sources)
    assert missing == [], f"privacy.md names tests that do not exist: {missing}"
