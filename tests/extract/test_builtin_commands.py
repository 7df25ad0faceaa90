"""Commands as the builtin extractor reads them (issue 26 items 1-3): an outcome only where the
transcript shows it, command lines split as a shell splits them, every agent's shell-call
shape, and the project's own scripts and task runners.

The transcripts are real ones (`tests/fixtures/transcripts/`) and the issue's reported runs
reproduced in the agents' record shapes (`tests/fixtures/commands/`, see PROVENANCE.md)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from git_memory.extract.builtin import shell
from git_memory.extract.builtin.observed import Outcome
from git_memory.extract.builtin.renderers import BuiltinFact, verify_typed_fact
from git_memory.extract.builtin.runs import MAX_KEPT_OUTPUT, Run, session_runs
from git_memory.extract.builtin.window import plan_window
from git_memory.extract.select import path_scrubber
from git_memory.sessions.ingest import parse
from git_memory.sessions.providers import gemini_cli, opencode
from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.providers.table import line_reader
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall, build_turns
from tests.conftest import FIXTURES
from tests.extract.test_builtin_facts import _turn

TRANSCRIPTS = FIXTURES / "transcripts"
COMMANDS = FIXTURES / "commands"


def _real(agent: str, name: str) -> Path:
    return TRANSCRIPTS / agent / name


def _records(provider: str, path: Path) -> list[TurnRecord]:
    if provider == "gemini-cli":
        events = gemini_cli.read(SourceFile(str(path), provider, "s", path.name)).events
    else:
        reader = line_reader(provider)
        events, _diagnostics, _ = parse(provider, path.read_bytes(), 0, reader.new_state())
    turns = build_turns("k" * 64, events)
    return [_turn(t.turn_key, *t.tools, user=t.user_text) for t in turns]


def _runs(provider: str, path: Path, root: str | None = None) -> list[Run]:
    scrub = path_scrubber(Path(root)) if root else str
    return [r for r in session_runs(_records(provider, path), scrub) if r.command is not None]


def _by_command(runs: list[Run]) -> dict[str, Run]:
    return {run.command or "": run for run in runs}


def _outcomes(run: Run) -> list[tuple[str, Outcome]]:
    return [(s.command.normal, o) for s, o in zip(run.steps, run.outcomes, strict=True)]


def _proposed(provider: str, path: Path, root: str | None = None) -> list[str]:
    records = _records(provider, path)
    scrub = path_scrubber(Path(root)) if root else str
    tasks = {r.turn_key: "task" for r in records}
    planned = plan_window([("s", records)], tasks, known=set(), scrub=scrub).placed
    return [f.content for facts in planned.values() for f in facts if f.content.startswith("`")]


# 1. A result counts only when it was observed.


def test_issue_runs_hidden_by_a_pipe_a_timeout_or_the_background_never_worked() -> None:
    runs = _by_command(_runs("claude-code", COMMANDS / "claude-code.issue-26-runs.jsonl"))
    piped = runs["python -m pytest tests/ 2>&1 | tail -20"]
    assert piped.outcome is Outcome.FAILED, "1058 passed, 79 errors is a failure"
    assert piped.worked == []
    formatting = runs["uv run ruff format --check src tests | tail -5"]
    assert formatting.outcome is Outcome.FAILED, "1 file would be reformatted is a failure"
    assert runs["make test"].outcome is Outcome.UNKNOWN, "the agent's timeout is no failure"
    assert runs["npm run e2e"].outcome is Outcome.UNKNOWN, "a background launch is unknown"
    proposed = " ".join(_proposed("claude-code", COMMANDS / "claude-code.issue-26-runs.jsonl"))
    for never in ("pytest", "ruff format", "`make test`", "e2e"):
        assert never not in proposed


def test_a_real_pipe_into_head_hides_the_status() -> None:
    (run,) = _runs("claude-code", TRANSCRIPTS / "claude-code" / "marot__spotter__short.jsonl")
    assert run.command == "mix phx.server 2>&1 | head -80"
    assert run.steps[0].piped
    assert run.outcome is Outcome.UNKNOWN
    assert run.worked == []


def test_a_real_gemini_background_build_and_one_cut_mid_progress_are_unknown() -> None:
    path = _real("gemini-cli", "AnthonyontheHub__TP-Tutor__session-2026-04-25T02-41-ab395b98.jsonl")
    builds = [r for r in _runs("gemini-cli", path) if r.command == "npm run build"]
    # The first was recorded as a success, but its output stops at "transforming (8) …":
    # how the build ended is not in the transcript.
    assert [r.outcome for r in builds] == [Outcome.UNKNOWN, Outcome.UNKNOWN]
    assert builds[0].output.splitlines()[-2].startswith("transforming (8) ")
    assert "moved to background" in builds[1].output
    lint = next(r for r in _runs("gemini-cli", path) if r.command == "npm run lint")
    assert lint.outcome is Outcome.FAILED


@pytest.mark.parametrize(
    ("command", "output", "state", "expected"),
    [
        ("pytest -q", "3 passed, 1 failed in 0.2s", "completed", Outcome.FAILED),
        (
            "npx jest",
            "  ✓ reports 2 errors (5 ms)\nTests: 3 passed, 3 total",
            "completed",
            Outcome.WORKED,
        ),
        ("cargo test", "test parse::returns_1_error ... ok", "completed", Outcome.WORKED),
        ("cargo build", "error[E0425]: cannot find value `x`", "completed", Outcome.FAILED),
        ("go test ./...", "--- FAIL: TestParse (0.00s)\nFAIL", "completed", Outcome.FAILED),
        ("pytest | tee log.txt", "== 12 passed in 0.40s ==", "completed", Outcome.WORKED),
        ("pytest | tee log.txt", "collected 12 items", "completed", Outcome.UNKNOWN),
        ("set -o pipefail\npytest | tee log.txt", "", "completed", Outcome.WORKED),
        ("pytest || true", "", "completed", Outcome.UNKNOWN),
        ("make test &", "", "completed", Outcome.UNKNOWN),
        ("npm test", "[Request interrupted by user]", "failed", Outcome.UNKNOWN),
        ("uv sync && pytest", "Exit code 1", "failed", Outcome.UNKNOWN),
        ("uv sync && pytest", "2 failed, 9 passed in 0.3s", "failed", Outcome.FAILED),
        ("npm ci && npm test", "npm ERR! code ERESOLVE", "failed", Outcome.UNKNOWN),
        ("cd api && pytest", "Exit code 1", "failed", Outcome.FAILED),
        ('npm test; echo "EXIT=$?"', "Tests: 4 passed\nEXIT=0", "completed", Outcome.WORKED),
        ('npm test; echo "EXIT=$?"', "EXIT=1", "completed", Outcome.FAILED),
        ("npm test 2>&1 | tail -5; echo $?", "0", "completed", Outcome.UNKNOWN),
        ("npm test && echo PASS || echo FAIL", "FAIL", "completed", Outcome.FAILED),
        ("npm test && echo PASS || echo FAIL", "PASS", "completed", Outcome.WORKED),
        (
            'pytest; echo "exit $?"',
            "2 failed, 3 passed in 0.1s\nexit 0",
            "completed",
            Outcome.FAILED,
        ),
    ],
)
def test_outcome_of_the_main_command(
    command: str, output: str, state: str, expected: Outcome
) -> None:
    call = ToolCall(
        call_id="c", name="Bash", input={"command": command}, output=output, state=state
    )
    (run,) = session_runs([_turn("t", call)])
    assert run.outcome is expected


# 2. Commands as a shell reads them.


def test_issue_lines_give_every_segment_its_own_outcome() -> None:
    path = COMMANDS / "claude-code.issue-26-runs.jsonl"
    runs = _by_command(_runs("claude-code", path, root="/home/dev/shop"))
    assert _outcomes(runs["cd .\nyarn typecheck"]) == [
        ("cd .", Outcome.UNKNOWN),
        ("yarn typecheck", Outcome.WORKED),
    ]
    assert _outcomes(runs["npm run format; make lint && make types"]) == [
        ("npm run format", Outcome.UNKNOWN),
        ("make lint", Outcome.WORKED),
        ("make types", Outcome.WORKED),
    ]
    assert [s.normal for s in runs["make generate-check && make check"].worked] == [
        "make generate-check",
        "make check",
    ]
    proposed = _proposed("claude-code", path, root="/home/dev/shop")
    assert proposed == [
        "`yarn typecheck` type-checks the code (worked in 1 session).",
        "`make lint` lints the code (worked in 1 session).",
        "`make types` type-checks the code (worked in 1 session).",
        "`make generate-check` regenerates the generated code (worked in 1 session).",
        "`make check` runs the project checks (worked in 1 session).",
    ]


def test_a_real_heredoc_commit_message_is_not_read_as_commands() -> None:
    path = _real(
        "claude-code", "DRMacIver__claude-reliability__coverage-test-fix__transcript.jsonl"
    )
    commits = [r for r in _runs("claude-code", path) if "git commit" in (r.command or "")]
    assert len(commits) == 2
    for run in commits:
        assert [s.command.words[:2] for s in run.steps] == [("git", "add"), ("git", "commit")]


def test_a_real_script_run_after_a_cd_out_of_the_repository_is_not_the_projects() -> None:
    path = _real(
        "qwen-code", "haidonglethqb__CloudSchool__6676775b-e7b1-41b0-a6de-5f00e4adf771.jsonl"
    )
    searches = [r for r in _runs("qwen-code", path) if "scripts/search.py" in (r.command or "")]
    assert searches
    assert all(r.outcome is Outcome.WORKED for r in searches)
    assert all(r.steps[-1].elsewhere and r.worked == [] for r in searches)
    assert not [c for c in _proposed("qwen-code", path) if "search.py" in c]


@pytest.mark.parametrize(
    ("command", "normals"),
    [
        ("cat <<'EOF' > x.py\nimport os; os.system('pytest')\nEOF\nnpm test", ["cat", "npm test"]),
        ("# run it\nnpm test  # the suite\nnpm run lint", ["npm test", "npm run lint"]),
        ("FOO=1 env BAR=2 uv run pytest -q", ["uv run pytest"]),
        ('git commit -m "a; make test" && npm test', ["git commit -m 'a; make test'", "npm test"]),
        ("(cd web && pnpm test) || true", ["cd web", "pnpm test", "true"]),
        ("for f in a b; do pytest $f; done", ["for f in a b", "pytest"]),
        ("make lint \\\n  && make test", ["make lint", "make test"]),
        ("export ROOT=$(pwd) && make test", ["export ROOT=$", "make test"]),
    ],
)
def test_command_lines_split_as_a_shell_splits_them(command: str, normals: list[str]) -> None:
    assert [s.normal for s in shell.segments(command)] == normals


# Every agent's shell-call shape.


@pytest.mark.parametrize(
    ("name", "payload", "command"),
    [
        ("Bash", {"command": "cd /w\nyarn typecheck"}, "cd /w\nyarn typecheck"),
        ("shell", {"command": ["bash", "-lc", "go test ./..."]}, "go test ./..."),
        ("exec_command", {"cmd": "pnpm test", "yield_time_ms": 1000}, "pnpm test"),
        ("local_shell", {"type": "exec", "command": ["pytest", "-q"]}, "pytest -q"),
        ("run_shell_command", {"command": "cargo test", "is_background": False}, "cargo test"),
        ("bash", {"command": "npm test", "mode": "sync"}, "npm test"),
        # Copilot CLI's Windows tool: the line PowerShell runs, read by its rules
        ("powershell", {"command": "dotnet test"}, "powershell -Command 'dotnet test'"),
        ("Shell", {"command": "make check", "description": "checks"}, "make check"),
        ("run_terminal_cmd", {"command": "npm run lint", "is_background": False}, "npm run lint"),
        ("exec", 'text((await tools.exec_command({cmd: "make lint"})).output);', "make lint"),
        ("exec", "await tools.exec_command({cmd, workdir});", None),
        ("Bash", {"command": "ls tools.d && make test"}, "ls tools.d && make test"),
        ("exec", "const x = await tools.view_image({path: 'a.png'});", None),
    ],
)
def test_every_agents_shell_call_shape(name: str, payload: Any, command: str | None) -> None:
    assert shell.command_of(ToolCall(call_id="c", name=name, input=payload)) == command


def _call(call_id: str, name: str, payload: Any, output: str, state: str = "completed") -> ToolCall:
    """A tool call as a transcript records it, with its output and end state."""
    return ToolCall(call_id=call_id, name=name, input=payload, output=output, state=state)


def _one_turn(*calls: ToolCall) -> list[BuiltinFact]:
    """The memories one session of one turn making these calls proposes."""
    return plan_window([("s", [_turn("t", *calls)])], {"t": "task"}, known=set()).placed["task"]


def test_a_codex_powershell_call_is_proposed_as_a_windows_user_types_it() -> None:
    """Codex on Windows runs the line with PowerShell: the project's venv interpreter keeps
    its backslashes, and running pytest with it runs the tests (issue 39 item 7)."""
    line = ".\\.venv\\Scripts\\python -m pytest -q"
    call = ToolCall(
        call_id="c",
        name="shell",
        input={"command": ["powershell.exe", "-NoProfile", "-Command", line]},
        output="............\n12 passed in 1.90s\n",
        state="completed",
    )
    (fact,) = _one_turn(call)
    assert fact.content == (
        "`.\\.venv\\Scripts\\python -m pytest` runs the tests (worked in 1 session)."
    )
    # ... and it is a typed fact: re-rendered from its parameters, read as PowerShell reads it
    assert fact.claim_support == "typed-fact"
    assert verify_typed_fact(fact.renderer, fact.content, fact.parameters)


def test_a_copilot_powershell_line_is_read_by_powershells_rules() -> None:
    """Copilot CLI on Windows runs its `powershell` tool's line with PowerShell: its lines are
    one script (a `cd` holds for the next one) and a backslash is part of a path."""
    call = ToolCall(
        call_id="c",
        name="powershell",
        input={"command": "Set-Location backend\n.\\.venv\\Scripts\\python -m pytest -q"},
        output="12 passed in 1.90s\n<exited with exit code 0>",
        state="completed",
    )
    assert [f.content for f in _one_turn(call)] == [
        "`cd backend && .\\.venv\\Scripts\\python -m pytest` runs the tests (worked in 1 session)."
    ]


def test_a_codex_code_mode_patch_is_an_edit() -> None:
    patch = 'await tools.apply_patch("*** Begin Patch\\n*** Update File: a.py\\n*** End Patch");'
    assert shell.is_edit(ToolCall(call_id="p", name="exec", input=patch))
    assert not shell.is_edit(ToolCall(call_id="x", name="exec", input="text(1);"))


def test_codex_code_mode_cells_give_their_commands_and_observed_results() -> None:
    runs = _runs("codex", COMMANDS / "codex.code-mode.jsonl", root="/home/dev/shop")
    assert [r.command for r in runs] == [
        "cd .\nyarn typecheck",
        "python -m pytest -q tests/",
        "bash scripts/preflight.sh && ./submit.sh --send",
        "make test",
        "cargo +1.96.0 test\nmise x cargo:cargo-deny -- cargo deny check",
    ]
    typecheck, tests, scripts, background, toolchains = runs
    assert typecheck.outcome is Outcome.WORKED, "the cell printed the exec result: exit 0"
    assert tests.outcome is Outcome.WORKED, "the pytest summary line is its result"
    assert scripts.outcome is Outcome.UNKNOWN, "a cell that prints only output hides the exit"
    assert background.outcome is Outcome.UNKNOWN, "still running in its cell"
    assert [s.command.normal for s in toolchains.steps] == [
        "cargo test",
        "mise x cargo:cargo-deny -- cargo deny check",
    ]
    proposed = _proposed("codex", COMMANDS / "codex.code-mode.jsonl", root="/home/dev/shop")
    assert proposed == [
        "`yarn typecheck` type-checks the code (worked in 1 session).",
        "`python -m pytest tests/` runs the tests (worked in 1 session).",
    ]


def test_a_background_input_flag_makes_any_result_unknown() -> None:
    calls = [
        ToolCall(
            call_id="a", name="Bash", input={"command": "npm test", "run_in_background": True}
        ),
        ToolCall(
            call_id="b",
            name="run_shell_command",
            input={"command": "npm test", "is_background": True},
        ),
        ToolCall(call_id="c", name="bash", input={"command": "npm test", "mode": "async"}),
    ]
    for call in calls:
        call.state, call.output = "completed", "Tests: 3 passed, 3 total"
    runs = list(session_runs([_turn("t", *calls)]))
    assert [r.outcome for r in runs] == [Outcome.UNKNOWN] * 3


# 3. The project's own scripts and task runners.


@pytest.mark.parametrize(
    ("command", "kind", "normal", "narrowed"),
    [
        ("bash preflight.sh", "check", "bash preflight.sh", False),
        ("./submit.sh --send", "script", "./submit.sh --send", False),
        ("python3 scripts/verify_spec.py", "check", "python3 scripts/verify_spec.py", False),
        ("php scripts/migrate.php", "migrate", "php scripts/migrate.php", False),
        ("php scripts/import.php", "script", "php scripts/import.php", False),
        ("ruby script/seed.rb", "script", "ruby script/seed.rb", False),
        ("node scripts/build.js", "build", "node scripts/build.js", False),
        ("python3 tests/runtests.py admin_views", "test", "python3 tests/runtests.py", True),
        ("cargo deny check", "check", "cargo deny check", False),
        (
            "mise x cargo:cargo-deny -- cargo deny check",
            "check",
            "mise x cargo:cargo-deny -- cargo deny check",
            False,
        ),
        ("cargo +1.96.0 clippy", "lint", "cargo clippy", False),
        ("npm test -- src/cart.test.ts", "test", "npm test", False),
        ("yarn vitest run src/cart.test.ts", "test", "yarn vitest run", True),
        ("go build ./cmd/entire/cli/settings/", "build", "go build ./...", True),
        ("pytest tests/test_x.py::test_y", "test", "pytest", True),
        ("/opt/venv/bin/pytest /tmp/scratch", "test", "pytest", True),
        ("mypy --config-file=/home/me/mypy.ini src", "typecheck", "mypy src", False),
        ("poetry run pytest -q", "test", "poetry run pytest", False),
        ("just lint", "lint", "just lint", False),
        ("task test", "test", "task test", False),
        ("bun run typecheck", "typecheck", "bun run typecheck", False),
    ],
)
def test_project_scripts_and_task_runners(
    command: str, kind: str, normal: str, narrowed: bool
) -> None:
    (segment,) = shell.segments(command)
    assert (segment.kind, segment.normal, segment.narrowed) == (kind, normal, narrowed)


@pytest.mark.parametrize(
    "command",
    [
        "python x.py",
        "bash /tmp/x.sh",
        "./configure",
        "uv run python debug.py",
        "~/.claude/hooks/tmux-waiting.sh mark",
        "/home/marco/tools/test.sh",
        # a program installed below a home that is the worktree (a dotfiles repository)
        "'AppData/Local/Programs/Microsoft VS Code/bin/code.cmd' --list-extensions",
        ".local/bin/deploy.sh",
    ],
)
def test_one_off_and_machine_scripts_are_not_project_commands(command: str) -> None:
    assert shell.command_kind(command) is None


def test_a_real_opencode_project_script_that_failed_is_not_proposed(tmp_path: Path) -> None:
    database = _real("opencode", "suhd550-dev__stunning-memory__opencode.db")
    shutil.copyfile(database, tmp_path / "opencode.db")
    (source,) = [s for s in opencode.find(str(tmp_path)) if not s.excluded]
    turns = build_turns("k" * 64, opencode.read(source).events)
    records = [_turn(t.turn_key, *t.tools, user=t.user_text) for t in turns]
    scrub = path_scrubber(Path("/workspace"))
    scripts = [
        run
        for run in session_runs(records, scrub)
        if run.main is not None and run.main.kind == "script"
    ]
    assert [(r.command, r.key, r.outcome) for r in scripts] == [
        ("bash sync-sessions.sh", "bash sync-sessions.sh", Outcome.FAILED)
    ]
    tasks = {r.turn_key: "t" for r in records}
    planned = plan_window([("s", records)], tasks, known=set(), scrub=scrub).placed
    assert not [f for facts in planned.values() for f in facts if "sync-sessions" in f.content]


def test_a_script_the_session_wrote_is_a_one_off() -> None:
    write = ToolCall(
        call_id="w",
        name="Write",
        input={"file_path": "scripts/check_fix.py", "content": "print(1)"},
        state="completed",
    )
    run = ToolCall(
        call_id="r",
        name="Bash",
        input={"command": "python scripts/check_fix.py && bash scripts/lint.sh"},
        output="ok",
        state="completed",
    )
    records = [_turn("t1", write, run)]
    planned = plan_window([("s", records)], {"t1": "task"}, known=set()).placed
    assert [f.content for f in planned["task"]] == [
        "`bash scripts/lint.sh` lints the code (worked in 1 session)."
    ]


def test_a_codex_command_still_running_takes_the_outcome_it_ended_with() -> None:
    running = (
        "Chunk ID: 9f8e\nWall time: 10.0 seconds\nProcess running with session ID {}\nOutput:\n"
    )
    cell = "Script running with cell ID {}\nWall time 10.0 seconds\nOutput:\n"
    calls = (
        _call("a", "exec_command", {"cmd": "npm test"}, running.format(5) + "✔ adds", "unknown"),
        _call("b", "exec_command", {"cmd": "make test"}, running.format(6), "unknown"),
        _call(
            "c",
            "write_stdin",
            {"session_id": 5, "chars": ""},
            "Process exited with code 1\nOutput:\n✖ subtracts",
            "failed",
        ),
        _call(
            "d",
            "write_stdin",
            {"session_id": 6, "chars": ""},
            "Process exited with code 0\nOutput:\nok",
            "completed",
        ),
        _call(
            "e",
            "exec",
            'text((await tools.exec_command({cmd: "pytest -q"})).output);',
            cell.format(7),
            "unknown",
        ),
        _call(
            "f",
            "wait",
            {"cell_id": "7", "yield_time_ms": 10000},
            "Script completed\nWall time 2.0 seconds\nOutput:\n\n12 passed in 1.90s\n",
            "unknown",
        ),
        _call("g", "exec_command", {"cmd": "cargo test"}, running.format(8), "unknown"),
    )
    runs = list(session_runs([_turn("t", *calls)]))
    assert [(r.command, r.outcome) for r in runs] == [
        ("npm test", Outcome.FAILED),
        ("make test", Outcome.WORKED),
        ("pytest -q", Outcome.WORKED),
        ("cargo test", Outcome.UNKNOWN),
    ]


def test_a_claude_background_shell_takes_the_outcome_its_output_call_shows() -> None:
    launched = "Command running in background with ID: {}"
    calls = (
        _call(
            "a",
            "Bash",
            {"command": "make test", "run_in_background": True},
            launched.format("bash_1"),
        ),
        _call(
            "b",
            "Bash",
            {"command": "npm run e2e", "run_in_background": True},
            launched.format("bash_2"),
        ),
        _call(
            "c",
            "BashOutput",
            {"bash_id": "bash_1"},
            "<status>running</status>\n\n<stdout>\nok  \tshop/cart\n</stdout>",
        ),
        _call(
            "d",
            "BashOutput",
            {"bash_id": "bash_1"},
            "<status>completed</status>\n\n<exit_code>0</exit_code>\n\n"
            "<stdout>\nok  \tshop/orders\n</stdout>",
        ),
        _call(
            "e",
            "TaskOutput",
            {"task_id": "bash_2", "block": True},
            "<status>failed</status>\n\n<exit_code>1</exit_code>\n\n"
            "<output>\n1 failed, 9 passed\n</output>",
        ),
    )
    runs = list(session_runs([_turn("t", *calls)]))
    assert [(r.command, r.outcome) for r in runs] == [
        ("make test", Outcome.WORKED),
        ("npm run e2e", Outcome.FAILED),
    ]


def test_a_server_the_agent_stopped_waiting_for_worked_when_it_said_it_is_up() -> None:
    """A development server never ends: its exit is never seen, but its own start-up line
    is (`command_line/reports_servers.py`)."""

    running = "Chunk ID: 1a\nWall time: 5.0 seconds\nProcess running with session ID {}\nOutput:\n"
    launched = "Command running in background with ID: {}"
    calls = (
        # Codex: still running when the call returned, and Vite said it is ready
        _call(
            "a",
            "exec_command",
            {"cmd": "npm run dev"},
            running.format(3)
            + "\n  VITE v5.4.2  ready in 312 ms\n\n  ➜  Local:   http://localhost:5173/",
            "unknown",
        ),
        # Claude Code: sent to the background, its output call shows uvicorn up
        _call(
            "b",
            "Bash",
            {"command": "uv run uvicorn app.main:app --port 8000", "run_in_background": True},
            launched.format("bash_1"),
            "completed",
        ),
        _call(
            "c",
            "BashOutput",
            {"bash_id": "bash_1"},
            "<status>running</status>\n\n<stderr>\nINFO:     Uvicorn running on "
            "http://127.0.0.1:8000 (Press CTRL+C to quit)\n</stderr>",
            "completed",
        ),
        # up, then an error: not shown to work
        _call(
            "d",
            "exec_command",
            {"cmd": "npm start"},
            running.format(4)
            + "Server listening on port 3000\nError: Cannot find module 'x'\n    at Module._load",
            "unknown",
        ),
        # a test run still going is no server: what it printed so far is no result
        _call(
            "e",
            "exec_command",
            {"cmd": "npm test"},
            running.format(5) + "Server listening on port 3000",
            "unknown",
        ),
        # a server that printed nothing of being up
        _call("f", "exec_command", {"cmd": "npm run dev"}, running.format(6), "unknown"),
    )
    runs = list(session_runs([_turn("t", *calls)]))
    assert [(r.command, r.outcome) for r in runs] == [
        ("npm run dev", Outcome.WORKED),
        ("uv run uvicorn app.main:app --port 8000", Outcome.WORKED),
        ("npm start", Outcome.UNKNOWN),
        ("npm test", Outcome.UNKNOWN),
        ("npm run dev", Outcome.UNKNOWN),
    ]
    assert [f.content for f in _one_turn(*calls)] == [
        "`npm run dev` starts the application (worked in 1 session).",
        "`uv run uvicorn app.main:app --port 8000` starts the application (worked in 1 session).",
    ]


def test_what_a_background_command_printed_while_still_running_is_no_result() -> None:
    """Claude Code sent it to the background on its own (no `run_in_background` input): its
    output call shows it still running, so a partial "FAIL" or "10 passed" tells nothing,
    and the polls of a long-running server do not pile up its logs."""
    launched = "Command running in background with ID: {}. Output is being written to: /tmp/x"

    polls = [
        _call(f"p{n}", "TaskOutput", {"task_id": "b3"}, "<status>running</status>\n<output>\n"
             + "GET /api/items 200 in 12ms\n" * 400 * n + "</output>")
        for n in range(1, 40)
    ]  # fmt: skip
    calls = (
        _call("a", "Bash", {"command": "npm test"}, launched.format("b1")),
        _call("b", "TaskOutput", {"task_id": "b1"}, "<status>running</status>\n"
             "<output>\nFAIL src/a.test.ts\n</output>"),
        _call("c", "Bash", {"command": "uv run pytest"}, launched.format("b2")),
        _call("d", "TaskOutput", {"task_id": "b2"}, "<status>running</status>\n"
             "<output>\n10 passed\n</output>"),
        _call("e", "Bash", {"command": "npm run dev"}, launched.format("b3")),
        *polls,
    )  # fmt: skip
    runs = list(session_runs([_turn("t", *calls)]))
    assert [(r.command, r.outcome) for r in runs] == [
        ("npm test", Outcome.UNKNOWN),
        ("uv run pytest", Outcome.UNKNOWN),
        ("npm run dev", Outcome.UNKNOWN),
    ]
    assert len(runs[-1].output) <= MAX_KEPT_OUTPUT


def test_a_copilot_command_still_running_takes_the_outcome_its_read_call_shows() -> None:
    """Copilot CLI returns "<command with shellId: N is still running …>" and the agent
    waits with `read_powershell` (or `read_bash`) until "<command with id: N exited with
    exit code X>"."""

    running = (
        "<command with shellId: {} is still running after 60 seconds. The command is still"
        " running but hasn't produced output yet. Use read_powershell to continue waiting.>"
    )
    calls = (
        _call("a", "powershell", {"command": "cargo check"}, running.format(5)),
        _call("b", "bash", {"command": "cargo test"}, running.format(6)),
        _call("c", "read_powershell", {"shellId": "5", "delay": 45}, running.format(5)),
        _call(
            "d",
            "read_powershell",
            {"shellId": "5", "delay": 45},
            "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1m 12s\n"
            "<command with id: 5 exited with exit code 0>",
            "completed",
        ),
        _call(
            "e",
            "read_bash",
            {"shellId": "6", "delay": 60},
            "test result: FAILED. 2 passed; 1 failed\n"
            "<command with id: 6 exited with exit code 101>",
            "failed",
        ),
    )
    runs = list(session_runs([_turn("t", *calls)]))
    assert [(r.command, r.outcome) for r in runs] == [
        ("powershell -Command 'cargo check'", Outcome.WORKED),
        ("cargo test", Outcome.FAILED),
    ]


