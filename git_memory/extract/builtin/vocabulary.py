"""The words the builtin extractor knows commands by: programs, subcommands, script names,
runner wrappers and setup steps. Tables only; `shell` reads them."""

from __future__ import annotations

import re

WRAPPERS: tuple[tuple[str, ...], ...] = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("hatch", "run"),
    ("pdm", "run"),
    ("rye", "run"),
    ("pnpm", "exec"),
    ("pnpm", "dlx"),
    ("yarn", "dlx"),
    ("npm", "exec"),
    ("bundle", "exec"),
    ("python", "-m"),
    ("python3", "-m"),
    ("npx",),
    ("bunx",),
    ("mise", "exec"),
    ("mise", "x"),
)
# Options of a wrapper that take a value (`uv run --with pytest-cov pytest`).
WRAPPER_OPTIONS = frozenset(
    [
        "--with",
        "--extra",
        "--group",
        "--only-group",
        "--package",
        "-p",
        "--directory",
        "--project",
        "--python",
        "--env-file",
        "--env",
        "-e",
    ]
)
# Running a command in a container: what follows the service is the command.
CONTAINER_RUNS: tuple[tuple[str, ...], ...] = (
    ("docker", "compose", "run"),
    ("docker", "compose", "exec"),
    ("docker-compose", "run"),
    ("docker-compose", "exec"),
    ("docker", "exec"),
    ("podman", "exec"),
)
CONTAINER_OPTIONS = frozenset(
    [
        "-e",
        "--env",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "--entrypoint",
        "--name",
        "-v",
        "--volume",
        "-p",
        "--publish",
        "--env-file",
    ]
)
# Script runners' options that take a value (`pnpm --filter web test`, `make -C api test`).
RUNNER_OPTIONS = frozenset(
    [
        "--filter",
        "-F",
        "-C",
        "--dir",
        "--prefix",
        "--workspace",
        "--cwd",
        "-f",
        "--file",
        "--directory",
        "--makefile",
        "--justfile",
    ]
)
# A run that only asks for a version or help is not the command doing its job.
INFO_FLAGS = frozenset(["--version", "-V", "--help", "-h", "version", "help"])
# Wrappers that change nothing about what runs: left out of the normal form too.
TRANSPARENT = frozenset(["time", "env", "nice", "command", "exec", "noglob", "sudo"])
SCRIPT_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("typecheck", frozenset(["typecheck", "types", "tsc", "mypy", "pyright", "typing"])),
    ("format", frozenset(["format", "fmt", "prettier", "black", "formatting", "spotless"])),
    ("lint", frozenset(["lint", "eslint", "clippy", "vet", "stylelint", "ruff", "linter"])),
    (
        "test",
        frozenset(
            ["test", "tests", "spec", "specs", "e2e", "integration", "unit", "t", "runtests"]
        ),
    ),
    ("generate", frozenset(["generate", "gen", "codegen", "proto", "protos", "openapi"])),
    ("build", frozenset(["build", "compile", "dist", "bundle"])),
    (
        "check",
        frozenset(["check", "ci", "verify", "validate", "precommit", "pre-commit", "preflight"]),
    ),
    ("run", frozenset(["dev", "start", "serve", "server", "run", "watch"])),
)
SCRIPT_RUNNERS = frozenset(
    [
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "make",
        "just",
        "task",
        "mise",
        "rake",
        "gradle",
        "gradlew",
        "turbo",
        "nx",
    ]
)
PM_BUILTINS = {
    "test": "test",
    "t": "test",
    "start": "run",
    "build": "build",
}
PROGRAMS: dict[str, str] = {
    "pytest": "test",
    "py.test": "test",
    "tox": "test",
    "nox": "test",
    "jest": "test",
    "vitest": "test",
    "mocha": "test",
    "rspec": "test",
    "phpunit": "test",
    "ctest": "test",
    "ava": "test",
    "bats": "test",
    "unittest": "test",
    "flake8": "lint",
    "pylint": "lint",
    "pyflakes": "lint",
    "eslint": "lint",
    "oxlint": "lint",
    "stylelint": "lint",
    "golangci-lint": "lint",
    "staticcheck": "lint",
    "shellcheck": "lint",
    "hadolint": "lint",
    "rubocop": "lint",
    "black": "format",
    "isort": "format",
    "autopep8": "format",
    "yapf": "format",
    "prettier": "format",
    "gofmt": "format",
    "goimports": "format",
    "rustfmt": "format",
    "clang-format": "format",
    "mypy": "typecheck",
    "pyright": "typecheck",
    "basedpyright": "typecheck",
    "pytype": "typecheck",
    "tsc": "typecheck",
    "vue-tsc": "typecheck",
    "svelte-check": "typecheck",
    "build": "build",
    "webpack": "build",
    "rollup": "build",
    "esbuild": "build",
    "protoc": "generate",
    "sqlc": "generate",
    "uvicorn": "run",
    "gunicorn": "run",
    "flask": "run",
}
# (program, subcommand) pairs and what they are.
SUBCOMMANDS: dict[tuple[str, str], str] = {
    # Hosting CLIs: how the project is deployed.
    **{(cli, "deploy"): "deploy" for cli in ("firebase", "netlify", "wrangler", "fly", "flyctl")},
    ("vercel", "deploy"): "deploy",
    ("cargo", "test"): "test",
    ("cargo", "nextest"): "test",
    ("cargo", "clippy"): "lint",
    ("cargo", "fmt"): "format",
    ("cargo", "check"): "typecheck",
    ("cargo", "build"): "build",
    ("cargo", "run"): "run",
    ("cargo", "deny"): "check",
    ("cargo", "audit"): "check",
    ("cargo", "hack"): "check",
    ("cargo", "machete"): "lint",
    ("cargo", "udeps"): "lint",
    ("cargo", "doc"): "build",
    ("cargo", "llvm-cov"): "test",
    ("cargo", "insta"): "test",
    ("go", "test"): "test",
    ("go", "vet"): "lint",
    ("go", "fmt"): "format",
    ("go", "build"): "build",
    ("go", "generate"): "generate",
    ("go", "run"): "run",
    ("ruff", "check"): "lint",
    ("ruff", "format"): "format",
    ("biome", "check"): "lint",
    ("biome", "lint"): "lint",
    ("biome", "format"): "format",
    ("pre-commit", "run"): "check",
    ("uv", "build"): "build",
    ("poetry", "build"): "build",
    ("hatch", "build"): "build",
    ("vite", "build"): "build",
    ("next", "build"): "build",
    ("next", "lint"): "lint",
    ("next", "dev"): "run",
    ("vite", "dev"): "run",
    ("buf", "generate"): "generate",
    ("buf", "lint"): "lint",
    ("prisma", "generate"): "generate",
    ("playwright", "test"): "test",
    ("cypress", "run"): "test",
    ("dotnet", "test"): "test",
    ("dotnet", "build"): "build",
    ("dotnet", "format"): "format",
    ("mvn", "test"): "test",
    ("mvn", "verify"): "check",
    ("mvn", "package"): "build",
    ("gradle", "test"): "test",
    ("gradle", "build"): "build",
    ("./gradlew", "test"): "test",
    ("./gradlew", "build"): "build",
    ("manage.py", "test"): "test",
    ("manage.py", "runserver"): "run",
    ("rails", "test"): "test",
    ("bin/rails", "test"): "test",
    ("mix", "test"): "test",
    ("mix", "format"): "format",
    ("mix", "compile"): "build",
    ("mix", "credo"): "lint",
    ("mix", "dialyzer"): "typecheck",
    ("mix", "phx.server"): "run",
    ("swift", "test"): "test",
    ("swift", "build"): "build",
    ("zig", "build"): "build",
    ("cmake", "--build"): "build",
    ("deno", "test"): "test",
    ("deno", "lint"): "lint",
    ("deno", "fmt"): "format",
    ("deno", "check"): "typecheck",
}
SETUP: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"^(npm|pnpm|yarn|bun)( (install|i|ci|add)\b.*)?$",
        r"^(uv (sync|add|pip install|venv|lock)|pip3? install|poetry (install|add|lock)"
        r"|pipenv install|pdm (install|add)|hatch env create|python3? -m venv|virtualenv)\b",
        r"^(go (mod (download|tidy|vendor)|get|install)|cargo (fetch|add|install)"
        r"|rustup (target|component|toolchain) add|bundle install|gem install|composer install"
        r"|mix deps\.get|dotnet restore|swift package resolve)\b",
        r"^(docker[- ]compose|podman[- ]compose) (up|start|run)\b|^docker (run|start)\b",
        r"^(brew services start|pg_ctl|redis-server|systemctl start|service \S+ start)\b",
        r"^(apt-get|apt|brew|dnf|yum|apk|pacman|port|choco|winget) (install|add|-S)\b",
        r"^(alembic upgrade|prisma (migrate|db push)|diesel migration run|sqlx migrate run"
        r"|dbmate up|goose up|rails db:\w+|rake db:\w+|manage\.py migrate|flask db upgrade)\b",
        r"^(export|source|\.|nvm (use|install)|corepack enable|direnv allow|pyenv (local|install)"
        r"|cp \S*\.env\S* \S*\.env\S*|cp \S*example\S* \S+|playwright install)\b",
        r"^(sdk use|jenv (local|shell|global)|asdf (install|local|set)|mise (use|install)"
        r"|volta (install|pin)|rbenv (local|install)|fnm use)\b",
        r"^(make|just|task|npm run|pnpm run|pnpm|yarn|bun run) (deps|install|setup|bootstrap|up"
        r"|db|services|migrate|db-up|db:up|env|venv|init)\b",
    )
)

