"""The words around a program: wrappers that run it, options that take a value, flags that
only decorate a run or narrow it, and the setup steps a project needs. Tables only; `program`
and `forms` read them.
"""

from __future__ import annotations

import re

# Wrappers that run the command after them (`uv run pytest`, `npx eslint`, `python -m mypy`,
# `mise exec -- cargo deny`, `bundle exec rspec`); kept in the text a person reuses.
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
    # Environments a command runs inside: a conda environment, a Nix or devbox shell, direnv.
    ("conda", "run"),
    ("mamba", "run"),
    ("micromamba", "run"),
    ("nix", "develop"),
    ("nix", "shell"),
    ("devbox", "run"),
    ("direnv", "exec"),
)
# Environment wrappers whose command follows a marker word, after what names the environment
# (`nix develop .#rust -c cargo test`).
COMMAND_AFTER: dict[tuple[str, ...], tuple[str, ...]] = {
    ("nix", "develop"): ("-c", "--command"),
    ("nix", "shell"): ("-c", "--command"),
}
# Environment wrappers whose first word after their options names the environment
# (`direnv exec . pytest`).
ENVIRONMENT_NAMED = frozenset([("direnv", "exec")])
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
# Options that take a value of one wrapper only (`conda run -n ml pytest`; `uv run -n` is
# `--no-cache`, a switch).
OWN_WRAPPER_OPTIONS: dict[tuple[str, ...], frozenset[str]] = {
    wrapper: frozenset(["-n", "--name", "-p", "--prefix"])
    for wrapper in (("conda", "run"), ("mamba", "run"), ("micromamba", "run"))
}
# Running a command in a container: what follows the service is the command
# (`docker compose exec api pytest`).
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
# Nor is one that only lists, plans or compiles what it would run (`cargo test --no-run`
# builds the tests, `pytest --collect-only` lists them, `--dry-run` changes nothing).
DRY_FLAGS = frozenset(
    ["--no-run", "--collect-only", "--co", "--dry-run", "--list", "--list-tests", "--listTests"]
)
# Prefixes that change nothing about what runs (`time`, `env`, `sudo`, `nice`): left out of
# the normal form, and `timeout N` with its options.
TRANSPARENT = frozenset(["time", "env", "nice", "command", "exec", "noglob", "sudo", "nohup"])
TIMEOUT_OPTIONS = frozenset(["-s", "--signal", "-k"])
# Options of those prefixes that take a value (`sudo -u app`, `nice -n 10`, `env -u HOME`).
PREFIX_OPTIONS = frozenset(["-u", "-g", "-n", "-C", "-h", "-p", "--user", "--group", "--unset"])
# Shells whose `-c` string is itself a command line (`bash -lc 'cd api && make test'`).
SHELLS = frozenset(["bash", "sh", "zsh", "dash"])
# Windows shells and the switch after which the rest of their words is the command line they
# run (`powershell.exe -NoProfile -Command "npm test"`, `cmd /c "npm test"`).
COMMAND_STRING = {
    "powershell": frozenset(["-command", "-c"]),
    "pwsh": frozenset(["-command", "-c"]),
    "cmd": frozenset(["/c", "/k"]),
}
# Their options that take a value (`-ExecutionPolicy Bypass`).
COMMAND_STRING_VALUED = frozenset(
    [
        *("-executionpolicy", "-ep", "-windowstyle", "-version", "-inputformat"),
        *("-outputformat", "-configurationname", "-workingdirectory", "-wd", "-settingsfile"),
    ]
)
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
        # (`.` is the shell's `source` only as a word of its own, not `.venv/bin/python`)
        r"^\. |^(export|source|nvm (use|install)|corepack enable|direnv allow"
        r"|pyenv (local|install)|cp \S*\.env\S* \S*\.env\S*|cp \S*example\S* \S+"
        r"|playwright install|chmod (?:[ua]?\+x|755) \S+)(?:\s|$)",
        r"^(sdk use|jenv (local|shell|global)|asdf (install|local|set)|mise (use|install)"
        r"|volta (install|pin)|rbenv (local|install)|fnm use)\b",
        r"^(make|just|task|npm run|pnpm run|pnpm|yarn|bun run) (deps|install|setup|bootstrap|up"
        r"|db|services|migrate|db-up|db:up|env|venv|init)\b",
    )
)

