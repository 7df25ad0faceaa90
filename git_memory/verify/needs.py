"""Whether one requirement of a command still holds in the worktree.

`check_requirement` returns "" when it holds, the reason when it does not, and None when
the worktree cannot tell (a generated Makefile, a path outside the worktree).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from git_memory.verify.commands import Requirement
from git_memory.verify.manifests import (
    COMPOSE_FILES,
    COMPOSE_OVERRIDES,
    JUSTFILES,
    MAKEFILES,
    Manifests,
)


def check_requirement(manifests: Manifests, need: Requirement) -> str | None:
    """ "" (holds), the reason it does not, or None (cannot tell)."""
    if _outside(need.directory) or (need.file is not None and _outside(need.file)):
        return None
    return CHECKS[need.kind](manifests, need)


def _outside(path: str) -> bool:
    return path.startswith("/") or ".." in path.split("/")


def _at(need: Requirement, name: str) -> str:
    return posixpath.join(need.directory, name) if need.directory else name


def _where(need: Requirement) -> str:
    return f"{need.directory}/" if need.directory else "the worktree root"


def _named(
    manifests: Manifests, need: Requirement, kind: str, names: tuple[str, ...], upward: bool
) -> tuple[str | None, str]:
    """(the manifest to read, or None, and the reason when it is missing)."""
    if need.file is not None:
        given = _at(need, need.file)
        found = given if manifests.kind(given) is not None else None
        return found, f"`{need.command}` needs {given}, which is not in the worktree"
    found = manifests.first(need.directory, names, upward=upward)
    above = " or above" if upward and need.directory else ""
    return found, f"`{need.command}` needs a {kind} in {_where(need)}{above}, and there is none"


def _listed(
    manifests: Manifests, need: Requirement, parser: str, found: str, what: str
) -> str | None:
    if not need.name:
        return ""
    names = manifests.names(parser, found)
    if names is None:
        return None
    present = names.has(need.name)
    if present is None:
        return None
    return "" if present else f"`{need.command}`: {found} has no {what} `{need.name}`"


def _make(manifests: Manifests, need: Requirement) -> str | None:
    found, missing = _named(manifests, need, "Makefile", MAKEFILES, upward=False)
    if found is None:
        return missing
    return _listed(manifests, need, "make", found, "target")


def _just(manifests: Manifests, need: Requirement) -> str | None:
    found, missing = _named(manifests, need, "justfile", JUSTFILES, upward=True)
    if found is None:
        return missing
    return _listed(manifests, need, "just", found, "recipe")


def _package_script(manifests: Manifests, need: Requirement) -> str | None:
    found, missing = _named(manifests, need, "package.json", ("package.json",), upward=True)
    if found is None:
        return missing
    return _listed(manifests, need, "npm", found, "script")


def _service(manifests: Manifests, need: Requirement) -> str | None:
    found, missing = _named(manifests, need, "compose file", COMPOSE_FILES, upward=True)
    if found is None:
        return missing
    if not need.name:
        return ""
    files = [found]
    if need.file is None:
        base = posixpath.dirname(found)
        files += [posixpath.join(base, name) for name in COMPOSE_OVERRIDES]
    answers = [_listed(manifests, need, "compose", f, "service") for f in files]
    if "" in answers:
        return ""
    return None if any(a is None for a in answers[:1]) else answers[0]


def _script_file(manifests: Manifests, need: Requirement) -> str | None:
    if _outside(need.name) or not need.name:
        return None
    if manifests.kind(need.name) is None:
        return f"`{need.command}` runs {need.name}, which is not in the worktree"
    return ""


def _manifest(manifests: Manifests, need: Requirement) -> str | None:
    given = need.file
    if given is not None:
        path = _at(need, given)
        present = manifests.kind(path) is not None
        return "" if present else f"`{need.command}` needs {path}, which is not in the worktree"
    found = manifests.first(need.directory, (need.name,), upward=True)
    if found is not None:
        return ""
    return f"`{need.command}` needs {need.name} in {_where(need)} or above, and there is none"


CHECKS: dict[str, Callable[[Manifests, Requirement], str | None]] = {
    "make-target": _make,
    "just-recipe": _just,
    "package-script": _package_script,
    "service": _service,
    "script-file": _script_file,
    "manifest": _manifest,
}
