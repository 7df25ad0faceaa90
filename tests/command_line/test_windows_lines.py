"""Lines a Windows shell ran, read by its own rules (issue 39 item 7).

Codex on Windows runs `["powershell.exe", "-NoProfile", "-Command", "<line>"]` (the extractor
joins the list as a POSIX line, `shell.command_of`); `pwsh -Command` and `cmd /c "<line>"`
too. The line handed over is PowerShell's or cmd's: a backslash is a path's separator."""

from __future__ import annotations

import pytest

from git_memory.command_line.line import memory_line, parse, written_for_windows
from git_memory.command_line.match import runs
from git_memory.command_line.syntax import joined
from git_memory.impact.subjects import subject_of

_PS = "powershell.exe -NoProfile -Command"


def _powershell(line: str) -> str:
    """A PowerShell line as the extractor reads Codex's call: the list joined, quoted."""
    return f"{_PS} '" + line.replace("'", "'\"'\"'") + "'"


def test_the_projects_venv_python_running_pytest_through_powershell_runs_the_tests() -> None:
    line = parse(_powershell(r".\.venv\Scripts\python -m pytest -q"))
    [command] = line.commands
    assert command.words == (r".\.venv\Scripts\python", "-m", "pytest", "-q")
    assert (command.kind, command.program) == ("test", ("pytest", "-q"))
    assert command.text == r".\.venv\Scripts\python -m pytest -q"
    assert command.normal == r".\.venv\Scripts\python -m pytest"


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        (r"Scripts\python.exe -m pytest", r"Scripts\python.exe -m pytest"),
        (r"venv\Scripts\pytest.exe -q", r"venv\Scripts\pytest.exe"),
        (r"C:\venvs\app\Scripts\pytest.exe -q", "pytest"),  # this machine's: the tool alone
        (r".venv\Scripts\python.exe manage.py test", r".venv\Scripts\python.exe manage.py test"),
    ],
)
def test_a_windows_venvs_interpreter_and_tools_are_the_projects(typed: str, normal: str) -> None:
    """`Scripts` is a Windows environment's `bin`, and `.exe` the programs' suffix."""
    [command] = parse(_powershell(typed)).commands
    assert (command.kind, command.normal) == ("test", normal)


def test_a_folder_changed_in_a_powershell_line_is_named_with_forward_slashes() -> None:
    lines = {
        'pwsh -NoProfile -ExecutionPolicy Bypass -Command "cd web; npm test"': "web",
        _powershell("Set-Location web; npm test"): "web",
        _powershell(r"cd .\web; npm test"): "web",
        _powershell(r"cd web\app; npm test"): "web/app",
        _powershell(r"Set-Location -Path web\app; npm test | Select-Object -Last 20"): "web/app",
        _powershell(r"cd ..\api; npm test"): "../api",
    }
    for text, folder in lines.items():
        cd, test = parse(text).steps
        assert (cd.joiner, test.directory, test.command.kind) == (";", folder, "test"), text


def test_a_folder_of_this_machine_is_no_folder_of_the_project() -> None:
    for target in (r"C:\Users\me\app", r"\temp", "$env:TEMP"):
        step = parse(_powershell(f"cd {target}; npm test")).steps[1]
        assert step.directory is None, target


def test_cmd_joins_with_ampersands_and_escapes_with_a_caret() -> None:
    cd, build = parse('cmd /c "cd web && npm run build"').steps
    assert (cd.joiner, build.directory, build.command.kind) == ("&&", "web", "build")
    cd, test = parse(r'cmd /c "cd /d web\app & npm test ^& echo"').steps
    assert (cd.joiner, test.directory) == (";", "web/app"), "`&` runs the next command after"
    assert test.command.words == ("npm", "test", "&", "echo")
    assert test.command.text == 'npm test "&" echo'


def test_the_call_operator_runs_a_script_it_does_not_send_a_job_to_the_background() -> None:
    line = parse(_powershell(r'& ".\scripts\build.ps1" -Release'))
    [step] = line.steps
    assert step.command.words == (r".\scripts\build.ps1", "-Release")
    assert (step.command.kind, step.joiner) == ("build", "")
    assert step.command.text == r".\scripts\build.ps1 -Release"
    [npm] = parse(_powershell(r'& "C:\Program Files\nodejs\npm.cmd" test')).commands
    assert (npm.kind, npm.text) == ("test", r'& "C:\Program Files\nodejs\npm.cmd" test')