@pytest.mark.parametrize(
    ("typed", "scrubbed"),
    [
        (
            "C:/Users/ana/app/.venv/Scripts/python.exe -m ruff check .",
            ".venv/Scripts/python.exe -m ruff check .",
        ),
        (
            "C:\\Users\\ana\\app\\.venv\\Scripts\\python.exe -m pytest",
            ".venv\\Scripts\\python.exe -m pytest",
        ),
        ("cd /c/Users/ana/app/web && npm test", "cd web && npm test"),
        ("bash /mnt/c/Users/ana/app/scripts/check.sh", "bash scripts/check.sh"),
        ("ls c:/Users/ana/app", "ls ."),
        # another folder of the same person stays a home path, never the worktree
        ("C:/Users/ana/other/run.sh", "~/other/run.sh"),
        ("cd C:/Users/ana/app-api && npm test", "cd ~/app-api && npm test"),
        ("ls C:/Users/ana/app2/x", "ls ~/app2/x"),
        # Windows names a folder in any letter case
        ("cd C:\\Users\\Ana\\App\\web && dir C:\\USERS\\ANA\\APP", "cd web && dir ."),
        # inside a JSON-dumped tool call, its backslashes doubled
        ('{"command": "C:\\\\Users\\\\ana\\\\app\\\\web"}', '{"command": "web"}'),
        # either separator, mixed at will, and Git Bash's drive in capitals
        ("type C:\\Users\\ana/app\\web\\a.ts", "type web\\a.ts"),
        ("cd c:/users/ana\\app/web && npm test", "cd web && npm test"),
        ("cd C:\\Users\\ana\\app/web", "cd web"),
        ("ls /C/Users/ana/app/web", "ls web"),
        # after a spelling with slashes alone, a backslash is an escape of JSON text
        ('{"content": "ROOT=C:/Users/ana/app\\nPORT=3000"}', '{"content": "ROOT=.\\nPORT=3000"}'),
        # a link to a file of the worktree names no one
        ("file:///C:/Users/ana/app/src/a.ts", "file:///~/app/src/a.ts"),
    ],
)
def test_every_spelling_of_a_windows_worktree_is_made_relative(typed: str, scrubbed: str) -> None:
    # Claude Code on Windows records the folder as `C:\Users\ana\app` while the agent's
    # commands name it `C:/Users/ana/app` or `/c/Users/ana/app`: one command, one memory.
    assert path_scrubber(Path("C:\\Users\\ana\\app"))(typed) == scrubbed


