"""Layering: one choke point per side effect, imports point downward."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "git_memory"

# module prefix allowed to import it
CHOKE_POINTS = {
    "pygit2": ("repo",),
    "sqlite3": ("database.py",),
    "subprocess": ("_proc.py",),
}

# Top to bottom: a package imports only from its own layer or the layers below it.
LAYERS = [
    {"cli"},
    {"mcp", "demo", "doctor"},
    {"ops"},
    {"extract", "promote", "consolidate", "skills", "assemble", "verify", "impact"},
    # The flows drive runners, never the reverse (the builtin extractor is extract's own).
    {"runners"},
    {"sessions", "store", "repo", "agent_memory"},
    {"formats", "lint", "contracts", "command_line"},
    {
        "errors",
        "output",
        "paths",
        "database",
        "failpoints",
        "glossary",
        "ids",
        "patterns",
        "records",
        "bulk",
        "safefs",
        "tempnames",
        "_proc",
        "samples",
    },
]
# Members of these sets never import each other (front ends and tools beside each other).
INDEPENDENT = [{"mcp", "demo", "doctor"}]
# A dotted module path (optionally `:function`) named in a string is a dependency too.
MODULE_STRING = re.compile(r"^git_memory(\.[A-Za-z_]\w*)+(:\w+)?$")


def _modules(package: Path = PACKAGE) -> list[Path]:
    return sorted(package.rglob("*.py"))


def _registry_declarations(tree: ast.AST) -> set[int]:
    """The `module=` strings of the operation registry: where each operation lives (an
    operation that drives other operations lives above ops/), loaded by `load_operation`."""
    return {
        id(keyword.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg == "module"
    }


def _imports(path: Path, package: Path = PACKAGE) -> list[str]:
    return _imports_of(path.read_text(encoding="utf-8"), _relative(path, package))


def _imports_of(source: str, rel: str) -> list[str]:
    """Every module the file `rel` depends on: imports at any depth (function-level ones
    included) and module paths named in strings (`import_module("git_memory.x")`,
    "module:function" tables)."""
    tree = ast.parse(source)
    declared = _registry_declarations(tree) if rel == "ops/registry.py" else set()
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            if node.module == "git_memory":
                names += [f"git_memory.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and MODULE_STRING.match(node.value)
            and id(node) not in declared
        ):
            names.append(node.value.split(":")[0])
    return names


def _relative(path: Path, package: Path = PACKAGE) -> str:
    return path.relative_to(package).as_posix()


def _package(rel: str) -> str:
    """The top-level package (or module) of `rel`, a path below git_memory/."""
    return rel.split("/", 1)[0].removesuffix(".py")


def _package_imports(package: Path = PACKAGE) -> dict[str, dict[str, list[str]]]:
    """package -> imported package -> the `file -> module` lines that make the edge (for the
    tree `package`, a directory named git_memory)."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in _modules(package):
        rel = _relative(path, package)
        own = _package(rel)
        for name in _imports(path, package):
            parts = name.split(".")
            if parts[0] != "git_memory" or len(parts) < 2 or parts[1] == "__version__":
                continue
            if parts[1] != own:
                edges.setdefault(own, {}).setdefault(parts[1], []).append(f"{rel} -> {name}")
    return edges


@pytest.mark.parametrize("module", ["pygit2", "sqlite3", "subprocess"])
def test_choke_points(module: str) -> None:
    offenders = []
    for path in _modules():
        rel = _relative(path)
        imported = any(name == module or name.startswith(module + ".") for name in _imports(path))
        if imported and not rel.startswith(CHOKE_POINTS[module]):
            offenders.append(rel)
    assert offenders == [], f"{module} imported outside its choke point"


def _layer_of(package: str) -> int | None:
    for number, layer in enumerate(LAYERS):
        if package in layer:
            return number
    return None


def test_every_package_has_a_layer() -> None:
    packages = {
        _package(_relative(path))
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
        or (path / "__init__.py").is_file()
    }
    assert sorted(package for package in packages if _layer_of(package) is None) == []


def upward_imports(edges: dict[str, dict[str, list[str]]]) -> list[str]:
    """The import lines that point up the layers, or between independent packages."""
    offenders = []
    for own, targets in edges.items():
        for target, lines in targets.items():
            own_layer, target_layer = _layer_of(own), _layer_of(target)
            if own_layer is None or target_layer is None:
                continue  # the package check above reports it
            if target_layer < own_layer:
                offenders += lines
            if any({own, target} <= group for group in INDEPENDENT):
                offenders += [f"{line} (these never import each other)" for line in lines]
    return offenders


def test_imports_point_downward() -> None:
    assert upward_imports(_package_imports()) == []