# Flags that only change how a run reports (dropped), and flags whose value narrows a run to
# a subset (dropped with their value).
COSMETIC = re.compile(
    r"^(-q+|-v+|-s|-x|--quiet|--verbose|--silent|--no-header|-r[a-zA-Z]+|--tb(=.*)?|--color(=.*)?"
    r"|--colors|--no-color|--maxfail(=.*)?|--lf|--ff|--last-failed|--failed-first|--durations(=.*)?"
    r"|-count=\d+|--ci|--watchAll=false|--watch=false|--run|--reporter(=.*)?|--nocapture"
    r"|--show-output|--no-fail-fast|--runInBand|-i|--pretty|--show-error-codes|--no-cache)$"
)
NARROWING_VALUE = frozenset(
    [
        "-k",
        "--tests",
        "--deselect",
        "-t",
        "--testNamePattern",
        "-run",
        "--run",
        "--grep",
        "-g",
        "--test",
        "-p",
        "--package",
        "--bin",
        "--example",
        "--lib-name",
        "--filter",
        "--project",
        "-n",
    ]
)
# Interpreters that run a script file of the repository (`python scripts/x.py`, `node x.js`).
INTERPRETERS = frozenset(
    ["bash", "sh", "zsh", "python", "python3", "node", "php", "ruby", "perl", "tsx", "ts-node"]
)
SCRIPT_FILE = re.compile(r"\.(sh|bash|py|js|mjs|cjs|ts|php|rb|pl)$")
# Folders whose scripts are the project's own tools; a script elsewhere must be a shell
# script run by path (`./preflight.sh`) to count (a `python x.py` at the top is a one-off).
SCRIPT_DIRS = ("scripts/", "script/", "bin/", "tools/", "tests/", "test/", "ci/", "dev/", "hack/")
DEFAULT_TARGET = {"ruff": ".", "black": ".", "isort": ".", "prettier": ".", "eslint": "."}