@pytest.mark.parametrize(
    ("root", "typed", "scrubbed"),
    [
        # the worktree's folder inside a longer path or a URL is not the worktree
        ("/app", "see https://github.com/org/app/pull/3 and /srv/app/logs", None),
        ("/work", "cat /tmp/work/notes.txt", None),
        # an escape of JSON text after it is no separator
        (
            "/home/ana/app",
            'Bash {"command": "cd \\"/home/ana/app\\" && npm test"}',
            'Bash {"command": "cd \\".\\" && npm test"}',
        ),
        (
            "/home/ana/app",
            'Write {"content": "ROOT=/home/ana/app\\nPORT=3000"}',
            'Write {"content": "ROOT=.\\nPORT=3000"}',
        ),
        # named alone with its separator, it stays a folder
        ("/home/ana/app", "cp build.zip /home/ana/app/ && ls", "cp build.zip ./ && ls"),
        ("C:\\Users\\ana\\app", 'cd "C:\\Users\\ana\\app\\"', 'cd ".\\"'),
        ("/home/ana/app", "is the repo at /home/ana/app?", "is the repo at .?"),
        # an escape of JSON text after a spelling with doubled backslashes (PowerShell's
        # listing of the folder, dumped as JSON)
        (
            "D:\\work\\acme\\app",
            '{"output": "Directory: D:\\\\work\\\\acme\\\\app\\n\\nMode"}',
            '{"output": "Directory: .\\n\\nMode"}',
        ),
        # a share's folder spelled with slashes in a web address is not the share
        ("\\\\server\\share\\app", "see https://server/share/app/x", None),
        ("\\\\server\\share\\app", "see https://SERVER/Share/app/x", None),
    ],
)
def test_the_worktree_is_made_relative_only_where_it_is_a_whole_path(
    root: str, typed: str, scrubbed: str | None
) -> None:
    assert path_scrubber(Path(root))(typed) == (typed if scrubbed is None else scrubbed)


def test_a_drive_root_or_a_share_is_named_as_a_worktree_folder_should_be() -> None:
    # a worktree at a drive's root (a `subst` drive) names no folder to rewrite: text with
    # `/d` or `D:` in it stays as it is; a share's folder is made relative in both spellings
    text = "npm test 2>/dev/null; cmd /d /c; Passed: 9"
    assert path_scrubber(Path("D:\\"))(text) == text
    share = path_scrubber(Path("\\\\server\\share\\repo"))
    assert (
        share("cd //server/share/repo/web && cd \\\\server\\share\\repo\\api") == "cd web && cd api"
    )
    assert path_scrubber(Path("/home/ana/app"))("cd /home/ana/app-api") == "cd ~/app-api"