def package_cycles(edges: dict[str, dict[str, list[str]]]) -> list[str]:
    """Each import cycle between packages, as `a -> b -> a (e.g. file -> module)`."""
    cycles: list[str] = []
    state: dict[str, str] = {}

    def visit(package: str, trail: list[str]) -> None:
        state[package] = "open"
        for target in sorted(edges.get(package, {})):
            if state.get(target) == "open":
                loop = [*trail[trail.index(target) :], target]
                cycles.append(" -> ".join(loop) + f" (e.g. {edges[package][target][0]})")
            elif target not in state:
                visit(target, [*trail, target])
        state[package] = "done"

    for package in sorted(edges):
        if package not in state:
            visit(package, [package])
    return cycles


def test_no_cycle_between_packages() -> None:
    assert package_cycles(_package_imports()) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    package = root / "git_memory"
    for rel, source in files.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return package


def test_the_checker_reports_a_cycle_made_by_a_string_import(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "skills/__init__.py": "",
            "skills/stage.py": "from git_memory.extract import workspace\n",
            "extract/__init__.py": "",
            "extract/workspace.py": (
                "import importlib\n"
                "def load():\n"
                "    return importlib.import_module('git_memory.skills.stage')\n"
            ),
        },
    )
    edges = _package_imports(package)
    assert edges == {
        "extract": {"skills": ["extract/workspace.py -> git_memory.skills.stage"]},
        "skills": {"extract": ["skills/stage.py -> git_memory.extract"]},
    }
    assert package_cycles(edges) == [
        "extract -> skills -> extract (e.g. skills/stage.py -> git_memory.extract)"
    ]


def test_the_checker_reports_a_hidden_upward_import(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "store/__init__.py": "",
            "store/status.py": "TABLE = {'ops': 'git_memory.ops.status:status'}\n",
            "ops/__init__.py": "",
            "ops/status.py": "def status() -> None:\n    from git_memory.store import db\n",
            "doctor/__init__.py": "",
            "doctor/probe.py": "def probe():\n    from git_memory.mcp import server\n",
            "mcp/__init__.py": "",
        },
    )
    assert upward_imports(_package_imports(package)) == [
        "doctor/probe.py -> git_memory.mcp (these never import each other)",
        "store/status.py -> git_memory.ops.status",
    ]


def test_front_ends_and_tools_sit_above_ops() -> None:
    above = {package for layer in LAYERS[: LAYERS.index({"ops"})] for package in layer}
    assert {"cli", "mcp", "demo", "doctor"} <= above


def test_runners_sit_below_the_flows() -> None:
    """A runner never reaches back into the flow that drives it (extract, consolidate, …)."""
    runners = _layer_of("runners")
    assert runners is not None
    flows = {"extract", "promote", "consolidate", "skills", "assemble", "verify", "impact"}
    assert all((_layer_of(flow) or runners) < runners for flow in flows)
    assert all(runners < (_layer_of(io) or 0) for io in ("sessions", "store", "repo"))


def test_the_checker_sees_string_and_function_level_imports() -> None:
    source = (
        "import importlib\n"
        "def f():\n"
        "    from git_memory.store import db\n"
        "    return importlib.import_module('git_memory.skills.stage')\n"
        "TABLE = {'k': 'git_memory.consolidate.status:counts'}\n"
    )
    assert sorted(_imports_of(source, "ops/probe.py")) == [
        "git_memory.consolidate.status",
        "git_memory.skills.stage",
        "git_memory.store",
        "importlib",
    ]


def test_only_output_writes_to_stdout() -> None:
    offenders = []
    for path in _modules():
        rel = _relative(path)
        if rel == "output.py":
            continue
        if rel == "runners/isolation_probe.py":
            continue  # a standalone program run inside the runner sandbox: its report is stdout
        text = path.read_text(encoding="utf-8")
        if "print(" in text or "sys.stdout.write" in text:
            offenders.append(rel)
    assert offenders == [], offenders


