"""Argument shapes, general forms, narrowness and matching (issues 39 and 40)."""

from __future__ import annotations

import pytest

from git_memory.command_line.line import parse
from git_memory.command_line.match import command_matches, runs, steps_running
from git_memory.command_line.shapes import shape_of


@pytest.mark.parametrize(
    ("text", "shape", "decoration"),
    [
        ("gh pr diff 88 --stat", "gh pr diff <n> --stat", ()),
        ("gh issue view #104", "gh issue view <n>", ()),
        ("git show 3f2a9c1e", "git show <sha>", ()),
        ("pytest tests/test_x.py::test_y -k slow -vv", "pytest <test> -k <test>", ("-vv",)),
        ("go test -run=TestParse ./pkg/...", "go test -run=<test> <path>", ()),
        ("curl -s https://example.com/api", "curl <url>", ("-s",)),
        ("cat /tmp/out.log", "cat <tmp>", ()),
        ("mypy --debug src/app.py", "mypy <path>", ("--debug",)),
        ("ruff check .", "ruff check .", ()),
        ("go test ./...", "go test ./...", ()),
    ],
)
def test_argument_shapes(text: str, shape: str, decoration: tuple[str, ...]) -> None:
    found = shape_of(text.split())
    assert (found.text, found.decoration) == (shape, decoration)


def test_a_narrowed_shape_names_a_path_or_test() -> None:
    assert shape_of(["pytest", "tests/test_x.py"]).narrowed
    assert not shape_of(["gh", "pr", "view", "12"]).narrowed


@pytest.mark.parametrize(
    ("text", "directory", "general", "narrowed"),
    [
        ("cd go && go test -run TestX ./pkg/...", "go", "go test ./...", True),
        ("gh pr diff 88 --stat", "", "gh pr diff <n> --stat", False),
        ("golangci-lint run ./cmd/entire/cli/agent/openclaw/", "", "golangci-lint run", True),
        # Beside a top-level folder a deeper one is part of the project's code, not a narrowing.
        (
            "uv run flake8 src/pkg/ tests/ --count",
            "",
            "uv run flake8 src/pkg/ tests/ --count",
            False,
        ),
        ("ruff check ./src/pkg/ ./tests/", "", "ruff check ./src/pkg/ ./tests/", False),
        ("npx eslint src/components/ .", "", "npx eslint .", True),
        ("uv run pytest tests/test_x.py -q", "", "uv run pytest", True),
        ("npm run test -- src/a.test.ts", "", "npm test", False),
        ("mise run lint", "", "mise run lint", False),
        ("npx tsc -p tsconfig.json --noEmit", "", "npx tsc -p tsconfig.json --noEmit", False),
        ("cargo test -p core", "", "cargo test", True),
    ],
)
def test_general_forms_and_narrowness(
    text: str, directory: str, general: str, narrowed: bool
) -> None:
    step = parse(text).steps[-1]
    assert (step.directory, step.command.general, step.command.narrowed) == (
        directory,
        general,
        narrowed,
    )


@pytest.mark.parametrize(
    ("observed", "memory", "directory", "expected"),
    [
        ("gh pr view 104 --json reviewThreads", "gh pr view --json reviewThreads", "", True),
        ("gh pr view 104 --json title", "gh pr view --json reviewThreads", "", False),
        ("gh pr diff 104 --stat", "gh pr diff 88 --stat", "", True),
        ("mise run fmt && mise run lint", "mise run fmt && mise run lint", "", True),
        ("mise run fmt; mise run lint 2>&1 | tail", "mise run fmt && mise run lint", "", True),
        ("mise run lint", "mise run fmt && mise run lint", "", False),
        ("mise run lint && mise run fmt", "mise run fmt && mise run lint", "", False),
        ("mise run lint-fix", "mise run lint", "", False),
        ("cd go && go test ./...", "go test ./...", "go", True),
        ("cd go && go test -run TestX ./pkg/...", "go test ./...", "go", True),
        ("go test ./...", "go test ./...", "go", False),
        ("cd go && go test ./...", "cd go && go test ./...", "", True),
        ("cd web && go test ./...", "cd go && go test ./...", "", False),
        ("pytest -q", "uv run pytest", "", False),
        ("uv run pytest tests/test_a.py -x", "uv run pytest", "", True),
        ("FOO=1 uv run pytest", "uv run pytest", "", True),
        ("npm run lint", "npm run lint", "", True),
        ("ls", "", "", False),
    ],
)
def test_matching_as_a_person_means_it(
    observed: str, memory: str, directory: str, expected: bool
) -> None:
    assert runs(observed, memory, directory=directory) is expected


def test_a_line_started_in_a_subdirectory_matches_a_memory_scoped_there() -> None:
    assert runs("go test ./...", "go test ./...", directory="go", at="go")
    assert runs("cd .. && make lint", "make lint", at="web")
    assert not runs("make lint", "make lint", at="web")


def test_the_steps_running_a_memorys_command() -> None:
    line = parse("cd go && go vet ./... && go test -run TestX ./internal/")
    found = steps_running(line, "go test ./...", directory="go")
    assert [s.command.words[:2] for s in found] == [("go", "test")]


def test_command_matching_ignores_directories() -> None:
    wanted = parse("make test").steps[0].command
    seen = parse("cd api && make test -j4").steps[1].command
    assert command_matches(wanted, seen)


@pytest.mark.parametrize(
    ("decorated", "plain"),
    [
        (
            "dotnet build src/App/App.csproj -c Release --no-restore -clp:ErrorsOnly -nologo",
            "dotnet build src/App/App.csproj -c Release --no-restore",
        ),
        ("dotnet test -v:q /clp:NoSummary", "dotnet test"),
        ("mvn -B -ntp verify", "mvn verify"),
        ("./gradlew build --console=plain --warning-mode=all", "./gradlew build"),
        ("cargo clippy --message-format=short -- -D warnings", "cargo clippy -- -D warnings"),
    ],
)
def test_switches_that_only_change_the_report_fold_into_the_command(
    decorated: str, plain: str
) -> None:
    """A run with the build tool's logger, logo or batch-mode switches is the same command
    a teammate runs without them: one memory (issue 39, item 5)."""
    assert parse(decorated).steps[-1].command.general == parse(plain).steps[-1].command.general


def test_switches_that_change_the_run_stay() -> None:
    assert parse("python -V").steps[-1].command.general != parse("python").steps[-1].command.general
    assert "-I" in parse("gcc -I include -o app main.c").steps[-1].command.general
