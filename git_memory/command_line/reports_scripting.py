"""The rows of `reports.py` for the JavaScript and TypeScript tools (jest, vitest, mocha,
playwright, karma, tsc, eslint, prettier, biome, and the package managers' own verdicts) and the
Python ones (pytest, unittest, tox, nox, ruff, mypy, pyright, black): one row per tool and
line, each with the output line it was written from (`reports.py` says where from)."""

from __future__ import annotations

from git_memory.command_line.report_rows import F, Report, W, row

SCRIPTING_REPORTS: tuple[Report, ...] = (
    # JavaScript and TypeScript
    row(
        "jest",
        W,
        "test",
        hint="Tests:",
        pattern=r"^\s*Tests:?\s+(?:\d+ (?:passed|skipped|todo)(?:, )?)+,? \d+ total",
        example="Tests:       3 passed, 3 total",
    ),
    row(
        "vitest",
        W,
        "test",
        hint="passed",
        pattern=r"^\s*Tests?\s+\d+ passed(?: \| \d+ skipped)? \(\d+\)",
        example="      Tests  96 passed (96)",
    ),
    row(
        "vitest",
        W,
        "test",
        hint="Test Files",
        pattern=r"^\s*Test Files\s+\d+ passed(?: \| \d+ skipped)? \(\d+\)",
        example=" Test Files  18 passed (18)",
    ),
    row(
        "vitest",
        W,
        "test",
        hint="passed",
        pattern=r"^\s*[✓✔] \d+ passed\b",
        example="✓ 12 passed",
    ),
    row(
        "vitest",
        F,
        "test",
        hint="failed",
        pattern=r"^\s*Tests?\s+[1-9]\d* failed\b",
        example="      Tests  3 failed | 9 passed (12)",
    ),
    row(
        "mocha",
        W,
        "test",
        hint="passing",
        pattern=r"^\s+\d+ passing \(\d+m?s\)",
        example="  12 passing (34ms)",
    ),
    row(
        "mocha",
        F,
        "test",
        hint="failing",
        pattern=r"^\s+[1-9]\d* failing\s*$",
        example="  2 failing",
    ),
    row(
        "playwright",
        W,
        "test",
        hint="passed",
        pattern=r"^\s+\d+ passed \([\d.]+m?s\)",
        example="  5 passed (3.2s)",
    ),
    row(
        "karma",
        W,
        "test",
        hint="SUCCESS",
        pattern=r"Executed (\d+) of \1 (?:\(skipped \d+\) )?SUCCESS\b",
        example="Chrome Headless 120.0 (Linux): Executed 42 of 42 SUCCESS (0.8 secs / 0.7 secs)",
    ),
    row(
        "karma",
        F,
        "test",
        hint="FAILED",
        pattern=r"Executed \d+ of \d+ \([1-9]\d* FAILED\)",
        example="Chrome Headless 120.0 (Linux): Executed 42 of 42 (2 FAILED) (0.9 secs / 0.8 secs)",
    ),
    row(
        "node:test",
        W,
        "test",
        hint="# pass",
        # the summary's "fail 0" a few lines after its "pass" (not anywhere after: a long
        # output of "pass" lines would be read from each of them to its end)
        pattern=r"^# pass [1-9]\d*[ \t]*\r?\n(?:[^\n]*\n){0,3}?# fail 0\s*$",
        example="# pass 12\n# fail 0",
    ),
    row(
        "node:test",
        W,
        "test",
        hint="ℹ pass",
        pattern=r"^ℹ pass [1-9]\d*[ \t]*\r?\n(?:[^\n]*\n){0,3}?ℹ fail 0\s*$",
        example="ℹ tests 13\nℹ suites 0\nℹ pass 13\nℹ fail 0\nℹ cancelled 0",
    ),
    row(
        "node:test",
        F,
        "test",
        hint="fail",
        pattern=r"^(?:ℹ|#) fail [1-9]\d*\s*$",
        example="ℹ tests 13\nℹ pass 11\nℹ fail 2",
    ),
    row(
        "bun test",
        W,
        "test",
        hint=" pass",
        pattern=r"^\s*[1-9]\d* pass\s*\n\s*0 fail\b",
        example=" 12 pass\n 0 fail",
    ),
    row(
        "tsc",
        F,
        None,
        hint="error TS",
        pattern=r"\berror TS\d+:",
        example=(
            "src/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'."
        ),
    ),
    # Astro's and Svelte's checkers: a summary of the diagnostics of the files they read
    row(
        "astro check",
        W,
        "typecheck",
        hint="Result (",
        # (no warning either: `--minimumFailingSeverity warning` fails on one)
        pattern=r"^Result \(\d+ files?\):[ \t]*\r?\n- 0 errors?[ \t]*\r?\n- 0 warnings?[ \t]*$",
        example="Result (148 files): \n- 0 errors\n- 0 warnings\n- 0 hints",
    ),
    row(
        "astro check",
        F,
        "typecheck",
        hint="Result (",
        pattern=r"^Result \(\d+ files?\):[ \t]*\r?\n- [1-9]\d* errors?[ \t]*$",
        example="Result (159 files): \n- 3 errors\n- 0 warnings\n- 1 hint",
    ),
    row(
        "svelte-check",
        W,
        "typecheck",
        hint="svelte-check found 0 errors",
        # (no warning either: `--fail-on-warnings` fails on one)
        pattern=r"^svelte-check found 0 errors? and 0 warnings?",
        example="svelte-check found 0 errors and 0 warnings in 12 files",
    ),
    row(
        "svelte-check",
        F,
        "typecheck",
        hint="svelte-check found",
        pattern=r"^svelte-check found [1-9]\d* errors?\b",
        example="svelte-check found 2 errors and 1 warning in 2 files",
    ),
    row(
        "node",
        F,
        None,
        hint="Node.js v",
        # Node ends the report of an uncaught exception (its stack, then the error's fields)
        # with its version: the process died.
        pattern=r"^\s+at [^\n]+\n(?:[^\n]*\n){0,6}?\nNode\.js v\d+\.\d+\.\d+[ \t]*$",
        example=(
            "Error: Cannot find module '/app/node_modules/typescript/bin/tsc'\n"
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n"
            "    at node:internal/main/run_main_module:28:49 {\n"
            "  code: 'MODULE_NOT_FOUND',\n"
            "  requireStack: []\n"
            "}\n"
            "\n"
            "Node.js v20.19.5"
        ),
    ),
    row(
        "vite",
        W,
        "build",
        hint="built in",
        pattern=r"^\s*✓ built in [\d.]+m?s\s*$",
        example="✓ built in 1.52s",
    ),
    row(
        "prettier",
        W,
        "format",
        hint="Prettier",
        pattern="^All matched files use Prettier code style!",
        example="All matched files use Prettier code style!",
    ),
    row(
        "prettier",
        F,
        "format",
        hint="Code style",
        pattern="Code style issues found",
        example="[warn] Code style issues found in 2 files. Run Prettier with --write to fix.",
    ),
    row(
        "eslint",
        F,
        "lint",
        hint="Oops!",
        # ESLint could not run at all (a configuration it cannot load, a plugin missing).
        pattern=r"^Oops! Something went wrong! :\($",
        example="Oops! Something went wrong! :(",
    ),
    row(
        "next lint",
        W,
        "lint",
        hint="No ESLint warnings",
        pattern=r"^\s*✔ No ESLint warnings or errors\s*$",
        example="✔ No ESLint warnings or errors",
    ),
    row(
        "next build",
        W,
        "build",
        hint="(Static)",
        # the legend under the routes a finished build lists
        pattern=(
            r"^\s*○\s+\(Static\)\s+"
            r"(?:automatically rendered as static HTML|prerendered as static)"
        ),
        example="○  (Static)  prerendered as static content",
    ),
    row(
        "deno test",
        W,
        "test",
        hint="passed",
        pattern=r"^ok \| \d+ passed(?: \(\d+ steps?\))? \| 0 failed\b",
        example="ok | 12 passed | 0 failed (120ms)",
    ),
    row(
        "deno test",
        F,
        "test",
        hint="FAILED",
        pattern=r"^FAILED \| \d+ passed(?: \(\d+ steps?\))? \| [1-9]\d* failed\b",
        example="FAILED | 11 passed | 1 failed (120ms)",
    ),
    row(
        "biome",
        W,
        "lint",
        hint="Checked",
        pattern=r"^Checked \d+ files? in [\d.]+m?s\. No fixes (?:applied|needed)\.",
        example="Checked 42 files in 12ms. No fixes applied.",
    ),
    # Python
    row(
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
    row(
        "pytest",
        F,
        "test",
        hint="FAILED",
        pattern=r"^FAILED\b",
        example="FAILED tests/test_cart.py::test_total - assert 3 == 4",
    ),
    row(
        "unittest",
        W,
        "test",
        hint="OK",
        pattern=r"^Ran \d+ tests? in [\d.]+s\s*\n\s*\nOK\b",
        example="Ran 12 tests in 0.010s\n\nOK",
    ),
    row(
        "unittest",
        F,
        "test",
        hint="FAILED (",
        pattern=r"^FAILED \((?:failures|errors)=\d+",
        example="FAILED (failures=1)",
    ),
    row(
        "tox",
        W,
        "test",
        hint="congratulations",
        pattern=r"^\s*congratulations :\)",
        example="  congratulations :) (2.31 seconds)",
    ),
    row(
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
    row(
        "nox",
        W,
        None,
        hint="was successful",
        pattern=r"^nox > Session \S+ was successful",
        example="nox > Session lint was successful in 3 seconds.",
    ),
    row(
        "nox",
        F,
        None,
        hint="nox > Session",
        pattern=r"^nox > Session \S+ failed\b",
        example="nox > Session tests failed.",
    ),
    row(
        "ruff",
        W,
        "lint",
        hint="All checks passed!",
        pattern="^All checks passed!",
        example="All checks passed!",
    ),
    row(
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
    row(
        "ruff format",
        F,
        "format",
        hint="eformat",
        pattern=r"(?i)\bwould (?:be )?reformat",
        example="would reformat tickets/views.py",
    ),
    row(
        "mypy",
        W,
        "typecheck",
        hint="Success:",
        pattern=r"^Success: no issues found\b",
        example="Success: no issues found in 87 source files",
    ),
    row(
        "pyright",
        W,
        "typecheck",
        hint="0 errors",
        pattern=r"^0 errors, \d+ warnings?, ",
        example="0 errors, 0 warnings, 0 informations ",
    ),
    row(
        "black",
        W,
        "format",
        hint="All done!",
        pattern="^All done! ✨ 🍰 ✨",
        example="All done! ✨ 🍰 ✨",
    ),
    row(
        "black",
        F,
        "format",
        hint="Oh no!",
        pattern="^Oh no! 💥 💔 💥",
        example="Oh no! 💥 💔 💥",
    ),
)