# An import marked with the PLC0415 noqa is a start-up seam: it stays inside its function on
# purpose, and docs/architecture.md lists each with its measured reason.
SEAM_MARK = "noqa: PLC0415"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def _module_name(rel: str) -> str:
    parts = ["git_memory", *rel.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under `if TYPE_CHECKING:` (never run)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return hidden


def _is_seam(node: ast.stmt, lines: list[str]) -> bool:
    end = node.end_lineno or node.lineno
    return any(SEAM_MARK in line for line in lines[node.lineno - 1 : end])


def _imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement loads, relative ones resolved against `module`."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def file_imports(package: Path = PACKAGE, *, design: bool = False) -> dict[str, set[str]]:
    """module -> the git_memory modules it imports when it runs: imports at any depth count
    (a function-level import runs too), except those under `if TYPE_CHECKING:` and the marked
    start-up seams. `from a import b` names the module `a.b` when there is one, else `a`.

    `design=True` draws the graph of the design instead: the imports a type checker reads and
    the start-up seams count too, and every module depends on the package it belongs to
    (importing `a.b.c` runs `a/b/__init__.py` first)."""
    paths = {_module_name(_relative(path, package)): path for path in _modules(package)}
    edges: dict[str, set[str]] = {}
    for module, path in paths.items():
        source = path.read_text(encoding="utf-8")
        tree, lines = ast.parse(source), source.splitlines()
        hidden = set() if design else _type_checking_only(tree)
        targets: set[str] = set(_packages_of(module, paths)) if design else set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in hidden:
                continue
            if _is_seam(node, lines) and not design:
                continue
            names = _imported_names(node, module, path.name == "__init__.py")
            if isinstance(node, ast.ImportFrom):
                # `from a import b`: the module a.b when it exists, otherwise a itself.
                found = [name for name in names[:-1] if name in paths] or names[-1:]
            else:
                found = names
            targets |= {_nearest_module(name, paths) for name in found} - {None, module}
        edges[module] = {target for target in targets if target is not None}
    return edges


def _packages_of(module: str, modules: dict[str, Path]) -> list[str]:
    """The packages above `module` (their `__init__` runs before it), below `git_memory`."""
    parts = module.split(".")
    above = (".".join(parts[:end]) for end in range(2, len(parts)))
    return [name for name in above if name in modules and name != module]


def _nearest_module(name: str, modules: dict[str, Path]) -> str | None:
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in modules else None


def file_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (each an import cycle), sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(edges.get(module, ())):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(edges):
        if module not in order:
            visit(module)
    return sorted(groups)


def test_no_cycle_between_files() -> None:
    assert [" <-> ".join(group) for group in file_cycles(file_imports())] == []


def test_no_cycle_in_the_design_either() -> None:
    """Not through an import only the type checker reads, a start-up seam, or a package whose
    `__init__` imports its own modules (issue 39: `ops/__init__` and `ops/base`, the
    extractor's `__init__` and its modules)."""
    cycles = file_cycles(file_imports(design=True))
    assert [" <-> ".join(group) for group in cycles] == []


def test_the_design_graph_sees_type_only_imports_seams_and_packages(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "ops/__init__.py": (
                "def run():\n    from git_memory.ops import base  # noqa: PLC0415\n"
            ),
            "ops/base.py": "",
            "lint/__init__.py": "",
            "lint/a.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from git_memory.lint.b import B\n"
            ),
            "lint/b.py": "from git_memory.lint.a import A\n",
        },
    )
    assert file_cycles(file_imports(package)) == []
    assert file_cycles(file_imports(package, design=True)) == [
        ["git_memory.lint.a", "git_memory.lint.b"],
        ["git_memory.ops", "git_memory.ops.base"],
    ]


def test_the_checker_reports_file_cycles_through_functions_and_packages(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "lint/__init__.py": "",
            "lint/engine.py": "def lint():\n    from git_memory.lint.files import check\n",
            "lint/files.py": "from git_memory.lint.engine import lint\n",
            "store/__init__.py": "from git_memory.store.db import Database\n",
            "store/db.py": "from git_memory.store import open_all\n",
            "ops/__init__.py": "",
            "ops/typed.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from git_memory.ops.seam import run\n"
            ),
            "ops/seam.py": (
                "from git_memory.ops import typed\n"
                "def run():\n"
                "    from git_memory.ops.lazy import x  # noqa: PLC0415\n"
            ),
            "ops/lazy.py": "from . import seam\n",
        },
    )
    edges = file_imports(package)
    assert edges["git_memory.ops.typed"] == set()
    assert edges["git_memory.ops.seam"] == {"git_memory.ops.typed"}
    assert edges["git_memory.ops.lazy"] == {"git_memory.ops.seam"}
    assert file_cycles(edges) == [
        ["git_memory.lint.engine", "git_memory.lint.files"],
        ["git_memory.store", "git_memory.store.db"],
    ]


def _seam_files(package: Path = PACKAGE) -> set[str]:
    return {
        _relative(path, package)
        for path in _modules(package)
        if SEAM_MARK in path.read_text(encoding="utf-8")
    }


def test_every_start_up_seam_is_listed_with_its_reason() -> None:
    table = ARCHITECTURE.read_text(encoding="utf-8")
    unlisted = sorted(rel for rel in _seam_files() if f"`git_memory/{rel}`" not in table)
    assert unlisted == [], "a `# noqa: PLC0415` seam missing from docs/architecture.md"


def test_the_seam_listing_check_sees_a_marked_import(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "output.py": "def ask():\n    import click  # noqa: PLC0415\n",
            "errors.py": "def fail():\n    import json\n",
        },
    )
    assert _seam_files(package) == {"output.py"}
