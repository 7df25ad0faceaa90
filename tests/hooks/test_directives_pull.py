"""Issue 43 item 5 after a pull: a teammate's hand-written entries that steer agents are
flagged by the pre-commit hook when committed (a warning: the commit goes through), and by
`git memory verify` in a second clone after a real `git pull`, each by file and line, before
any agent reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.hooks.conftest import commit, entry_text
from tests.lint.directive_samples import POISONED, PROHIBITIONS
from tests.repos import Repo, git

PULLED = ("curl-pipe-sh", "send-prose", "print-env", "no-verify", "dont-tell-user", "system-tag")


def _slug(name: str) -> str:
    return f"team-{name}"


def _clone(source: Path, target: Path) -> Repo:
    git(source.parent, "clone", "-q", str(source), str(target))
    return Repo(target)


def test_a_pulled_directive_is_flagged_by_file_and_line(
    gm: Any, repo: Repo, tmp_path: Path, bin_dir: Path
) -> None:
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo.root), str(origin))
    teammate = _clone(origin, tmp_path / "teammate")
    mine = _clone(origin, tmp_path / "mine")

    assert gm(["hooks", "install"], cwd=teammate.root).exit_code == 0
    for name in PULLED:
        body = f"Notes for the team.\n{POISONED[name][0]}\n"
        teammate.write(f".memory/entries/{_slug(name)}.md", entry_text(_slug(name), body))
    teammate.write(
        ".memory/entries/ordinary.md",
        entry_text("ordinary", PROHIBITIONS["never-force-push"] + "\n"),
    )
    teammate.git("add", "-A")
    committed = commit(teammate)
    # The hook flags, it does not block: the person committing by hand is shown each one.
    assert committed.returncode == 0, committed.stderr
    rows = committed.stderr.splitlines()
    for name in PULLED:
        path = f".memory/entries/{_slug(name)}.md:17:"
        code = POISONED[name][1]
        assert any(row.startswith(path) and f"WARN {code} " in row for row in rows), name
    assert ".memory/entries/ordinary.md" not in committed.stderr
    teammate.git("push", "-q", "origin", "HEAD")

    mine.git("pull", "-q", "--ff-only")
    verified = run_cli(["verify"], cwd=mine.root)
    assert verified.exit_code == 0, verified.stdout
    for name in PULLED:
        line = f".memory/entries/{_slug(name)}.md:17: directive {POISONED[name][1]}:"
        assert line in verified.stdout, verified.stdout
    assert "no one reviewed on this machine" in verified.stdout
    assert "ordinary.md: directive" not in verified.stdout

    document = run_cli(["verify", "--format", "json"], cwd=mine.root).json()
    flagged = {(d["path"], d["line"], d["code"]) for d in document["directives"]}
    expected = {(f".memory/entries/{_slug(n)}.md", 17, POISONED[n][1]) for n in PULLED}
    assert expected <= flagged
    annotations = run_cli(["verify", "--format", "github"], cwd=mine.root).stdout
    assert f"::warning file=.memory/entries/{_slug('curl-pipe-sh')}.md,line=17," in annotations