def test_a_single_quoted_powershell_string_is_literal() -> None:
    [command] = parse(_powershell(r"Get-Content 'C:\Program Files\app\it''s.json'")).commands
    assert command.words == ("Get-Content", r"C:\Program Files\app\it's.json")
    assert command.text == 'Get-Content "C:\\Program Files\\app\\it\'s.json"'


def test_a_backtick_escapes_in_powershell_and_continues_a_line() -> None:
    [commit] = parse(_powershell('git commit -m "say `"hi`" `$HOME"')).commands
    assert commit.words == ("git", "commit", "-m", 'say "hi" $HOME')
    assert commit.text == 'git commit -m "say ""hi"" $HOME"'
    [test] = parse(_powershell("npm test `\n-- --ci")).commands
    assert test.words == ("npm", "test", "--", "--ci")
    # an escape that stands for a control character stays as typed: no control character in
    # a word, and the command reads back on one line
    [echo] = parse(_powershell('Write-Host "a`nb`e[31m"')).commands
    assert echo.words == ("Write-Host", "a`nb`e[31m")
    assert echo.text == 'Write-Host "a`nb`e[31m"'


def test_a_posix_venvs_interpreter_runs_modules_as_python_does() -> None:
    """One helper (`program.program_name`) names a program by any path to it, POSIX's too."""
    [command] = parse("./.venv/bin/python -m pytest -q").commands
    assert (command.kind, command.normal) == ("test", "./.venv/bin/python -m pytest")
    assert parse("python ./manage.py test").commands[0].kind == "test"


def test_djangos_tests_run_by_a_windows_path_to_manage_py() -> None:
    [command] = parse(_powershell(r"python .\manage.py test")).commands
    assert (command.kind, command.program) == ("test", (r".\manage.py", "test"))
    assert command.normal == r"python .\manage.py test"


def test_a_redirection_and_its_target_are_no_arguments_in_powershell() -> None:
    steps = parse(_powershell("npm test > out.txt 2>&1; npm run lint *> lint.txt 2>$null")).steps
    assert [(s.command.words, s.command.kind) for s in steps] == [
        (("npm", "test"), "test"),
        (("npm", "run", "lint"), "lint"),
    ]


def test_powershell_statements_and_pipelines() -> None:
    steps = parse(_powershell("npm ci && npm test || exit 1; # the end\nnpm run dev &")).steps
    assert [(s.command.text, s.joiner) for s in steps] == [
        ("npm ci", "&&"),
        ("npm test", "||"),
        ("exit 1", ";"),
        ("npm run dev", ""),
    ]
    [step] = parse(_powershell("Get-ChildItem | ForEach-Object { $_.Name; $_.Length }")).steps
    assert [f.text for f in step.filters] == ["ForEach-Object { $_.Name; $_.Length }"]


def test_a_posix_line_with_backslashes_reads_as_before() -> None:
    [command] = parse(r"bash -lc 'echo a\ b'").commands
    assert (command.words, command.text) == (("echo", "a b"), "echo 'a b'")


def test_a_windows_word_is_typed_back_in_double_quotes() -> None:
    """PowerShell runs a program named by a quoted path only after its call operator."""
    words = [r"C:\Program Files\nodejs\node.exe", r".\a.js", "", 'say "hi"', "(fix) a b"]
    assert joined(words, "cmd") == (
        r'"C:\Program Files\nodejs\node.exe" .\a.js "" "say ""hi""" "(fix) a b"'
    )
    expressions = ["(Get-Content -Raw 'a b.txt').Split(',')[0..2]", "%", "{ $_ }", "$s=@{ a = 1 }"]
    assert joined(expressions, "powershell") == " ".join(expressions)
    npm = [r"C:\Program Files\nodejs\npm.cmd", "test"]
    assert joined(npm, "cmd") == r'"C:\Program Files\nodejs\npm.cmd" test'
    assert joined(npm, "powershell") == r'& "C:\Program Files\nodejs\npm.cmd" test'


def test_a_memory_written_for_windows_is_read_as_written() -> None:
    memory = r".\.venv\Scripts\python -m pytest"
    assert written_for_windows(memory)
    assert not written_for_windows(r"grep -E 'a\.b' x.txt && echo \$HOME")
    assert memory_line(memory).commands[0].kind == "test"
    assert runs(_powershell(r".\.venv\Scripts\python -m pytest -q"), memory)
    assert runs(_powershell(r"cd web\app; npm test"), "cd web/app && npm test")
    subject = subject_of(f"`{memory}` runs the tests (worked in 1 session).")
    assert subject is not None
    assert (subject.command, subject.command_kind) == (memory, "test")
