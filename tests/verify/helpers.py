"""A real repository whose approved entries cite files, commits, targets and scripts."""

from __future__ import annotations

from git_memory.formats.entry import Commit, Entry, Evidence, serialize_entry
from tests.repos import Repo

ORIGIN = "https://example.com/team/app.git"
IDENTITY = "example.com/team/app"


def write_entry(
    repo: Repo,
    entry_id: str,
    body: str,
    *,
    paths: tuple[str, ...] = (),
    commits: tuple[str, ...] = (),
    entry_type: str = "work_method",
    priority: int = 50,
    occurred: tuple[str, ...] = ("2026-01-05",),
    status: str = "approved",
) -> str:
    """Write `.memory/entries/<id>.md` in canonical form; returns its worktree path."""
    entry = Entry(
        id=entry_id,
        type=entry_type,
        status=status,
        priority=priority,
        provenance_strength="direct",
        claim_support="human-confirmed",
        occurred=occurred,
        evidence=Evidence(tuple(Commit(IDENTITY, h) for h in commits), paths),
        body=body if body.endswith("\n") else body + "\n",
    )
    path = f".memory/entries/{entry_id}.md"
    repo.write(path, serialize_entry(entry))
    return path


def rotting_project(repo: Repo) -> dict[str, str]:
    """A project whose memory went partly stale, the way it does in practice.

    Four entries rely on something that is gone: a deleted file, a commit rebased away, a
    removed make target and a removed npm script. Others still hold, and one cites nothing
    checkable. Returns the commits involved by name.
    """
    repo.git("remote", "add", "origin", ORIGIN)
    repo.write("Makefile", "test:\n\tpytest\n\ndeploy:\n\t./scripts/deploy.sh\n")
    repo.write("package.json", '{"scripts": {"lint": "eslint .", "storybook": "sb dev"}}\n')
    repo.write("src/app.py", "print('app')\n")
    repo.write("src/legacy.py", "print('legacy')\n")
    repo.write("scripts/deploy.sh", "#!/bin/sh\necho deploy\n")
    kept = repo.commit_all("project files")
    repo.git("checkout", "-q", "-b", "experiment")
    repo.write("src/experiment.py", "print('try')\n")
    vanished = repo.commit_all("an experiment later rebased away")
    repo.git("checkout", "-q", "main")
    repo.git("branch", "-q", "-D", "experiment")
    write_entry(repo, "app-entry-point", "The entry point is `src/app.py`.", paths=("src/app.py",))
    write_entry(repo, "tests-run-with-make", "Run the tests with `make test`.", commits=(kept,))
    write_entry(repo, "lint-with-npm", "Lint with `npm run lint` before pushing.")
    write_entry(repo, "deploy-script", "Deploy with `./scripts/deploy.sh`.")
    write_entry(repo, "team-prefers-small-prs", "The team prefers small pull requests.")
    write_entry(repo, "legacy-module", "Old code lives in src/legacy.py.", paths=("src/legacy.py",))
    write_entry(repo, "experiment-result", "The experiment showed it is fast.", commits=(vanished,))
    write_entry(repo, "deploy-with-make", "Deploy with `make deploy`.", priority=80)
    write_entry(repo, "storybook", "Preview components with `npm run storybook`.")
    repo.commit_all("memory")
    # The code moves on; the memory does not.
    repo.git("rm", "-q", "src/legacy.py")
    repo.write("Makefile", "test:\n\tpytest\n")
    repo.write("package.json", '{"scripts": {"lint": "eslint ."}}\n')
    repo.commit_all("drop legacy code, the deploy target and storybook")
    return {"kept": kept, "vanished": vanished}


STALE = {"legacy-module", "experiment-result", "deploy-with-make", "storybook"}
FRESH = {"app-entry-point", "tests-run-with-make", "lint-with-npm", "deploy-script"}
UNVERIFIABLE = {"team-prefers-small-prs"}
