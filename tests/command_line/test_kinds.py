"""What a command is run for, beyond the table's own examples (`test_line.py`): script names,
framework entry points, syntax checks (issue 39 item 2)."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin import shell


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("npm run db:migrate", "migrate"),
        ("rake db:migrate", "migrate"),
        ("uv run python manage.py migrate", "migrate"),
        ("./artisan migrate", "migrate"),
        ("php artisan test", "test"),
        ("npm run migrate:make", "generate"),
        ("yarn migration:generate", "generate"),
        ("python manage.py makemigrations", "generate"),
        ("make syntax", "syntax"),
        ("goose status", None),
        ("npx tsup src/index.ts", "build"),
        ("php -l", "syntax"),
        # the scripts and tasks of more runners, and the one target of a monorepo's run
        ("yarn workspace web test", "test"),
        ("lerna run test", "test"),
        ("pixi run test", "test"),
        ("deno task test", "test"),
        ("composer phpstan", "typecheck"),
        ("composer install", None),
        ("hatch test", "test"),
        ("rye test", "test"),
        ("npx nx run-many -t test", "test"),
        ("nx affected --target=lint", "lint"),
        ("nx run-many -t lint,test", None),
        ("npm run type-check", "typecheck"),
        ("npm run type-check:ci", "typecheck"),
        ("npm run type-check:build", "typecheck"),
        ("npm run test-and-type-check", "test"),
        ("npm run lint-and-type-check", "lint"),
        ("swift test --filter format", "test"),  # `format` is the filter's value
        ("swift build --product format", "build"),
        ("ninja -j 8 test", "test"),
        ("ninja -C build -j 4 test", "test"),
        ("yarn typeCheck", "typecheck"),
        ("npm run check", "check"),
        # a build system's step or target says what the run is for; none of a known kind builds
        ("zig build test", "test"),
        ("zig build test --summary all", "test"),
        ("zig build run", "run"),
        ("zig build -Doptimize=ReleaseFast", "build"),
        ("ninja -C build test", "test"),
        ("ninja -C build", "build"),
        ("cmake --build build --target test", "test"),
        ("cmake --build build", "build"),
        ("cmake -S . -B build", None),
        ("swift format lint --recursive Sources", "lint"),
        ("swift format -i -r Sources", "format"),
        # more build systems' own subcommands
        ("bazel run //app:server", "run"),
        ("buck2 test //...", "test"),
        ("pants lint ::", "lint"),
        ("dune build", "build"),
        ("gleam test", "test"),
        ("npx elm-test", "test"),
    ],
)
def test_script_names_and_framework_entry_points(command: str, kind: str | None) -> None:
    assert shell.command_kind(command) == kind


@pytest.mark.parametrize(
    "command",
    [
        "python -m py_compile demo.py pipeline/*.py",
        "node --check server.js",
        "bash -n scripts/model_server.sh",
        "php -l public/index.php",
    ],
)
def test_a_syntax_check_keeps_the_files_it_checks(command: str) -> None:
    (segment,) = shell.segments(command)
    assert (segment.kind, segment.normal, segment.narrowed) == ("syntax", command, False)


@pytest.mark.parametrize(
    ("command", "normal"),
    [
        ("swift format -i -r Sources", "swift format -i -r Sources"),
        ("shfmt -w -i 2 scripts", "shfmt -w -i 2 scripts"),
        ("npx jest -i", "npx jest"),
    ],
)
def test_a_formatters_in_place_switch_is_its_command(command: str, normal: str) -> None:
    # `-i` writes the files a formatter formats (or, for shfmt, sets the indent): without it
    # the memory's command would print the formatted code and change nothing.
    (segment,) = shell.segments(command)
    assert segment.normal == normal


def test_a_servers_reload_switch_folds_into_the_command_it_starts() -> None:
    # `--reload` restarts the same application on a change: one memory for both runs
    runs = ["uvicorn app.main:app --port 8000 --reload", "uvicorn app.main:app --port 8000"]
    assert {shell.segments(run)[0].normal for run in runs} == {"uvicorn app.main:app --port 8000"}
    (segment,) = shell.segments("pytest --reload")  # no server: nothing folds
    assert segment.kind == "test"
