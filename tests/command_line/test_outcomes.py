"""Outcomes from the tools' own words, and error signatures (issue 39 item 2, issue 40)."""

from __future__ import annotations

import pytest

from git_memory.command_line.line import parse
from git_memory.command_line.outcomes import line_outcomes, printed_passes
from git_memory.command_line.reports import REPORTS, SILENT, Outcome, Report
from git_memory.command_line.signature import error_line, error_signature, invocation_error

W, F, U = Outcome.WORKED, Outcome.FAILED, Outcome.UNKNOWN
# A command of each kind a row reports on (None: a runner's or build tool's own verdict).
_OF_KIND = {
    "test": "pytest",
    "lint": "ruff check",
    "format": "ruff format",
    "typecheck": "mypy src",
    "build": "cargo build",
    "syntax": "python -m py_compile app.py",
    None: "make check",
}


def _main(text: str, status: Outcome, output: str) -> Outcome:
    line = parse(text)
    index = line.main_index
    assert index is not None
    return line_outcomes(line, status, output)[index]


@pytest.mark.parametrize("report", REPORTS, ids=lambda r: f"{r.tool}-{r.outcome}")
def test_each_row_reads_its_own_example_behind_a_pipe(report: Report) -> None:
    """The pipe hides the tool's status (`tail` exits 0): only its words tell."""
    command = f"{_OF_KIND[report.kind]} 2>&1 | tail -20"
    assert _main(command, W, f"some progress\n{report.example}\n") is report.outcome


@pytest.mark.parametrize("report", REPORTS, ids=lambda r: f"{r.tool}-{r.outcome}")
def test_each_row_reads_its_own_example_through_a_task_runner(report: Report) -> None:
    """`mise run <kind> | tail`: the runner's target wraps the tool that printed it."""
    target = {"typecheck": "types"}.get(report.kind or "check", report.kind or "check")
    assert _main(f"mise run {target} | tail", W, report.example) is report.outcome


ASTRO_CHECKED = (
    "11:10:44 [types] Generated 745ms\n"
    "11:10:44 [check] Getting diagnostics for Astro files in /work/site...\n"
    "Result (148 files): \n- {errors} errors\n- 0 warnings\n- 1 hint\n"
)


def test_astro_and_svelte_checkers_say_how_their_run_ended_behind_a_pipe() -> None:
    # (a session of a public repository ran `npx astro check 2>&1 | tail -30` 35 times)
    assert _main("npx astro check 2>&1 | tail -30", W, ASTRO_CHECKED.format(errors=0)) is W
    assert _main("npx astro check 2>&1 | tail -30", W, ASTRO_CHECKED.format(errors=3)) is F
    svelte = "====================================\nsvelte-check found {} errors and 0 warnings\n"
    assert _main("npx svelte-check | tail -3", W, svelte.format(0)) is W
    assert _main("npx svelte-check | tail -3", W, svelte.format(2)) is F
    # no error but warnings: a pass only where warnings do not fail it, which the summary
    # cannot tell (`--fail-on-warnings`, `--minimumFailingSeverity warning`)
    warned = ASTRO_CHECKED.format(errors=0).replace("- 0 warnings", "- 2 warnings")
    assert _main("npx astro check --minimumFailingSeverity warning | tail", W, warned) is U
    warned_svelte = "svelte-check found 0 errors and 3 warnings in 2 files\n"
    assert _main("npx svelte-check --fail-on-warnings | tail -5", W, warned_svelte) is U
    # through a target of another kind the check's summary says nothing of the target (Astro's
    # build script is `astro check && astro build`)
    assert _main("npm run build 2>&1 | head -12", W, ASTRO_CHECKED.format(errors=0)) is U
    # a check's summary is a target's that checks: the project's gate
    pytest_ok = "==== 42 passed in 1.20s ====\n"
    for gate in ("make check", "npm run verify", "just check", "npm run precommit"):
        assert _main(f"{gate} 2>&1 | tail -20", W, pytest_ok) is W, gate
    # ... and of a line of several targets, or of none (`make`)
    for line in ("make build test", "make -j8", "make"):
        assert _main(f"{line} 2>&1 | tail -5", W, pytest_ok) is W, line
    # a build's summary says nothing of a test target cut before its tests
    assert _main("make test 2>&1 | head -8", W, "vite v5.4.2\n✓ built in 1.20s\n") is U


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("pytest 2>&1 | tail -5", "collected 3 items\n"),
        ("make check | tail", "running checks\n"),
        ("yarn lint | head", ""),
        ("make check | tail", "Installed:\n  ✓ Node.js v20.19.5\nNode.js v20.19.5\n"),
    ],
)
def test_nothing_said_stays_unknown_behind_a_pipe(command: str, output: str) -> None:
    assert _main(command, W, output) is U


