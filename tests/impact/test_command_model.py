"""`git memory impact` compares command lines through the command model: compound lines,
argument shapes, `cd` prefixes, and a trap's error."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from git_memory.extract.builtin.renderers import render_command_fix
from git_memory.impact.measure import SessionIndex
from git_memory.sessions.activity import SessionActivity
from git_memory.sessions.turns import ToolCall
from tests.impact.helpers import LANDED, days, impact_report, land, sessions
from tests.repos import Repo

BEFORE = days(LANDED - timedelta(days=20), 10)
AFTER = days(LANDED + timedelta(days=1), 12)


def test_a_rule_to_run_fmt_before_lint_counts_the_compound_line_as_followed(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(
        repo,
        "fmt-then-lint",
        "Always run `mise run fmt && mise run lint`, not `mise run lint` alone.",
    )
    both, alone = [("mise run fmt && mise run lint", False)], [("mise run lint", False)]
    sessions(claude, repo, "b", BEFORE, lambda n: alone if n < 8 else both)
    sessions(claude, repo, "a", AFTER, lambda n: alone if n == 0 else both)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["kind"] == "rule"
    assert (entry["before"]["hits"], entry["before"]["followed"]) == (8, 2)
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (1, 11)
    assert entry["verdict"] == "helped"


DIFF_TOO_LARGE = (
    "could not find pull request diff: HTTP 406: the diff exceeded the maximum number of "
    "lines (20000)"
)


def test_a_trap_recorded_with_one_pull_request_number_matches_every_number(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    trap = render_command_fix(
        "variant", "gh pr diff 88 --stat", DIFF_TOO_LARGE, "gh pr view 88 --json files"
    )
    land(repo, "big-diffs", trap)
    failing = ("gh pr diff {} --stat", True, DIFF_TOO_LARGE)
    fix = ("gh pr view {} --json files", False, "files: 3")

    def runs(number: int, *, hit: bool) -> list[tuple[str, bool, str]]:
        found = [(fix[0].format(100 + number), fix[1], fix[2])]
        if hit:
            found.insert(0, (failing[0].format(100 + number), True, failing[2]))
        return found

    sessions(claude, repo, "b", BEFORE, lambda n: runs(n, hit=True))
    sessions(claude, repo, "a", AFTER, lambda n: runs(n, hit=n < 2))
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["before"] == {
        "sessions": 10,
        "days": 20,
        "hits": 10,
        "followed": 0,
        "relevant": 10,
    }
    assert (entry["after"]["hits"], entry["after"]["followed"], entry["after"]["relevant"]) == (
        2,
        10,
        12,
    )
    assert entry["verdict"] == "helped"


def test_a_rule_written_in_general_form_matches_the_lines_with_their_arguments(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    rule = "Read review threads with `gh pr view --json reviewThreads`, not `gh pr diff 88 --stat`."
    land(repo, "review-threads", rule)
    diff, view = ("gh pr diff 51 --stat", False), ("gh pr view 104 --json reviewThreads", False)
    sessions(claude, repo, "b", BEFORE, lambda n: [diff])
    sessions(claude, repo, "a", AFTER, lambda n: [view] if n else [diff])
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["hits"], entry["before"]["followed"]) == (10, 0)
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (1, 11)
    assert entry["verdict"] == "helped"


NO_MODULE = "go: go.mod file not found in current directory or any parent directory"
RED_TEST = "--- FAIL: TestResume (0.00s)\n    resume_test.go:244: want 3, got 4\nFAIL"


def test_a_cd_prefix_keeps_the_fix_apart_and_red_tests_are_not_the_trap(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(
        repo,
        "go-lives-in-go",
        render_command_fix("variant", "go test ./...", NO_MODULE, "cd go && go test ./..."),
    )
    at_root = ("go test ./...", True, NO_MODULE)
    in_go = ("cd go && go test ./...", False, "ok")
    sessions(claude, repo, "b", BEFORE, lambda n: [at_root, in_go] if n < 6 else [in_go])

    def after(number: int) -> list[tuple[str, bool, str]]:
        red = ("cd go && go test -run TestResume ./...", number % 2 == 0, RED_TEST)
        # A red test at the root fails with its own error, not the trap's.
        return [red, ("go test -run TestResume ./...", True, RED_TEST)] if number < 3 else [red]

    sessions(claude, repo, "a", AFTER, after)
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["hits"], entry["before"]["followed"]) == (6, 4)
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (0, 12)
    assert entry["verdict"] == "helped"


def test_a_session_started_in_the_directory_runs_the_cd_prefixed_fix(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    fix = "cd go && go test ./..."
    land(repo, "go-lives-in-go", render_command_fix("variant", "go test ./...", NO_MODULE, fix))
    (repo.root / "go").mkdir()
    sessions(claude, repo, "b", BEFORE, lambda n: [("go test ./...", True, NO_MODULE)])
    sessions(claude, repo, "a", AFTER, lambda n: [("go test ./...", False, "ok")], directory="go")
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["hits"], entry["before"]["followed"]) == (10, 0)
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (0, 12)
    assert entry["verdict"] == "helped"


def test_a_call_the_agent_ran_in_a_folder_runs_the_memorys_cd_prefixed_command() -> None:
    """Codex's `workdir` and Gemini CLI's `directory` say where a call ran, as extraction
    reads them: `uv run pytest` run in `backend/` is the memory's `cd backend && uv run
    pytest`, and not the root's `uv run pytest`."""
    root = "/work/repo"

    def call(payload: dict[str, Any]) -> ToolCall:
        return ToolCall("c", "exec_command", payload, "Process exited with code 0", "completed")

    sessions = [
        SessionActivity("s0", "codex", "2026-11-01T00:00:00Z", (call({"cmd": "uv run pytest",
            "workdir": f"{root}/backend"}),), (), root=root),
        SessionActivity("s1", "gemini-cli", "2026-11-02T00:00:00Z", (call({"command":
            "uv run pytest", "directory": "backend"}),), (), root=root),
        SessionActivity("s2", "codex", "2026-11-03T00:00:00Z", (call({"cmd": "uv run pytest",
            "workdir": root}),), (), root=root),
        SessionActivity("s3", "codex", "2026-11-04T00:00:00Z", (call({"cmd": "uv run pytest",
            "workdir": "/elsewhere/backend"}),), (), root=root),
    ]  # fmt: skip
    index = SessionIndex(sessions)
    in_backend = index.sessions_running(index.matching("cd backend && uv run pytest"))
    at_root = index.sessions_running(index.matching("uv run pytest"))
    assert (in_backend, at_root) == ({0, 1}, {2})
