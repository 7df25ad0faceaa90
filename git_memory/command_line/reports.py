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

import re
from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    """The observed result of one command (or one simple command of a line)."""

    WORKED = "worked"
    FAILED = "failed"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Report:
    """One way a tool says how its run ended."""

    tool: str
    outcome: Outcome
    kind: str | None
    hint: str
    pattern: re.Pattern[str]
    example: str


def _row(
    tool: str, outcome: Outcome, kind: str | None, *, hint: str, pattern: str, example: str
) -> Report:
    return Report(tool, outcome, kind, hint, re.compile(pattern, re.MULTILINE), example)


W, F = Outcome.WORKED, Outcome.FAILED
REPORTS: tuple[Report, ...] = (
    # Go
    _row(
        "go test",
        W,
        "test",
        hint="ok",
        pattern=r"^ok\s+\S+\s+(?:[\d.]+s|\(cached\))",
        example="ok  \tgithub.com/acme/shop/cart\t0.012s",
    ),
    _row(
        "go test",
        W,
        "test",
        hint="PASS",
        pattern=r"^PASS\s*$",
        example="PASS",
    ),
    _row(
        "go test",
        F,
        "test",
        hint="FAIL",
        pattern=r"^--- FAIL\b|^FAIL\s|^FAIL$",
        example="--- FAIL: TestResume (0.00s)",
    ),
    # Rust
    _row(
        "cargo test",
        W,
        "test",
        hint="test result: ok",
        pattern=r"^test result: ok\. \d+ passed; 0 failed",
        example=("test result: ok. 57 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"),
    ),
    _row(
        "cargo test",
        F,
        "test",
        hint="test result: FAILED",
        pattern=r"\btest result: FAILED\b",
        example="test result: FAILED. 11 passed; 1 failed; 0 ignored",
    ),
    _row(
        "cargo",
        W,
        None,
        hint="Finished",
        pattern=r"^\s*Finished [`\w ,+]*(?:profile|target)",
        example="    Finished `dev` profile [unoptimized + debuginfo] target(s) in 21.07s",
    ),
    _row(
        "cargo",
        F,
        None,
        hint="error",
        pattern=r"^error\[E\d+\]|^error: could not compile\b",
        example="error[E0425]: cannot find value `x` in this scope",
    ),
    # JavaScript and TypeScript
    _row(
        "jest",
        W,
        "test",
        hint="Tests:",
        pattern=r"^\s*Tests:?\s+(?:\d+ (?:passed|skipped|todo)(?:, )?)+,? \d+ total",
        example="Tests:       3 passed, 3 total",
    ),
    _row(
        "vitest",
        W,
        "test",
        hint="passed",
        pattern=r"^\s*Tests?\s+\d+ passed(?: \| \d+ skipped)? \(\d+\)",
        example="      Tests  96 passed (96)",
    ),
    _row(
        "vitest",
        W,
        "test",
        hint="Test Files",
        pattern=r"^\s*Test Files\s+\d+ passed(?: \| \d+ skipped)? \(\d+\)",
        example=" Test Files  18 passed (18)",
    ),
    _row(
        "vitest",
        W,
        "test",
        hint="passed",
        pattern=r"^\s*[✓✔] \d+ passed\b",
        example="✓ 12 passed",
    ),
    _row(
        "vitest",
        F,
        "test",
        hint="failed",
        pattern=r"^\s*Tests?\s+[1-9]\d* failed\b",
        example="      Tests  3 failed | 9 passed (12)",
    ),
    _row(
        "mocha",
        W,
        "test",
        hint="passing",
        pattern=r"^\s+\d+ passing \(\d+m?s\)",
        example="  12 passing (34ms)",
    ),
    _row(
        "mocha",
        F,
        "test",
        hint="failing",
        pattern=r"^\s+[1-9]\d* failing\s*$",
        example="  2 failing",
    ),
    _row(
        "playwright",
        W,
        "test",
        hint="passed",
        pattern=r"^\s+\d+ passed \([\d.]+m?s\)",
        example="  5 passed (3.2s)",
    ),
    _row(
        "node:test",
        W,
        "test",
        hint="# pass",
        pattern=r"(?s)^# pass [1-9]\d*\s*$.*?^# fail 0\s*$",
        example="# pass 12\n# fail 0",
    ),
    _row(
        "bun test",
        W,
        "test",
        hint=" pass",
        pattern=r"^\s*[1-9]\d* pass\s*\n\s*0 fail\b",
        example=" 12 pass\n 0 fail",
    ),
    _row(
        "tsc",
        F,
        None,
        hint="error TS",
        pattern=r"\berror TS\d+:",
        example=(
            "src/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'."
        ),
    ),
    _row(
        "vite",
        W,
        "build",
        hint="built in",
        pattern=r"^\s*✓ built in [\d.]+m?s\s*$",
        example="✓ built in 1.52s",
    ),
    _row(
        "prettier",
        W,
        "format",
        hint="Prettier",
        pattern="^All matched files use Prettier code style!",
        example="All matched files use Prettier code style!",
    ),
    _row(
        "prettier",
        F,
        "format",
        hint="Code style",
        pattern="Code style issues found",
        example="[warn] Code style issues found in 2 files. Run Prettier with --write to fix.",
    ),
    _row(
        "biome",
        W,
        "lint",
        hint="Checked",
        pattern=r"^Checked \d+ files? in [\d.]+m?s\. No fixes (?:applied|needed)\.",
        example="Checked 42 files in 12ms. No fixes applied.",
    ),
    # Python
    _row(
        "pytest",
        W,
        "test",
        hint=" in ",
        pattern=(
            r"^(?:=+ )?(?:\d+ (?:passed|skipped|xfailed|xpassed|deselected"
            r"|warnings?)(?:, )?)+ in [\d.]+s\b"
        ),
        example="============================== 12 passed in 0.40s ==============================",
    ),
    _row(
        "pytest",
        F,
        "test",
        hint="FAILED",
        pattern=r"^FAILED\b",
        example="FAILED tests/test_cart.py::test_total - assert 3 == 4",
    ),
    _row(
        "unittest",
        W,
        "test",
        hint="OK",
        pattern=r"^Ran \d+ tests? in [\d.]+s\s*\n\s*\nOK\b",
        example="Ran 12 tests in 0.010s\n\nOK",
    ),
    _row(
        "unittest",
        F,
        "test",
        hint="FAILED (",
        pattern=r"^FAILED \((?:failures|errors)=\d+",
        example="FAILED (failures=1)",
    ),
    _row(
        "tox",
        W,
        "test",
        hint="congratulations",
        pattern=r"^\s*congratulations :\)",
        example="  congratulations :) (2.31 seconds)",
    ),
    _row(
        "tox",
        F,
        "test",
        hint="FAIL",
        pattern=(
            r"^\s*[\w.-]+: FAIL code \d+|^ERROR:\s+[\w.-]+: (?:commands failed"
            "|InvocationError)"
        ),
        example="  py311: FAIL code 1 (2.10=setup[0.05]+cmd[2.05] seconds)",
    ),
    _row(
        "nox",
        W,
        None,
        hint="was successful",
        pattern=r"^nox > Session \S+ was successful",
        example="nox > Session lint was successful in 3 seconds.",
    ),
    _row(
        "nox",
        F,
        None,
        hint="nox > Session",
        pattern=r"^nox > Session \S+ failed\b",
        example="nox > Session tests failed.",
    ),
    _row(
        "ruff",
        W,
        "lint",
        hint="All checks passed!",
        pattern="^All checks passed!",
        example="All checks passed!",
    ),
    _row(
        "ruff format",
        W,
        "format",
        hint="file",
        pattern=(
            r"^\d+ files? (?:reformatted, \d+ files? )?(?:left unchanged"
            r"|already formatted)\s*$|^\d+ files? reformatted\s*$"
        ),
        example="23 files left unchanged",
    ),
    _row(
        "ruff format",
        F,
        "format",
        hint="eformat",
        pattern=r"(?i)\bwould (?:be )?reformat",
        example="would reformat tickets/views.py",
    ),
    _row(
        "mypy",
        W,
        "typecheck",
        hint="Success:",
        pattern=r"^Success: no issues found\b",
        example="Success: no issues found in 87 source files",
    ),
    _row(
        "pyright",
        W,
        "typecheck",
        hint="0 errors",
        pattern=r"^0 errors, \d+ warnings?, ",
        example="0 errors, 0 warnings, 0 informations ",
    ),
    _row(
        "black",
        W,
        "format",
        hint="All done!",
        pattern="^All done! ✨ 🍰 ✨",
        example="All done! ✨ 🍰 ✨",
    ),
    _row(
        "black",
        F,
        "format",
        hint="Oh no!",
        pattern="^Oh no! 💥 💔 💥",
        example="Oh no! 💥 💔 💥",
    ),
    # Java and Kotlin
    _row(
        "gradle",
        W,
        None,
        hint="BUILD SUCCESSFUL",
        pattern=r"^BUILD SUCCESSFUL\b",
        example="BUILD SUCCESSFUL in 38s",
    ),
    _row(
        "gradle",
        F,
        None,
        hint="BUILD FAILED",
        pattern=r"^BUILD FAILED\b|^FAILURE: Build failed",
        example="BUILD FAILED in 4s",
    ),
    _row(
        "maven",
        W,
        None,
        hint="BUILD SUCCESS",
        pattern=r"^\[INFO\] BUILD SUCCESS\s*$",
        example="[INFO] BUILD SUCCESS",
    ),
    _row(
        "maven",
        F,
        None,
        hint="BUILD FAILURE",
        pattern=r"^\[(?:INFO|ERROR)\] BUILD FAILURE\b",
        example="[INFO] BUILD FAILURE",
    ),
    # .NET
    _row(
        "dotnet build",
        W,
        None,
        hint="Build succeeded",
        pattern=r"^\s*Build succeeded\.?\s*$",
        example="Build succeeded.",
    ),
    _row(
        "dotnet build",
        F,
        None,
        hint="Build FAILED",
        pattern=r"^\s*Build FAILED\.",
        example="Build FAILED.",
    ),
    _row(
        "dotnet test",
        W,
        "test",
        hint="Passed!",
        pattern=r"^\s*Passed!\s+- Failed:\s+0,",
        example="Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12",
    ),
    _row(
        "dotnet test",
        F,
        "test",
        hint="Failed!",
        pattern=r"^\s*Failed!\s+- Failed:\s+[1-9]",
        example="Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12",
    ),
    # Swift
    _row(
        "swift build",
        W,
        None,
        hint="Build complete!",
        pattern=r"^(?:\[\d+/\d+\] )?Build complete!",
        example="Build complete! (3.21s)",
    ),
    _row(
        "swift test",
        W,
        "test",
        hint="passed",
        pattern="^Test Suite 'All tests' passed\\b|^\\s*Executed \\d+ tests?, with 0 failures",
        example="Test Suite 'All tests' passed at 2025-01-01 10:00:00.000.",
    ),
    _row(
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
    _row(
        "compilers",
        F,
        None,
        hint="error:",
        pattern=r"^\S+:\d+:\d+: (?:fatal )?error: ",
        example="Sources/App/Cart.swift:12:5: error: cannot find 'total' in scope",
    ),
    # Ruby and PHP
    _row(
        "rspec",
        W,
        "test",
        hint="examples",
        pattern=r"^\d+ examples?, 0 failures",
        example="12 examples, 0 failures",
    ),
    _row(
        "rspec",
        F,
        "test",
        hint="failure",
        pattern=r"^\d+ examples?, [1-9]\d* failures?",
        example="12 examples, 2 failures",
    ),
    _row(
        "minitest",
        W,
        "test",
        hint="runs,",
        pattern=r"^\d+ runs, \d+ assertions, 0 failures, 0 errors",
        example="12 runs, 30 assertions, 0 failures, 0 errors, 0 skips",
    ),
    _row(
        "minitest",
        F,
        "test",
        hint="runs,",
        pattern=r"^\d+ runs, \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)",
        example="12 runs, 30 assertions, 1 failures, 0 errors, 0 skips",
    ),
    _row(
        "phpunit",
        W,
        "test",
        hint="OK (",
        pattern=r"^OK \(\d+ tests?, \d+ assertions?\)",
        example="OK (12 tests, 30 assertions)",
    ),
    _row(
        "phpunit",
        F,
        "test",
        hint="!",
        pattern=r"^(?:FAILURES|ERRORS)!\s*$",
        example="FAILURES!",
    ),
    # make and the runners that wrap the tools
    _row(
        "make",
        W,
        None,
        hint="Nothing to be done",
        pattern=r"^make(?:\[\d+\])?: Nothing to be done for",
        example="make: Nothing to be done for 'all'.",
    ),
    _row(
        "make",
        F,
        None,
        hint="***",
        pattern=r"^make(?:\[\d+\])?: \*\*\* .*Error \d+",
        example="make: *** [Makefile:14: proto] Error 1",
    ),
    _row(
        "npm",
        F,
        None,
        hint="npm ",
        pattern="^npm ERR! |^npm error (?:code |Lifecycle script )",
        example='npm ERR! Missing script: "lint"',
    ),
    _row(
        "pnpm",
        F,
        None,
        hint="ELIFECYCLE",
        pattern=r"ELIFECYCLE\s+(?:Test|Command) failed",
        example=" ELIFECYCLE  Command failed with exit code 2.",
    ),
    _row(
        "pnpm",
        F,
        None,
        hint="ERR_PNPM_",
        pattern="ERR_PNPM_",
        example="ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  web@1.0.0 test: `vitest run`",
    ),
    _row(
        "yarn",
        F,
        None,
        hint="error Command failed",
        pattern=r"^error Command failed with exit code \d+",
        example="error Command failed with exit code 1.",
    ),
    _row(
        "bun",
        F,
        None,
        hint="exited with code",
        pattern=r"^error: script \"\S+\" exited with code [1-9]",
        example='error: script "test" exited with code 1',
    ),
    _row(
        "mise",
        F,
        None,
        hint="ERR",
        pattern=r"^(?:\[mise\] |mise )ERR(?:OR)?\b",
        example="[mise] ERROR task failed",
    ),
    _row(
        "just",
        F,
        None,
        hint="error: Recipe",
        pattern=r"^error: Recipe `\S+` failed\b",
        example="error: Recipe `test` failed on line 12 with exit code 1",
    ),
    _row(
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
)