@pytest.mark.parametrize(("words", "example"), SILENT)
def test_a_tool_silent_on_success_worked_when_nothing_was_printed(
    words: tuple[str, ...], example: str
) -> None:
    assert parse(example).steps[0].command.program[: len(words)] in (words, (f"npx {words[0]}",))
    assert _main(example, W, "") is W
    assert _main(example, W, "src/a.ts(3,1): error TS2304: Cannot find name 'x'.\n") is not W


def test_a_silent_tool_is_seen_through_its_package_manager() -> None:
    assert _main("pnpm --filter api exec tsc --noEmit | head", W, "") is W
    assert _main("yarn tsc --noEmit 2>&1 | tail", W, "") is W
    assert _main("pnpm --filter api test | tail", W, "") is U


@pytest.mark.parametrize(
    "command",
    [
        'npx tsc --noEmit 2>&1 | grep -E "Contractor/PatrolRecord" | head -40',
        "go vet ./... 2>&1 | rg internal/",
        "npx tsc --noEmit | sed -n '/src\\/app/p'",
        'npx tsc --noEmit 2>&1 | Select-String "src/app"',
        "cargo check 2>&1 | awk '/src/'",
        "npx tsc --noEmit | jq -R 'select(test(\"app\"))'",
        # a quiet grep prints nothing either way; a name or a path holding "error"
        'npx tsc --noEmit | grep -q "error TS"',
        "npx tsc --noEmit 2>&1 | grep ErrorBoundary | head -20",
        'npx tsc --noEmit 2>&1 | grep "src/lib/errors.ts" | head -20',
        'npx tsc --noEmit 2>&1 | sed -ne "/src\\/app/p"',
        "npx tsc --noEmit | Select-String -Pattern 'src/app' -CaseSensitive",
        # a name or a path holding a problem's word
        "npx tsc --noEmit 2>&1 | grep handleError",
        "npx tsc --noEmit 2>&1 | grep -i interrupt",
        "npx tsc --noEmit 2>&1 | sed -n '/src\\/lib\\/errors.ts/p'",
        "npx tsc --noEmit 2>&1 | awk '/src\\/lib\\/errors.ts/'",
    ],
)
def test_silence_behind_a_filter_that_selects_lines_says_nothing_matched(command: str) -> None:
    assert _main(command, W, "") is U


