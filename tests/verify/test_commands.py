"""What commands named in memory text need: the grammar, and the manifests read once."""

from __future__ import annotations

from pathlib import Path

import pytest

from git_memory.verify.commands import Requirement, code_snippets, requirements
from git_memory.verify.manifests import Manifests
from git_memory.verify.needs import check_requirement


def needs(text: str) -> list[tuple[str, str, str]]:
    return [(r.kind, r.name, r.directory) for r in requirements(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("`make test`", [("make-target", "test", "")]),
        ("`make -C sub -j 4 build lint`", [("make-target", "build", "sub"),
                                           ("make-target", "lint", "sub")]),
        ("`make`", [("make-target", "", "")]),
        ("`just fmt --check`", [("just-recipe", "fmt", "")]),
        ("`cd web && pnpm run build`", [("package-script", "build", "web")]),
        ("`npm --prefix ui run dev`", [("package-script", "dev", "ui")]),
        ("`yarn test`", [("package-script", "test", "")]),
        ("`bun run scripts/gen.ts`", [("script-file", "scripts/gen.ts", "")]),
        ("`CI=1 ./scripts/check.sh -v`", [("script-file", "scripts/check.sh", "")]),
        ("`bash tools/setup.sh`", [("script-file", "tools/setup.sh", "")]),
        ("`uv run pytest -q`", [("manifest", "pyproject.toml", "")]),
        ("`poetry install`", [("manifest", "pyproject.toml", "")]),
        ("`cargo test --all`", [("manifest", "Cargo.toml", "")]),
        ("`go test ./...`", [("manifest", "go.mod", "")]),
        ("`docker compose exec db psql -U app`", [("service", "db", "")]),
        ("`docker-compose up -d api worker`", [("service", "api", ""), ("service", "worker", "")]),
        ("`make test | tee log.txt > out`", [("make-target", "test", "")]),
    ],
)  # fmt: skip
def test_commands_and_what_they_need(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert needs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "`python -m pytest`",  # a module, not a file
        "`src/app.py`",  # a path is not a command
        "`cd /tmp && make x`",  # a directory outside the worktree
        "`npm install`",
        "`git status`",
        "`make 'unbalanced`",
        "`pnpm --filter web run build`",  # a workspace member chosen by name
        "make test (not in code)",
    ],
)
def test_text_that_requires_nothing(text: str) -> None:
    assert needs(text) == []


def test_only_shell_code_blocks_are_commands() -> None:
    text = "```sh\n$ make test\n```\n```python\nmake('x')\n```\n````\n`just a`\n````\n"
    assert list(code_snippets(text)) == ["make test", "`just a`"]


def _manifests(tmp_path: Path, files: dict[str, str]) -> Manifests:
    for relpath, text in files.items():
        path = tmp_path / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Manifests(tmp_path)


def _check(manifests: Manifests, text: str) -> list[str | None]:
    return [check_requirement(manifests, need) for need in requirements(text)]


def test_makefile_targets_includes_and_generated_rules(tmp_path: Path) -> None:
    manifests = _manifests(
        tmp_path,
        {
            "Makefile": "include rules.mk\nVAR := a:b\nall build: dep\n\t@echo\n",
            "rules.mk": "lint:\n\truff\n",
            "gen/Makefile": "%.o: %.c\n\tcc\n",
        },
    )
    assert _check(manifests, "`make build` `make lint` `make all`") == ["", "", ""]
    assert _check(manifests, "`make VAR`") == ["`make VAR`: Makefile has no target `VAR`"]
    assert _check(manifests, "`make -C gen main.o`") == [None]  # a pattern rule may build it
    assert _check(manifests, "`make -C nowhere x`") == [
        "`make -C nowhere x` needs a Makefile in nowhere/, and there is none"
    ]


def test_justfile_package_json_and_compose(tmp_path: Path) -> None:
    manifests = _manifests(
        tmp_path,
        {
            "justfile": "set shell := ['bash']\nalias t := test\ntest arg='x':\n    pytest\n",
            "web/package.json": '{"scripts": {"build": "vite build"}}',
            "compose.yaml": "services:\n  db:\n    image: postgres\n  api:\n    build: .\n"
            "volumes:\n  data: {}\n",
        },
    )
    assert _check(manifests, "`just t` `just test` `just set`") == [
        "",
        "",
        "`just set`: justfile has no recipe `set`",
    ]
    assert _check(manifests, "`cd web/src && npm run build`") == [""]  # nearest package.json
    assert _check(manifests, "`docker compose up api data`") == [
        "",
        "`docker compose up api data`: compose.yaml has no service `data`",
    ]


def test_each_manifest_is_read_once(tmp_path: Path) -> None:
    manifests = _manifests(tmp_path, {"Makefile": "test:\n\tpytest\n"})
    reads: list[str] = []
    original = manifests._read

    def counting(relpath: str) -> str | None:
        reads.append(relpath)
        return original(relpath)

    manifests._read = counting  # type: ignore[method-assign]
    need = Requirement("make-target", "test", "", "make test")
    assert [check_requirement(manifests, need) for _ in range(50)] == [""] * 50
    assert reads == ["Makefile"]
