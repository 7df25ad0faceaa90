"""A team's scale: memories ranked by the sessions and people that show them, review in rank
order, at most `memory.extractLimit` new candidates offered per run and none lost."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from git_memory.extract.builtin import renderers
from git_memory.extract.builtin.corroboration import rank
from git_memory.extract.builtin.people import LOCAL, ActivityPeople, person_labels, person_of
from git_memory.extract.builtin.window import find_window, memory_keys, plan_window
from git_memory.repo.binding import discover_worktree
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from git_memory.store import offers
from git_memory.store.candidates import UNRANKED
from git_memory.store.session import open_workspace
from tests.conftest import run_cli
from tests.extract.records import turn_record
from tests.mcp.harness import server_parameters, stdio, structured
from tests.repos import Repo, make_repo
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)

DAY = "2026-11-20"
SINCE, UNTIL = "2026-11-01", "2026-12-01"


def _record(key: str, session: str, *calls: ToolCall, user: str = "") -> TurnRecord:
    return turn_record(key, *calls, user=user, session=session, cwd="/work/repo")


def _call(name: str, payload: dict[str, Any], output: str = "") -> ToolCall:
    return ToolCall(call_id="c", name=name, input=payload, output=output, state="completed")


# --- who ran a session -------------------------------------------------------------------


def test_the_person_is_the_home_the_tools_reached_outside_the_worktree() -> None:
    read = _call("Read", {"file_path": "/Users/bob/go/pkg/mod/github.com/x/y.go"})
    inside = _call("Read", {"file_path": "/home/me/src/repo/main.go"})
    session = [_record("t1", "s", inside, read, inside)]
    bob = person_of(session, "/home/me/src/repo", "/home/me")
    carol = person_of(
        [_record("t1", "s", _call("Read", {"file_path": "C:\\Users\\carol\\x"}))],
        "/home/me/src/repo",
        "/home/me",
    )
    assert bob != carol
    assert LOCAL not in (bob, carol)
    assert "bob" not in bob, "only a digest of the name is kept"


def test_outputs_and_words_name_the_person_when_the_inputs_do_not() -> None:
    root, home = "/work/repo", "/home/me"
    output = _call("Bash", {"command": "go build"}, "open /home/dana/.cache/go-build: denied")
    typed = _record("t1", "s", user="the log is in /Users/erin/Desktop/error.txt")
    dana = person_of([_record("t1", "s", output)], root, home)
    erin = person_of([typed], root, home)
    assert dana != erin
    assert LOCAL not in (dana, erin)


def test_a_session_naming_no_home_but_this_machines_is_this_machines_user() -> None:
    mine = _call("Read", {"file_path": "/home/me/.config/app.toml"})
    assert person_of([_record("t1", "s", mine)], "/home/me/src/repo", "/home/me") == LOCAL
    assert person_of([_record("t1", "s")], "/home/me/src/repo", "/home/me") == LOCAL


def test_a_session_read_from_its_activity_names_the_same_person() -> None:
    root, home = "/home/me/src/repo", "/home/me"
    sessions = [
        ([_call("Read", {"file_path": "/home/me/src/repo/main.go"})], []),
        ([_call("Read", {"file_path": "C:\\Users\\carol\\x"})], []),
        ([_call("Bash", {"command": "go build"}, "open /home/dana/.cache/go-build: denied")], []),
        ([], ["the log is in /Users/erin/Desktop/error.txt"]),
        ([_call("Read", {"file_path": "/home/me/.config/app.toml"})], ["see /home/me/src/repo"]),
    ]
    reader = ActivityPeople(root, home)
    read = [reader.person(calls, asks) for calls, asks in sessions]
    expected = [
        person_of([_record("t1", "s", *calls, user="\n".join(asks))], root, home)
        for calls, asks in sessions
    ]
    assert read == expected
    assert [person == LOCAL for person in read] == [True, False, False, False, True]
    assert person_labels(read) == ["you", "teammate 1", "teammate 2", "teammate 3", "you"]
    assert person_labels([read[2], read[1], read[2]]) == ["teammate 1", "teammate 2", "teammate 1"]


# --- the rank ------------------------------------------------------------------------------


def test_people_count_first_and_sessions_by_their_order_of_magnitude() -> None:
    team = rank(120, 5)
    one_person_often = rank(40, 1)
    two_people_once_each = rank(2, 2)
    one_off = rank(1, 1)
    assert team > one_person_often > two_people_once_each > one_off
    assert one_off == UNRANKED, "a candidate without corroboration ranks as a one-off"
    assert rank(3, 1) > rank(2, 1)
    assert rank(3, 2) > rank(3, 1)


def test_a_window_gathers_each_memory_with_its_sessions_and_people() -> None:
    def session(key: str, person: str, *commands: str) -> tuple[str, list[TurnRecord]]:
        calls = [_call("Bash", {"command": c}, "12 passed in 0.1s") for c in commands]
        return key, [_record(f"{key}-t1", key, *calls, user="Always run `make lint` first.")]

    sessions = [session("s1", "alice", "pytest"), session("s2", "bob", "pytest", "make lint")]
    sessions += [session("s3", "alice", "pytest -k slow")]
    people = {"s1": "alice", "s2": "bob", "s3": "alice"}
    tasks = {f"{key}-t1": key for key, _ in sessions}
    plan = plan_window(sessions, tasks, known=set(), people=people)
    facts = {f.key: f for found in plan.placed.values() for f in found}
    assert set(facts["command:pytest"].sessions) == {"s1", "s2", "s3"}
    assert set(facts["command:pytest"].people) == {"alice", "bob"}
    rule = next(f for key, f in facts.items() if key.startswith("rule:"))
    assert len(rule.sessions) == 3, "one rule, said in three sessions"
    assert sum(1 for key in facts if key.startswith("rule:")) == 1


def test_a_program_one_persons_machine_lacks_is_no_memory_of_the_team() -> None:
    def session(
        key: str, error: str = "zsh:1: command not found: rg", fix: str = "grep -R -n TODO src"
    ) -> tuple[str, list[TurnRecord]]:
        failed = ToolCall(
            "c1", "Bash", {"command": "rg -n TODO src"}, f"{error}\nExit code: 127", "failed"
        )
        found = _call("Bash", {"command": fix}, "src/app.py:3: pending = []")
        return key, [_record(f"{key}-t1", key, failed, found)]

    def traps(people: dict[str, str]) -> list[str]:
        sessions = [session(key) for key in people]
        plan = plan_window(sessions, {f"{k}-t1": k for k in people}, known=set(), people=people)
        placed = [f for found in plan.placed.values() for f in found]
        return [f.content for f in placed if f.renderer == renderers.RENDERER_COMMAND_FIX]

    lacks = 'Trap: `rg` fails with "zsh:1: command not found: rg"; run `grep -R` instead.'
    # one person's machine, however often: true of that machine, not of the project
    assert traps({"s1": "alice", "s2": "alice", "s3": "alice"}) == []
    # two people's: the environment the team shares (a container image, a sandbox) lacks it
    assert traps({"s1": "alice", "s2": "bob"}) == [lacks]
    # whatever each one's shell said of it
    said = {"s1": "zsh:1: command not found: rg", "s2": "/bin/bash: line 1: rg: command not found"}
    sessions = [session(key, error) for key, error in said.items()]
    people = {"s1": "alice", "s2": "bob"}
    plan = plan_window(sessions, {f"{k}-t1": k for k in said}, known=set(), people=people)
    placed = [f for found in plan.placed.values() for f in found]
    assert [f.content for f in placed if f.renderer == renderers.RENDERER_COMMAND_FIX] == [lacks]
    # what most of them used instead
    most = {"s1": "ag TODO src", "s2": "grep -R -n TODO src", "s3": "grep -R -n TODO src"}
    sessions = [session(key, fix=fix) for key, fix in most.items()]
    three = {"s1": "alice", "s2": "bob", "s3": "carol"}
    plan = plan_window(sessions, {f"{k}-t1": k for k in most}, known=set(), people=three)
    placed = [f for found in plan.placed.values() for f in found]
    assert [f.content for f in placed if f.renderer == renderers.RENDERER_COMMAND_FIX] == [lacks]
    # ... counted by people, not by one person's many sessions
    many = {"a1": "ag TODO src", "a2": "ag TODO src", "a3": "ag TODO src"}
    many |= {"b1": "grep -R -n TODO src", "c1": "grep -R -n TODO src"}
    found = find_window(
        [session(key, fix=fix) for key, fix in many.items()],
        known=set(),
        people={"a1": "alice", "a2": "alice", "a3": "alice", "b1": "bob", "c1": "carol"},
    )
    assert [m[0].content for m in found.memories] == [lacks]
    # ... and a waiting candidate that named another alternative is this memory, seen again
    held = "fix:rg\0ag"
    found = find_window(
        [session(key, fix=fix) for key, fix in most.items()],
        people=three,
        known={held},
        held={held},
    )
    assert found.memories == []
    assert [fact.key for fact in found.again] == [held]
    # and whatever each one used instead: one memory of the program the machines lack
    sessions = [session("s1"), session("s2", said["s2"], fix="ag TODO src")]
    plan = plan_window(sessions, {f"{k}-t1": k for k in said}, known=set(), people=people)
    placed = [f for found in plan.placed.values() for f in found]
    assert [f.content for f in placed if f.renderer == renderers.RENDERER_COMMAND_FIX] == [lacks]


def _rules_of_window(said: dict[str, str], **options: Any) -> list[Any]:
    sessions = [(key, [_record(f"{key}-t1", key, user=text)]) for key, text in said.items()]
    tasks = {f"{key}-t1": key for key in said}
    plan = plan_window(sessions, tasks, known=set(options.pop("held", ())), **options)
    facts = [f for found in plan.placed.values() for f in found]
    return [f for f in facts if f.key.startswith("rule:")]


def test_one_way_of_working_asked_for_in_several_requests_is_one_memory() -> None:
    # (a session of a public repository typed it in five requests)
    said = {
        "s1": "Apply whichever is recommended and do not ask me for confirmation or choices",
        "s2": "Do whatever is shortest and do not ask me for choices",
        "s3": "Work on the checklist, apply the fixes and do not ask me for confirmation",
        "s4": "Commit all and do not add your signature",
    }
    rules = _rules_of_window(said, people=dict.fromkeys(said, "alice"))
    assert [sorted(r.sessions) for r in rules] == [["s1", "s2", "s3"], ["s4"]]
    # an approved one is not proposed again in other words
    approved = "Apply whichever is recommended and do not ask me for confirmation or choices."
    assert next(r.key for r in rules if "s1" in r.sessions) in memory_keys(approved)


def test_a_rule_typed_again_with_a_detail_changed_is_one_memory() -> None:
    exam = "Always give each exam question five answer options, with {} questions at level {}."
    said = {
        "s1": exam.format("conceptual", 2),
        "s2": exam.format("numeric", 3),
        "s3": exam.format("numeric", 4),
        "s4": "以后所有的说明都用简体中文写，并且保留英文的专业术语。",
        "s5": "以后所有的说明都用简体中文写，并且保留英文的原始术语。",
    }
    rules = _rules_of_window(said, people=dict.fromkeys(said, "alice"))
    assert len(rules) == 2, [r.content for r in rules]
    exam_rule, chinese_rule = rules
    assert "conceptual" in exam_rule.content, "the first typed speaks for the memory"
    assert set(exam_rule.sessions) == {"s1", "s2", "s3"}
    assert set(chinese_rule.sessions) == {"s4", "s5"}


def test_rules_on_one_subject_that_say_different_things_stay_apart() -> None:
    checks = "Always run `{}` before you commit a change to the parser, the lexer or the docs."
    said = {
        "s1": "Always use pnpm for installing packages in this repo.",
        "s2": "Always use npm scripts for builds and releases in this repo.",
        "s3": "Always answer in Chinese.",
        "s4": "Always answer in English.",
        "s5": "Always run `make lint` before you commit.",
        "s6": "Always run `make test` before you commit.",
        "s7": checks.format("make lint"),
        "s8": checks.format("make test"),
    }
    rules = _rules_of_window(said)
    assert len(rules) == 8, [r.content for r in rules]
    assert all(len(r.sessions) == 1 for r in rules)


def test_a_rule_like_one_a_waiting_candidate_holds_corroborates_it() -> None:
    first = "Always give each exam question five answer options, with conceptual questions."
    again = "Always give each exam question five answer options, with numeric questions."
    (held,) = _rules_of_window({"s1": first})
    sessions = [
        ("s0", [_record("s0-t1", "s0", user="Never push to main.")]),
        ("s2", [_record("s2-t1", "s2", user=again)]),
    ]
    tasks = {"s0-t1": "s0", "s2-t1": "s2"}
    plan = plan_window(sessions, tasks, {held.key}, held={held.key}, known_texts=[first])
    proposed = [f.content for found in plan.placed.values() for f in found]
    assert proposed == ["Never push to main."], "the near-duplicate is not proposed anew"
    (more,) = plan.again
    assert (more.key, more.sessions) == (held.key, ("s2",))


def test_a_memory_a_waiting_candidate_holds_comes_back_as_corroboration() -> None:
    key = "s9"
    calls = [_call("Bash", {"command": "pytest"}, "3 passed in 0.1s")]
    plan = plan_window(
        [(key, [_record("t9", key, *calls)])],
        {"t9": "task"},
        known={"command:pytest"},
        people={key: "carol"},
        held={"command:pytest"},
    )
    assert plan.placed == {}
    (again,) = plan.again
    assert (again.key, again.sessions, again.people) == ("command:pytest", (key,), ("carol",))


# --- a team's sessions through extract and review -------------------------------------------

PEOPLE = ("alice", "bob", "carol")


def _session(
    claude: Path, root: Path, number: int, person: str, commands: list[str], *, day: str = DAY
) -> None:
    """A sealed Claude Code session of `person` (their module cache read) running `commands`."""
    cwd = str(root)
    cache = {"file_path": f"/Users/{person}/go/pkg/mod/golang.org/x/tools/go.mod"}
    records = [claude_user("Work on the parser.", cwd)]
    blocks = [{"type": "tool_use", "id": "r0", "name": "Read", "input": cache}]
    records += [claude_assistant(blocks, cwd, "m0"), tool_result("r0", "module x", cwd)]
    for n, command in enumerate(commands, start=1):
        call = {"type": "tool_use", "id": f"b{n}", "name": "Bash", "input": {"command": command}}
        records += [claude_assistant([call], cwd, f"m{n}")]
        records += [tool_result(f"b{n}", "ok  \texample.com/parser\t0.2s\nPASS", cwd)]
    session = f"{number:08d}-2222-4333-8444-555555555555"
    for line, record in enumerate(records):
        record.update(sessionId=session, timestamp=f"{day}T10:{number % 60:02d}:{line:02d}.000Z")
    write_jsonl(claude_path(claude, session), records, time.time() - 3600)


@pytest.fixture
def team(tmp_path: Path, hermetic_env: dict[str, Path]) -> Repo:
    """Three people's sessions: `go test ./...` by all three in six sessions, `make lint` by
    two in two, `go vet ./...` by one in two, `make gen` once."""
    repo = make_repo(tmp_path / "repo")
    repo.write("go.mod", "module example.com/parser\n")
    repo.commit_all("init")
    plan = [  # the one-off comes first, so that the order of discovery is not the rank's
        ("alice", ["make gen", "go test ./...", "make lint"]),
        ("bob", ["go test ./...", "make lint"]),
        ("carol", ["go test ./...", "go vet ./..."]),
        ("alice", ["go test ./..."]),
        ("bob", ["go test ./..."]),
        ("carol", ["go test ./...", "go vet ./..."]),
    ]
    for number, (person, commands) in enumerate(plan, start=1):
        _session(hermetic_env["claude"], repo.root, number, person, commands)
    return repo


def _extract(repo: Repo) -> dict[str, Any]:
    result = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--format", "json"],
        cwd=repo.root,
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    document: dict[str, Any] = result.json()
    return document


def _queue(repo: Repo) -> list[str]:
    items = run_cli(["review", "--format", "json"], cwd=repo.root).json()["items"]
    return [str(item["content"]) for item in items]


EXPECTED = [
    "`go test ./...` runs the tests (worked in 6 sessions).",
    "`make lint` lints the code (worked in 2 sessions).",
    "`go vet ./...` lints the code (worked in 2 sessions).",
    "`make gen` regenerates the generated code (worked in 1 session).",
]


def test_review_shows_the_best_corroborated_first(team: Repo) -> None:
    outcome = _extract(team)
    assert outcome["waiting"] == 0
    assert _queue(team) == EXPECTED


def test_each_run_offers_at_most_the_limit_and_says_how_many_more_wait(team: Repo) -> None:
    team.git("config", "memory.extractLimit", "1")
    first = _extract(team)
    assert len(first["quarantined"]) == 1
    assert first["waiting"] == 3
    assert "3 more wait for the next extract run" in first["next"]
    assert _queue(team) == EXPECTED[:1]
    text = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL], cwd=team.root
    )
    assert "1 more candidate(s) wait" not in text.stdout
    assert "2 more candidate(s) wait: the next run offers them" in text.stdout
    assert _queue(team) == EXPECTED[:2], "a later run offers the next, with nothing new read"
    status = run_cli(["status"], cwd=team.root).stdout
    assert "2 candidates wait for review: git memory review" in status
    assert "2 candidates wait to be offered for review" in status
    team.git("config", "memory.extractLimit", "50")
    last = _extract(team)
    assert last["waiting"] == 0
    assert _queue(team) == EXPECTED, "a higher limit offers the rest: none was lost"


def test_a_later_window_raises_a_waiting_memory(team: Repo, hermetic_env: dict[str, Path]) -> None:
    team.git("config", "memory.extractLimit", "1")
    _extract(team)
    for number, person in enumerate(PEOPLE, start=7):
        _session(hermetic_env["claude"], team.root, number, person, ["make gen"], day="2026-11-22")
    more = _extract(team)
    assert more["quarantined"] != [], "the run offers one more"
    with open_workspace(discover_worktree(team.root)) as workspace:
        held = offers.held(workspace.db, workspace.owner)
    _, gen = held["command:make gen"]
    assert (len(gen.sessions), len(gen.people)) == (4, 3)
    assert gen.rank == rank(4, 3)
    assert _queue(team)[1] == "`make gen` regenerates the generated code (worked in 1 session)."


@pytest.mark.parametrize("value", ["0", "-3", "twenty"])
def test_a_limit_that_is_no_positive_number_is_refused(team: Repo, value: str) -> None:
    team.git("config", "memory.extractLimit", value)
    result = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--format", "json"],
        cwd=team.root,
    )
    assert result.exit_code != 0
    assert result.json()["error"]["code"] == "GM_CONFIG_INVALID"
    assert "memory.extractLimit" in str(result.json()["error"])


def test_the_agent_reads_review_over_mcp_in_the_same_order(team: Repo, tmp_path: Path) -> None:
    _extract(team)

    async def scenario() -> Any:
        async with stdio(server_parameters(team.root), tmp_path / "err.log") as client:
            return structured(await client.call_tool("memory_review", {}))

    review = anyio.run(scenario)
    assert [item["content"] for item in review["items"]] == EXPECTED


def test_commands_a_team_chains_are_one_memory_when_several_sessions_chain_them() -> None:
    def session(key: str, command: str) -> tuple[str, list[TurnRecord]]:
        return key, [_record(f"{key}-t1", key, _call("Bash", {"command": command}, "0 issues."))]

    chained = "mise run fmt && mise run lint"
    sessions = [session("s1", chained), session("s2", chained), session("s3", "make a && make b")]
    tasks = {f"{key}-t1": key for key, _ in sessions}
    facts = {
        f.key: f
        for found in plan_window(sessions, tasks, known=set()).placed.values()
        for f in found
    }
    fact = facts["command:mise run fmt && mise run lint"]
    assert fact.content == (
        "`mise run fmt && mise run lint` runs the project checks (worked in 2 sessions)."
    )
    assert renderers.verify_typed_fact(fact.renderer, fact.statement, fact.parameters)
    assert "command:mise run lint" in facts, "each part is still a command of its own"
    assert "command:make a && make b" not in facts, "one session's chain is that task's way"
    assert "command:mise run fmt && mise run lint" in memory_keys(fact.content)
    forged = dict(fact.parameters) | {"command": "mise run fmt && ls -la"}
    assert not renderers.verify_typed_fact(
        fact.renderer,
        fact.statement.replace("mise run lint", "ls -la"),
        tuple(forged.items()),
    )


def _one_run(key: str, command: str, output: str) -> tuple[str, list[TurnRecord]]:
    """A session of one command that worked."""
    return key, [_record(f"{key}-t1", key, _call("Bash", {"command": command}, output))]


def _proposed(sessions: list[tuple[str, list[TurnRecord]]]) -> list[str]:
    tasks = {record.turn_key: key for key, records in sessions for record in records}
    found = plan_window(sessions, tasks, known=set()).placed
    return [f.content for facts in found.values() for f in facts]


def test_a_command_run_on_different_project_files_is_one_memory() -> None:
    built = "Build succeeded.\n    0 Warning(s)\n    0 Error(s)"
    contents = _proposed(
        [
            _one_run("s1", "dotnet build src/Calc.Core/Calc.Core.csproj -c Release", built),
            _one_run("s2", "dotnet build src/Calc.Tui/Calc.Tui.csproj -c Release", built),
        ]
    )
    assert contents == [
        "`dotnet build src/Calc.Core/Calc.Core.csproj -c Release` builds the "
        "project (worked in 2 sessions)."
    ]


def test_a_module_run_by_the_bare_or_the_environments_python_is_one_memory() -> None:
    ok = "All checks passed!"
    contents = _proposed(
        [
            _one_run("s1", ".venv/Scripts/python.exe -m ruff check .", ok),
            _one_run("s2", ".venv/Scripts/python.exe -m ruff check .", ok),
            _one_run("s3", "python -m ruff check .", ok),
            _one_run("s4", "python -m ruff format --check .", ok),
        ]
    )
    contents.sort()
    # the bare interpreter's form speaks for them: the environment's path is one machine's
    assert contents == [
        "`python -m ruff check .` lints the code (worked in 3 sessions).",
        "`python -m ruff format --check .` checks the formatting (worked in 1 session).",
    ]
    # an interpreter outside the worktree is no form of the project's command
    outside = _proposed(
        [
            _one_run("s1", "../main/.venv/bin/python -m pytest", "5 passed in 0.1s"),
            _one_run("s2", "python -m pytest", "5 passed in 0.1s"),
        ]
    )
    assert "`python -m pytest` runs the tests (worked in 1 session)." in outside


def _said(claude: Path, root: Path, number: int, text: str, day: str) -> None:
    """A sealed Claude Code session whose person types `text` and the agent answers."""
    cwd = str(root)
    records = [claude_user(text, cwd), claude_assistant([{"type": "text", "text": "OK."}], cwd)]
    session = f"{number:08d}-2222-4333-8444-555555555555"
    for line, record in enumerate(records):
        record.update(sessionId=session, timestamp=f"{day}T11:{number % 60:02d}:{line:02d}.000Z")
    write_jsonl(claude_path(claude, session), records, time.time() - 3600)


def test_a_rule_typed_again_in_a_later_window_adds_to_its_waiting_candidate(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    repo = make_repo(tmp_path / "repo")
    exam = "Always give each exam question five answer options, with {} questions at level {}."
    _said(hermetic_env["claude"], repo.root, 1, exam.format("conceptual", 2), "2026-11-10")
    first = _extract(repo)
    assert len(first["quarantined"]) == 1
    _said(hermetic_env["claude"], repo.root, 2, exam.format("numeric", 3), "2026-11-20")
    later = ["extract", "--runner", "builtin", "--since", "2026-11-15", "--until", UNTIL]
    again = run_cli([*later, "--format", "json"], cwd=repo.root).json()
    assert again["quarantined"] == [], "the rule typed again is no second candidate"
    assert _queue(repo) == [exam.format("conceptual", 2)]
    with open_workspace(discover_worktree(repo.root)) as workspace:
        (held,) = offers.held(workspace.db, workspace.owner).values()
    assert len(held[1].sessions) == 2, "the later session corroborates the waiting candidate"


def _checked(key: str, *commands: str) -> tuple[str, list[TurnRecord]]:
    """A Codex-like session whose agent ran each command and saw it exit 0, printing nothing."""
    calls = [
        _call("Bash", {"command": command}, "Process exited with code 0\nOutput:\n")
        for command in commands
    ]
    return key, [_record(f"{key}-t{n}", key, call) for n, call in enumerate(calls)]


def test_a_syntax_check_is_a_habit_only_when_it_was_run_again() -> None:
    once = [_checked("s1", "python -m py_compile app.py")]
    again = [
        _checked(
            "s2",
            "python -m py_compile demo.py pipeline/*.py",
            "python -m py_compile demo.py evaluate.py pipeline/*.py",
            "python -m py_compile demo.py pipeline/*.py",
        )
    ]
    for sessions, expected in ((once, []), (again, ["demo.py pipeline/*.py"])):
        tasks = {record.turn_key: key for key, records in sessions for record in records}
        found = plan_window(sessions, tasks, known=set()).placed
        contents = [f.content for facts in found.values() for f in facts]
        assert contents == [
            f"`python -m py_compile {files}` checks the syntax (worked in 1 session)."
            for files in expected
        ]
