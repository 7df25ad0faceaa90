"""`git memory lint`, `fmt` and `reindex` in real repositories."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo

SECRET = "AKIAIOSFODNN7EXAMPLE"


def entry(entry_id: str, body: str) -> str:
    return serialize_entry(Entry(id=entry_id, body=body))


def memory(gm: Any, repo: Repo) -> Path:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/good.md", entry("good", "clean note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    return repo.root / ".memory"


def test_clean_root_passes(gm: Any, repo: Repo) -> None:
    memory(gm, repo)
    result = gm(["lint"], cwd=repo.root)
    assert (result.exit_code, result.stdout) == (0, "lint: clean (2 files checked)\n")


def test_text_json_and_sarif_outputs(gm: Any, repo: Repo) -> None:
    root = memory(gm, repo)
    (root / "entries" / "bad.md").write_text(entry("bad", f"key {SECRET}\nmail dev@example.com\n"))
    text = gm(["lint"], cwd=repo.root)
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    assert (
        ".memory/entries/bad.md:16:5: BLOCK GM_LINT_AWS_ACCESS_KEY AWS access key id" in (lines[0])
    )
    assert lines[1].startswith(".memory/entries/bad.md:17:6: WARN GM_LINT_EMAIL")
    assert any("WARN GM_INDEX_STALE" in line for line in lines)
    assert SECRET not in text.stdout
    doc = gm(["lint", "--format", "json"], cwd=repo.root).json()
    assert set(doc) == {"format", "files", "blocked"}
    assert doc["format"] == "git-memory-lint@v1"
    assert doc["blocked"] is True
    bad = next(f for f in doc["files"] if f["path"] == ".memory/entries/bad.md")
    assert set(bad["findings"][0]) == {"code", "severity", "line", "column", "excerpt", "message"}
    sarif = json.loads(gm(["lint", "--format", "sarif"], cwd=repo.root).stdout)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    first = next(r for r in results if r["ruleId"] == "GM_LINT_AWS_ACCESS_KEY")
    assert first["level"] == "error"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".memory/entries/bad.md"
    assert location["region"] == {"startLine": 16, "startColumn": 5}
    rules = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"GM_LINT_AWS_ACCESS_KEY", "GM_LINT_EMAIL", "GM_INDEX_STALE"} <= rules


def test_warnings_alone_pass(gm: Any, repo: Repo) -> None:
    root = memory(gm, repo)
    (root / "entries" / "good.md").write_text(entry("good", "mail dev@example.com\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    result = gm(["lint"], cwd=repo.root)
    assert result.exit_code == 0
    assert "WARN GM_LINT_EMAIL" in result.stdout


def test_staged_reads_the_index_not_the_worktree(gm: Any, repo: Repo) -> None:
    root = memory(gm, repo)
    (root / "entries" / "good.md").write_text(entry("good", f"key {SECRET}\n"))
    repo.git("add", ".memory")
    (root / "entries" / "good.md").write_text(entry("good", "clean note\n"))
    assert gm(["lint"], cwd=repo.root).exit_code == 0
    staged = gm(["lint", "--staged", "--format", "json"], cwd=repo.root)
    assert staged.exit_code == 1
    assert staged.json()["blocked"] is True
    repo.git("add", ".memory")
    assert gm(["lint", "--staged"], cwd=repo.root).exit_code == 0


def test_staged_symlink_and_worktree_symlink_block(gm: Any, repo: Repo, tmp_path: Path) -> None:
    root = memory(gm, repo)
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    os.symlink(outside, root / "entries" / "link.md")
    result = gm(["lint"], cwd=repo.root)
    assert result.exit_code == 1
    assert ".memory/entries/link.md:1:1: BLOCK GM_LINT_SYMLINK" in result.stdout
    repo.git("add", ".memory")
    assert "GM_LINT_SYMLINK" in gm(["lint", "--staged"], cwd=repo.root).stdout


def test_paths_select_and_are_checked(gm: Any, repo: Repo) -> None:
    root = memory(gm, repo)
    (root / "entries" / "bad.md").write_text(entry("bad", f"{SECRET}\n"))
    only_good = gm(["lint", ".memory/entries/good.md"], cwd=repo.root)
    assert (only_good.exit_code, only_good.stdout) == (0, "lint: clean (1 file checked)\n")
    directory = gm(["lint", "entries"], cwd=root)
    assert directory.exit_code == 1
    outside = gm(["lint", "README.md"], cwd=repo.root)
    assert outside.exit_code == 2, "a usage error, told apart from blocking findings (1)"
    assert "GM_PATH_OUTSIDE_MEMORY_ROOT" in outside.stderr
    missing = gm(["lint", ".memory/entries/nope.md"], cwd=repo.root)
    assert "GM_PATH_NOT_FOUND" in missing.stderr


def test_fmt_check_lists_then_rewrites(gm: Any, repo: Repo) -> None:
    root = memory(gm, repo)
    path = root / "entries" / "good.md"
    canonical = path.read_text()
    messy = canonical.replace("limitations: []", "limitations: [\n]").replace(
        "scope: repo", 'scope: "repo"'
    )
    path.write_text(messy)
    index_before = (root / "index.json").read_bytes()
    check = gm(["fmt", "--check"], cwd=repo.root)
    assert check.exit_code == 1
    assert check.stdout == ".memory/entries/good.md: not canonical\n"
    assert path.read_text() == messy
    assert gm(["fmt"], cwd=repo.root).exit_code == 0
    assert path.read_text() == canonical
    assert (root / "index.json").read_bytes() == index_before
    assert gm(["fmt", "--check"], cwd=repo.root).exit_code == 0


def test_fmt_lists_unparsable_files_and_refuses_symlinks(
    gm: Any, repo: Repo, tmp_path: Path
) -> None:
    root = memory(gm, repo)
    (root / "entries" / "broken.md").write_text("no frontmatter\n")
    result = gm(["fmt", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1
    assert result.json()["invalid"][0]["code"] == "GM_FORMAT_MISSING_FRONTMATTER"
    (root / "entries" / "broken.md").unlink()
    target = tmp_path / "t.md"
    target.write_text(entry("x", "y\n"))
    os.symlink(target, root / "entries" / "x.md")
    refused = gm(["fmt"], cwd=repo.root)
    assert refused.exit_code == 1
    assert "GM_SYMLINK_REFUSED" in refused.stderr


def test_original_tool_root_is_canonical(gm: Any, repo: Repo) -> None:
    import shutil

    from tests.conftest import FIXTURES

    shutil.copytree(FIXTURES / "original-memory" / ".threadshare", repo.root / ".threadshare")
    check = gm(["fmt", "--check"], cwd=repo.root)
    assert (check.exit_code, check.stdout) == (0, "")
    lint = gm(["lint", "--format", "json"], cwd=repo.root).json()
    findings = [(f["path"], x["code"]) for f in lint["files"] for x in f["findings"]]
    # The original tool never updates its placeholder index: only that is reported.
    assert findings == [(".threadshare/memory/index.json", "GM_INDEX_STALE")]
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    assert gm(["lint"], cwd=repo.root).stdout.startswith("lint: clean (")


def test_reindex_check_and_missing_root(gm: Any, repo: Repo) -> None:
    missing = gm(["reindex"], cwd=repo.root)
    assert missing.exit_code == 1
    assert "GM_NO_MEMORY_ROOT" in missing.stderr
    root = memory(gm, repo)
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code == 0
    (root / "entries" / "second.md").write_text(entry("second", "another\n"))
    stale = gm(["reindex", "--check", "--format", "json"], cwd=repo.root)
    assert stale.exit_code == 1
    assert stale.json()["changed"] is True
    written = gm(["reindex"], cwd=repo.root)
    assert "regenerated" in written.stdout
    assert '"id": "second"' in (root / "index.json").read_text()


def test_lint_never_changes_git_state(gm: Any, repo: Repo) -> None:
    memory(gm, repo)
    repo.git("add", ".memory")
    before = repo.snapshot()
    gm(["lint", "--staged"], cwd=repo.root)
    gm(["lint"], cwd=repo.root)
    assert repo.snapshot() == before


def test_pre_commit_framework_paths_outside_the_root_are_nothing_to_check(
    gm: Any, repo: Repo
) -> None:
    """The framework passes every file its `files:` pattern matches, e.g. a
    `.threadshare/memory/` file in a `.memory` repository: nothing to check there."""
    root = memory(gm, repo)
    hook = (PROJECT_ROOT / ".pre-commit-hooks.yaml").read_text()
    hook_entry = next(line for line in hook.splitlines() if line.strip().startswith("entry:"))
    argv = hook_entry.split(":", 1)[1].split()
    assert argv[:2] == ["git-memory", "lint"]
    repo.write(".threadshare/memory/entries/old.md", "not a memory file of this root\n")
    others = gm([*argv[1:], ".threadshare/memory/entries/old.md", "README.md"], cwd=repo.root)
    assert (others.exit_code, others.stdout) == (0, "lint: clean (0 files checked)\n")
    (root / "entries" / "bad.md").write_text(entry("bad", f"{SECRET}\n"))
    mixed = gm([*argv[1:], "README.md", ".memory/entries/bad.md"], cwd=repo.root)
    assert mixed.exit_code == 1, "memory files among them are still linted"
    assert "lint: 1 blocking finding(s)" in mixed.stdout
