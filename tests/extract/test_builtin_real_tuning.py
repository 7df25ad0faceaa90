"""The builtin extractor on what the labelled real sessions showed (issue 26): each class of
mistake found there, tested on an excerpt of the real transcript it came from (the files under
`tests/fixtures/real-sessions/`, provenance in its PROVENANCE.md), fixed in general.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from git_memory.extract.builtin import renderers
from git_memory.extract.builtin.rule_keys import rule_key
from git_memory.extract.builtin.window import plan_window
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from tests.extract.test_builtin_facts import _bash, _turn

# codex/0h-n0__local-voice-assistant-codex__rollout-2025-12-25T22-45-23-…jsonl, lines 525-534:
# the Spec Kit `/speckit.plan` template the program pasted as the prompt, and the script run.
SPEC_KIT_PLAN = (
    "\n## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input before "
    "proceeding (if not empty).\n\n## Outline\n\n1. **Setup**: Run "
    "`.specify/scripts/bash/setup-plan.sh --json` from repo root and parse JSON for "
    "FEATURE_SPEC, IMPL_PLAN, SPECS_DIR, BRANCH.\n"
)
SETUP_PLAN_OUTPUT = (
    "Copied plan template to specs/001-project-scaffold/plan.md\n"
    '{"FEATURE_SPEC":"specs/001-project-scaffold/spec.md"}'
)


def _contents(records: list[TurnRecord]) -> list[str]:
    tasks = {r.turn_key: "task" for r in records}
    planned = plan_window([("s", records)], tasks, known=set()).placed
    return [f.content for facts in planned.values() for f in facts]


def test_a_script_a_slash_command_template_told_the_agent_to_run_is_not_proposed() -> None:
    run = _bash(".specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    assert _contents([_turn("t1", run, user=SPEC_KIT_PLAN)]) == []


def test_a_template_script_run_from_a_folder_above_is_still_the_templates() -> None:
    run = _bash("./ship/.specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    assert _contents([_turn("t1", run, user=SPEC_KIT_PLAN)]) == []
    for own in ("./ship/scripts/setup-plan.sh", "./tools/scripts/bash/setup-plan.sh"):
        found = _contents(
            [_turn("t1", _bash(f"{own} --json", SETUP_PLAN_OUTPUT), user=SPEC_KIT_PLAN)]
        )
        assert [c for c in found if "setup-plan.sh" in c], (
            f"{own}: a script the template does not name"
        )


@pytest.mark.parametrize(
    "named",
    [
        "from repo root run .specify/scripts/bash/setup-plan.sh.",  # a full stop after it
        "run `$REPO_ROOT/.specify/scripts/bash/setup-plan.sh --json`",  # the root as a variable
        "run `{REPO_ROOT}/.specify/scripts/bash/setup-plan.sh --json`",
    ],
)
def test_a_template_names_its_script_after_the_roots_variable_or_before_a_full_stop(
    named: str,
) -> None:
    prompt = f"## Outline\n\n1. Setup: {named} Parse its JSON.\n"
    run = _bash(".specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    assert _contents([_turn("t1", run, user=prompt)]) == []


def test_a_variable_folder_inside_a_templates_path_does_not_name_the_projects_script() -> None:
    prompt = "# /seed\n\nRun `apps/$APP/scripts/seed.sh` from repo root, then report.\n"
    found = _contents([_turn("t1", _bash("./scripts/seed.sh", "seeded 3 rows"), user=prompt)])
    assert [c for c in found if "scripts/seed.sh" in c], found


def test_a_template_naming_a_longer_folder_does_not_name_the_projects_script() -> None:
    prompt = (
        "# /seed-mobile\n\nRun `apps/mobile-web/scripts/seed.sh` from repo root, then report.\n"
    )
    found = _contents(
        [_turn("t1", _bash("./apps/web/scripts/seed.sh", "seeded 3 rows"), user=prompt)]
    )
    assert [c for c in found if "apps/web/scripts/seed.sh" in c], found


def test_a_template_script_run_again_when_the_person_asks_for_the_work_again_is_not_proposed() -> (
    None
):
    run = _bash(".specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    again = _bash(".specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    turns = [_turn("t1", run, user=SPEC_KIT_PLAN), _turn("t2", again, user="do the plan again")]
    assert _contents(turns) == []


def test_a_pasted_log_naming_the_script_hides_it_in_no_other_turn() -> None:
    ok = "All 42 tests passed"
    t1 = _turn("t1", _bash("./scripts/test.sh", ok), user="run the tests please")
    pasted = "CI is red on main, here is the log:\n```\n$ ./scripts/test.sh\nFAIL a\n```\nwhy?"
    t2 = _turn("t2", _bash("git log -1 --oneline", "abc123 fix"), user=pasted)
    assert _contents([t1, t2]) == ["`./scripts/test.sh` runs the tests (worked in 1 session)."]


def test_the_same_script_run_on_a_persons_request_is_the_projects() -> None:
    run = _bash(".specify/scripts/bash/setup-plan.sh --json", SETUP_PLAN_OUTPUT)
    found = _contents([_turn("t1", run, user="set up the plan folder")])
    assert [c for c in found if "setup-plan.sh" in c], found


# The same file: `uv run ruff check .` failed twice the same way; once `uv sync` ran before
# the working `uv run --with ruff ruff check .`, once it did not.
RUFF_SPAWN = "error: Failed to spawn: `ruff`\n  Caused by: No such file or directory (os error 2)\n"


def test_one_trap_per_failing_command_and_error_the_fix_that_worked_first() -> None:
    failing = "uv run ruff check ."
    first = [
        _turn("t1", _bash(failing, RUFF_SPAWN, "failed")),
        _turn("t2", _bash("uv sync", "Resolved 30 packages")),
        _turn("t3", _bash("uv run --with ruff ruff check .", "All checks passed!")),
    ]
    second = [
        _turn("u1", _bash(failing, RUFF_SPAWN, "failed"), session="u"),
        _turn("u2", _bash("uv run --with ruff ruff check .", "All checks passed!"), session="u"),
    ]
    tasks = {r.turn_key: "task" for r in first + second}
    planned = plan_window([("s", first), ("u", second)], tasks, known=set()).placed
    traps = [f.content for f in planned["task"] if f.content.startswith("Trap:")]
    assert traps == [
        'Trap: `uv run ruff check .` fails with "Caused by: No such file or directory (os '
        'error 2)"; run `uv sync && uv run --with ruff ruff check .` instead.'
    ]


# codex/Monotoba__OpenPrintKit__rollout-2025-10-31T18-36-16-…jsonl: plain `pytest -q` could
# not import the package; every run that passed was `PYTHONPATH=. pytest -q`.
OPK_COLLECT_ERROR = (
    "ImportError while importing test module 'tests/test_gcode_firmware.py'.\n"
    "E   ModuleNotFoundError: No module named 'opk'\n"
)


def test_the_assignment_that_made_a_command_work_stays_in_the_proposed_command() -> None:
    records = [
        _turn("t1", _bash("pytest -q", OPK_COLLECT_ERROR, "failed")),
        _turn("t2", _bash("PYTHONPATH=. pytest -q", "....\n36 passed in 0.48s\n")),
        _turn("t3", _bash("PYTHONPATH=. NO_COLOR=1 pytest -q", "....\n36 passed in 0.43s\n")),
    ]
    tasks = {r.turn_key: "task" for r in records}
    facts = plan_window([("s", records)], tasks, known=set()).placed["task"]
    exit_facts = [f for f in facts if f.renderer == renderers.RENDERER_COMMAND_EXIT]
    assert [f.content for f in exit_facts] == [
        "`PYTHONPATH=. pytest` runs the tests (worked in 1 session)."
    ]
    fact = exit_facts[0]
    assert renderers.verify_typed_fact(fact.renderer, fact.statement, fact.parameters)
    assert fact.key == "command:pytest", "matching still uses the command without it"


def test_an_assignment_of_this_machine_or_a_secret_is_left_out() -> None:
    records = [
        _turn("t1", _bash("HOME=/home/randy API_TOKEN=abc pytest -q", "36 passed in 0.4s")),
    ]
    tasks = {r.turn_key: "task" for r in records}
    facts = plan_window([("s", records)], tasks, known=set()).placed["task"]
    assert [f.content for f in facts] == ["`pytest` runs the tests (worked in 1 session)."]


# claude-code/daphatpharm4__rosesein__1c5d0a41-….excerpt-L340-519.jsonl: three checks in one
# line, each through a pipe; the build's and the tests' own summary lines are printed.
ROSESEIN_LINE = (
    'npx tsc --noEmit 2>&1 | head -5 && echo "---" && npx vite build 2>&1 | tail -3 && '
    'echo "---" && npm test 2>&1 | grep -E "^# (pass|fail)"'
)
ROSESEIN_OUTPUT = (
    "---\ndist/assets/index-BRUhVth6.js               281.51 kB │ gzip:  87.01 kB\n"
    "dist/assets/BarChart-Bb4VfaWg.js            377.43 kB │ gzip: 104.13 kB\n"
    "✓ built in 5.70s\n---\n# pass 101\n# fail 0"
)


def test_piped_runs_whose_own_summary_lines_show_they_passed_worked() -> None:
    found = _contents([_turn("t1", _bash(ROSESEIN_LINE, ROSESEIN_OUTPUT))])
    assert sorted(found) == [
        "`npm test` runs the tests (worked in 1 session).",
        "`npx vite build` builds the project (worked in 1 session).",
    ], "the type check printed nothing through `| head`: its status is not known"


@pytest.mark.parametrize(
    "output",
    [
        "✓ built in 5.70s\n---\n# pass 99\n# fail 2",  # tests failed
        "---\n# pass 0\n# fail 0",  # no test ran; no build line
    ],
)
def test_a_summary_that_is_not_a_pass_proves_nothing(output: str) -> None:
    found = _contents([_turn("t1", _bash(ROSESEIN_LINE, output))])
    assert not [c for c in found if c.startswith("`npm test`")]


# gemini-cli/agunginsani__expenses-tracker__session-2026-04-12T01-18-01b2c62e.json: the person
# stated the store, weighed another with the agent, and switched.
def _expenses(switch: str) -> list[TurnRecord]:
    return [
        _turn(
            "t1",
            user="I want to create expenses tracker. I can submit the data using WA or "
            "Telegram. Data can be image or text. We use Apple Numbers for the DB.",
        ),
        _turn("t2", user="Would Google Spreadsheet be better option?"),
        replace(
            _turn("t3"),
            assistant_text='The short answer: Yes, Google Sheets is technically "better"'
            " because it has a full-featured API; Apple Numbers does not have a Cloud API.",
        ),
        _turn("t4", user=switch),
    ]


def test_a_stated_fact_the_person_later_replaced_is_not_proposed() -> None:
    assert _contents(_expenses("OK switch to Google Sheets. Is there any additional price?")) == []


def test_a_change_on_another_subject_leaves_the_statement() -> None:
    found = _contents(_expenses("OK, now move to Telegram webhooks setup."))
    assert found == ["We use Apple Numbers for the DB."]


# codex/0h-n0__local-voice-assistant-codex__rollout-2025-12-25T22-45-23-…jsonl: the person's
# first message (copied from a terminal box, its frame `│` included), then the requests they
# typed later in the same session.
JAPANESE_RULES = (
    "パッケージ管理はuvを利用し、pydanticで方をチェックしてください。またruffでりんターを有効に"
    "してください。機能作成前はブランチを切り、作成後はREWADMEを更新し、pull                 │\n"
    "│   requestを作成してreviewをしてください。"
    "フロントエンドはreact/nextのtypescriptでバックエンドはfastapiを利用して作成してください。"
)
JAPANESE_REQUESTS = [
    "git@github.com:0h-n0/local-voice-assistant-codex.gitをを登録してください。"
    "そしてmainブランチを切りinitial-comitをしてください。",
    "pushしてください。",
    "上記を修正してください。",
    "テストを実行してください。",
    "差分をまとめてコミットしpr を作成してください。",
    "未追跡の.codex/ や frontend/, specs/001-project-scaffold/もブランチをきって、"
    "PRを作成してください。",
    "別のブランチでお願いします。",
]


def test_rules_a_person_typed_in_japanese_are_proposed_whole() -> None:
    assert _contents([_turn("t1", user=JAPANESE_RULES)]) == [
        "パッケージ管理はuvを利用し、pydanticで方をチェックしてください。",
        "またruffでりんターを有効にしてください。",
        "機能作成前はブランチを切り、作成後はREWADMEを更新し、"
        "pull requestを作成してreviewをしてください。",
        "フロントエンドはreact/nextのtypescriptでバックエンドはfastapiを利用して作成してください。",
    ]


# Not from a transcript: accounts of what happened read like a topic and a tool.
JAPANESE_ACCOUNTS = [
    "私はReactを使用したことがない。",  # "I have never used React"
    "昨日はpnpmを使用しました。",  # "yesterday I used pnpm"
]


@pytest.mark.parametrize("request_text", JAPANESE_REQUESTS + JAPANESE_ACCOUNTS)
def test_a_japanese_request_about_the_task_at_hand_is_no_rule(request_text: str) -> None:
    assert _contents([_turn("t1", user=request_text)]) == []


def test_japanese_rules_have_keys_of_their_own() -> None:
    keys = {rule_key(rule) for rule in _contents([_turn("t1", user=JAPANESE_RULES)])}
    assert len(keys) == 4


# codex/Kooksun__Lotto645__rollout-2025-11-06T16-45-42-…jsonl: ESLint 9 found no flat config;
# the session wrote `frontend/eslint.config.js` (twice more after a plugin error) and the same
# `npm run lint` then passed.
ESLINT_NO_CONFIG = (
    '\n> lotto645-frontend@0.1.0 lint\n> eslint "src/**/*.{ts,tsx}"\n\n\nOops! Something went '
    "wrong! :(\n\nESLint: 9.39.1\n\nESLint couldn't find an eslint.config.(js|mjs|cjs) file.\n\n"
    "From ESLint v9.0.0, the default configuration file is now eslint.config.js.\n"
)
ESLINT_PASSED = '\n> lotto645-frontend@0.1.0 lint\n> eslint "src/**/*.{ts,tsx}"\n\n'


def _write(path: str) -> ToolCall:
    return ToolCall(call_id="w", name="Write", input={"file_path": path}, state="completed")


def test_a_failure_fixed_by_writing_the_file_its_error_names_is_a_trap() -> None:
    records = [
        _turn("t1", _bash("npm run lint", ESLINT_NO_CONFIG, "failed")),
        _turn("t2", _write("frontend/eslint.config.js")),
        _turn(
            "t3", _bash("npm run lint", "Error [ERR_MODULE_NOT_FOUND]: typescript-eslint", "failed")
        ),
        _turn("t4", _write("frontend/eslint.config.js"), _bash("npm run lint", ESLINT_PASSED)),
    ]
    traps = [c for c in _contents(records) if c.startswith("Trap:")]
    assert traps == [
        "Trap: `npm run lint` fails with \"ESLint couldn't find an eslint.config.(js|mjs|cjs) "
        'file." until the file `frontend/eslint.config.js` is written.'
    ]
    tasks = {r.turn_key: "task" for r in records}
    fact = next(
        f
        for f in plan_window([("s", records)], tasks, known=set()).placed["task"]
        if f.content.startswith("Trap:")
    )
    assert renderers.verify_typed_fact(fact.renderer, fact.statement, fact.parameters)


def test_a_failure_fixed_by_editing_other_files_too_is_a_bug_fix_not_a_trap() -> None:
    records = [
        _turn("t1", _bash("npm run lint", ESLINT_NO_CONFIG, "failed")),
        _turn("t2", _write("frontend/eslint.config.js"), _write("frontend/src/App.tsx")),
        _turn("t3", _bash("npm run lint", ESLINT_PASSED)),
    ]
    assert [c for c in _contents(records) if c.startswith("Trap:")] == []


# gemini-cli/AnthonyontheHub__TP-Tutor__session-2026-04-25T12-47-cdc6c5f9.jsonl: the hosting
# CLI was not installed; the local copy was tried, then installed as a dev dependency.
def _gemini(command: str, output: str, state: str = "completed") -> ToolCall:
    return ToolCall(
        call_id="g",
        name="run_shell_command",
        input={"command": command},
        output=output,
        state=state,
    )


def test_a_hosting_cli_installed_as_a_dev_dependency_gives_its_trap_and_its_deploy() -> None:
    local = "./node_modules/.bin/firebase deploy"
    records = [
        _turn(
            "t1",
            _gemini(
                "firebase deploy",
                "Output: /usr/bin/bash: line 2: firebase: command not found\nExit Code: 127\n"
                "Process Group PGID: 17233",
                "failed",
            ),
        ),
        _turn(
            "t2",
            _gemini(
                local,
                "Output: /usr/bin/bash: line 2: ./node_modules/.bin/firebase: No such file or "
                "directory\nExit Code: 127\nProcess Group PGID: 17238",
                "failed",
            ),
        ),
        _turn(
            "t3",
            _gemini(
                "npm install --save-dev firebase-tools",
                "added 620 packages\n\nRun `npm audit` for details.\nProcess Group PGID: 17242",
            ),
        ),
        _turn(
            "t4",
            _gemini(
                local,
                "✔  hosting[tp-tutor]: release complete\n\n✔  Deploy complete!\n"
                "Process Group PGID: 17291",
            ),
        ),
    ]
    assert sorted(_contents(records)) == sorted(
        [
            'Trap: `firebase deploy` fails with "/usr/bin/bash: line 2: firebase: command not '
            'found"; run `npm install --save-dev firebase-tools && ./node_modules/.bin/firebase '
            "deploy` instead.",
            # The local copy failing before the install is the same memory, met on the way to
            # the first trap's fix (one candidate per durable fact).
            "`./node_modules/.bin/firebase deploy` deploys the project (worked in 1 session).",
        ]
    )


# gemini-cli/AnthonyontheHub__TP-Tutor__session-2026-04-25T06-41-8dddde09.jsonl: two calls the
# agent recorded as a success whose captured output stops while Vite is still building.
@pytest.mark.parametrize(
    "output",
    [
        "Output: \n> tp-tutor@0.1.0 build\n> tsc && vite build\n\nvite v6.4.2 building for "
        "production...\ntransforming (8) node_modules/react/jsx-runtime.js\n"
        "Process Group PGID: 12712",
        "Output: \n> tp-tutor@0.1.0 build\n> tsc && vite build\n\nvite v6.4.2 building for "
        "production...\nProcess Group PGID: 12845",
    ],
)
def test_a_success_whose_output_stops_mid_progress_was_not_seen(output: str) -> None:
    assert _contents([_turn("t1", _gemini("npm run build", output))]) == []


def test_a_finished_build_and_an_installers_trailing_dots_still_count() -> None:
    finished = "vite v6.4.2 building for production...\n✓ built in 6.41s\nProcess Group PGID: 1"
    assert _contents([_turn("t1", _gemini("npm run build", finished))]) == [
        "`npm run build` builds the project (worked in 1 session)."
    ]
    installed = "Setting up libssl-dev:amd64 (3.0.13-0ubuntu3) ..."
    runs = [_bash("cargo build", "error: failed to run custom build command", "failed")]
    runs += [_bash("apt-get install -y libssl-dev pkg-config", installed)]
    runs += [_bash("cargo build", "Finished `dev` profile [unoptimized] target(s) in 9.1s")]
    found = _contents([_turn(f"t{i}", run) for i, run in enumerate(runs)])
    assert [c for c in found if c.startswith("Trap: `cargo build`")], found


# codex/Kooksun__Lotto645__rollout-2025-11-06T15-44-45-…jsonl and its later sessions: one
# repository script run with three sets of options, asked for by a person here.
def test_a_script_run_with_different_options_is_one_command() -> None:
    script = ".specify/scripts/bash/check-prerequisites.sh"
    output = '{"FEATURE_DIR":"specs/001-lotto-ticketing","AVAILABLE_DOCS":["research.md"]}'
    sessions = [
        ("s", [_turn("t1", _bash(f"{script} --json"), user="check the feature folder")]),
        ("u", [_turn("u1", _bash(f"{script} --json --paths-only", output), session="u")]),
        (
            "v",
            [
                _turn(
                    "v1",
                    _bash(f"{script} --json --require-tasks --include-tasks", output),
                    _bash(f"{script} --json", output),
                    session="v",
                )
            ],
        ),
    ]
    tasks = {r.turn_key: "task" for _, records in sessions for r in records}
    planned = plan_window(sessions, tasks, known=set()).placed
    assert [f.content for f in planned["task"]] == [
        f"`{script} --json` runs the project checks (worked in 3 sessions)."
    ]
