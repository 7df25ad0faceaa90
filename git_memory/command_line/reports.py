"""How the common tools report, in their own output, that a run worked or failed: one row
per tool and line, each with the output line it was written from. `outcomes` reads the rows.

Where the repository's transcript fixtures (tests/fixtures/) hold such a line, the example
is copied from them (`test result: ok. 57 passed; …`, `ELIFECYCLE  Command failed with exit
code 2.`, `Tests  96 passed (96)`, `BUILD SUCCESSFUL in 38s`, `make: *** [Makefile:14:
proto] Error 1`, `23 files left unchanged`, `Success: no issues found in 87 source files`);
the others are the tools' documented summary lines. A row's `kind` is the kind of command
whose run the line reports (None: whichever project command printed it, as a runner's or
build tool's own verdict does); `hint` is a piece of text the line always holds, so a row's
pattern is tried only on output that has it.
"""

from __future__ import annotations

from git_memory.command_line.report_rows import F, Outcome, Report, W, row
from git_memory.command_line.reports_scripting import SCRIPTING_REPORTS

# The row itself lives in `report_rows.py`; the JavaScript, TypeScript and Python rows in
# `reports_scripting.py`.
__all__ = ["REPORTS", "SILENT", "Outcome", "Report"]

REPORTS: tuple[Report, ...] = (
    # Go
    row(
        "go test",
        W,
        "test",
        hint="ok",
        pattern=r"^ok\s+\S+\s+(?:[\d.]+s|\(cached\))",
        example="ok  \tgithub.com/acme/shop/cart\t0.012s",
    ),
    row(
        "go test",
        W,
        "test",
        hint="PASS",
        pattern=r"^PASS\s*$",
        example="PASS",
    ),
    row(
        "go test",
        F,
        "test",
        hint="FAIL",
        pattern=r"^--- FAIL\b|^FAIL\s|^FAIL$",
        example="--- FAIL: TestResume (0.00s)",
    ),
    # Rust
    row(
        "cargo test",
        W,
        "test",
        hint="test result: ok",
        pattern=r"^test result: ok\. \d+ passed; 0 failed",
        example=("test result: ok. 57 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"),
    ),
    row(
        "cargo test",
        F,
        "test",
        hint="test result: FAILED",
        pattern=r"\btest result: FAILED\b",
        example="test result: FAILED. 11 passed; 1 failed; 0 ignored",
    ),
    row(
        "cargo",
        W,
        None,
        hint="Finished",
        pattern=r"^\s*Finished [`\w ,+]*(?:profile|target)",
        example="    Finished `dev` profile [unoptimized + debuginfo] target(s) in 21.07s",
    ),
    row(
        "cargo",
        F,
        None,
        hint="error",
        pattern=r"^error\[E\d+\]|^error: could not compile\b",
        example="error[E0425]: cannot find value `x` in this scope",
    ),
    *SCRIPTING_REPORTS,
    # Java and Kotlin
    row(
        "gradle",
        W,
        None,
        hint="BUILD SUCCESSFUL",
        pattern=r"^BUILD SUCCESSFUL\b",
        example="BUILD SUCCESSFUL in 38s",
    ),
    row(
        "gradle",
        F,
        None,
        hint="BUILD FAILED",
        pattern=r"^BUILD FAILED\b|^FAILURE: Build failed",
        example="BUILD FAILED in 4s",
    ),
    row(
        "maven",
        W,
        None,
        hint="BUILD SUCCESS",
        pattern=r"^\[INFO\] BUILD SUCCESS\s*$",
        example="[INFO] BUILD SUCCESS",
    ),
    row(
        "maven",
        F,
        None,
        hint="BUILD FAILURE",
        pattern=r"^\[(?:INFO|ERROR)\] BUILD FAILURE\b",
        example="[INFO] BUILD FAILURE",
    ),
    # .NET
    row(
        "dotnet build",
        W,
        None,
        hint="Build succeeded",
        pattern=r"^\s*Build succeeded\.?\s*$",
        example="Build succeeded.",
    ),
    row(
        "dotnet build",
        F,
        None,
        hint="Build FAILED",
        pattern=r"^\s*Build FAILED\.",
        example="Build FAILED.",
    ),
    row(
        "dotnet test",
        W,
        "test",
        hint="Passed!",
        pattern=r"^\s*Passed!\s+- Failed:\s+0,",
        example="Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12",
    ),
    row(
        "dotnet test",
        F,
        "test",
        hint="Failed!",
        pattern=r"^\s*Failed!\s+- Failed:\s+[1-9]",
        example="Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12",
    ),
    # Swift
    row(
        "swift build",
        W,
        None,
        hint="Build complete!",
        pattern=r"^(?:\[\d+/\d+\] )?Build complete!",
        example="Build complete! (3.21s)",
    ),
    row(
        "swift test",
        W,
        "test",
        hint="passed",
        pattern="^Test Suite 'All tests' passed\\b|^\\s*Executed \\d+ tests?, with 0 failures",
        example="Test Suite 'All tests' passed at 2025-01-01 10:00:00.000.",
    ),
    row(
        "swift test",
        F,
        "test",
        hint="failed",
        pattern=(
            "^Test Suite 'All tests' failed\\b"
            r"|^\s*Executed \d+ tests?, with [1-9]\d* failures?"
        ),
        example="Test Suite 'All tests' failed at 2025-01-01 10:00:00.000.",
    ),
    row(
        "compilers",
        F,
        None,
        hint="error:",
        pattern=r"^\S+:\d+:\d+: (?:fatal )?error: ",
        example="Sources/App/Cart.swift:12:5: error: cannot find 'total' in scope",
    ),
    # Ruby and PHP
    row(
        "rspec",
        W,
        "test",
        hint="examples",
        pattern=r"^\d+ examples?, 0 failures",
        example="12 examples, 0 failures",
    ),
    row(
        "rspec",
        F,
        "test",
        hint="failure",
        pattern=r"^\d+ examples?, [1-9]\d* failures?",
        example="12 examples, 2 failures",
    ),
    row(
        "minitest",
        W,
        "test",
        hint="runs,",
        pattern=r"^\d+ runs, \d+ assertions, 0 failures, 0 errors",
        example="12 runs, 30 assertions, 0 failures, 0 errors, 0 skips",
    ),
    row(
        "minitest",
        F,
        "test",
        hint="runs,",
        pattern=r"^\d+ runs, \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)",
        example="12 runs, 30 assertions, 1 failures, 0 errors, 0 skips",
    ),
    row(
        "phpunit",
        W,
        "test",
        hint="OK (",
        pattern=r"^OK \(\d+ tests?, \d+ assertions?\)",
        example="OK (12 tests, 30 assertions)",
    ),
    row(
        "phpunit",
        F,
        "test",
        hint="!",
        pattern=r"^(?:FAILURES|ERRORS)!\s*$",
        example="FAILURES!",
    ),
    row(
        "php -l",
        W,
        "syntax",
        hint="No syntax errors",
        pattern=r"^No syntax errors detected in\b",
        example="No syntax errors detected in public/index.php",
    ),
    # Dart and Flutter
    row(
        "dart analyze",
        W,
        "lint",
        hint="No issues found!",
        pattern=r"^\s*No issues found!",
        example="No issues found! (ran in 2.1s)",
    ),
    row(
        "dart test",
        W,
        "test",
        hint="All tests passed!",
        pattern=r"\+\d+(?: ~\d+)?: All tests passed!",
        example="00:04 +42: All tests passed!",
    ),
    row(
        "dart test",
        F,
        "test",
        hint="Some tests failed.",
        pattern=r"\+\d+(?: ~\d+)? -[1-9]\d*: Some tests failed\.",
        example="00:05 +40 -2: Some tests failed.",
    ),
    # Solidity (Foundry)
    row(
        "forge test",
        W,
        "test",
        hint="Suite result: ok.",
        pattern=r"^Suite result: ok\. \d+ passed; 0 failed",
        example="Suite result: ok. 12 passed; 0 failed; 0 skipped; finished in 3.05ms",
    ),
    row(
        "forge test",
        F,
        "test",
        hint="Suite result: FAILED.",
        pattern=r"^Suite result: FAILED\. \d+ passed; [1-9]\d* failed",
        example="Suite result: FAILED. 11 passed; 1 failed; 0 skipped; finished in 3.05ms",
    ),
    # make and the runners that wrap the tools
    row(
        "make",
        W,
        None,
        hint="Nothing to be done",
        pattern=r"^make(?:\[\d+\])?: Nothing to be done for",
        example="make: Nothing to be done for 'all'.",
    ),
    row(
        "make",
        F,
        None,
        hint="***",
        pattern=r"^make(?:\[\d+\])?: \*\*\* .*Error \d+",
        example="make: *** [Makefile:14: proto] Error 1",
    ),
    row(
        "npm",
        F,
        None,
        hint="npm ",
        pattern="^npm ERR! |^npm error (?:code |Lifecycle script )",
        example='npm ERR! Missing script: "lint"',
    ),
    row(
        "pnpm",
        F,
        None,
        hint="ELIFECYCLE",
        pattern=r"ELIFECYCLE\s+(?:Test|Command) failed",
        example=" ELIFECYCLE  Command failed with exit code 2.",
    ),
    row(
        "pnpm",
        F,
        None,
        hint="ERR_PNPM_",
        pattern="ERR_PNPM_",
        example="ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  web@1.0.0 test: `vitest run`",
    ),
    row(
        "yarn",
        F,
        None,
        hint="error Command failed",
        pattern=r"^error Command failed with exit code \d+",
        example="error Command failed with exit code 1.",
    ),
    row(
        "bun",
        F,
        None,
        hint="exited with code",
        pattern=r"^error: script \"\S+\" exited with code [1-9]",
        example='error: script "test" exited with code 1',
    ),
    row(
        "mise",
        F,
        None,
        hint="ERR",
        pattern=r"^(?:\[mise\] |mise )ERR(?:OR)?\b",
        example="[mise] ERROR task failed",
    ),
    row(
        "just",
        F,
        None,
        hint="error: Recipe",
        pattern=r"^error: Recipe `\S+` failed\b",
        example="error: Recipe `test` failed on line 12 with exit code 1",
    ),
    row(
        "task",
        F,
        None,
        hint="task: Failed",
        pattern=r"^task: Failed to run task\b",
        example='task: Failed to run task "test": exit status 1',
    ),
)

# Tools silent on success: behind a pipe, output with nothing in it means they found nothing
# to complain about (`npx tsc --noEmit | tail -20` printing nothing). (program words, example)
SILENT: tuple[tuple[tuple[str, ...], str], ...] = (
    (("tsc",), "npx tsc --noEmit | tail -20"),
    (("vue-tsc",), "npx vue-tsc --noEmit 2>&1 | head -50"),
    (("go", "vet"), "go vet ./... 2>&1 | head"),
    (("go", "build"), "go build ./... 2>&1 | tail -5"),
    (("eslint",), "npx eslint src | tail -30"),
    (("cargo", "fmt"), "cargo fmt --check | head"),
    (("gofmt",), "gofmt -l . | head"),
    (("nest", "build"), "npx nest build 2>&1 | tail -20"),
    (("py_compile",), "python -m py_compile app.py 2>&1 | head"),
    (("node", "--check"), "node --check server.js 2>&1 | head"),
    (("flake8",), "flake8 src | head -20"),
    (("shellcheck",), "shellcheck scripts/*.sh | head"),
    (("staticcheck",), "staticcheck ./... | head"),
)
