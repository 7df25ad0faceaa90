"""Issue 42 L1–L5 end to end: each hidden secret is refused by prepare and, written by hand,
stops a real `git commit` through the installed hook; ordinary text with hashes and script
joiners goes through prepare, promote and the commit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.ops.base import run
from tests.hooks.conftest import commit, entry_text, head
from tests.lint.views_samples import BLOCKING, L5, SECRETS
from tests.promote.helpers import prepare_request, seed_candidate
from tests.repos import Repo


def _slug(name: str) -> str:
    return name.replace("/", "-").lower()


@pytest.mark.parametrize("name", sorted(BLOCKING))
def test_prepare_refuses_it(repo: Repo, name: str) -> None:
    line, code = BLOCKING[name]
    item = seed_candidate(repo.root, "c1", f"Use this for the deploy:\n{line}")
    with pytest.raises(GitMemoryError) as caught:
        run("prepare", prepare_request(item), repository=repo.root)
    assert caught.value.code == "GM_LINT_BLOCKED"
    details = caught.value.details or {}
    assert code in {finding["code"] for finding in details["findings"]}
    assert not any(secret in str(details) for secret in SECRETS)
    assert not (repo.root / ".memory" / "entries").exists()


def test_written_by_hand_each_stops_a_real_commit(gm: Any, repo: Repo, bin_dir: Path) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    for name, (line, _code) in BLOCKING.items():
        slug = _slug(name)
        repo.write(f".memory/entries/{slug}.md", entry_text(slug, f"Notes.\n{line}\n"))
    repo.git("add", "-A")
    before = head(repo)
    stopped = commit(repo)
    assert stopped.returncode != 0
    assert head(repo) == before
    rows = stopped.stderr.splitlines()
    for name, (_line, code) in BLOCKING.items():
        path = f".memory/entries/{_slug(name)}.md:"
        assert any(row.startswith(path) and f"BLOCK {code} " in row for row in rows), name
    assert "bypass knowingly with: git commit --no-verify" in stopped.stderr
    assert not any(secret in stopped.stderr for secret in SECRETS)


def test_ordinary_text_is_prepared_promoted_and_committed(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    items = [seed_candidate(repo.root, f"c{n}", text) for n, text in enumerate(L5.values())]
    plan = run("prepare", prepare_request(*items), repository=repo.root)
    run("promote", {"plan": plan.plan_id, "approve": plan.plan_digest}, repository=repo.root)
    written = sorted((repo.root / ".memory" / "entries").glob("*.md"))
    assert len(written) == len(L5)
    repo.git("add", "-A")
    committed = commit(repo)
    assert committed.returncode == 0, committed.stderr
    names = repo.git("show", "--name-only", "--format=", "HEAD").split()
    assert len([name for name in names if name.startswith(".memory/entries/")]) == len(L5)


def test_a_commit_of_this_repository_passes_and_a_made_up_one_stops(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    real = head(repo)
    made_up = real[::-1]
    item = seed_candidate(repo.root, "c1", f"The parser landed in {real}.")
    plan = run("prepare", prepare_request(item), repository=repo.root)
    run("promote", {"plan": plan.plan_id, "approve": plan.plan_digest}, repository=repo.root)
    assert gm(["lint"], cwd=repo.root).exit_code == 0
    repo.git("add", "-A")
    assert commit(repo).returncode == 0

    repo.write(".memory/entries/made-up.md", entry_text("made-up", f"It landed in {made_up}.\n"))
    repo.git("add", "-A")
    stopped = commit(repo)
    assert stopped.returncode != 0
    assert ".memory/entries/made-up.md:16:14: BLOCK GM_LINT_HEX_TOKEN" in stopped.stderr
