"""The builtin extractor: commands, traps and rules from the common turn model, typed facts
only through the fixed renderers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.groups import group_of
from git_memory.extract.builtin import renderers, shell
from git_memory.extract.builtin.renderers import sanitize_error, weakens_safety
from git_memory.extract.builtin.rules import rule_facts
from git_memory.extract.builtin.runs import session_runs
from git_memory.extract.builtin.traps import first_error_line, trap_facts
from git_memory.extract.builtin.window import memory_keys, plan_window
from git_memory.extract.builtin.writes import written_files
from git_memory.extract.quotes import origin_of
from git_memory.repo.binding import discover_worktree
from git_memory.sessions.origin import typed_origin
from git_memory.sessions.query import TurnRecord, select_turns
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record
from tests.repos import Repo
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)


def _turn(key: str, *calls: ToolCall, user: str = "", session: str = "s") -> TurnRecord:
    return turn_record(key, *calls, user=user, session=session * 64)


def _bash(command: Any, output: str = "", state: str = "completed", name: str = "Bash") -> ToolCall:
    return ToolCall(call_id="c", name=name, input={"command": command}, output=output, state=state)


def _edit() -> ToolCall:
    return ToolCall(call_id="e", name="Edit", input={"file_path": "src/app.py"}, state="completed")


def _traps(*records: TurnRecord) -> list[renderers.BuiltinFact]:
    return trap_facts(list(session_runs(records)))


@pytest.mark.parametrize(
    ("command", "kind", "normal"),
    [
        ("uv run pytest -q", "test", "uv run pytest"),
        ("uv run pytest tests/test_x.py::test_y -q", "test", "uv run pytest"),
        ("cd api && python -m pytest -k slow 2>&1 | tail -20", "test", "python -m pytest"),
        ("npm run test -- src/a.test.ts", "test", "npm test"),
        ("pnpm run lint", "lint", "pnpm lint"),
        ("npx eslint src/a.tsx", "lint", "npx eslint ."),
        ("cargo test parse_header -- --nocapture", "test", "cargo test"),
        ("cargo nextest run", "test", "cargo nextest run"),
        (
            "cargo clippy --all-targets -- -D warnings",
            "lint",
            "cargo clippy --all-targets -- -D warnings",
        ),
        ("go test -v -run TestParse ./internal/parser/", "test", "go test ./..."),
        ("docker compose up -d db && make test-integration", "test", "make test-integration"),
        ("ruff check", "lint", "ruff check ."),
        ("npx tsc --noEmit", "typecheck", "npx tsc --noEmit"),
        ("timeout 300 cargo build --release", "build", "cargo build --release"),
        ("make proto", "generate", "make proto"),
        ("pnpm dev", "run", "pnpm dev"),
        ("mypy git_memory && echo ok", "typecheck", "mypy git_memory"),
        ("uv run --with pytest-cov pytest --cov", "test", "uv run --with pytest-cov pytest --cov"),
        ("mvn -q test", "test", "mvn test"),
        ("make -C backend test", "test", "make -C backend test"),
        ("docker compose run --rm web pytest -q", "test", "docker compose run --rm web pytest"),
        ("python manage.py test", "test", "python manage.py test"),
        ("bash scripts/lint.sh", "lint", "bash scripts/lint.sh"),
        (
            "pnpm --filter @acme/db exec prisma generate",
            "generate",
            "pnpm --filter @acme/db exec prisma generate",
        ),
        ("pnpm turbo build", "build", "pnpm turbo build"),
        ("nx test api", "test", "nx test api"),
    ],
)
def test_project_commands_and_their_normal_form(command: str, kind: str, normal: str) -> None:
    assert shell.command_kind(command) == kind
    assert shell.normal_command(command) == normal


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "cat README.md | grep pytest",
        "git status",
        "git log --oneline -5",
        "echo pytest",
        "sed -n 1,80p src/app.py",
        "pytest --version",
        "go version",
        "cargo test --no-run",  # builds the tests, runs none
        "pytest --collect-only -q",  # lists the tests
        "terraform plan --dry-run",
        "rg TODO",
        "make clean",
        "npm install",
        "uv run python x.py",
    ],
)
def test_navigation_and_one_off_scripts_are_not_project_commands(command: str) -> None:
    assert shell.command_kind(command) is None


def test_codex_and_other_shell_shapes() -> None:
    argv = ToolCall(call_id="c", name="shell", input={"command": ["bash", "-lc", "go test ./..."]})
    exec_cmd = ToolCall(call_id="c", name="exec_command", input={"cmd": "pnpm test"})
    gemini = ToolCall(call_id="c", name="run_shell_command", input={"command": "cargo test"})
    other = ToolCall(call_id="c", name="Read", input={"file_path": "x"})
    assert shell.command_of(argv) == "go test ./..."
    assert shell.command_of(exec_cmd) == "pnpm test"
    assert shell.command_of(gemini) == "cargo test"
    assert shell.command_of(other) is None


def test_one_command_memory_per_window_with_its_session_count() -> None:
    sessions = [
        ("a", [_turn("a1", _bash("uv run pytest -q"), _bash("ls -la"), session="a")]),
        ("b", [_turn("b1", _bash("uv run pytest tests/test_x.py -x"), session="b")]),
        ("c", [_turn("c1", _bash("uv run pytest", state="failed"), session="c")]),
    ]
    tasks = {"a1": "task-a", "b1": "task-b", "c1": "task-c"}
    planned = plan_window(sessions, tasks, known=set()).placed
    (fact,) = [f for facts in planned.values() for f in facts]
    assert fact.content == "`uv run pytest` runs the tests (worked in 2 sessions)."
    assert planned["task-a"] == [fact]
    assert fact.turn_keys == ("a1",)
    assert renderers.verify_typed_fact(fact.renderer, fact.statement, fact.parameters)
    again = plan_window(sessions, tasks, known=memory_keys(fact.content)).placed
    assert again == {}, "a command approved or proposed before is not proposed again"


def test_a_run_only_ever_narrowed_once_is_a_one_off() -> None:
    narrowed = [("a", [_turn("a1", _bash("uv run pytest tests/test_x.py::test_y"), session="a")])]
    assert plan_window(narrowed, {"a1": "task-a"}, known=set()).placed == {}
    twice = [*narrowed, ("b", [_turn("b1", _bash("uv run pytest -k slow"), session="b")])]
    planned = plan_window(twice, {"a1": "task-a", "b1": "task-b"}, known=set()).placed
    (fact,) = planned["task-a"]
    assert fact.content == "`uv run pytest` runs the tests (worked in 2 sessions)."


def test_a_corrected_invocation_is_a_trap() -> None:
    failed = _bash(
        "pytest -q",
        "ImportError while loading conftest 'tests/conftest.py'.\n"
        "E   ModuleNotFoundError: No module named 'app'",
        state="failed",
    )
    (trap,) = _traps(_turn("t1", failed), _turn("t2", _bash("uv run pytest -q", "3 passed")))
    assert trap.renderer == "command-fix@1"
    assert trap.content == (
        "Trap: `pytest` fails with \"ModuleNotFoundError: No module named 'app'\"; "
        "run `uv run pytest` instead."
    )
    assert trap.turn_keys == ("t1", "t2")
    assert renderers.verify_typed_fact(trap.renderer, trap.statement, trap.parameters)


def test_a_prerequisite_step_is_a_trap_chained_or_separate() -> None:
    failed = _bash("make test-integration", "dial tcp 127.0.0.1:5432: connection refused", "failed")
    separate = _traps(
        _turn(
            "t1",
            failed,
            _bash("docker compose up -d db", "Started"),
            _bash("make test-integration"),
        )
    )
    chained = _traps(_turn("t1", failed, _bash("docker compose up -d db && make test-integration")))
    for (trap,) in (separate, chained):
        assert trap.content == (
            'Trap: `make test-integration` fails with "dial tcp 127.0.0.1:5432: connection '
            'refused" unless `docker compose up -d db` runs first.'
        )


def test_a_corrected_invocation_after_setup_names_both() -> None:
    failed = _bash("npm test", "sh: 1: jest: not found", state="failed")
    setup = _bash("npm install", "added 812 packages")
    (trap,) = _traps(_turn("t1", failed, setup, _bash("npx jest", "ok")))
    assert trap.content.endswith("; run `npm install && npx jest` instead.")


def test_a_setup_step_that_needed_an_option_is_a_trap() -> None:
    failed = _bash("npm install", "npm ERR! ERESOLVE unable to resolve dependency tree", "failed")
    (trap,) = _traps(_turn("t1", failed, _bash("npm install --legacy-peer-deps", "added 8")))
    assert trap.content == (
        'Trap: `npm install` fails with "ERESOLVE unable to resolve dependency tree"; '
        "run `npm install --legacy-peer-deps` instead."
    )
    assert renderers.verify_typed_fact(trap.renderer, trap.statement, trap.parameters)
    typo = _bash("pip install reqests", "ERROR: No matching distribution", "failed")
    assert _traps(_turn("t1", typo, _bash("pip install requests", "ok"))) == []


def test_a_formatter_the_commit_hook_demanded_is_a_trap() -> None:
    hook = "ruff-format..........................Failed\n- files were modified by this hook"
    (trap,) = _traps(
        _turn(
            "t1",
            _bash('git commit -m "Fix totals"', hook, "failed"),
            _bash("uv run ruff format .", "1 file reformatted"),
            _bash('git commit -m "Fix totals"', "[main 5e1d2c4] Fix totals"),
        )
    )
    assert trap.content == (
        "Trap: `git commit` is refused by the repository's hook with "
        '"ruff-format...Failed" until `uv run ruff format .` has run.'
    )


def test_failures_nothing_fixed_or_code_fixed_are_not_traps() -> None:
    failing = _bash("cargo test", "assertion failed: left == right", "failed")
    assert _traps(_turn("t1", failing)) == []
    assert _traps(_turn("t1", failing, _edit(), _bash("cargo test", "ok"))) == []
    assert _traps(_turn("t1", failing, _bash("ls"), _bash("cargo test", "ok"))) == []
    lint = _bash("uv run ruff check .", "F401 `os` imported but unused", "failed")
    assert _traps(_turn("t1", lint, _bash("uv run ruff check --fix .", "1 fixed"))) == []


@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("shell", ["apply_patch", "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"]),
        ("exec_command", "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/app.py\n"),
        (
            "Bash",
            "python - <<'PY'\nfrom pathlib import Path\nPath('src/app.py').write_text('x')\nPY",
        ),
        ("Bash", "node -e \"require('fs').writeFileSync('src/app.js', 'x')\""),
    ],
)
def test_a_code_change_made_through_the_shell_makes_the_failure_a_bug(
    name: str, command: Any
) -> None:
    """Codex runs `apply_patch` through its shell tool, and agents rewrite files with inline
    code: the command that worked afterwards was fixed in the code, not by a set-up step."""
    changed = _bash(command, "Done!", name=name)
    runs = list(session_runs([_turn("t1", changed)]))
    if name in ("shell", "exec_command"):
        assert [(r.edit, r.paths) for r in runs] == [(True, ("src/app.py",))]
    else:
        assert written_files(runs[0]) == []
    failing = _bash("uv run pytest", "E   assert 3 == 4", "failed")
    install = _bash("uv sync", "Resolved 12 packages")
    worked = _bash("uv run pytest", "== 3 passed in 0.2s ==")
    assert _traps(_turn("t1", failing, install, worked)), "no change: `uv sync` fixed it"
    assert _traps(_turn("t1", failing, changed, install, worked)) == []


def test_a_variable_that_names_the_environment_fixes_a_missing_module_despite_edits() -> None:
    failing = _bash("pytest", "E   ModuleNotFoundError: No module named 'opk'", "failed")
    worked = _bash("PYTHONPATH=. pytest", "== 12 passed in 0.3s ==")
    (trap,) = _traps(_turn("t1", failing, _edit(), worked))
    assert trap.content == (
        "Trap: `pytest` fails with \"ModuleNotFoundError: No module named 'opk'\"; run "
        "`PYTHONPATH=. pytest` instead."
    )
    bug = _bash("pytest", "E   assert 3 == 4", "failed")
    assert _traps(_turn("t1", bug, _edit(), worked)) == []


def test_the_error_line_is_the_meaningful_one_sanitized() -> None:
    output = (
        'Exit code 1\nTraceback (most recent call last):\n  File "x.py", line 1\n'
        "\x1b[31mE   ModuleNotFoundError: No module named `app`\x1b[0m\n"
    )
    assert first_error_line(output) == "ModuleNotFoundError: No module named 'app'"
    assert first_error_line("all good\n") == ""
    long = sanitize_error("error: " + "x" * 300)
    assert long == "error…"  # never cut inside a word
    assert sanitize_error(long) == long


def test_a_secret_in_the_fix_drops_the_trap() -> None:
    failed = _bash("uv run pytest", "KeyError: 'API_TOKEN'", "failed")
    fixed = _bash("API_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 uv run pytest", "ok")
    assert _traps(_turn("t1", failed, fixed)) == []
    clean = _bash("APP_ENV=test uv run pytest", "ok")
    (trap,) = _traps(_turn("t1", failed, clean))
    assert "run `APP_ENV=test uv run pytest` instead" in trap.content


RULES = [
    (
        "Right. Always run the tests through `uv run`, not bare `pytest`.",
        "Always run the tests through `uv run`, not bare `pytest`.",
    ),
    ("Use ruff instead of flake8 please", "Use ruff instead of flake8."),
    ("Use uv instead of pip then.", "Use uv instead of pip."),
    ("From now on, run the linter before you commit.", "Run the linter before you commit."),
    ("Remember: migrations go through alembic.", "Migrations go through alembic."),
    ("remember to bump the version in pyproject.toml", "Bump the version in pyproject.toml."),
    ("We use pnpm in this repo, not npm.", "We use pnpm in this repo, not npm."),
    ("No — we use pnpm here, not npm.", "We use pnpm here, not npm."),
    ("never push directly to main", "Never push directly to main."),
    (
        "Do not edit the generated *.pb.go files by hand.",
        "Do not edit the generated *.pb.go files by hand.",
    ),
    (
        "Use the gradle wrapper, never a system-wide gradle.",
        "Use the gradle wrapper, never a system-wide gradle.",
    ),
    (
        "Before pushing, run the full suite with `make check`.",
        "Before pushing, run the full suite with `make check`.",
    ),
    (
        "Whenever you change the schema, regenerate the client.",
        "Whenever you change the schema, regenerate the client.",
    ),
    ("We squash-merge every pull request.", "We squash-merge every pull request."),
    # Issue 39: more instructions for every time, and what the project is built on.
    (
        "Make sure to run the tests after each change.",
        "Make sure to run the tests after each change.",
    ),
    ("Commit after each task, please.", "Commit after each task."),
    (
        "Do full debugging of the issues before you make any amendments.",
        "Do full debugging of the issues before you make any amendments.",
    ),
    ("This project uses pnpm workspaces.", "This project uses pnpm workspaces."),
    ("Stick to the standard library.", "Stick to the standard library."),
    ("Make sure you never push directly to main.", "Make sure you never push directly to main."),
    # Rule shapes as classes: a wish for every time, the agent addressed with a standing
    # condition, a short instruction after "from now on", a norm about the project's
    # engineering, a convention for the whole project, "no more …", "we're using X, not Y".
    ("I want you to always run the linter first.", "Always run the linter first."),
    ("I'd like you to never push to main.", "Never push to main."),
    ("You should run the tests before committing.", "You should run the tests before committing."),
    ("From now on, use yarn.", "Use yarn."),
    # the same time, said otherwise (a session of a public repository: "from this point on use
    # recommended option and do not ask me for choice")
    (
        "from this point on use the recommended option and do not ask me to choose",
        "Use the recommended option and do not ask me to choose.",
    ),
    ("From here on out, deploy with `fly deploy`.", "Deploy with `fly deploy`."),
    ("Henceforth, never push to main.", "Never push to main."),
    # a request that goes on to forbid the agent a way of working with the person (sessions of
    # public repositories)
    ("Commit all and do not add your signature", "Commit all and do not add your signature."),
    (
        "Guide me through the set-up one step at a time, and don't rush to the next step",
        "Guide me through the set-up one step at a time, and don't rush to the next step.",
    ),
    (
        "Guide me one step at a time and don't rush to the next step until I say so",
        "Guide me one step at a time and don't rush to the next step until I say so.",
    ),
    (
        "Commit the changes and don't add yourself as a co-author",
        "Commit the changes and don't add yourself as a co-author.",
    ),
    (
        "Implement the plan and don't ask for confirmation",
        "Implement the plan and don't ask for confirmation.",
    ),
    ("Just apply the fixes and don't ask me first", "Apply the fixes and don't ask me first."),
    ("Squash every PR from this point on.", "Squash every PR from this point on."),
    ("Commit messages should be in English.", "Commit messages should be in English."),
    ("Every PR needs a changelog entry.", "Every PR needs a changelog entry."),
    ("Please use pnpm for this project.", "Use pnpm for this project."),
    ("No more console.log in the code.", "No more console.log in the code."),
    ("We're using Postgres, not MySQL.", "We're using Postgres, not MySQL."),
    # A tool kept for a kind of work.
    ("Use Zod for validation.", "Use Zod for validation."),
    ("use react-query for data fetching", "Use react-query for data fetching."),
    ("Name files in kebab-case.", "Name files in kebab-case."),
    ("use named exports only", "Use named exports only."),
    # ... said to the agent with a modal: the convention as an imperative.
    ("You should use pnpm for dependency management.", "Use pnpm for dependency management."),
    ("you must use pnpm for this project", "Use pnpm for this project."),
    ("You should name files in kebab-case.", "Name files in kebab-case."),
    ("donts use hooks", "Don't use hooks."),  # typed in a hurry
    # Permission asked every time, and the condition typed without its comma.
    ("ask me before adding dependencies", "Ask me before adding dependencies."),
    ("Check with me before deleting files.", "Check with me before deleting files."),
    ("only commit when I ask", "Only commit when I ask."),
    ("before committing run the tests", "Before committing run the tests."),
    # A prohibition of the project's engineering: its files, paths, dependencies, commits.
    ("Don't touch src/legacy/ at all.", "Don't touch src/legacy/ at all."),
    (
        "Do not add dependencies without asking me.",
        "Do not add dependencies without asking me.",
    ),
    ("Don't ever use `any` in TypeScript.", "Don't ever use `any` in TypeScript."),
    ("Don't build everything in a single file.", "Don't build everything in a single file."),
    ("Don't use jQuery.", "Don't use jQuery."),
    ("Do not hardcode credentials.", "Do not hardcode credentials."),
    ("Don't use git rebase.", "Don't use git rebase."),
    ("Don't skip the hooks.", "Don't skip the hooks."),
    ("Don't bump the version.", "Don't bump the version."),
    ("Don't use --no-verify.", "Don't use --no-verify."),
    # what goes "in the code"
    (
        "Don't leave debug output in the source code.",
        "Don't leave debug output in the source code.",
    ),
    (
        "dont mention claude in any part of the code",
        "Don't mention claude in any part of the code.",
    ),
    # what one ought not to do, of the project's engineering
    ("We should not commit secrets to the repo.", "We should not commit secrets to the repo."),
    ("We shouldn't hardcode the API URL.", "We shouldn't hardcode the API URL."),
    (
        "I think we should not put my password into the user file we push to github",
        "I think we should not put my password into the user file we push to github.",
    ),
    # what the person will not have in the project's code
    ("I don't want comments in the code.", "I don't want comments in the code."),
    (
        "I DONT NEED COMMENTS IN MY CODE, STRICT WARNING",
        "I DONT NEED COMMENTS IN MY CODE, STRICT WARNING.",
    ),
    (
        "I don't want to see any comments in the code.",
        "I don't want to see any comments in the code.",
    ),
    # what the team ought not to be doing
    (
        "We shouldn't be using console.log in production code.",
        "We shouldn't be using console.log in production code.",
    ),
    ("We should not be committing the .env file.", "We should not be committing the .env file."),
    ("I don't want comments in the code base.", "I don't want comments in the code base."),
    (
        "We don't want default exports in this codebase.",
        "We don't want default exports in this codebase.",
    ),
]


@pytest.mark.parametrize(("said", "rule"), RULES)
def test_stated_rules_read_as_rules_and_keep_the_words(said: str, rule: str) -> None:
    (fact,) = rule_facts([_turn("t1", user=said)])
    assert fact.content == rule
    assert said.endswith(fact.statement) or fact.statement in said
    assert fact.claim_support == "unverified"


NOT_RULES = [
    "Don't worry about the docs for now.",
    "Why don't we always use tabs?",
    "Never mind, let's move on.",
    "Don't forget to add a test.",
    "Don't commit yet.",
    "Don't change the public API in this PR.",
    "```\nnever_call(x)  # always\n```",
    "CI failed:\nTraceback (most recent call last):\nValueError: never tag a dirty tree",
    "    always_retry = True",
    "I always forget the flags.",
    "never commit AKIAIOSFODNN7EXAMPLE to the repo",
    "Nope, we don't do that here.",
    "Just run it again, don't stop.",
    "Every time I run it, it fails.",
    "The app uses too much memory after every reload.",  # an account, not what it is built on
    "Before committing, show me the diff.",
    "Run the tests again.",
    "I want you to fix the login bug.",  # a wish of the task at hand
    "The test should pass now.",  # an expectation about one test
    "The button should be blue.",  # a product detail, not the project's engineering
    "Run the tests for this project.",  # a request with the project as its object
    "We are using the wrong version.",  # an account
    "No more than 12 functions can be added on the free plan.",  # a limit someone quoted
    # A prohibition about the product being built is the task at hand.
    "Don't show the banner on the login page.",
    "Do not skip onboarding, still show the onboarding step and then the results page.",
    "Don't show the code input field on mobile.",
    "Don't show error types to end users.",
    "Don't make the modal 3/4 width.",
    "Don't delete the user's account when they log out.",
    "We shouldn't show the banner on mobile.",
    "Don't show the reports tab to guest users.",
    "Don't show the logs panel on mobile.",
    "Don't allow spaces in the code field.",
    "Don't call the endpoint twice when the user clicks submit.",
    "You shouldn't have deleted the tests.",  # a complaint of what was done
    "We should not worry about the docs.",
    "I don't want a modal here.",  # the product
    "I don't want to point to AA50, I want to use round.",  # the task at hand
    "I don't need the others for now",
    # what the person expects, a bug report, the product, the task of the moment
    "We shouldn't be getting a 404 from the API.",
    "You shouldn't run into the merge conflict again.",
    "We shouldn't lose any commits with this approach.",
    "You shouldn't be able to upload files larger than 10MB.",
    "I don't need the tests anymore, delete them.",
    "I don't need you to write tests, just fix the bug.",
    "I don't want the version number in the footer.",
    "I don't want the tests to take this long.",
    "Don't show the dashes in the promo code.",
    "Don't count spaces in the zip code.",
    "We don't have it installed on this little computer.",  # what the team lacks
    "We don't know why it fails.",
    "I don't want to spend hours digging in the code.",
    "We shouldn't be running into rate limits with the new cache.",
    "I do not want to waste time on this in the code review",
    "i dont want the fading glow over 60 seconds i just want the green to be brighter",  # `just`
    # A modal before a step of the task is still the task.
    "You should use curl to test the endpoint.",
    "You should use the second option.",
    "You must use pnpm here.",
    "You should use git log to see what changed.",  # to look at something once
]


@pytest.mark.parametrize("said", NOT_RULES)
def test_ordinary_requests_code_and_logs_are_not_rules(said: str) -> None:
    assert rule_facts([_turn("t1", user=said)]) == []


def test_rules_in_a_markdown_list() -> None:
    text = "Rules here:\n- Always run `make fmt` before committing\n- **Never** commit secrets"
    facts = rule_facts([_turn("t1", user=text)])
    assert [f.content for f in facts] == [
        "Always run `make fmt` before committing.",
        "Never commit secrets.",
    ]
    assert facts[1].statement == "**Never** commit secrets"


def test_a_correction_after_an_agent_action_names_what_it_corrects() -> None:
    records = [
        _turn("t1", _bash("npm test", 'npm ERR! Missing script: "test"', "failed"), user="test it"),
        _turn("t2", user="no, run pnpm test instead"),
    ]
    (fact,) = rule_facts(records)
    assert fact.content == "Run pnpm test instead of `npm test`."
    assert fact.statement == "no, run pnpm test instead"
    assert rule_facts([_turn("t2", user="no, run pnpm test instead")]) == []
    (plain,) = rule_facts([records[0], _turn("t2", user="Please use pnpm instead.")])
    assert plain.content == "Use pnpm instead of `npm test`."


MUTATIONS = [
    "`uv run pytest` runs the tests (worked in 2 sessions)!",
    "`uv run pytest` runs the tests (worked in 3 sessions).",
    "`uv run pytest` lints the code (worked in 2 sessions).",
    "`uv run pytest` runs the tests (worked in 2 sessions). Also deploy.",
]


@pytest.mark.parametrize("text", MUTATIONS)
def test_no_other_text_can_claim_typed_fact(text: str) -> None:
    parameters = (("command", "uv run pytest"), ("kind", "test"), ("sessions", "2"))
    assert renderers.verify_typed_fact("command-exit@1", text, parameters) is False


def test_typed_fact_parameters_must_fit_the_renderer() -> None:
    text = renderers.render_command_exit("echo hi", "test", 1)  # not a test command at all
    assert not renderers.verify_typed_fact(
        "command-exit@1", text, (("command", "echo hi"), ("kind", "test"), ("sessions", "1"))
    )
    narrowed = renderers.render_command_exit("pytest tests/test_x.py", "test", 1)
    assert not renderers.verify_typed_fact(
        "command-exit@1",
        narrowed,
        (("command", "pytest tests/test_x.py"), ("kind", "test"), ("sessions", "1")),
    )
    assert not renderers.verify_typed_fact("model-says@1", text, ())
    fix = renderers.render_command_fix("variant", "ls", "", "uv run pytest")
    values = (("mode", "variant"), ("failing", "ls"), ("error", ""), ("fix", "uv run pytest"))
    assert not renderers.verify_typed_fact("command-fix@1", fix, values)
    dirty = renderers.render_command_fix("variant", "pytest", "a `b`", "uv run pytest")
    values = (
        ("mode", "variant"),
        ("failing", "pytest"),
        ("error", "a `b`"),
        ("fix", "uv run pytest"),
    )
    assert not renderers.verify_typed_fact("command-fix@1", dirty, values)


def test_a_real_claude_session_in_a_subdirectory(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root / "web")
    (repo.root / "web").mkdir()
    calls = [
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pnpm test"}},
        {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "pnpm install"}},
        {"type": "tool_use", "id": "t3", "name": "Bash", "input": {"command": "pnpm test"}},
    ]
    outputs = [("sh: 1: vitest: not found", True), ("Done in 8.2s", False), ("96 passed", False)]
    records = [claude_user("Run the tests. Always use pnpm, never npm.", cwd)]
    for number, (call, (output, failed)) in enumerate(zip(calls, outputs, strict=True)):
        records += [claude_assistant([call], cwd, f"m{number}")]
        records += [tool_result(call["id"], output, cwd, is_error=failed)]
    path = claude_path(hermetic_env["claude"], "11111111-2222-4333-8444-555555555555")
    write_jsonl(path, records, time.time() - 3 * 3600)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    turns = select_turns(discover_worktree(repo.root))
    runs = list(session_runs(turns))
    (trap,) = trap_facts(runs)
    assert trap.content == (
        'Trap: `pnpm test` fails with "sh: 1: vitest: not found" unless `pnpm install` runs first.'
    )
    rules = [f.content for f in rule_facts(turns)]
    assert rules == ["Always use pnpm, never npm."]
    assert shell.worked_segments("pnpm install && pnpm test")[0].normal == "pnpm test"


@pytest.mark.parametrize(
    "fix",
    [
        "pip3 install -r requirements.txt --break-system-packages",
        "git commit --no-verify -m wip",
        "git commit -n -m wip",
        "sudo chown -R me .",
        "chmod 777 scripts/run.sh",
        "chmod -R a+rwx .",
        "pytest --deselect tests/test_api.py::test_upload",
        "pytest -k 'not slow'",
        "SKIP=mypy git commit -m wip",
        "rm -rf tests/integration",
        "rm -rf src",
        "git push --force origin main",
        "git push -f",
        "npx eslint --no-eslintrc src",
        "cargo clippy -- -A clippy::all",
        "pip install --trusted-host pypi.example.com -r requirements.txt",
    ],
)
def test_a_fix_that_weakens_a_safeguard_is_never_proposed(fix: str) -> None:
    assert weakens_safety(fix)
    text = renderers.render_command_fix("prerequisite", "pytest", "", fix)
    values = (("mode", "prerequisite"), ("failing", "pytest"), ("error", ""), ("fix", fix))
    assert not renderers.verify_typed_fact("command-fix@1", text, values)


@pytest.mark.parametrize(
    "fix",
    [
        "rm -rf node_modules && pnpm install",
        "rm -rf ./target",
        "rm -rf .venv __pycache__",
        "chmod +x scripts/run.sh",
        "npm install --legacy-peer-deps",
        "uv run pytest",
        "git push -u origin feature",
    ],
)
def test_ordinary_fixes_are_not_taken_for_weakened_safeguards(fix: str) -> None:
    assert not weakens_safety(fix)


def test_a_trap_fixed_only_by_breaking_system_packages_is_dropped() -> None:
    failed = _bash(
        "pip3 install -r requirements.txt", "error: externally-managed-environment", "failed"
    )
    forced = _bash(
        "pip3 install -r requirements.txt --break-system-packages", "Successfully installed"
    )
    assert _traps(_turn("t1", failed, forced)) == []
    venv = _bash("uv pip install -r requirements.txt", "Installed 3 packages")
    assert _traps(_turn("t1", failed, forced, venv)) == []


def test_the_failure_quoted_is_not_the_sandboxs_network_noise() -> None:
    output = (
        "warning: spurious network error (2 tries remaining): Could not resolve host: "
        "index.crates.io\nerror: failed to download from `https://index.crates.io/config.json`\n"
        "error: rustc 1.93 is not supported by the following package:\n"
    )
    assert first_error_line(output) == (
        "error: rustc 1.93 is not supported by the following package:"
    )
    offline = "error: failed to download from `https://index.crates.io/config.json`\n"
    assert first_error_line(offline).startswith("error: failed to download")


def test_an_error_line_is_cut_at_a_word() -> None:
    line = "error: " + " ".join(f"word{n}" for n in range(40))
    cut = sanitize_error(line)
    assert cut.endswith("…")
    assert len(cut) <= 120
    assert line.startswith(cut.removesuffix("…") + " ")
    assert sanitize_error(cut) == cut
    path = "error: cannot open " + "/very/long/path" * 12
    shown = sanitize_error(path)
    assert path.startswith(shown.removesuffix("…").rstrip("/"))
    assert shown.removesuffix("…").endswith("/")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Implement the following plan:\n\n1. Always run `make check`.", "document"),
        ("A previous agent produced the plan below.\n- Never edit gen/ by hand.", "document"),
        ("Fix this:\n```\nnever_call()\n```", "document"),
        ("## Audit report\nAlways pin versions.", "document"),
        # A section quoted after the sentence that introduces it, its heading on that line.
        (
            "j'ai un doute sur le chapitre suivant de la constitution : ## Gouvernance\n"
            "- Tout écart MUST être justifié dans le plan.",
            "document",
        ),
        ("关于下面这一节：## 部署\n- 每次发布前必须跑完整测试。", "document"),
        ("Fix issue: # 12 is still open, always rebase first.", "person"),
        ("this section: ## 2. Deployment\n- Never deploy on Fridays.", "document"),
        ("Never use eval. Reason: # of CVEs we had from it last year.", "person"),
        ("永远不要提交 .env 文件。原因：# 密钥会泄露", "person"),
        ("Don't use eval. Like this:\n\ndef load(x):\n    # never eval here", "person"),
        ("Always pin versions. " * 80, "document"),
        ("<uploaded_files>\n/repo\n</uploaded_files>\nAlways run the tests.", "document"),
        ("Always pin versions in requirements.txt.", "person"),
    ],
)
def test_pasted_documents_are_not_what_a_person_typed(said: str, expected: str) -> None:
    assert typed_origin(said) == expected
    assert typed_origin(said, program=True) == "program"
    if expected == "document":
        assert rule_facts([_turn("t1", user=said)]) == []


def test_a_wrapped_sentence_is_read_whole() -> None:
    said = "Like there should always be a commit\nafter each step so I can go back."
    assert rule_facts([_turn("t1", user=said)]) == []
    wrapped = "Never edit the generated client by hand;\nregenerate it with `make client`."
    (fact,) = rule_facts([_turn("t1", user=wrapped)])
    assert fact.content == (
        "Never edit the generated client by hand; regenerate it with `make client`."
    )


def test_a_sentence_that_introduces_what_follows_is_no_rule_by_itself() -> None:
    said = "Every task must be:\n   - atomic\n   - verifiable\nNever push to main."
    assert [f.content for f in rule_facts([_turn("t1", user=said)])] == ["Never push to main."]
    bug = "Siempre cuando ingreso a neovim obtengo 3 mensajes iguales diciendo:\nError in init"
    assert rule_facts([_turn("t1", user=bug)]) == []


def test_a_line_that_stops_at_its_verb_to_be_goes_on_in_the_next() -> None:
    said = "From now on, the priority of price updates is\nEvent > weekend > Season"
    (fact,) = rule_facts([_turn("t1", user=said)])
    assert fact.content == "The priority of price updates is Event > weekend > Season."
    apart = "Never push to main.\nThe build is green"
    assert [f.content for f in rule_facts([_turn("t1", user=apart)])] == ["Never push to main."]


def test_a_backslash_that_ends_a_typed_line_is_no_part_of_its_words() -> None:
    # the agent's prompt takes a line's last backslash as "go on on the next line"
    said = "Answering your questions:\\\n1. No, we dont use mermaid.js anymore\\\n2. Yes\\\n"
    (fact,) = rule_facts([_turn("t1", user=said)])
    assert fact.content == "We dont use mermaid.js anymore."
    # a path's own backslash, escaped, stays; so does one standing apart as a word
    (path,) = rule_facts([_turn("t1", user="Never write to C:\\build\\\\")])
    assert path.content.endswith("\\\\.")
    (word,) = rule_facts([_turn("t1", user="Never end a line with a trailing \\")])
    assert word.content == "Never end a line with a trailing \\."
    # a drive's root is no line break
    (drive,) = rule_facts([_turn("t1", user="Always install the SDK to D:\\")])
    assert drive.content == "Always install the SDK to D:\\."
    # a line break typed after a space, before a line of its own
    said = "Always use pnpm \\\nNever commit .env files"
    assert [f.content for f in rule_facts([_turn("t1", user=said)])] == [
        "Always use pnpm.",
        "Never commit .env files.",
    ]


def test_a_line_broken_with_a_backslash_is_quoted_as_the_person_typed_it() -> None:
    # the host finds the rule's words in the message, line break and all
    for said, content in [
        (
            "Always use pnpm in this repo\\\nnever npm or yarn",
            "Always use pnpm in this repo never npm or yarn.",
        ),
        (
            "Always use pnpm in this repo\\\r\nnever npm or yarn",
            "Always use pnpm in this repo never npm or yarn.",
        ),
        # a backslash standing apart goes on in the next line, as a shell's does
        (
            "Always run: docker compose up \\\n  -d --build",
            "Always run: docker compose up -d --build.",
        ),
    ]:
        turn = _turn("t1", user=said)
        (fact,) = rule_facts([turn])
        assert fact.content == content
        assert origin_of(turn, "user", fact.quotes[0].text, False, str) == "person"


def test_from_here_on_opens_no_rule_before_what_describes_a_thing() -> None:
    for said in [
        "From here on the code path is different for admins.",
        "From this point on the test hangs forever.",
        "Henceforth the server returns 500 for every request.",
        "From here on update events are dropped by the handler.",
        "From this point on, memory usage climbs to 2GB.",
        "From here on, my tests all fail.",
        "From here on, deploy fails with a 403.",
    ]:
        assert rule_facts([_turn("t1", user=said)]) == [], said
    for said, rule in [
        (
            "From this point on, I'd like you to use conventional commits.",
            "I'd like you to use conventional commits.",
        ),
        ("From this point on create a branch for each task.", "Create a branch for each task."),
    ]:
        assert [f.content for f in rule_facts([_turn("t1", user=said)])] == [rule], said


def test_remember_note_and_fyi_mark_what_to_keep() -> None:
    said = [
        (
            "Note that releases are cut from the release branch.",
            "Releases are cut from the release branch.",
        ),
        ("FYI the staging database is shared with QA.", "The staging database is shared with QA."),
        ("Remember to bump the changelog", "Bump the changelog."),
        (
            "Schema changes must go through an alembic migration.",
            "Schema changes must go through an alembic migration.",
        ),
    ]
    for text, content in said:
        (fact,) = rule_facts([_turn("t1", user=text)])
        assert fact.content == content
    assert group_of("work_fact", "The staging database is shared with QA.") == "facts"
    assert group_of("work_fact", "Schema changes must go through an alembic migration.") == "rules"


def test_a_note_of_the_moment_after_fyi_or_in_this_project_is_no_rule() -> None:
    accounts = [
        "In this project, I want to add a login page.",
        "In this repo there is a bug in the login page.",
        "FYI the build is failing on main.",
        "Heads up, I pushed a fix to the branch.",
        "For the record, I already tried restarting.",
        "In this project we need a dashboard that shows sales.",
        "Note that the tests are currently red.",
    ]
    for text in accounts:
        assert rule_facts([_turn("t1", user=text)]) == [], text
    standing = {
        "In this project, we use pnpm for everything.": "We use pnpm for everything.",
        "Heads up: the CI runs on Node 18, not 20.": "The CI runs on Node 18, not 20.",
        "Remember: I review every migration myself.": "I review every migration myself.",
    }
    for text, content in standing.items():
        (fact,) = rule_facts([_turn("t1", user=text)])
        assert fact.content == content


def test_stop_doing_something_and_there_should_be_no_x_are_rules() -> None:
    said = {
        "stop trying to run powershell stuff": "Stop trying to run powershell stuff.",
        "Please stop creating new markdown files for every change.": (
            "Stop creating new markdown files for every change."
        ),
        "There shouldn't be any pane labels.": "There shouldn't be any pane labels.",
        "stop using npm in this repo": "Stop using npm in this repo.",
        "use pnpm not npm": "Use pnpm not npm.",
    }
    for text, content in said.items():
        (fact,) = rule_facts([_turn("t1", user=text)])
        assert fact.content == content
    for text in (
        "Stop being lazy.",
        "Stop, wait for me.",
        "There should be a button here.",
        "stop using it",
        "use the new api not the old one",
        "use light mode not dark",  # no tool on either side
        "stop using the debugger and just fix the bug",
        "stop using port 3000 it's taken",
        "check the logs before removing the container",  # one step of the task
        "run the build before bumping the version",
        "only happens when I ask it to refresh",  # an account
        "i tried pnpm install. always fails with the same error",  # an account
        "we tried npm first. never worked on windows",
        "use curl to test the endpoint",  # a tool for one step of the task
        "rename this variable to camelCase",
        "use the second one only",
        "use chrome mcp to access http://localhost:5174/",
    ):
        assert rule_facts([_turn("t1", user=text)]) == [], text


def test_a_rule_never_comes_from_a_program_driven_session() -> None:
    said = _turn("t1", user="Always use pnpm, never npm.")
    assert rule_facts([said], program=True) == []
    assert [f.content for f in rule_facts([said])] == ["Always use pnpm, never npm."]


def test_a_forbidden_command_is_not_proposed_as_working() -> None:
    records = [
        _turn("t1", user="Use `cargo nextest run` instead of `cargo test` from now on."),
        _turn("t2", _bash("cargo test", "test result: ok. 3 passed"), _bash("npm test", "ok")),
        _turn("t3", _bash("cargo nextest run", "3 passed"), user="Always pnpm, never npm."),
    ]
    planned = plan_window([("s", records)], {"t1": "a", "t2": "a", "t3": "a"}, known=set()).placed
    contents = [fact.content for fact in planned["a"]]
    assert "`cargo nextest run` runs the tests (worked in 1 session)." in contents
    assert not any(c.startswith(("`cargo test`", "`npm test`")) for c in contents)


def test_a_trap_whose_fix_a_rule_forbids_is_not_proposed() -> None:
    failed = _bash("pnpm test", "sh: 1: vitest: not found", "failed")
    records = [
        _turn("t1", failed, _bash("npm install", "added 3 packages"), _bash("pnpm test", "ok")),
        _turn("t2", user="Always use pnpm, never npm."),
    ]
    assert len(_traps(*records)) == 1, "the trap exists on its own"
    planned = plan_window([("s", records)], {"t1": "a", "t2": "a"}, known=set()).placed
    assert not any(f.content.startswith("Trap: ") for f in planned["a"])
