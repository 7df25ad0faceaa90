"""Runs whose exit status a pipe hid count as worked or failed by the tools' own words, read
through the command model's outcome table (issue 39 item 2)."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin.observed import Outcome, own_output
from git_memory.extract.builtin.runs import Run, session_runs
from git_memory.extract.quotes import origin_of
from git_memory.sessions.turns import ToolCall
from tests.extract.test_builtin_facts import _turn


def _run(command: str, output: str, state: str = "completed") -> Run:
    """The run of one Bash call with this output and end state."""
    call = ToolCall(
        call_id="c", name="Bash", input={"command": command}, output=output, state=state
    )
    (run,) = session_runs([_turn("t", call)])
    return run


def _worked(command: str, output: str, state: str = "completed") -> list[str]:
    return [command.normal for command in _run(command, output, state).worked]


GO_OK = "ok  \tgithub.com/acme/shop/cart\t0.012s\nok  \tgithub.com/acme/shop/api\t(cached)\n"


@pytest.mark.parametrize(
    ("command", "output", "worked"),
    [
        ("mise run test 2>&1 | tail -20", GO_OK, ["mise run test"]),
        ("cd go && go test ./... | tail -5", GO_OK, ["go test ./..."]),
        ("yarn vitest run 2>&1 | tail -5", " Test Files  18 passed (18)\n", ["yarn vitest run"]),
        ("make types | tail", "Success: no issues found in 87 source files\n", ["make types"]),
        ("./gradlew build | tail -3", "BUILD SUCCESSFUL in 38s\n", ["./gradlew build"]),
        ("npx tsc --noEmit | tail -20", "", ["npx tsc --noEmit"]),
        ("pytest 2>&1 | tail -5", "collected 12 items\n", []),
        ("pnpm test | tail", " ELIFECYCLE  Test failed. See above for more details.\n", []),
    ],
)
def test_a_pipe_hid_status_read_from_the_tools_words(
    command: str, output: str, worked: list[str]
) -> None:
    assert _worked(command, output) == worked


# vitest's summary as it writes it to a terminal: its words spelled with colour codes
ESC = "\x1b"
COLOURED_TESTS = (
    f"{ESC}[2m Test Files {ESC}[22m {ESC}[1m{ESC}[32m6 passed{ESC}[39m{ESC}[22m{ESC}[90m (6)"
    f"{ESC}[39m\n{ESC}[2m      Tests {ESC}[22m {ESC}[1m{ESC}[32m42 passed{ESC}[39m{ESC}[22m\n"
)


def test_a_tools_words_in_colour_are_read_as_its_words() -> None:
    assert _worked("npm test -- --run 2>&1 | tail -50", COLOURED_TESTS) == ["npm test"]
    failed = COLOURED_TESTS.replace(f"{ESC}[32m6 passed", f"{ESC}[31m1 failed{ESC}[39m | 5 passed")
    run = _run("npm test -- --run 2>&1 | tail -50", f"{ESC}[41m FAIL {ESC}[49m a.test.ts\n{failed}")
    assert run.state == "failed"
    # a hyperlink a terminal shows around a word is no part of it
    linked = f"{ESC}]8;;file:///app/src{ESC}\\ok  \tgithub.com/acme/shop{ESC}]8;;{ESC}\\\t0.1s\n"
    assert _worked("go test ./... | tail -3", linked) == ["go test ./..."]
    # the host finds the words quoted without their colour in the output that had it
    call = ToolCall("c", "Bash", {"command": "npm test"}, COLOURED_TESTS, "completed")
    assert origin_of(_turn("t", call), "tool", "Tests 42 passed", False, str) == "tool"


def test_a_line_a_progress_display_erased_is_no_end_of_the_output() -> None:
    built = "vite v5.4.2 building for production...\n✓ built in 1.20s\nWriting service worker...\r"
    assert _worked("npm run build", built + f"{ESC}[2K") == ["npm run build"]
    frames = built.replace("worker...\r", "worker...\rWriting service worker...\r")
    assert _worked("npm run build", frames + f"{ESC}[2K") == ["npm run build"]


def test_gemini_clis_framing_of_no_output_is_silence() -> None:
    framed = (
        "Command: npx tsc --noEmit | tail -20\nDirectory: (root)\nOutput: (empty)\n"
        "Error: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\n"
    )
    assert _worked("npx tsc --noEmit | tail -20", framed) == ["npx tsc --noEmit"]


def test_claude_codes_note_of_no_output_is_silence() -> None:
    """Claude Code records a command that printed nothing as "(Bash completed with no
    output)": a type check silent behind `| head` worked."""
    note = "(Bash completed with no output)"
    command = "npx tsc --noEmit --skipLibCheck 2>&1 | head -30"
    assert _worked(command, note) == ["npx tsc --noEmit --skipLibCheck"]
    assert _worked("pnpm --filter api exec tsc --noEmit | head", note) == [
        "pnpm --filter api exec tsc --noEmit"
    ]
    assert _worked("pnpm --filter api build | tail", note) == [], "a script may print nothing"