@pytest.mark.parametrize(
    "command",
    [
        "npx tsc --noEmit | sed -n '1,20p'",
        "npx tsc --noEmit 2>&1 | head -30 | cut -c1-200",
        # a filter for the lines of a problem found none
        'npx tsc --noEmit 2>&1 | grep "error TS" | head -20',
        "npx tsc --noEmit 2>&1 | Where-Object { $_ -match 'error TS' }",
        "npx tsc --noEmit | sed -n '/error/p'",
        # a filter that drops only what it names, or acts on every line
        'npx tsc --noEmit 2>&1 | grep -v "^$"',
        "npx tsc --noEmit | sed '/^$/d'",
        "npx tsc --noEmit 2>&1 | awk -F'(' '{print $1}' | sort -u",
        "npx tsc --noEmit | jq -R .",
        'npx tsc --noEmit 2>&1 | grep -Ev "node_modules" | head -20',
        'npx tsc --noEmit | findstr /V "node_modules"',
        'npx tsc --noEmit | Select-String -notmatch "node_modules"',
        "npx tsc --noEmit | findstr /IV node_modules",
        "tsc --noEmit 2>&1 | awk '/error/'",
        "tsc --noEmit 2>&1 | grep -E 'TypeError|SyntaxError'",
        "tsc --noEmit 2>&1 | grep -i '\\berror\\b'",
    ],
)
def test_silence_behind_a_filter_that_passes_its_lines_on_is_the_tools(command: str) -> None:
    assert _main(command, W, "") is W


def test_a_package_script_that_printed_only_its_banner_ran_a_silent_tool() -> None:
    banner = "> api@0.0.1 build /work/apps/api\n> nest build\n"
    assert _main("pnpm --filter api build 2>&1 | tail -40", W, banner) is W
    typecheck = "\n> app@1.0.0 typecheck\n> tsc --noEmit\n\n"
    assert _main("npm run typecheck | tail", W, typecheck) is W
    vitest = "> app@1.0.0 test\n> vitest run\n"
    assert _main("npm run test | tail", W, vitest) is U, "vitest always reports: cut off"
    errors = banner + "src/main.ts:3:1 - error TS2304: Cannot find name 'x'."
    assert _main("pnpm --filter api build 2>&1 | tail -40", W, errors) is not W


def test_the_issue_39_runs_read_as_worked() -> None:
    assert _main("yarn vitest run 2>&1 | tail -5", W, " ✓ 12 passed\n") is W
    go_output = "ok  \tgithub.com/acme/shop/cart\t0.012s\nok  \tgithub.com/acme/shop/api\t(cached)"
    assert _main("mise run test 2>&1 | tail -20", W, go_output) is W
    assert _main("cd go && go test ./... | tail -3", W, go_output) is W
    assert _main("make types 2>&1 | tail", W, "Success: no issues found in 40 source files") is W


def test_a_failure_the_tool_reports_wins_over_a_zero_exit() -> None:
    output = "FAILED tests/test_a.py::test_b - assert 1 == 2\n=== 1 failed, 3 passed in 0.2s ==="
    assert _main("uv run pytest -q | tail -3", W, output) is F
    assert _main("pnpm test", W, " ELIFECYCLE  Test failed. See above for more details.") is F


def test_a_pass_in_one_command_does_not_count_for_another_kind() -> None:
    line = parse("ruff check . && pytest | tail")
    assert line_outcomes(line, W, "All checks passed!\n") == [W, U]


def test_the_exit_status_of_a_compound_and_the_echoed_status() -> None:
    assert line_outcomes(parse("make lint && make test"), W, "") == [W, W]
    assert line_outcomes(parse("make lint; make test"), W, "") == [U, W]
    assert line_outcomes(parse("make lint || make test"), W, "") == [U, U]
    echoed = parse('make test; echo "exit: $?"')
    assert line_outcomes(echoed, W, "exit: 2\n") == [F, W]


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "Traceback (most recent call last):\n  File 'x.py'\nModuleNotFoundError: "
            "No module named 'openpyxl'",
            "ModuleNotFoundError: No module named 'openpyxl'",
        ),
        ("--- FAIL: TestResume (0.01s)\n    resume_test.go:244: want 3\nFAIL", "--- FAIL: Test"),
        ("npm ERR! code ELIFECYCLE\nnpm ERR! Missing script: lint", "Missing script: lint"),
        ("all good\n", ""),
    ],
)
def test_the_first_meaningful_error_line(output: str, line: str) -> None:
    assert error_line(output).startswith(line)
    assert bool(error_line(output)) is bool(line)


