"""`git memory demo` runs the main job in its own sandbox and touches nothing of the user's."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from git_memory.assemble.constraints import as_constraint
from tests.conftest import run_cli


def _listing(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def test_demo_writes_memory_files_and_the_claude_block(
    gm_proc: Any, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    before = {name: _listing(path) for name, path in hermetic_env.items()}
    keep = tmp_path / "kept"
    result = gm_proc(["demo", "--keep", str(keep)], cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr + result.stdout
    out = result.stdout
    for step in (
        "1. built",
        "2. indexed",
        "3. builtin runner",
        "5. prepared promotion plan",
        "6. promoted",
        "7. assembled CLAUDE.md",
    ):
        assert step in out
    repository = keep / "repository"
    entries = sorted((repository / ".memory" / "entries").glob("*.md"))
    assert entries, "the demo promotes entry files"
    text = "\n".join(p.read_text() for p in entries)
    assert "`uv run pytest` runs the tests" in text, "the passing test command became a typed fact"
    # the last step prints the block, and the block carries every promoted entry
    printed = [line[5:] for line in out.splitlines() if line.startswith("   | ")]
    claude_md = (repository / "CLAUDE.md").read_text()
    assert printed == claude_md.splitlines()
    assert out.index("7. assembled CLAUDE.md") > out.index("memory files written")
    assert (repository / "AGENTS.md").read_text() == claude_md
    for path in entries:
        body = path.read_text().split("\n---\n", 1)[1].strip()
        # A trap is shown as a constraint (docs/guide-context.md, "Guardrails first").
        assert f"- {as_constraint(body)}" in printed
    assert str(Path.home()) not in text
    # nothing of the user's (the hermetic home, state, transcripts) was read into or changed
    assert {name: _listing(path) for name, path in hermetic_env.items()} == before
    # the memory files are left for the user to commit: the demo never commits
    log = os.popen(f"git -C {repository} log --oneline").read().splitlines()
    assert len(log) == 2
    lint = run_cli(["lint"], cwd=repository)
    assert lint.exit_code == 0, lint.stdout


def test_demo_without_keep_leaves_nothing_behind(gm_proc: Any, tmp_path: Path) -> None:
    import tempfile

    root = Path(tempfile.gettempdir())
    before = {p.name for p in root.glob("git-memory-demo-*")}
    result = gm_proc(["demo", "--format", "json"], cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert {p.name for p in root.glob("git-memory-demo-*")} == before
    assert '"git-memory-demo@v1"' in result.stdout


def test_demo_refuses_a_non_empty_keep_dir(tmp_path: Path) -> None:
    keep = tmp_path / "busy"
    keep.mkdir()
    (keep / "file").write_text("mine")
    result = run_cli(["demo", "--keep", str(keep)], cwd=tmp_path)
    assert result.exit_code == 1
    assert "[GM_DEMO_DIR_NOT_EMPTY]" in result.stderr
    assert (keep / "file").read_text() == "mine"