# Flags that only change how a run reports (decoration: dropped from the normal form).
COSMETIC = re.compile(
    r"^(-q+|-v+|-s|-x|--quiet|--verbose|--silent|--no-header|-r[a-zA-Z]+|--tb(=.*)?|--color(=.*)?"
    r"|--colors|--no-color|--maxfail(=.*)?|--lf|--ff|--last-failed|--failed-first|--durations(=.*)?"
    r"|-count=\d+|--ci|--watchAll=false|--watch=false|--run|--reporter(=.*)?|--nocapture"
    r"|--show-output|--no-fail-fast|--runInBand|-i|--pretty|--show-error-codes|--no-cache"
    # MSBuild and the dotnet CLI: console logger, logo, verbosity and terminal logger switches.
    r"|(?i:[-/](?:clp|consoleloggerparameters|verbosity|tl|terminallogger)(?::\S+)?|/v:\w+"
    r"|-v:\w+|[-/]nologo|--nologo|--verbosity=\w+)"
    # Maven, Gradle and cargo: batch mode, transfer progress, console and message format.
    r"|-B|--batch-mode|-ntp|--no-transfer-progress|--console=\w+|--warning-mode=\w+"
    r"|--message-format=[\w-]+)$",
)
# A formatter's switch to write the files it formats (`swift format -i`, `clang-format -i`),
# which elsewhere only decorates a run (`jest -i`, as `--runInBand`).
IN_PLACE = frozenset(["-i", "--in-place", "--inplace"])
# A server's switch to restart when the code changes (`uvicorn app:app --reload`): the same
# application started, one memory with the run without it.
AUTO_RELOAD = frozenset(["--reload", "--reload=true"])
# Debug switches: decoration of any command (`--debug`, `-vvv`, `--log-level=debug`).
DEBUG = re.compile(r"^(--debug|-d{1,3}|-v{2,}|--trace|--log-level(=\w+)?|--loglevel(=\w+)?)$")
# Flags whose value narrows a run to a subset (dropped with their value).
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
# Where one of those flags means something else: the project a type checker reads
# (`npx tsc -p tsconfig.json --noEmit`) is part of the command, not a subset of a run.
KEPT_VALUE = {
    "tsc": frozenset(["-p", "--project"]),
    "vue-tsc": frozenset(["-p", "--project"]),
    "mypy": frozenset(["-p", "--package"]),
}
# The same flags written with `=` (`-run=TestX`, `--testNamePattern=slow`).
NARROWING_ASSIGNED = re.compile(r"^(-k|--deselect|-run|--testNamePattern|--grep|--test|-t)=")
# Flags whose value names tests (their value's shape is a test name).
TEST_VALUE = frozenset(["-k", "-run", "--testNamePattern", "-t", "--grep", "-g", "--test"])
# Interpreters that run a script file of the repository (`python scripts/x.py`, `node x.js`).
INTERPRETERS = frozenset(
    ["bash", "sh", "zsh", "python", "python3", "node", "php", "ruby", "perl", "tsx", "ts-node"]
)
# A framework's command file at the project's root, run by its interpreter: what follows is
# the framework's subcommand (`python manage.py migrate`, `php artisan test`).
ENTRY_POINTS = frozenset(["manage.py", "artisan", "gradlew", "mvnw"])
SCRIPT_FILE = re.compile(r"\.(sh|bash|py|js|mjs|cjs|ts|php|rb|pl|ps1|cmd|bat)$")
SOURCE_FILE = re.compile(
    r"\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|rs|go|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|ex|exs|"
    r"vue|svelte|md|json|toml|yaml|yml|css|scss|sh)$"
)
# A folder a memory names only as a plain path: no control character, quote or shell syntax.
UNPLAIN_FOLDER = re.compile(r"[\x00-\x1f\x7f'\"`$;&|<>*?]")
# The folders coding agents keep their own settings, skills and commands in: what runs there
# is the agent's tooling, not the project's.
AGENT_FOLDERS = frozenset(
    [".claude", ".codex", ".gemini", ".qwen", ".cursor", ".opencode", ".agent", ".agents"]
)
# The folders of a home where installed programs live (`AppData/Local/Programs/…/code.cmd`,
# `.local/bin/…`): met inside a worktree only when the worktree is a home (a dotfiles
# repository), and what runs there is the machine's, not the project's.
INSTALLED_FOLDERS = (
    *("AppData/", ".local/", ".cargo/", ".rustup/", ".nvm/", ".pyenv/", ".rbenv/", ".sdkman/"),
    *("scoop/", "go/bin/", "Library/", ".volta/", ".bun/", ".deno/"),
)
# Folders whose scripts are the project's own tools; a script elsewhere must be a shell
# script run by path (`./preflight.sh`) to count (a `python x.py` at the top is a one-off).
SCRIPT_DIRS = ("scripts/", "script/", "bin/", "tools/", "tests/", "test/", "ci/", "dev/", "hack/")
DEFAULT_TARGET = {"ruff": ".", "black": ".", "isort": ".", "prettier": ".", "eslint": "."}
# Programs whose first word after them is a subcommand (`go test`, `cargo test`, `ruff check`).
SUBCOMMAND_PROGRAMS = frozenset(["go", "cargo", "ruff", "biome", "dotnet", "mvn", "deno"])