@pytest.mark.parametrize(
    "framed",
    [
        "Exit code: 0\nWall time: 2.1 seconds\nOutput:\n",  # Codex
        "Chunk ID: 5c385b\nWall time: 0.0000 seconds\nProcess exited with code 0\n"
        "Original token count: 0\nOutput:\n",  # Codex, later
        "<exited with exit code 0>",  # Copilot CLI
    ],
)
def test_codex_and_copilots_framing_of_no_output_is_silence(framed: str) -> None:
    assert _worked("npx tsc --noEmit | tail -20", framed) == ["npx tsc --noEmit"]
    report = framed.replace("Output:\n", "Output:\nsrc/a.ts(3,1): error TS2304: x\n")
    if report != framed:  # what the tool printed inside the frame is read as its words
        assert _worked("npx tsc --noEmit | tail -20", report) == []


def test_what_the_shells_start_up_files_print_is_no_output_of_the_command() -> None:
    framed = (
        "Exit code: 0\nWall time: 2 seconds\nOutput:\n"
        "~/.profile: line 5: compdef: command not found\n"
    )
    assert _worked("npx tsc --noEmit | tail -20", framed) == ["npx tsc --noEmit"]


def test_gemini_clis_output_label_is_not_part_of_the_output() -> None:
    framed = "Command: go test ./... | tail\nDirectory: (root)\nOutput: " + GO_OK
    assert _worked("go test ./... | tail", framed) == ["go test ./..."]


def test_a_runner_failure_line_is_a_failure_whatever_the_exit() -> None:
    recipe = "error: Recipe `lint` failed on line 4 with exit code 1\n"
    assert _run("just lint | tail", recipe).outcome is Outcome.FAILED


# What Node printed when `tsc` could not start (a real run's output, the store path cut): its
# report of an uncaught exception ends with a blank line and Node's version.
NODE_DIED = (
    "node:internal/modules/cjs/loader:1423\n"
    "  throw err;\n"
    "  ^\n"
    "\n"
    "Error: Cannot find module 'node_modules/.pnpm/typescript@5.8.3/node_modules/typescript"
    "/bin/tsc'\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1420:15)\n"
    "    at node:internal/main/run_main_module:33:47 {\n"
    "  code: 'MODULE_NOT_FOUND',\n"
    "  requireStack: []\n"
    "}\n"
    "\n"
    "Node.js v25.2.1\n"
)


@pytest.mark.parametrize(
    "framing", ["", "Chunk ID: 2ac4a3\nWall time: 0.0515 seconds\n\nOutput:\n\n"]
)
def test_node_dying_behind_a_pipe_is_a_failure_by_its_own_report(framing: str) -> None:
    """`head` exited 0; the report's blank lines are kept when the agent's framing around
    the output is taken off, so Node's own report still reads as the process dying."""
    run = _run("cd apps/api && npx tsc --noEmit 2>&1 | head -60", framing + NODE_DIED)
    assert run.outcome is Outcome.FAILED


def test_eslint_that_could_not_run_failed_whatever_hid_its_status() -> None:
    """`|| true` made the line exit 0; ESLint's own words say it never linted."""
    crashed = (
        "> tp-tutor@0.1.0 lint\n> eslint .\n\n\nOops! Something went wrong! :(\n\n"
        "ESLint: 9.39.4\n\n"
        "TypeError: Cannot read properties of undefined (reading 'recommended')\n"
        "    at file:///home/user/TP-Tutor/eslint.config.js:15:31\n"
    )
    assert _run("npm run lint || true", crashed).outcome is Outcome.FAILED


def test_a_last_line_starting_with_error_is_the_commands_unless_the_agent_framed_it() -> None:
    """Gemini CLI closes a shell result with `Error: (none)`, `Exit Code: 1`, …: those are
    its words; a command whose own last line is "Error: …" keeps it."""
    own = "Server listening on port 3000\nError: listen EADDRINUSE: address already in use"
    assert own_output(own) == own
    gemini = (
        "Command: npm start\nDirectory: (root)\nOutput: Server listening on port 3000\n"
        "Error: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\n"
        "Process Group PGID: 4242"
    )
    assert own_output(gemini) == "Server listening on port 3000"
    spawn_failed = gemini.replace("Server listening on port 3000", "(empty)").replace(
        "Error: (none)", "Error: spawn EACCES"
    )
    assert own_output(spawn_failed) == ""
    # Its newer trailer (`Exit Code:`, `Process Group PGID:`) has no `Error: ` line: one
    # above it is the command's own
    newer = "Output: > vite\nError: listen EADDRINUSE: :::5173\nExit Code: 1\nProcess Group PGID: 7"
    assert own_output(newer) == "> vite\nError: listen EADDRINUSE: :::5173"
    # Gemini CLI writes one `Error: ` line: a command's own "Error: …" above it stays
    unreachable = "Error: P1001 can't reach the database"
    own_error = gemini.replace("Error: (none)", f"{unreachable}\nError: (none)")
    assert own_output(own_error) == f"Server listening on port 3000\n{unreachable}"
    # Copilot CLI's closing line is no Gemini trailer: the command's "Error: …" above it stays
    copilot = "Server listening on port 3000\nError: listen EADDRINUSE\n<exited with exit code 1>"
    assert own_output(copilot) == "Server listening on port 3000\nError: listen EADDRINUSE"


def test_an_output_of_many_blank_or_framing_lines_is_read_to_its_end() -> None:
    assert own_output("\n" * 200_000 + "ok\n" + "\n" * 200_000) == "ok"
    assert own_output("Output:\n" * 100_000 + "ok") == "ok"
    assert own_output("(Bash completed with no output)\n" + "\n" * 200_000 + "ok") == "ok"
