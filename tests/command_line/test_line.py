"""The command model: compound structure, `cd` and environment prefixes, kinds (issue 39)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from git_memory.command_line.kinds import TOOLS, Tool
from git_memory.command_line.line import parse

PACKAGE = Path(__file__).resolve().parents[2] / "git_memory" / "command_line"


def test_the_brief_line_keeps_directory_environment_and_pipe_apart() -> None:
    line = parse("cd api && FOO=1 uv run pytest tests/test_x.py -k slow -q 2>&1 | tail -20")
    cd, run = line.steps
    assert (cd.command.words, cd.joiner, cd.directory) == (("cd", "api"), "&&", "")
    assert run.command.env == ("FOO=1",)
    assert run.command.words == ("uv", "run", "pytest", "tests/test_x.py", "-k", "slow", "-q")
    assert run.command.program[0] == "pytest"
    assert (run.directory, run.piped) == ("api", True)
    assert [f.words for f in run.filters] == [("tail", "-20")]
    assert (run.command.kind, run.command.normal, run.command.narrowed) == (
        "test",
        "uv run pytest",
        True,
    )
    assert run.command.text == "FOO=1 uv run pytest tests/test_x.py -k slow -q"


def test_a_compound_is_never_reduced_to_its_last_command() -> None:
    line = parse("mise run fmt && mise run lint")
    assert [(s.command.normal, s.joiner) for s in line.steps] == [
        ("mise run fmt", "&&"),
        ("mise run lint", ""),
    ]
    assert [s.command.kind for s in line.steps] == ["format", "lint"]
    assert line.main is not None
    assert line.main.normal == "mise run lint"


@pytest.mark.parametrize(
    ("text", "directories"),
    [
        ("cd go && go test ./...", ["", "go"]),
        ("(cd web && pnpm test) || true", ["", "web", ""]),
        ("cd api; cd ../web && make lint", ["", "api", "web"]),
        ("cd .. && make", ["", ".."]),
        ("cd /tmp/x && make test", ["", None]),
        ("cd $ROOT && make test", ["", None]),
        ("pushd web && npm test", ["", "web"]),
        ("bash -lc 'cd api && make test' && make lint", ["", "api", ""]),
        ("Set-Location api; npm test", ["", "api"]),
    ],
)
def test_each_command_knows_the_directory_it_ran_in(
    text: str, directories: list[str | None]
) -> None:
    assert [step.directory for step in parse(text).steps] == directories


def test_a_cd_out_of_the_repository_marks_what_follows_as_elsewhere() -> None:
    steps = parse("cd ~/tools && ./test.sh").steps
    assert [s.elsewhere for s in steps] == [False, True]


def test_environment_assignments_and_transparent_prefixes_are_kept_apart() -> None:
    (step,) = parse("FOO=1 env BAR=2 timeout 60 nice uv run pytest -q").steps
    assert step.command.env == ("FOO=1", "BAR=2")
    assert step.command.words == ("uv", "run", "pytest", "-q")
    assert step.command.normal == "uv run pytest"


def test_pipefail_and_errexit_are_read_from_set() -> None:
    line = parse("set -eo pipefail\npytest | tee log\nmake lint")
    assert line.pipefail
    assert [s.joiner for s in line.steps] == ["&&", "&&", ""]


def test_heredoc_bodies_and_comments_are_not_commands() -> None:
    line = parse("cat <<'EOF' > x.sh\nmake deploy\nEOF\n# make test\nnpm test  # the suite")
    assert [s.command.words for s in line.steps] == [("cat",), ("npm", "test")]


def test_unbalanced_quotes_are_a_guess() -> None:
    assert parse("make 'unbalanced").guessed
    assert not parse("make 'balanced'").guessed


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("ls -la", "navigation"),
        ("git status", "vcs"),
        ("gh pr view 104", "vcs"),
        ("npm install", "setup"),
        ("curl -s https://example.com", "other"),
        ("make test", "test"),
    ],
)
def test_commands_without_a_project_kind_have_a_category(text: str, category: str) -> None:
    assert parse(text).steps[0].command.category == category


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("make test", "test"),
        ("just lint", "lint"),
        ("mise run fmt", "format"),
        ("task build", "build"),
        ("npm run typecheck", "typecheck"),
        ("yarn vitest run", "test"),
        ("pnpm -r test", "test"),
        ("cargo clippy", "lint"),
        ("go vet ./...", "lint"),
        ("dotnet test", "test"),
        ("./gradlew check", "check"),
        ("mvn verify", "check"),
        ("swift test", "test"),
        ("bundle exec rspec", "test"),
        ("composer test", "test"),
        ("tox -e py", "test"),
        ("nox -s lint", "lint"),
        ("tox -e typing", "typecheck"),
        ("docker compose exec api pytest", "test"),
        ("sudo -E make check", "check"),
        # run inside an environment: conda, Nix, devbox, direnv
        ("conda run -n ml pytest -q", "test"),
        ("mamba run --name ml python -m pytest", "test"),
        ("nix develop .#rust -c cargo test", "test"),
        ("nix develop --command cargo clippy", "lint"),
        ("nix shell nixpkgs#go -c go vet ./...", "lint"),
        ("devbox run -- pytest", "test"),
        ("direnv exec . make lint", "lint"),
    ],
)
def test_task_runners_and_tools_of_the_brief(text: str, kind: str) -> None:
    main = parse(text).main
    assert main is not None
    assert main.kind == kind


def test_an_environment_keeps_its_wrapper_and_a_shell_opened_runs_nothing() -> None:
    main = parse("conda run -n ml pytest -q").main
    assert main is not None
    assert main.normal == "conda run -n ml pytest"
    assert parse("nix develop .#rust").main is None
    # a shell started inside the environment runs each of its commands there
    inside = parse("nix develop -c bash -lc 'cd kernel && cargo fmt --all && cargo test'")
    assert [(step.command.normal, step.directory) for step in inside.steps] == [
        ("cd kernel", ""),
        ("nix develop -c cargo fmt --all", "kernel"),
        ("nix develop -c cargo test", "kernel"),
    ]
    uv = parse("uv run -n pytest").main  # uv's `-n` is `--no-cache`: a switch, not a name
    assert uv is not None
    assert uv.kind == "test"
    assert parse("nix develop").main is None


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: " ".join(tool.words))
def test_each_kinds_row_classifies_its_own_example(tool: Tool) -> None:
    main = parse(tool.example).main
    assert main is not None, tool.example
    assert main.kind == tool.kind, tool.example


_RESERVED = frozenset(
    {
        *("if", "then", "else", "elif", "do", "while", "until", "fi", "done", "esac"),
        *("time", "env", "nice", "command", "exec", "noglob", "sudo", "nohup", "timeout"),
        *("cd", "pushd", "set"),
    }
)
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_./", min_size=1, max_size=8)
_COMMAND = st.lists(_WORD.filter(lambda word: word not in _RESERVED), min_size=1, max_size=5)


@given(st.text(max_size=300))
def test_parsing_never_raises_on_any_text(text: str) -> None:
    line = parse(text)
    for step in line.steps:
        assert step.command.words or step.command.env  # `FOO=1` alone only assigns
        assert step.joiner in ("&&", "||", ";", "\n", "&", "")


@given(st.lists(_COMMAND, min_size=1, max_size=4), st.sampled_from(["&&", "||", ";", "|"]))
def test_plain_commands_round_trip_with_their_joiners(
    commands: list[list[str]], joiner: str
) -> None:
    line = parse(f" {joiner} ".join(" ".join(words) for words in commands))
    if joiner == "|":  # one pipeline: the first command, the rest its filters
        (step,) = line.steps
        kept = [step.command.words, *(f.words for f in step.filters)]
        assert step.piped == (len(commands) > 1)
    else:
        kept = [step.command.words for step in line.steps]
        assert [s.joiner for s in line.steps] == [joiner] * (len(commands) - 1) + [""]
    assert kept == [tuple(words) for words in commands]


def test_the_model_imports_only_the_standard_library_and_itself() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert name.startswith("git_memory.command_line") or top != "git_memory", path
                assert top in {"__future__", "git_memory", *__import__("sys").stdlib_module_names}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("golangci-lint run ./...", "lint"),
        ("golangci-lint run", "lint"),
        ("golangci-lint fmt", "format"),
        ("golangci-lint cache clean", None),
        ("golangci-lint linters", None),
    ],
)
def test_a_linters_housekeeping_lints_nothing(text: str, kind: str | None) -> None:
    """`golangci-lint cache clean` cleans a cache: proposing it as a way to lint the code
    misleads a teammate (issue 39)."""
    assert parse(text).steps[0].command.kind == kind


def test_a_word_with_blanks_or_an_operator_stays_one_word_when_shown() -> None:
    """A command shown to a teammate splits back into the words that ran: `python -c 'import
    x; print(x)'` keeps its quotes; a glob or a variable stays as typed."""
    line = parse('.venv/bin/python -c "import sqlalchemy; print(1)" && pytest -k "not slow" t/*.py')
    first, second = line.commands
    assert first.text == ".venv/bin/python -c 'import sqlalchemy; print(1)'"
    assert parse(first.text).commands[0].words == first.words
    assert second.text == "pytest -k 'not slow' t/*.py"
    assert parse("echo $HOME").commands[0].text == "echo $HOME"


def test_a_path_starting_with_a_dot_is_not_the_shells_source_command() -> None:
    """`. .venv/bin/activate` sets the environment up; `.venv/bin/python -c …` (a probe run
    between a failure and its fix) does not."""
    assert parse(". .venv/bin/activate").commands[0].setup
    assert not parse(".venv/bin/python -c 'import x'").commands[0].setup
    assert not parse("./scripts/check.sh").commands[0].setup


@pytest.mark.parametrize(
    "typed",
    [
        ".venv/bin/pip install -r requirements.txt",
        "venv/bin/pip install flask",
        ".venv/bin/python -m pip install -r requirements.txt",
    ],
)
def test_a_setup_program_run_by_its_path_is_a_setup_step(typed: str) -> None:
    assert parse(typed).commands[0].setup


_PS = "powershell.exe -NoProfile -Command"
_PS_PATH = "'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'"


@pytest.mark.parametrize(
    ("text", "normals"),
    [
        (f'{_PS} "npm test"', ["npm test"]),
        (f"{_PS} 'npm run lint; npm test'", ["npm run lint", "npm test"]),
        (
            'pwsh -NoProfile -ExecutionPolicy Bypass -Command "cd web; npm run build"',
            ["cd web", "npm run build"],
        ),
        (f"{_PS_PATH} -c 'npm test'", ["npm test"]),
        ('cmd /c "npm test"', ["npm test"]),
        ("pwsh -ExecutionPolicy Bypass -File x.ps1", ["pwsh -ExecutionPolicy Bypass -File x.ps1"]),
    ],
)  # fmt: skip
def test_a_windows_shell_runs_the_command_line_it_is_handed(text: str, normals: list[str]) -> None:
    """Codex on Windows runs `["powershell.exe", "-NoProfile", "-Command", "npm test"]`."""
    assert [step.command.normal for step in parse(text).steps] == normals


def test_a_word_that_expands_is_typed_back_in_double_quotes() -> None:
    """Single quotes would make `$(…)` literal text: JAVA_HOME set to "$(/usr/libexec/…)"."""
    (command,) = parse('export JAVA_HOME="$(/usr/libexec/java_home -v 17)"').commands
    assert command.text == 'export "JAVA_HOME=$(/usr/libexec/java_home -v 17)"'
    assert parse(command.text).commands[0].words == command.words
    (literal,) = parse("python -c 'import x; x.run()'").commands
    assert literal.text == "python -c 'import x; x.run()'"