def test_signatures_equal_for_the_same_failure_and_differ_for_another() -> None:
    first = "--- FAIL: TestResume (0.01s)\n    resume_test.go:244: want 3, got 4\nFAIL"
    again = "--- FAIL: TestResume (0.35s)\n    resume_test.go:250: want 5, got 4\nFAIL"
    other = "--- FAIL: TestCheckpoint (0.01s)\n    checkpoint_test.go:12: want 1\nFAIL"
    assert error_signature(first) == error_signature(again) == "--- FAIL: TestResume (<n>s)"
    assert error_signature(other) != error_signature(first)


def test_signatures_make_paths_numbers_and_hashes_placeholders() -> None:
    output = "error[E0425]: cannot find value `total` in /home/dev/shop/src/cart.rs:12 at 3f2a9c1e"
    assert error_signature(output) == (
        "error[E0425]: cannot find value `total` in <path>:<n> at <sha>"
    )
    assert error_signature("ok\n") == ""


def test_a_stack_frame_is_never_the_error_quoted() -> None:
    """vitest prints frames as `❯ Module.require node:internal/…`: the error is the line
    above them, and "require node" in a frame asks for no Node version."""
    output = (
        "⎯⎯⎯⎯⎯⎯⎯ Test Run Error ⎯⎯⎯⎯⎯⎯⎯\n"
        "TypeError: Cannot read properties of undefined (reading 'get')\n"
        " ❯ Object.<anonymous> node_modules/webidl-conversions/lib/index.js:325:94\n"
        " ❯ Module.require node:internal/modules/cjs/loader:1225:19\n"
    )
    assert error_line(output) == "TypeError: Cannot read properties of undefined (reading 'get')"
    assert error_line("error: this project requires node >= 20") == (
        "error: this project requires node >= 20"
    )


STARTUP_NOISE = "~/.profile: line 5: compdef: command not found\n"


def test_what_the_shells_start_up_files_print_is_not_the_commands_error() -> None:
    """A login shell whose start-up file fails prints the same line before every command:
    the error is the command's own, and a red test is no error in how it was invoked."""
    red = "FAILED tests/test_cart.py::test_total - assert 3 == 4\n1 failed in 0.2s"
    assert error_line(STARTUP_NOISE + red).startswith("FAILED tests/test_cart.py")
    assert not invocation_error(STARTUP_NOISE + red)
    assert invocation_error(STARTUP_NOISE + "ModuleNotFoundError: No module named 'x'")
    assert error_line(STARTUP_NOISE) == ""
    # Git Bash's home on Windows, a start-up file saved as UTF-16 (a real session)
    git_bash = "/c/Users/1/.bashrc: line 1: $'\\377\\376eval': command not found\n"
    assert error_line(git_bash + red).startswith("FAILED tests/test_cart.py")
    assert not invocation_error(git_bash + red)
    homebrew = (
        "/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not "
        "permitted\n"
    )
    assert not invocation_error(homebrew + red)
    # the shell that runs the command speaks for it
    missing = "/usr/bin/bash: line 2: firebase: command not found"
    assert invocation_error(homebrew + missing)
    assert error_line(homebrew + missing) == missing


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("# tests 5\n# suites 0\n# pass 5\n# fail 0\n# cancelled 0\n", True),
        ("ℹ tests 13\nℹ suites 0\nℹ pass 13\nℹ fail 0\nℹ cancelled 0\n", True),
        ("# pass 5\n# fail 1\n", False),
        # the "fail 0" of another summary, far below: not this one's
        ("# pass 5\n" + "ok 1 - x\n" * 10 + "# fail 0\n", False),
        ("# pass 1\n" * 20_000, False),  # read from each "pass" line to a few lines after
    ],
)
def test_node_tests_summary_is_its_pass_and_the_fail_0_right_after(
    output: str, passed: bool
) -> None:
    assert ("test" in printed_passes(output)) is passed
