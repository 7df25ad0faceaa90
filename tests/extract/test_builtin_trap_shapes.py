"""Traps with every common shape of fix (issue 39): install-and-rerun in one line, a version
pin, the project's requirements, a failure that said nothing but its exit code followed by
the variant that worked, a set-up file written, Python run outside the project's environment;
and a red test of the day is no trap."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.command_line.signature import invocation_error
from git_memory.extract.builtin import renderers, shell
from git_memory.extract.builtin.globbed import typed_back
from git_memory.extract.builtin.renderers import BuiltinFact
from git_memory.extract.builtin.runs import session_runs
from git_memory.extract.builtin.traps import trap_facts
from git_memory.extract.builtin.writes import SETUP_FILES, setup_file, written_files
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record


def _turn(key: str, *calls: ToolCall) -> TurnRecord:
    return turn_record(key, *calls)


def _bash(command: str, output: str = "", state: str = "completed") -> ToolCall:
    return ToolCall(
        call_id="c", name="Bash", input={"command": command}, output=output, state=state
    )


def _write(path: str, name: str = "Edit") -> ToolCall:
    payload: dict[str, Any] = {"file_path": path, "old_string": "a", "new_string": "b"}
    return ToolCall(call_id="e", name=name, input=payload, state="completed")


def _traps(*calls: ToolCall) -> list[BuiltinFact]:
    facts = trap_facts(list(session_runs([_turn("t1", *calls)])))
    for fact in facts:
        assert renderers.verify_typed_fact(fact.renderer, fact.statement, fact.parameters)
    return facts


NO_OPENPYXL = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'openpyxl'"


def test_install_and_rerun_in_one_line() -> None:
    (trap,) = _traps(
        _bash("python3 scripts/export.py", NO_OPENPYXL, "failed"),
        _bash("pip install openpyxl -q && python3 scripts/export.py", "wrote report.xlsx"),
    )
    assert trap.content == (
        'Trap: `python3 scripts/export.py` fails with "ModuleNotFoundError: No module named '
        "'openpyxl'\" unless `pip install openpyxl` runs first."
    )


def test_a_script_at_the_top_of_the_repository_is_a_trap_subject_too() -> None:
    (trap,) = _traps(
        _bash("python3 convert.py", NO_OPENPYXL, "failed"),
        _bash("pip install openpyxl -q && python3 convert.py", "done"),
    )
    assert dict(trap.parameters)["failing"] == "python3 convert.py"
    inline = _bash('python -c "import openpyxl"', NO_OPENPYXL, "failed")
    assert _traps(inline, _bash("pip install openpyxl", "ok")) == [], (
        "an inline check is no subject"
    )


NO_DOTENV = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'dotenv'"


def test_python_run_outside_the_projects_environment_is_a_trap_about_the_interpreter() -> None:
    check = "- <<'PY'\nfrom app import app\nprint(app.url_map)\nPY"
    (trap,) = _traps(
        _bash(f"python {check}", NO_DOTENV, "failed"),
        _bash(f"./.venv/bin/python {check}", "Map([<Rule '/'>])"),
    )
    assert trap.content == (
        "Trap: `python` fails with \"ModuleNotFoundError: No module named 'dotenv'\"; run "
        "`./.venv/bin/python` instead."
    )
    (activated,) = _traps(
        _bash('python3 -c "import openpyxl; print(1)"', NO_OPENPYXL, "failed"),
        _bash('source venv/bin/activate && python3 -c "import openpyxl as x; print(x)"', "ok"),
    )
    assert dict(activated.parameters)["fix"] == "source venv/bin/activate && python3"
    (tool,) = _traps(
        _bash("python3 tools/report.py", NO_OPENPYXL, "failed"),
        _bash("uv run python tools/report.py", "wrote report"),
    )
    assert dict(tool.parameters)["fix"] == "uv run python"
    other_mode = dict(tool.parameters) | {"mode": "prerequisite"}
    text = renderers.render_command_fix("prerequisite", "python3", "", "uv run python")
    assert not renderers.verify_typed_fact(tool.renderer, text, tuple(other_mode.items())), (
        "a bare interpreter is a trap's subject only with the environment it should run in"
    )


def test_no_environment_trap_without_a_missing_module_or_the_projects_environment() -> None:
    code = 'python3 -c "import openpyxl"'
    system = _bash('/usr/bin/python3 -c "import openpyxl"', "ok")
    assert _traps(_bash(code, NO_OPENPYXL, "failed"), system) == [], "the system's own Python"
    other = _bash('.venv/bin/python -c "import json"', "ok")
    assert _traps(_bash(code, NO_OPENPYXL, "failed"), other) == [], "other code, not the module"
    syntax = "SyntaxError: invalid syntax"
    fixed = _bash('.venv/bin/python -c "import openpyxl"', "ok")
    assert _traps(_bash(code, syntax, "failed"), fixed) == [], "no module was missing"


def test_a_version_pin_between_inline_checks() -> None:
    bcrypt = "AttributeError: module 'bcrypt' has no attribute '__about__'"
    (trap,) = _traps(
        _bash("uv run pytest", bcrypt, "failed"),
        _bash('python -c "import bcrypt; print(bcrypt.__version__)"', "4.1.2"),
        _bash('pip install "bcrypt<4.0"', "Successfully installed bcrypt-3.2.2"),
        _bash('python -c "import passlib.hash"', ""),
        _bash("uv run pytest", "12 passed in 0.40s"),
    )
    # quoted as the shell needs it: unquoted, `<4.0` would read a file named 4.0
    assert trap.content == (
        f"Trap: `uv run pytest` fails with \"{bcrypt}\" unless `pip install 'bcrypt<4.0'` runs"
        " first."
    )


def test_a_missing_module_fixed_by_the_projects_requirements() -> None:
    missing = "ModuleNotFoundError: No module named 'fastapi'"
    (trap,) = _traps(
        _bash("pytest -q", missing, "failed"),
        _bash("pip install -r requirements.txt", "Successfully installed fastapi"),
        _bash("pytest -q", "3 passed in 0.1s"),
    )
    assert trap.content.endswith("unless `pip install -r requirements.txt` runs first.")


def test_a_failure_with_only_an_exit_code_and_the_variant_that_worked() -> None:
    (trap,) = _traps(
        _bash("npm test", "Exit code 1", "failed"),
        _bash("npx vitest run", "Test Files  3 passed (3)\n     Tests  12 passed (12)"),
    )
    assert trap.content == "Trap: `npm test` fails; run `npx vitest run` instead."
    said = _bash("npm test", "Exit code 1\nFAIL src/a.test.ts > adds", "failed")
    assert _traps(said, _bash("npx vitest run", "ok")) == [], "it said why: a red test"


def test_another_project_script_is_another_job_not_a_variant() -> None:
    # a real session: a template's script could not find its template, and the agent went
    # on to the next script of the workflow; a script whose name says no job has no variant
    # but itself run another way
    missing = "WARNING: Template file not found\nERROR: Template not found at .specify/t.md"
    failed = _bash(".specify/scripts/bash/update-agent-context.sh codex", missing, "failed")
    assert invocation_error(failed.output or "")
    later = _bash(".specify/scripts/bash/create-new-feature.sh --json --number 4", '{"N": 4}')
    assert _traps(failed, later) == []
    script = ".specify/scripts/bash/update-agent-context.sh"
    (trap,) = _traps(failed, _bash(f"bash {script} codex"))
    assert trap.content.endswith(f"run `bash {script}` instead.")


def test_a_set_up_file_written_is_named_by_the_trap() -> None:
    (trap,) = _traps(
        _bash("uv run pytest", "KeyError: 'DATABASE_URL'", "failed"),
        _write(".env", name="Write"),
        _bash("uv run pytest", "3 passed in 0.1s"),
    )
    assert trap.content == (
        "Trap: `uv run pytest` fails with \"KeyError: 'DATABASE_URL'\" until the file `.env` is "
        "written."
    )


def test_a_finding_in_the_code_quieted_by_the_checks_configuration_is_no_trap() -> None:
    """A lint error at a position in the code, gone once the linter's configuration was
    written, was a finding turned off, not a trap; a missing configuration the error names
    stays one."""
    finding = "src/App.tsx\n  157:10  error  Calling setState synchronously within an effect"
    assert (
        _traps(
            _bash("npm run lint", finding, "failed"),
            _write("eslint.config.js", name="Write"),
            _bash("npm run lint", ""),
        )
        == []
    )
    missing = "ESLint couldn't find an eslint.config.(js|mjs|cjs) file."
    (trap,) = _traps(
        _bash("npm run lint", missing, "failed"),
        _write("eslint.config.js", name="Write"),
        _bash("npm run lint", ""),
    )
    assert trap.content.endswith("until the file `eslint.config.js` is written.")


# What `tsc -b` printed for a build whose code had type errors: positions, and the compiler's
# "does not exist" about the code's types.
TYPE_ERRORS = (
    "> tsc -b && vite build\n\n"
    "vite.config.ts(16,3): error TS2769: No overload matches this call.\n"
    "  The last overload gave the following error.\n"
    "    Object literal may only specify known properties, and 'test' does not exist in type "
    "'UserConfigExport'.\n"
    "src/App.tsx(89,62): error TS2339: Property 'id' does not exist on type 'never'.\n"
)


def test_a_type_error_fixed_in_the_code_is_no_trap_whatever_ran_the_build_next() -> None:
    """The compiler's findings say the build ran: once the code was edited, the build through
    another wrapper working is the fix of the code, not a corrected invocation."""
    assert (
        _traps(
            _bash("npm run build --workspace ui", TYPE_ERRORS, "failed"),
            _write("ui/src/App.tsx"),
            _bash("nix develop -c npm run build --workspace ui", "✓ built in 1.74s"),
        )
        == []
    )


@pytest.mark.parametrize(
    ("command", "missing", "edited", "setup", "passed"),
    [
        (
            "npm run build",
            "src/main.tsx(1,23): error TS2307: Cannot find module 'react' or its corresponding "
            "type declarations.",
            "src/main.tsx",
            "npm install",
            "✓ built in 2.10s",
        ),
        (
            "go build ./...",
            "main.go:5:2: missing go.sum entry for module providing package github.com/a/b",
            "main.go",
            "go mod tidy",
            "",
        ),
    ],
)
def test_a_finding_that_names_a_missing_dependency_still_tells_of_the_environment(
    command: str, missing: str, edited: str, setup: str, passed: str
) -> None:
    """Fixed by a set-up step, it is a trap even with an edit in between."""
    (trap,) = _traps(
        _bash(command, missing, "failed"),
        _write(edited),
        _bash(setup, ""),
        _bash(command, passed),
    )
    assert trap.content.endswith(f"unless `{setup}` runs first.")


@pytest.mark.parametrize(
    "line",
    [
        "src/net.c:1:10: fatal error: openssl/ssl.h: No such file or directory",
        "main.c:1:10: fatal error: 'SDL2/SDL.h' file not found",
        "      src/_x.c:15:10: fatal error: Python.h: No such file or directory",
        "main.go:5:2: missing go.sum entry for module providing package github.com/a/b",
        'main.go:4:2: cannot find package "github.com/a/b" in any of:',
        "main.go:4:2: no required module provides package github.com/a/b; to add it:",
        "error[E0463]: can't find crate for `serde`\n --> src/main.rs:1:1",
        # a time of day is no position in a file
        "2024-01-01T12:30:45: PM2 error: Error: spawn node ENOENT",
        "12:30:45: could not connect to server: Connection refused",
    ],
)
def test_what_the_environment_lacks_is_told_even_at_a_position(line: str) -> None:
    assert invocation_error(line)


def test_a_script_the_session_added_to_package_json_was_missing_not_a_trap() -> None:
    missing = 'npm error Missing script: "lint"'
    assert (
        _traps(
            _bash("npm run lint", missing, "failed"),
            _write("package.json"),
            _bash("npm install -D eslint", "added 90 packages"),
            _bash("npm run lint", ""),
        )
        == []
    )


def test_a_pin_written_into_requirements_is_a_set_up_fix_not_a_code_fix() -> None:
    bcrypt = "AttributeError: module 'bcrypt' has no attribute '__about__'"
    (trap,) = _traps(
        _bash("uv run pytest", bcrypt, "failed"),
        _bash("sed -i 's/bcrypt/bcrypt<4.0/' requirements.txt", ""),
        _bash("pip install -r requirements.txt", "Successfully installed bcrypt-3.2.2"),
        _bash("uv run pytest", "12 passed in 0.40s"),
    )
    assert trap.content.endswith("unless `pip install -r requirements.txt` runs first.")


def test_a_red_test_of_the_day_is_no_trap() -> None:
    red = "--- FAIL: TestResume (0.01s)\n    resume_test.go:244: expected 2 checkpoints, got 1"
    failing = _bash("go test ./cmd/cli/ -run TestResume", red, "failed")
    passing = _bash("go test ./cmd/cli/ -run TestResume", "ok  \texample.com/cmd/cli\t0.4s")
    assert _traps(failing, _write("cmd/cli/resume.go"), passing) == []
    # Fixed through the shell: an in-place edit is an edit too.
    sed = _bash("sed -i 's/1/2/' cmd/cli/resume.go")
    assert _traps(failing, sed, _bash("go build ./..."), passing) == []
    patch = _bash("cat > cmd/cli/resume.go <<'EOF'\npackage cli\nEOF")
    assert _traps(failing, patch, _bash("go build ./..."), passing) == []


def test_what_a_run_wrote_and_which_files_set_a_project_up() -> None:
    runs = list(
        session_runs(
            [
                _turn(
                    "t1",
                    _bash("sed -i 's/a/b/' src/app.py"),
                    _bash("perl -pi -e 's/a/b/' setup.cfg"),
                    _bash("echo 'X=1' >> .env"),
                    _bash("pytest 2>&1 | tee /tmp/log.txt > out.log"),
                    _bash("git apply fix.patch"),
                    _write("src/app.py"),
                )
            ]
        )
    )
    assert [written_files(run) for run in runs] == [
        ["src/app.py"],
        ["setup.cfg"],
        [".env"],
        None,
        [],
        ["src/app.py"],
    ]
    for _, example in SETUP_FILES:
        assert setup_file(example), example
    assert not setup_file("src/app.py")
    assert not setup_file("cmd/cli/resume_test.go")
    assert setup_file("frontend/tsconfig.app.json")


def test_a_tool_missing_from_the_path_is_a_trap_fixed_by_the_projects_environment() -> None:
    (trap,) = _traps(
        _bash("cargo check", "bash: line 1: cargo: command not found\nExit code: 127", "failed"),
        _bash("nix develop -c cargo check", "    Finished `dev` profile [unoptimized] in 2.1s"),
    )
    (in_a_shell,) = _traps(
        _bash("cargo check", "bash: line 1: cargo: command not found\nExit code: 127", "failed"),
        _bash("nix develop -c bash -lc 'cargo check'", "    Finished `dev` profile in 2.1s"),
    )
    assert in_a_shell.content == trap.content
    assert trap.content == (
        'Trap: `cargo check` fails with "bash: line 1: cargo: command not found"; run '
        "`nix develop -c cargo check` instead."
    )


YARN_BERRY = (
    'error This project\'s package.json defines "packageManager": "yarn@4.1.0". However the'
    " current global version of Yarn is 1.22.19."
)


@pytest.mark.parametrize(
    "calls",
    [
        [_bash("corepack enable && yarn install", "➤ YN0000: · Done in 3s")],
        [_bash("corepack enable", ""), _bash("yarn install", "➤ YN0000: · Done in 3s")],
        # set-up steps run earlier, with other calls after them, are no part of the fix
        [
            _bash("cp .env.example .env && pip install requests", ""),
            _bash("ls", "src"),
            _bash("corepack enable", ""),
            _bash("yarn install", "➤ YN0000: · Done in 3s"),
        ],
    ],
)
def test_a_setup_step_that_needs_another_first(calls: list[ToolCall]) -> None:
    (trap,) = _traps(_bash("yarn install", YARN_BERRY, "failed"), *calls)
    assert trap.content.endswith("unless `corepack enable` runs first.")


REFUSED = "error: externally-managed-environment\n× This environment is externally managed"


def test_a_setup_step_the_system_refused_run_by_the_projects_own_installation() -> None:
    (trap,) = _traps(
        _bash("pip install -r requirements.txt", REFUSED, "failed"),
        _bash("python3 -m venv .venv && .venv/bin/pip install -r requirements.txt", "Successfully"),
    )
    assert trap.content == (
        "Trap: `pip install -r requirements.txt` fails with"
        ' "error: externally-managed-environment";'
        " run `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt` instead."
    )


@pytest.mark.parametrize(
    "calls",
    [
        # offline: the machine's network, nothing a teammate meets
        [
            _bash(
                "pip install -r requirements.txt",
                "Could not resolve host: pypi.org\nERROR: No matching distribution found for flask",
                "failed",
            ),
            _bash("pip config set global.index-url https://mirror.example/simple", ""),
            _bash("pip install -r requirements.txt", "Successfully installed flask"),
        ],
        # the system's safeguard turned off is no fix to hand on
        [
            _bash("pip install -r requirements.txt", REFUSED, "failed"),
            _bash("pip install --break-system-packages -r requirements.txt", "Successfully"),
        ],
        # it worked again by itself
        [
            _bash("npm install", "npm error code ECONNRESET", "failed"),
            _bash("npm install", "added 3 packages"),
        ],
        # a proxy refused, then it worked after a step of no bearing on it
        [
            _bash("npm install", "npm error connect ECONNREFUSED 127.0.0.1:8080", "failed"),
            _bash("cp .env.example .env", ""),
            _bash("npm install", "added 3 packages"),
        ],
    ],
)
def test_a_setup_step_that_worked_again_for_no_teammates_reason_is_no_trap(
    calls: list[ToolCall],
) -> None:
    assert _traps(*calls) == []


@pytest.mark.parametrize(
    ("failing", "error", "fixed", "trap_ends"),
    [
        (
            "docker compose up -d",
            "docker: 'compose' is not a docker command.",
            "docker-compose up -d",
            "run `docker-compose up -d` instead.",
        ),
        (
            "pip install -r requirements.txt",
            "bash: pip: command not found",
            "pip3 install -r requirements.txt",
            "run `pip3 install -r requirements.txt` instead.",
        ),
        (
            "./gradlew build",
            "bash: ./gradlew: Permission denied",
            "chmod +x gradlew && ./gradlew build",
            "unless `chmod +x gradlew` runs first.",
        ),
        (
            "./gradlew build",
            "bash: ./gradlew: Permission denied",
            "sh gradlew build",
            "run `sh gradlew build` instead.",
        ),
        # the folder holds no project of the tool: the same command in the folder that does
        (
            "go test ./...",
            "go: go.mod file not found in current directory or any parent directory",
            "cd backend && go test ./...",
            "run `cd backend && go test ./...` instead.",
        ),
        (
            "cargo build",
            "error: could not find `Cargo.toml` in `/app` or any parent directory",
            "cd crates/core && cargo build",
            "run `cd crates/core && cargo build` instead.",
        ),
    ],
)
def test_the_same_step_another_installation_name_or_folder_runs(
    failing: str, error: str, fixed: str, trap_ends: str
) -> None:
    passed = "BUILD SUCCESSFUL in 3s\nok  \tgithub.com/a/b\t0.01s\n    Finished `dev` profile"
    (trap,) = _traps(_bash(failing, error, "failed"), _bash(fixed, passed))
    assert trap.content.endswith(trap_ends)


def test_a_failure_of_the_code_is_no_trap_whichever_folder_then_passed() -> None:
    red = "Tests:  1 failed, 2 passed, 3 total"
    assert _traps(_bash("npm test", red, "failed"), _bash("cd web && npm test", "3 passed")) == []


def test_a_dependency_named_wrong_in_the_code_is_fixed_by_the_edit() -> None:
    typo = "error[E0463]: can't find crate for `serd`"
    calls = (_bash("cargo build", typo, "failed"), _write("src/main.rs"))
    assert _traps(*calls, _bash("cargo build --release", "    Finished `release` profile")) == []


def test_a_script_the_session_wrote_without_its_mode_is_no_trap() -> None:
    denied = "bash: ./scripts/migrate.sh: Permission denied"
    calls = (
        _bash("./scripts/migrate.sh", denied, "failed"),
        _bash("chmod +x scripts/migrate.sh && ./scripts/migrate.sh", "migrated"),
    )
    assert _traps(_write("/home/dev/app/scripts/migrate.sh", "Write"), *calls) == []
    (trap,) = _traps(*calls)  # a script of the repository: its committed mode is the trap
    assert trap.content.endswith("unless `chmod +x scripts/migrate.sh` runs first.")


@pytest.mark.parametrize(
    ("failing", "error", "fixed", "trap"),
    [
        (
            'rg -n "ABSOLUTE|absolute" src',
            "zsh:1: command not found: rg",
            'grep -R -n "ABSOLUTE|absolute" src',
            'Trap: `rg` fails with "zsh:1: command not found: rg"; run `grep -R` instead.',
        ),
        # grep searching one file is no search of a tree: named without the mode
        (
            "rg -n TODO notes.md",
            "zsh:1: command not found: rg",
            "grep -n TODO notes.md",
            'Trap: `rg` fails with "zsh:1: command not found: rg"; run `grep` instead.',
        ),
        (
            "rg --files -g 'README.md'",
            "/bin/bash: line 1: rg: command not found",
            "find . -maxdepth 3 -name 'README.md'",
            'Trap: `rg --files` fails with "/bin/bash: line 1: rg: command not found"; run `find` '
            "instead.",
        ),
        (
            "fd -e md",
            "bash: fd: command not found\nExit code: 127",
            'find . -name "*.md"',
            'Trap: `fd` fails with "bash: fd: command not found"; run `find` instead.',
        ),
        (
            "grep -r foo .",
            "'grep' is not recognized as an internal or external command,",
            "Select-String -Path *.ts -Pattern foo",
            "Trap: `grep` fails with \"'grep' is not recognized as an internal or external "
            'command,"; run `Select-String` instead.',
        ),
        (
            "http :3000/api/health",
            "sh: 1: http: not found",
            "curl -s http://localhost:3000/api/health",
            'Trap: `http` fails with "sh: 1: http: not found"; run `curl` instead.',
        ),
    ],
)
def test_a_program_the_machine_lacks_and_one_of_the_same_use_is_a_trap(
    failing: str, error: str, fixed: str, trap: str
) -> None:
    (found,) = _traps(_bash(failing, error, "failed"), _bash("ls", "a"), _bash(fixed, "ok"))
    assert found.content == trap
    assert dict(found.parameters)["mode"] == "variant"


@pytest.mark.parametrize(
    "calls",
    [
        # installed, then run: a set-up step, not an alternative
        [
            _bash("rg foo", "bash: rg: command not found", "failed"),
            _bash("brew install ripgrep", "installed"),
            _bash("rg foo", "a.ts:1:foo"),
            _bash("grep -rn foo .", "a.ts:1:foo"),
        ],
        # nothing of the same use ran after it
        [_bash("rg foo", "bash: rg: command not found", "failed"), _bash("npm test", "ok")],
        # a program the shell found, failing for another reason
        [_bash("rg foo", "rg: foo: IO error", "failed"), _bash("grep -rn foo .", "a:1")],
        # run for another use than the one that ran after it: searching text, then files
        [
            _bash("rg TODO", "bash: rg: command not found", "failed"),
            _bash("find . -name '*.md'", "./a.md"),
        ],
        # another step's failure beside it, the program found
        [
            _bash("ls src/legacy; rg -n TODO src", "ls: cannot access 'src/legacy'", "failed"),
            _bash("rg -n TODO src", "src/a.ts:1: TODO"),
        ],
        # a program of no use the table knows
        [_bash("fzf", "bash: fzf: command not found", "failed"), _bash("grep -rn x .", "a:1")],
    ],
)
def test_no_trap_without_a_missing_program_and_its_alternative(calls: list[ToolCall]) -> None:
    assert _traps(*calls) == []


def test_a_trap_naming_two_programs_of_different_uses_does_not_verify() -> None:
    error = "zsh:1: command not found: rg"
    for fix, verified in (("curl", False), ("grep", True), ("grep -R -n TODO src", False)):
        # a search tool's pattern, paths and switches are the task's, never the trap's
        text = f'Trap: `rg` fails with "{error}"; run `{fix}` instead.'
        parameters = (("mode", "variant"), ("failing", "rg"), ("error", error), ("fix", fix))
        assert (
            renderers.verify_typed_fact(renderers.RENDERER_COMMAND_FIX, text, parameters)
            is verified
        ), fix


def test_a_setup_step_run_in_a_folder_is_named_as_run_there() -> None:
    # the failing step and its fix both ran in backend/: a teammate runs both from there
    (trap,) = _traps(
        _bash(
            "cd backend && ./venv/Scripts/pip install -r requirements.txt",
            "error: Rust not found, installing into a temporary directory",
            "failed",
        ),
        _bash("cd backend && ./venv/Scripts/python -m pip install --upgrade pip", "Successfully"),
        _bash("cd backend && ./venv/Scripts/pip install -r requirements.txt", "Successfully"),
    )
    assert trap.content.startswith(
        "Trap: `cd backend && ./venv/Scripts/pip install -r requirements.txt` fails"
    )
    (variant,) = _traps(
        _bash(
            "cd web && npm install", "npm ERR! ERESOLVE unable to resolve dependency tree", "failed"
        ),
        _bash("cd web && npm install --legacy-peer-deps", "added 3 packages"),
    )
    assert variant.content == (
        'Trap: `cd web && npm install` fails with "ERESOLVE unable to resolve dependency tree"; '
        "run `cd web && npm install --legacy-peer-deps` instead."
    )


@pytest.mark.parametrize(
    ("failing", "error", "fixed", "trap"),
    [
        (
            "brew bundle --no-lock",
            "Error: invalid option: --no-lock",
            "brew bundle",
            'Trap: `brew bundle --no-lock` fails with "Error: invalid option: --no-lock"; run '
            "`brew bundle` instead.",
        ),
        (
            "vllm serve Qwen/Qwen3-8B --enable-reasoning --port 8000",
            "usage: vllm [-h] [-v] {chat,serve}\nvllm: error: unrecognized arguments: "
            "--enable-reasoning",
            "vllm serve Qwen/Qwen3-8B --port 8000 --reasoning-parser deepseek_r1",
            'Trap: `vllm serve --enable-reasoning` fails with "vllm: error: unrecognized '
            'arguments: --enable-reasoning"; run `vllm serve --reasoning-parser deepseek_r1` '
            "instead.",
        ),
        (
            "brew install --no-quarantine wget",
            "Error: invalid option: --no-quarantine",
            "brew install wget",
            'Trap: `brew install --no-quarantine` fails with "Error: invalid option: '
            '--no-quarantine"; run `brew install` instead.',
        ),
        (
            "supabase db push --include-all --linked-only",
            "Error: unknown flag: --linked-only",
            "supabase db push --include-all --linked",
            'Trap: `supabase db push --linked-only` fails with "Error: unknown flag: '
            '--linked-only"; run `supabase db push --linked` instead.',
        ),
        # the program a package runner ran refused it: named with its runner
        (
            "npx supabase db push --include-all --linked-only",
            "Error: unknown flag: --linked-only",
            "npx supabase db push --include-all --linked",
            'Trap: `npx supabase db push --linked-only` fails with "Error: unknown flag: '
            '--linked-only"; run `npx supabase db push --linked` instead.',
        ),
        # the runner's own switches and their values are the runner's (`-p yo`, `--`)
        (
            "npx -p yo -p generator-code -- yo code --skip-install",
            "error: unknown option '--skip-install'",
            "npx -p yo -p generator-code -- yo code",
            'Trap: `npx -p yo -p generator-code -- yo code --skip-install` fails with "error: '
            "unknown option '--skip-install'\"; run `npx -p yo -p generator-code -- yo code` "
            "instead.",
        ),
        (
            "pnpm dlx vercel link --confirm",
            "Error: unknown or unexpected option: --confirm",
            "pnpm dlx vercel link --yes",
            'Trap: `pnpm dlx vercel link --confirm` fails with "Error: unknown or unexpected '
            'option: --confirm"; run `pnpm dlx vercel link --yes` instead.',
        ),
    ],
)
def test_a_switch_the_installed_program_refuses_is_a_trap(
    failing: str, error: str, fixed: str, trap: str
) -> None:
    (found,) = _traps(_bash(failing, error, "failed"), _bash(fixed, "ok"))
    assert found.content == trap


@pytest.mark.parametrize(
    "calls",
    [
        # a slip of the agent's own typing, typed right the next time
        [
            _bash("git commit --amend --no-edti", "error: unknown option `no-edti'", "failed"),
            _bash("git commit --amend --no-edit", "[main 1a2b3c] x"),
        ],
        # a program that only looks around
        [_bash("ls --foo", "ls: unrecognized option '--foo'", "failed"), _bash("ls", "a")],
        # the switch still there when it worked: something else changed
        [
            _bash("brew bundle --no-lock", "Error: invalid option: --no-lock", "failed"),
            _bash("brew bundle --no-lock --file Brewfile", "done"),
        ],
        # another program worked, not this one without the switch
        [
            _bash("brew bundle --no-lock", "Error: invalid option: --no-lock", "failed"),
            _bash("brew install jq", "done"),
        ],
        # a slip the program itself points out: it suggests the switch, or lists it
        [
            _bash(
                "cargo build --relase",
                "error: unexpected argument '--relase' found\n\n  tip: a similar argument "
                "exists: '--release'",
                "failed",
            ),
            _bash("cargo build", "Finished"),
        ],
        [
            _bash(
                "git log --grpah",
                "error: unknown option `grpah'\nusage: git log [<options>]\n\n"
                "    --graph               draw a text-based graphical representation",
                "failed",
            ),
            _bash("git log", "commit abc"),
        ],
        # what ran after it only asked for help
        [
            _bash("openclaw directory --channel x", "error: unknown option '--channel'", "failed"),
            _bash("openclaw directory --help", "Usage: openclaw directory [options]"),
        ],
        # the script an interpreter ran refused it, not the interpreter
        [
            _bash(
                "python3 /tmp/check_env.py --verbose",
                "usage: check_env.py [-h]\ncheck_env.py: error: unrecognized arguments: --verbose",
                "failed",
            ),
            _bash("python3 /tmp/check_env.py", "ok"),
        ],
        # through a package runner: the same program run directly is another installation
        [
            _bash(
                "npx supabase db push --linked-only", "Error: unknown flag: --linked-only", "failed"
            ),
            _bash("supabase db push", "done"),
        ],
        # a script a script runner ran refused it, through a package runner too
        [
            _bash(
                "npx vite-node scripts/seed.ts --force", "error: unknown option '--force'", "failed"
            ),
            _bash("npx vite-node scripts/seed.ts", "seeded"),
        ],
        # the remote command refused it, not ssh
        [
            _bash(
                "ssh web1 systemctl status app --no-pager-x",
                "systemctl: unrecognized option '--no-pager-x'",
                "failed",
            ),
            _bash("ssh web1 systemctl status app", "active"),
        ],
        # another subcommand ran after it: no fix of this one
        [
            _bash(
                "gcloud compute instances list --filtr=name",
                "ERROR: (gcloud.compute.instances.list) unrecognized arguments: --filtr=name",
                "failed",
            ),
            _bash("gcloud compute instances describe vm1 --zone us-east1-b", "ok"),
        ],
        # the refusal echoes a secret
        [
            _bash(
                "mytool deploy --tokn ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
                "Error: unknown flag: --tokn ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
                "failed",
            ),
            _bash("mytool deploy", "deployed"),
        ],
        # a program path with a space in it: no command a memory can name
        [
            _bash(
                '"/opt/My Tools/brew" bundle --no-lock',
                "Error: invalid option: --no-lock",
                "failed",
            ),
            _bash('"/opt/My Tools/brew" bundle', "done"),
        ],
    ],
)
def test_no_switch_trap_without_the_same_program_working_without_it(
    calls: list[ToolCall],
) -> None:
    assert _traps(*calls) == []


def _variant_verifies(failing: str, error: str, fix: str) -> bool:
    """Whether the renderer vouches for the variant trap `failing` → `fix`."""
    text = f'Trap: `{failing}` fails with "{error}"; run `{fix}` instead.'
    parameters = (("mode", "variant"), ("failing", failing), ("error", error), ("fix", fix))
    return renderers.verify_typed_fact(renderers.RENDERER_COMMAND_FIX, text, parameters)


def test_a_switch_trap_verifies_only_without_the_switch_refused() -> None:
    error = "Error: invalid option: --no-lock"
    for fix, verified in (("brew bundle", True), ("brew bundle --no-lock", False), ("ls", False)):
        assert _variant_verifies("brew bundle --no-lock", error, fix) is verified, fix
    # nor with it moved among the runner's words
    error = "Error: unknown flag: --linked-only"
    failing = "npx supabase db push --linked-only"
    assert _variant_verifies(failing, error, "npx supabase db push --linked")
    assert not _variant_verifies(failing, error, "npx --linked-only supabase db push")


def test_a_missing_programs_trap_quotes_the_line_saying_it_is_missing() -> None:
    (trap,) = _traps(
        _bash(
            "ls src/legacy; rg -n TODO src",
            "ls: cannot access 'src/legacy': No such file\nbash: rg: command not found",
            "failed",
        ),
        _bash("grep -rn TODO src", "src/a.ts:1: TODO"),
    )
    assert trap.content == (
        'Trap: `rg` fails with "bash: rg: command not found"; run `grep -R` instead.'
    )
    assert trap.quotes[1].text == "bash: rg: command not found"  # the line it states


def test_a_setup_step_fixed_in_another_folder_is_no_trap() -> None:
    eresolve = "npm ERR! ERESOLVE unable to resolve dependency tree"
    for fixed in ("cd api && npm install --legacy-peer-deps", "npm install --legacy-peer-deps"):
        calls = [_bash("cd web && npm install", eresolve, "failed"), _bash(fixed, "added 3")]
        assert _traps(*calls) == [], fixed


@pytest.mark.parametrize(
    ("failing", "fixed", "trap"),
    [
        (
            "mkdir -p app/destinations app/destinations/[slug] app/about",
            "mkdir -p app/destinations 'app/destinations/[slug]' app/about",
            "Trap: `mkdir -p app/destinations app/destinations/[slug] app/about` fails with "
            '"zsh:1: no matches found: app/destinations/[slug]"; run `mkdir -p '
            "app/destinations 'app/destinations/[slug]' app/about` instead.",
        ),
        # quoted in double quotes
        (
            "touch app/api/trips/[id]/route.ts",
            'touch "app/api/trips/[id]/route.ts"',
            "Trap: `touch app/api/trips/[id]/route.ts` fails with "
            '"zsh:1: no matches found: app/api/trips/[id]/route.ts"; run `touch '
            "'app/api/trips/[id]/route.ts'` instead.",
        ),
    ],
)
def test_a_route_folder_zsh_took_for_a_pattern_is_a_trap_fixed_by_quoting_it(
    failing: str, fixed: str, trap: str
) -> None:
    path = next(w for w in failing.split() if "[" in w)
    refused = _bash(failing, f"zsh:1: no matches found: {path}", "failed")
    (found,) = _traps(refused, _bash(fixed, ""))
    assert found.content == trap


@pytest.mark.parametrize(
    "calls",
    [
        # a wildcard that matched nothing: nothing to quote
        [
            _bash("ls .eslintrc*", "zsh:1: no matches found: .eslintrc*", "failed"),
            _bash("ls -a", ".eslintrc.json"),
        ],
        # the same path quoted in another command: no fix of this one
        [
            _bash("mkdir -p app/[id]", "zsh:1: no matches found: app/[id]", "failed"),
            _bash("ls 'app/[id]'", ""),
        ],
        # bash leaves an unmatched pattern as it is: no refusal, no trap
        [
            _bash(
                "mkdir -p app/[id]", "mkdir: cannot create directory: Permission denied", "failed"
            ),
            _bash("mkdir -p 'app/[id]'", ""),
        ],
    ],
)
def test_no_quoting_trap_without_a_route_folder_zsh_refused_and_its_quoted_run(
    calls: list[ToolCall],
) -> None:
    assert _traps(*calls) == []


def test_a_quoting_trap_verifies_only_with_the_same_words_quoted() -> None:
    error = "zsh:1: no matches found: app/[id]"
    for fix, verified in (
        ("mkdir -p 'app/[id]'", True),
        ("mkdir -p app/[id]", False),
        ("mkdir -p 'app/[slug]'", False),
        ("rm -rf 'app/[id]'", False),
    ):
        assert _variant_verifies("mkdir -p app/[id]", error, fix) is verified, fix


ONLY_ALLOW = (
    "> preinstall\n> npx only-allow pnpm\n\n"
    "╔═════════════════════════════════════════════════════════════╗\n"
    "║                                                             ║\n"
    '║   Use "pnpm install" for installation in this project.      ║\n'
    "║                                                             ║\n"
    "╚═════════════════════════════════════════════════════════════╝\n"
    "npm error code 1"
)


@pytest.mark.parametrize(
    ("failing", "output", "fixed", "trap"),
    [
        (
            "npm install",
            ONLY_ALLOW,
            "pnpm install",
            "Trap: `npm install` fails with \"Use 'pnpm install' for installation in this "
            'project."; run `pnpm install` instead.',
        ),
        (
            "cd web && npm install",
            "Usage Error: This project is configured to use yarn because package.json has a "
            '"packageManager" field',
            "cd web && yarn install",
            'Trap: `cd web && npm install` fails with "Usage Error: This project is '
            "configured to use yarn because package.json has a 'packageManager' field\"; run "
            "`cd web && yarn install` instead.",
        ),
        # a hook on the machine that forbids a command and names the one to use
        (
            "rm -rf .next",
            "BLOCKED: rm -rf is forbidden - use trash instead",
            "trash .next",
            'Trap: `rm -rf .next` fails with "BLOCKED: rm -rf is forbidden - use trash '
            'instead"; run `trash .next` instead.',
        ),
    ],
)
def test_a_refusal_naming_the_program_to_use_is_a_trap(
    failing: str, output: str, fixed: str, trap: str
) -> None:
    (found,) = _traps(_bash(failing, output, "failed"), _bash(fixed, "done"))
    assert found.content == trap
    assert _variant_verifies(*(dict(found.parameters)[k] for k in ("failing", "error", "fix")))


@pytest.mark.parametrize(
    "calls",
    [
        # the program named never ran after it
        [_bash("npm install", ONLY_ALLOW, "failed"), _bash("npm run build", "done")],
        # another program ran, not the one named
        [_bash("npm install", ONLY_ALLOW, "failed"), _bash("yarn install", "done")],
        # the program named ran in another folder: another project's step
        [_bash("cd web && npm install", ONLY_ALLOW, "failed"), _bash("cd api && pnpm install", "")],
        # an error that names nothing to use
        [_bash("npm install", "npm error code ERESOLVE", "failed"), _bash("pnpm install", "")],
    ],
)
def test_no_pointed_trap_without_the_named_program_run_after_it(calls: list[ToolCall]) -> None:
    assert _traps(*calls) == []


def test_a_command_a_hook_blocked_before_it_ran_is_a_trap_when_the_hook_names_the_fix() -> None:
    blocked = (
        'Error: Command blocked!\n\nCommand: rm -rf .next && echo "Done"\n'
        "Reason: rm -rf is forbidden - use trash instead\nSeverity: CRITICAL"
    )
    refused = _bash('rm -rf .next && echo "Done"', blocked, "error")
    (found,) = _traps(refused, _bash("trash .next", "ok"))
    assert found.content == (
        'Trap: `rm -rf .next` fails with "Reason: rm -rf is forbidden - use trash instead"; '
        "run `trash .next` instead."
    )
    # advice in the output of a run not known to have failed refuses nothing
    advice = "npm warn deprecated glob@7.2.3: use rimraf instead\nadded 3 packages"
    assert _traps(_bash("npm install", advice, "error"), _bash("rimraf dist", "")) == []


def test_a_pointed_trap_verifies_only_when_its_error_names_the_fix() -> None:
    error = "BLOCKED: rm -rf is forbidden - use trash instead"
    assert _variant_verifies("rm -rf .next", error, "trash .next")
    assert not _variant_verifies("rm -rf .next", error, "gio trash .next")
    assert not _variant_verifies("rm -rf .next", "BLOCKED: rm -rf is forbidden", "trash .next")


@pytest.mark.parametrize(
    "calls",
    [
        # advice printed beside a failure names a program, and an unrelated run of it follows
        [
            _bash(
                "shellcheck scripts/deploy.sh",
                "        ^-- SC2012 (info): Use find instead of ls to better handle "
                "non-alphanumeric filenames.",
                "failed",
            ),
            _bash("find src -name '*.test.ts'", "src/a.test.ts"),
        ],
        [
            _bash(
                "npm test", "WARN: ts-node is deprecated, use tsx instead\nFAIL a.test", "failed"
            ),
            _bash("tsx scripts/seed.ts", "seeded"),
        ],
        [
            _bash(
                "npm run lint",
                "warning: eslint-plugin-foo's error reporting is deprecated, use biome instead",
                "error",
            ),
            _bash("biome check .", "ok"),
        ],
        # the program named, run for another job
        [_bash("npm install", ONLY_ALLOW, "failed"), _bash("pnpm --version", "9.1.0")],
        [_bash("npm install", ONLY_ALLOW, "failed"), _bash("pnpm test", "ok")],
        # an install of other packages, or of none, is another job
        [_bash("npm install lodash", ONLY_ALLOW, "failed"), _bash("pnpm install", "ok")],
        [_bash("npm install", ONLY_ALLOW, "failed"), _bash("pnpm add -D vitest", "ok")],
        [
            _bash("rm -rf .next", "BLOCKED: rm -rf is forbidden - use trash instead", "failed"),
            _bash("trash node_modules/.cache", ""),
        ],
    ],
)
def test_advice_or_another_job_of_the_program_named_is_no_pointed_trap(
    calls: list[ToolCall],
) -> None:
    assert _traps(*calls) == []


@pytest.mark.parametrize(
    ("failing", "trap"),
    [
        (
            "rm -rf node_modules package-lock.json && npm install",
            "Trap: `npm install` fails with \"Use 'pnpm install' for installation in this "
            'project."; run `pnpm install` instead.',
        ),
        (
            "git pull && npm install",
            "Trap: `npm install` fails with \"Use 'pnpm install' for installation in this "
            'project."; run `pnpm install` instead.',
        ),
    ],
)
def test_the_step_a_refusal_is_about_is_the_one_blamed(failing: str, trap: str) -> None:
    (found,) = _traps(_bash(failing, ONLY_ALLOW, "failed"), _bash("pnpm install", "Done"))
    assert found.content == trap


def test_a_secret_in_the_refused_command_stays_out_of_the_trap() -> None:
    token = "npm_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    refused = _bash(f"npm install --//registry.npmjs.org/:_authToken={token}", ONLY_ALLOW, "failed")
    assert _traps(refused, _bash("pnpm install", "Done")) == []
    assert not _variant_verifies(
        f"npm install --//registry.npmjs.org/:_authToken={token}",
        "Use 'pnpm install' for installation in this project.",
        "pnpm install",
    )


def test_a_pointed_trap_keeps_a_route_folder_quoted() -> None:
    blocked = "BLOCKED: rm -rf is forbidden - use trash instead"
    (found,) = _traps(_bash("rm -rf 'app/[slug]'", blocked, "failed"), _bash("trash 'app/[slug]'"))
    assert found.content.endswith("run `trash 'app/[slug]'` instead.")


def test_a_real_trap_is_not_displaced_by_advice_printed_beside_it() -> None:
    out = (
        "(node:4242) Warning: ts-node is deprecated, use tsx instead\n"
        "Error: Cannot find module 'dotenv'\nRequire stack:\n- src/config.ts"
    )
    (found,) = _traps(
        _bash("npm test", out, "failed"),
        _bash("npm install", "added 12 packages"),
        _bash("npm test", "Tests: 12 passed"),
        _bash("tsx scripts/seed.ts", "seeded 3 rows"),
    )
    assert found.content == (
        "Trap: `npm test` fails with \"Error: Cannot find module 'dotenv'\" unless "
        "`npm install` runs first."
    )


def test_every_route_folder_of_the_command_is_quoted_and_an_echo_is_no_fix() -> None:
    refused = _bash(
        "mkdir -p app/trips/[id] app/api/trips/[id]",
        "zsh:1: no matches found: app/trips/[id]",
        "failed",
    )
    (found,) = _traps(refused, _bash("mkdir -p 'app/trips/[id]' 'app/api/trips/[id]'", ""))
    assert found.content.endswith("run `mkdir -p 'app/trips/[id]' 'app/api/trips/[id]'` instead.")
    echoed = _bash("echo \"next: mkdir 'app/[id]'\"", "next: mkdir 'app/[id]'")
    refused = _bash("mkdir app/[id]", "zsh:1: no matches found: app/[id]", "failed")
    assert _traps(refused, echoed) == []


def test_a_pointed_fix_is_typed_back_as_its_shell_reads_it() -> None:
    (added,) = _traps(_bash("npm install lodash", ONLY_ALLOW, "failed"), _bash("pnpm add lodash"))
    assert added.content.endswith("run `pnpm add lodash` instead.")
    blocked = "BLOCKED: rm -rf is forbidden - use trash instead"
    (kept,) = _traps(
        _bash('rm -rf "$OUT/app/[id]"', blocked, "failed"), _bash('trash "$OUT/app/[id]"')
    )
    assert kept.content.endswith('run `trash "$OUT/app/[id]"` instead.')  # `$OUT` still expands
    assert typed_back(["pnpm", "add", "react@>=18"], "powershell") == 'pnpm add "react@>=18"'


def test_a_script_named_with_or_without_its_folder_dot_is_the_same_script() -> None:
    denied = "bash: ./scripts/update-agent-context.sh: Permission denied"
    (trap,) = _traps(
        _bash("./scripts/update-agent-context.sh codex", denied, "failed"),
        _bash("bash scripts/update-agent-context.sh codex", "done"),
    )
    assert trap.content.endswith("run `bash scripts/update-agent-context.sh` instead.")


@pytest.mark.parametrize(
    ("fixed", "named"),
    [
        ("grep -n -e -Werror build.log", "grep"),  # `-e` takes the pattern "-Werror"
        ("grep -n -- -march Makefile", "grep"),  # after `--`, a pattern
        ("grep -n -d recurse TODO src", "grep -R"),
        ("grep -n --directories=recurse TODO src", "grep -R"),
        ("grep -rn --include=*.ts TODO src", "grep -R"),
    ],
)
def test_grep_is_named_with_r_only_when_its_switches_search_a_tree(fixed: str, named: str) -> None:
    (trap,) = _traps(
        _bash("rg -n TODO src", "zsh:1: command not found: rg", "failed"), _bash(fixed, "a:1")
    )
    assert trap.content.endswith(f"run `{named}` instead.")


def test_what_a_test_did_not_find_is_no_error_of_how_it_was_run() -> None:
    # a real session: an end-to-end test's locator found nothing, then another suite passed;
    # "not found" of what a test looked for is the code's, not the environment's
    red = "  1) login.spec.ts:12:5 › signs in\n    Error: element(s) not found\n  1 failed"
    assert not invocation_error(red)
    later = _bash("pnpm --filter @ship/api exec vitest run", "Test Files  3 passed (3)")
    assert _traps(_bash("pnpm exec playwright test", red, "failed"), later) == []
    for needed in (
        "sh: 1: http: not found",
        "go: go.mod file not found",
        "Rust not found",
        "fatal: repository 'https://example.com/x.git/' not found",
        "npm error 404 Not Found - GET https://registry.npmjs.org/left-padd",
    ):
        assert invocation_error(needed), needed


def test_a_set_up_step_that_failed_on_the_code_is_not_fixed_by_installing_packages() -> None:
    # a real session: `npm install` ran the package's `prepare` build, which failed on type
    # errors; the code was edited, and a later install named packages of its own
    typed = "src/tools/index.ts(23,5): error TS2322: Type 'A' is not assignable to type 'B'."
    calls = [
        _bash("npm install", typed + "\nnpm error code 2", "failed"),
        _write("src/tools/index.ts"),
        _bash("npm install --save-dev @types/jsonwebtoken @types/uuid", "added 2 packages"),
    ]
    assert _traps(*calls) == []
    # the same step with a switch only, nothing edited between: the classic fix stays a trap
    (trap,) = _traps(
        _bash("npm install", "npm error code ERESOLVE\nnpm error could not resolve", "failed"),
        _bash("npm install --legacy-peer-deps", "added 812 packages"),
    )
    assert trap.content.endswith("run `npm install --legacy-peer-deps` instead.")


def test_a_fix_names_each_step_once_when_set_up_lines_repeat_one() -> None:
    (trap,) = _traps(
        _bash("npm run compile", "Error HH13: ts-node is not installed.", "failed"),
        _bash("source ~/.nvm/nvm.sh && nvm use 20", "Now using node v20.19.5"),
        _bash("source ~/.nvm/nvm.sh && nvm use 20 && npm install -g pnpm", "added 1 package"),
        _bash("npm run compile", "Compiled 12 Solidity files successfully"),
    )
    assert trap.content.endswith(
        "unless `source ~/.nvm/nvm.sh && nvm use 20 && npm install -g pnpm` runs first."
    )


def test_a_step_run_again_after_another_keeps_its_place_in_the_fix() -> None:
    no_module = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'flask'"
    (trap,) = _traps(
        _bash("pytest tests", no_module, "failed"),
        _bash("pip install -r requirements.txt", "Successfully installed flask-3.0.0"),
        _bash("source .venv/bin/activate && pip install -r requirements.txt", "Successfully"),
        _bash("pytest tests", "5 passed in 0.3s"),
    )
    assert trap.content.endswith(
        "unless `pip install -r requirements.txt && source .venv/bin/activate && pip install -r "
        "requirements.txt` runs first."
    )


def test_a_quoted_argument_holding_and_and_stays_whole_in_the_fix() -> None:
    docker = "docker run --rm -w /app node:20 sh -c "
    (trap,) = _traps(
        _bash("npm test", "Error: Cannot find module './generated/client'", "failed"),
        _bash(docker + '"npm ci && npm run build:deps"', "built"),
        _bash(docker + '"npm ci && npm run codegen"', "generated"),
        _bash("npm test", "Tests: 4 passed, 4 total"),
    )
    fix = dict(trap.parameters)["fix"]
    assert fix == (
        f"{docker}'npm ci && npm run build:deps' && {docker}'npm ci && npm run codegen'"
    ), fix


@pytest.mark.parametrize(
    ("setup", "fix"),
    [
        # a `cd` inside a set-up line: each step in its own folder
        (
            "pip install -r requirements.txt && cd web && npm install",
            "pip install -r requirements.txt && (cd web && npm install)",
        ),
        (
            "cd api && npm install && cd ../web && npm install",
            "(cd api && npm install) && (cd web && npm install)",
        ),
    ],
)
def test_a_set_up_line_across_folders_keeps_each_step_in_its_folder(setup: str, fix: str) -> None:
    (trap,) = _traps(
        _bash("npm test", "Error: Cannot find module 'vite'", "failed"),
        _bash(setup, "added 10 packages"),
        _bash("npm test", "Tests: 4 passed, 4 total"),
    )
    assert dict(trap.parameters)["fix"] == fix


@pytest.mark.parametrize(
    ("lines", "fix"),
    [
        # a step run again after one that changed its environment counts again
        (
            [
                "pip install -r requirements.txt",
                "source .venv/bin/activate",
                "pip install -r requirements.txt",
            ],
            "pip install -r requirements.txt && source .venv/bin/activate && pip install -r "
            "requirements.txt",
        ),
        # ... and only once after any other step, where it first ran
        (
            ["npm install", "npm run build", "npm install"],
            "npm install && npm run build",
        ),
        # setting the environment up again changes nothing
        (
            ["source .venv/bin/activate", "pip install pyyaml", "source .venv/bin/activate"],
            "source .venv/bin/activate && pip install pyyaml",
        ),
        # unless another step changed it in between; `.` sources, `.venv/bin/pip` does not
        (
            ["nvm use 20", "npm install", "nvm use 18", "nvm use 20", "npm install"],
            "nvm use 18 && nvm use 20 && npm install",
        ),
        (
            [
                "pip install -r requirements.txt",
                ". .venv/bin/activate",
                "pip install -r requirements.txt",
            ],
            "pip install -r requirements.txt && . .venv/bin/activate && pip install -r "
            "requirements.txt",
        ),
        (
            ["npm install", ".venv/bin/pip install flask", "npm install"],
            "npm install && .venv/bin/pip install flask",
        ),
        # a line another starts with is run by that one
        (
            [
                "source ~/.nvm/nvm.sh && nvm use 20 && npm install -g pnpm",
                "source ~/.nvm/nvm.sh && nvm use 20",
            ],
            "source ~/.nvm/nvm.sh && nvm use 20 && npm install -g pnpm",
        ),
        # a line that sets up again what is still set up runs the rest in it
        (
            [
                "python3 -m venv .venv",
                "source .venv/bin/activate && pip install pytest",
                "source .venv/bin/activate && pip install pyyaml",
            ],
            "python3 -m venv .venv && source .venv/bin/activate && pip install pytest && pip "
            "install pyyaml",
        ),
        # ... named once when the same line ran twice
        (
            [
                "source .venv/bin/activate && pip install pytest",
                "source .venv/bin/activate && pip install pytest",
            ],
            "source .venv/bin/activate && pip install pytest",
        ),
        # ... kept where the line that set it up first is no longer part of the fix
        (
            [
                "source .venv/bin/activate && pip install pytest",
                "pip install -r requirements.txt",
                "npm install",
                "source .venv/bin/activate && pip install pyyaml",
            ],
            "pip install -r requirements.txt && npm install && source .venv/bin/activate && pip "
            "install pyyaml",
        ),
        # ... and a quoted ` && ` is no step of its own
        (
            ["export MSG='a && b' && pip install x", "export MSG='a && b' && pip install y"],
            "export 'MSG=a && b' && pip install x && pip install y",
        ),
        # ... not after another set-up of its own in between
        (
            [
                "source ~/.nvm/nvm.sh && nvm use 18 && npm install",
                "source ~/.nvm/nvm.sh && nvm use 20 && npm install -g pnpm",
            ],
            "source ~/.nvm/nvm.sh && nvm use 18 && npm install && source ~/.nvm/nvm.sh && nvm "
            "use 20 && npm install -g pnpm",
        ),
    ],
)
def test_set_up_lines_run_again_are_named_once_where_they_count(lines: list[str], fix: str) -> None:
    no_module = "ModuleNotFoundError: No module named 'flask'"
    (trap,) = _traps(
        _bash("npm run check", no_module, "failed"),
        *(_bash(line, "done") for line in lines),
        _bash("npm run check", "All checks passed!"),
    )
    assert dict(trap.parameters)["fix"] == fix


def test_each_folders_subshell_sets_its_own_environment_up() -> None:
    # a subshell's activation is gone by the next one: each group keeps its own
    (trap,) = _traps(
        _bash("npm run check", "ModuleNotFoundError: No module named 'flask'", "failed"),
        _bash("cd api && source .venv/bin/activate && pip install pytest", "done"),
        _bash("cd web && npm install", "added 3 packages"),
        _bash("cd api && source .venv/bin/activate && pip install pyyaml", "done"),
        _bash("npm run check", "All checks passed!"),
    )
    assert dict(trap.parameters)["fix"] == (
        "(cd api && source .venv/bin/activate && pip install pytest) && (cd web && npm install) "
        "&& (cd api && source .venv/bin/activate && pip install pyyaml)"
    )


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("rm -rf node_modules", "rm -rf node_modules"),  # not `rm node_modules`
        ("docker run -v /w:/app node:20 npm ci", "docker run -v /w:/app node:20 npm ci"),
        ("grep -v '^#' .env", "grep -v ^# .env"),
        ("ln -s ../common common", "ln -s ../common common"),
        ("pip install -q -r requirements.txt", "pip install -r requirements.txt"),  # reporting
        ("python -m pytest -q -x tests", "python -m pytest tests"),
    ],
)
def test_a_step_drops_a_switch_only_where_it_changes_how_a_tool_reports(
    typed: str, plain: str
) -> None:
    (segment,) = shell.segments(typed)
    assert renderers.plain_words(segment) == plain


def test_set_up_steps_chained_before_the_command_keep_their_folders() -> None:
    (trap,) = _traps(
        _bash("cd web && npm test", "Error: Cannot find module 'vite'", "failed"),
        _bash("cd api && npm install && cd ../web && npm install && npm test", "Tests: 4 passed"),
    )
    assert dict(trap.parameters)["fix"] == "(cd api && npm install) && (cd web && npm install)"
