"""What each tool is run for: one row per program or `program subcommand`, with the command
line it was written from. `kind_of_tool` reads the rows through two dictionaries, so a lookup
costs the same for ten rows or a thousand.

Kinds: `test`, `lint`, `format`, `typecheck`, `check` (a project's own gate: `mvn verify`,
`cargo deny`), `syntax` (compiles without running: `python -m py_compile`, `node --check`),
`build`, `generate`, `migrate` (applies the database migrations), `run` (starts the
application), `deploy`; `script` (a project script file) is read from the path, not from this
table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tool:
    """One row: the program (and subcommand) that says what a command is for."""

    words: tuple[str, ...]
    kind: str
    example: str


def _rows(kind: str, *pairs: tuple[str, str]) -> tuple[Tool, ...]:
    return tuple(Tool(tuple(words.split(" ")), kind, example) for words, example in pairs)


TOOLS: tuple[Tool, ...] = (
    *_rows(
        "test",
        ("pytest", "uv run pytest tests/test_x.py -q"),
        ("py.test", "py.test -x"),
        ("tox", "tox -e py"),
        ("nox", "nox -s tests"),
        ("jest", "npx jest src/cart.test.ts"),
        ("vitest", "yarn vitest run"),
        ("mocha", "npx mocha test/"),
        ("rspec", "bundle exec rspec spec/models"),
        ("phpunit", "vendor/bin/phpunit"),
        ("ctest", "ctest --output-on-failure"),
        ("ava", "npx ava"),
        ("bats", "bats test/"),
        ("unittest", "python -m unittest discover"),
        ("cargo test", "cargo test parse_header -- --nocapture"),
        ("cargo nextest", "cargo nextest run"),
        ("hatch test", "hatch test"),
        ("rye test", "rye test --all"),
        ("cargo llvm-cov", "cargo llvm-cov --html"),
        ("cargo insta", "cargo insta test"),
        ("go test", "cd go && go test -run TestX ./pkg/..."),
        ("playwright test", "npx playwright test"),
        ("cypress run", "npx cypress run"),
        ("dotnet test", "dotnet test"),
        ("mvn test", "mvn -q test"),
        ("gradle test", "gradle test"),
        ("./gradlew test", "./gradlew test"),
        ("manage.py test", "python manage.py test accounts"),
        ("rails test", "bin/rails test"),
        ("bin/rails test", "bin/rails test test/models"),
        ("mix test", "mix test"),
        ("swift test", "swift test"),
        ("deno test", "deno test -A"),
        ("composer test", "composer test"),
        ("artisan test", "php artisan test --parallel"),
        ("pest", "vendor/bin/pest"),
        ("./mvnw test", "./mvnw test"),
        ("node --test", "node --test test/"),
        ("karma", "npx karma start --single-run"),
        ("jasmine", "npx jasmine"),
        ("gotestsum", "gotestsum --format testname ./..."),
        ("behave", "behave features/"),
        ("busted", "busted spec/"),
        ("flutter test", "flutter test"),
        ("dart test", "dart test"),
        ("forge test", "forge test -vvv"),
        ("hardhat test", "npx hardhat test"),
        ("anchor test", "anchor test"),
        ("bazel test", "bazel test //..."),
        ("buck2 test", "buck2 test //..."),
        ("pants test", "pants test ::"),
        ("dune test", "dune test"),
        ("gleam test", "gleam test"),
        ("elm-test", "npx elm-test"),
        ("ng test", "npx ng test --watch=false"),
        ("sbt test", "sbt test"),
        ("lein test", "lein test"),
        ("stack test", "stack test"),
        ("cabal test", "cabal test"),
        ("meson test", "meson test -C build"),
        ("zig test", "zig test src/main.zig"),
    ),
    *_rows(
        "lint",
        ("flake8", "flake8 src"),
        ("pylint", "pylint src"),
        ("pyflakes", "pyflakes ."),
        ("eslint", "npx eslint src/a.tsx"),
        ("oxlint", "npx oxlint"),
        ("stylelint", "npx stylelint '**/*.css'"),
        ("golangci-lint", "golangci-lint run ./..."),
        ("staticcheck", "staticcheck ./..."),
        ("shellcheck", "shellcheck scripts/*.sh"),
        ("hadolint", "hadolint Dockerfile"),
        ("rubocop", "bundle exec rubocop"),
        ("cargo clippy", "cargo clippy --all-targets -- -D warnings"),
        ("cargo machete", "cargo machete"),
        ("cargo udeps", "cargo udeps"),
        ("go vet", "go vet ./..."),
        ("ruff check", "uv run ruff check src"),
        ("biome check", "npx biome check ."),
        ("biome lint", "npx biome lint"),
        ("next lint", "npx next lint"),
        ("buf lint", "buf lint"),
        ("mix credo", "mix credo"),
        ("deno lint", "deno lint"),
        ("ktlint", "ktlint"),
        ("detekt", "detekt"),
        ("swiftlint", "swiftlint"),
        ("pants lint", "pants lint ::"),
        ("yamllint", "yamllint ."),
        ("actionlint", "actionlint"),
        ("markdownlint", "npx markdownlint '**/*.md'"),
        ("markdownlint-cli2", "npx markdownlint-cli2 '**/*.md'"),
        ("tflint", "tflint"),
        ("ansible-lint", "ansible-lint"),
        ("helm lint", "helm lint charts/app"),
        ("sqlfluff lint", "sqlfluff lint models/"),
        ("clang-tidy", "clang-tidy src/a.cc"),
        ("cpplint", "cpplint src/a.cc"),
        ("luacheck", "luacheck ."),
        ("selene", "selene ."),
        ("codespell", "codespell"),
        ("bandit", "bandit -r src"),
        ("phpcs", "vendor/bin/phpcs"),
        ("dart analyze", "dart analyze"),
        ("flutter analyze", "flutter analyze"),
        ("ng lint", "npx ng lint"),
    ),
    *_rows(
        "format",
        ("black", "black --check ."),
        ("isort", "isort ."),
        ("autopep8", "autopep8 -i x.py"),
        ("yapf", "yapf -ir ."),
        ("prettier", "npx prettier --check ."),
        ("gofmt", "gofmt -l ."),
        ("goimports", "goimports -w ."),
        ("rustfmt", "rustfmt src/main.rs"),
        ("clang-format", "clang-format -i src/a.cc"),
        ("cargo fmt", "cargo fmt --check"),
        ("golangci-lint fmt", "golangci-lint fmt ./..."),
        ("go fmt", "go fmt ./..."),
        ("ruff format", "uv run ruff format src tests"),
        ("biome format", "npx biome format --write ."),
        ("dotnet format", "dotnet format"),
        ("mix format", "mix format"),
        ("deno fmt", "deno fmt"),
        ("shfmt", "shfmt -d ."),
        ("swiftformat", "swiftformat ."),
        ("dart format", "dart format ."),
        ("terraform fmt", "terraform fmt -recursive"),
        ("nixfmt", "nixfmt flake.nix"),
        ("alejandra", "alejandra ."),
        ("stylua", "stylua ."),
        ("php-cs-fixer", "vendor/bin/php-cs-fixer fix"),
        ("pint", "vendor/bin/pint"),
        ("taplo fmt", "taplo fmt"),
        ("zig fmt", "zig fmt src"),
        ("swift format", "swift format -i -r Sources"),
        ("gleam format", "gleam format"),
        ("dune fmt", "dune fmt"),
        ("pants fmt", "pants fmt ::"),
        ("dprint fmt", "dprint fmt"),
        ("buf format", "buf format -w"),
    ),
    *_rows(
        "typecheck",
        ("mypy", "mypy git_memory"),
        ("pyright", "npx pyright"),
        ("basedpyright", "basedpyright"),
        ("pytype", "pytype src"),
        ("tsc", "npx tsc --noEmit"),
        ("vue-tsc", "npx vue-tsc --noEmit"),
        ("svelte-check", "npx svelte-check"),
        ("cargo check", "cargo check"),
        ("mix dialyzer", "mix dialyzer"),
        ("deno check", "deno check main.ts"),
        ("ty check", "uv run ty check"),
        ("pyre check", "pyre check"),
        ("dmypy run", "dmypy run -- src"),
        ("flow check", "npx flow check"),
        ("phpstan", "vendor/bin/phpstan analyse"),
        ("psalm", "vendor/bin/psalm"),
        ("srb tc", "bundle exec srb tc"),
        ("steep check", "bundle exec steep check"),
        ("astro check", "npx astro check"),
        ("nuxi typecheck", "npx nuxi typecheck"),
    ),
    *_rows(
        "check",
        ("cargo deny", "mise x cargo:cargo-deny -- cargo deny check"),
        ("cargo audit", "cargo audit"),
        ("cargo hack", "cargo hack check --each-feature"),
        ("pre-commit run", "pre-commit run --all-files"),
        ("mvn verify", "mvn verify"),
        ("gradle check", "gradle check"),
        ("./gradlew check", "./gradlew check"),
        ("./mvnw verify", "./mvnw verify"),
        ("terraform validate", "terraform validate"),
        ("lefthook run", "lefthook run pre-commit"),
        ("pip-audit", "pip-audit"),
    ),
    *_rows(
        "syntax",
        ("py_compile", "python -m py_compile app.py"),
        ("compileall", "python -m compileall -q src"),
        ("node --check", "node --check server.js"),
        ("php -l", "php -l public/index.php"),
        ("bash -n", "bash -n scripts/deploy.sh"),
    ),
    *_rows(
        "build",
        ("build", "python -m build"),
        ("webpack", "npx webpack"),
        ("rollup", "npx rollup -c"),
        ("esbuild", "npx esbuild src/index.ts --bundle"),
        ("cargo build", "timeout 300 cargo build --release"),
        ("cargo doc", "cargo doc --no-deps"),
        ("go build", "go build ./cmd/entire/cli/settings/"),
        ("uv build", "uv build"),
        ("poetry build", "poetry build"),
        ("hatch build", "hatch build"),
        ("vite build", "npx vite build"),
        ("next build", "npx next build"),
        ("nest build", "npx nest build"),
        ("dotnet build", "dotnet build"),
        ("mvn package", "mvn package -DskipTests"),
        ("gradle build", "gradle build"),
        ("./gradlew build", "./gradlew build"),
        ("mix compile", "mix compile"),
        ("swift build", "swift build"),
        ("zig build", "zig build"),
        ("cmake --build", "cmake --build build"),
        ("./mvnw package", "./mvnw package -DskipTests"),
        ("mvn install", "mvn -q install -DskipTests"),
        ("mvn compile", "mvn compile"),
        ("gradle assemble", "gradle assemble"),
        ("./gradlew assemble", "./gradlew assemble"),
        ("ng build", "npx ng build"),
        ("nuxt build", "npx nuxt build"),
        ("nuxi build", "npx nuxi build"),
        ("astro build", "npx astro build"),
        ("flutter build", "flutter build apk"),
        ("bazel build", "bazel build //..."),
        ("buck2 build", "buck2 build //..."),
        ("dune build", "dune build"),
        ("gleam build", "gleam build"),
        ("sbt compile", "sbt compile"),
        ("stack build", "stack build"),
        ("cabal build", "cabal build"),
        ("meson compile", "meson compile -C build"),
        ("parcel build", "npx parcel build src/index.html"),
        ("tsup", "npx tsup"),
        ("mkdocs build", "mkdocs build --strict"),
        ("sphinx-build", "sphinx-build -b html docs docs/_build"),
        ("jekyll build", "bundle exec jekyll build"),
        ("wasm-pack build", "wasm-pack build --target web"),
        ("maturin build", "maturin build --release"),
        ("maturin develop", "maturin develop"),
        ("docker build", "docker build -t app ."),
    ),
    *_rows(
        "generate",
        ("protoc", "protoc --go_out=. api.proto"),
        ("sqlc", "sqlc generate"),
        ("go generate", "go generate ./..."),
        ("buf generate", "buf generate"),
        ("prisma generate", "pnpm --filter @acme/db exec prisma generate"),
        ("manage.py makemigrations", "python manage.py makemigrations accounts"),
        ("alembic revision", "uv run alembic revision --autogenerate -m 'add users'"),
        ("drizzle-kit generate", "npx drizzle-kit generate"),
        ("graphql-codegen", "npx graphql-codegen"),
        ("supabase gen", "supabase gen types typescript --local"),
    ),
    *_rows(
        "migrate",
        ("alembic upgrade", "uv run alembic upgrade head"),
        ("manage.py migrate", "python manage.py migrate"),
        ("artisan migrate", "php artisan migrate"),
        ("rails db:migrate", "rails db:migrate"),
        ("bin/rails db:migrate", "bin/rails db:migrate"),
        ("prisma migrate", "npx prisma migrate deploy"),
        ("prisma db", "npx prisma db push"),
        ("drizzle-kit migrate", "npx drizzle-kit migrate"),
        ("drizzle-kit push", "npx drizzle-kit push"),
        ("sqlx migrate", "sqlx migrate run"),
        ("diesel migration", "diesel migration run"),
        ("goose", "goose up"),
        ("dbmate", "dbmate up"),
        ("mix ecto.migrate", "mix ecto.migrate"),
        ("knex migrate:latest", "npx knex migrate:latest"),
    ),
    *_rows(
        "run",
        ("uvicorn", "uvicorn app.main:app --reload"),
        ("gunicorn", "gunicorn app:app"),
        ("flask", "flask run"),
        ("cargo run", "cargo run --release"),
        ("go run", "go run ./cmd/server"),
        ("next dev", "npx next dev"),
        ("vite dev", "npx vite dev"),
        ("manage.py runserver", "python manage.py runserver"),
        ("mix phx.server", "mix phx.server"),
        ("artisan serve", "php artisan serve"),
        ("rails server", "bin/rails server"),
        ("bin/rails server", "bin/rails server -p 3001"),
        ("dotnet run", "dotnet run --project src/Api"),
        ("streamlit run", "streamlit run app.py"),
        ("fastapi dev", "fastapi dev app/main.py"),
        ("ng serve", "npx ng serve"),
        ("nuxt dev", "npx nuxt dev"),
        ("nuxi dev", "npx nuxi dev"),
        ("astro dev", "npx astro dev"),
        ("expo start", "npx expo start"),
        ("flutter run", "flutter run -d chrome"),
        ("swift run", "swift run"),
        ("bazel run", "bazel run //app:server"),
        ("gleam run", "gleam run"),
        ("hugo server", "hugo server -D"),
        ("mkdocs serve", "mkdocs serve"),
        ("wrangler dev", "npx wrangler dev"),
    ),
    *_rows(
        "deploy",
        ("firebase deploy", "firebase deploy --only hosting"),
        ("netlify deploy", "netlify deploy --prod"),
        ("wrangler deploy", "npx wrangler deploy"),
        ("fly deploy", "fly deploy"),
        ("flyctl deploy", "flyctl deploy"),
        ("vercel deploy", "vercel deploy --prod"),
        ("cdk deploy", "npx cdk deploy"),
        ("sam deploy", "sam deploy"),
        ("serverless deploy", "npx serverless deploy"),
        ("sls deploy", "sls deploy --stage prod"),
        ("railway up", "railway up"),
        ("pulumi up", "pulumi up --yes"),
        ("kamal deploy", "kamal deploy"),
    ),
)

# Build systems whose step or target names what a run is for (`zig build test`, `ninja -C
# build test`, `cmake --build build --target test`, `swift format lint`): the first word after
# the program (and subcommand), or the option naming the target; with none of a known kind,
# the kind of the row.
BUILD_STEPS: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    ("zig", "build"): (frozenset(), "build"),
    ("ninja", ""): (frozenset(), "build"),
    ("cmake", "--build"): (frozenset(["--target", "-t"]), "build"),
    ("swift", "format"): (frozenset(), "format"),
}

# program -> kind, and (program, subcommand) -> kind: the rows as the lookups read them.
PROGRAMS: dict[str, str] = {tool.words[0]: tool.kind for tool in TOOLS if len(tool.words) == 1}
SUBCOMMANDS: dict[tuple[str, str], str] = {
    (tool.words[0], tool.words[1]): tool.kind for tool in TOOLS if len(tool.words) == 2
}
# Test-environment runners whose session or environment name may say more (`nox -s lint`,
# `tox -e typing`): the option that names it.
SESSION_OPTIONS = {"tox": frozenset(["-e"]), "nox": frozenset(["-s", "--session", "-e"])}
# Programs whose own name is not enough (`build` and `flask` only with nothing or `run` after;
# `golangci-lint cache clean` or `golangci-lint linters` lint nothing).
PROGRAM_ONLY_WITH = {
    "build": frozenset(["", "run"]),
    "flask": frozenset(["", "run"]),
    "golangci-lint": frozenset(["", "run"]),
    "goose": frozenset(["up"]),
    "dbmate": frozenset(["up", "migrate"]),
    "karma": frozenset(["", "start"]),
}

# Words in a script or task name that say what it is for (`make types`, `mise run fmt`,
# `npm run typecheck`, `./gradlew spotlessCheck`), the first matching kind wins.
SCRIPT_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "typecheck",
        frozenset(["typecheck", "types", "tsc", "mypy", "pyright", "typing", "phpstan", "psalm"]),
    ),
    ("format", frozenset(["format", "fmt", "prettier", "black", "formatting", "spotless"])),
    ("lint", frozenset(["lint", "eslint", "clippy", "vet", "stylelint", "ruff", "linter"])),
    (
        "test",
        frozenset(
            ["test", "tests", "spec", "specs", "e2e", "integration", "unit", "t", "runtests"]
        ),
    ),
    ("generate", frozenset(["generate", "gen", "codegen", "proto", "protos", "openapi"])),
    ("migrate", frozenset(["migrate"])),
    ("syntax", frozenset(["syntax"])),
    ("build", frozenset(["build", "compile", "dist", "bundle"])),
    (
        "check",
        frozenset(["check", "ci", "verify", "validate", "precommit", "pre-commit", "preflight"]),
    ),
    ("run", frozenset(["dev", "start", "serve", "server", "run", "watch"])),
)
# The kinds a script named `X-and-type-check` runs besides the type check.
_CHECKED_WITH_TYPES = frozenset(["test", "tests", "lint", "format", "fmt"])
# Task runners: the name after them is a target or script of the project (`make test`,
# `just lint`, `mise run fmt`, `task build`, `npm run typecheck`, `./gradlew check`).
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
        "lerna",
        "pixi",
        "deno",
        "composer",
    ]
)
PACKAGE_MANAGERS = frozenset(["npm", "pnpm", "yarn", "bun"])
# Scripts a package manager runs without `run` (`npm test`, `yarn build`).
PM_BUILTINS = {"test": "test", "t": "test", "start": "run", "build": "build"}
# Programs that are version control, and programs that only look around.
VCS = frozenset(["git", "gh", "glab", "hg", "jj", "svn"])
NAVIGATION = frozenset(
    """cd pushd popd ls ll la pwd cat head tail less more grep rg ag find fd tree wc sed awk
    diff echo printf which type file stat du df sort uniq cut tr jq yq xargs Set-Location
    Get-ChildItem Get-Content Select-String""".split()  # noqa: SIM905 (a list of words)
)


def kind_of_tool(program: str, second: str) -> str | None:
    """The kind of `program second…` by the table (`go test` → test, `mypy` → typecheck)."""
    found = SUBCOMMANDS.get((program, second))
    if found is not None:
        return found
    kind = PROGRAMS.get(program)
    if kind is None or second not in PROGRAM_ONLY_WITH.get(program, frozenset([second])):
        return None
    return kind


def script_kind(parts: list[str] | tuple[str, ...]) -> str | None:
    """The kind a script or task name's words say (`test-integration` → test)."""
    found = set(parts)
    # `npm run type-check`, `type-check:ci`: not the project's whole gate, unless it runs
    # another kind of check with it (`test-and-type-check`)
    with_other = "and" in found and bool(found & _CHECKED_WITH_TYPES)
    if "type" in found and found & {"check", "checks", "checking"} and not with_other:
        return "typecheck"
    if found & {"verify", "validate", "check"} and found & {"spec", "specs"}:
        return "check"  # `verify_spec.py` checks a specification
    if "migrate" in found and found & {"make", "create", "new", "generate", "revision"}:
        return "generate"  # `migrate:make` writes a migration; `db:migrate` applies them
    for kind, words in SCRIPT_WORDS:
        if found & words:
            return kind
    return None
