"""Reading the worktree's manifests once per run: Makefile, justfile, package.json, compose.

`Manifests` caches every file it reads and every parse, so a thousand memories naming
`make test` read the Makefile once. A lookup answers `True` (present), `False` (the manifest
is there and the name is not) or `None` (cannot tell: the manifest is generated, includes
files this reader does not follow, or is not valid). Only `False` makes a memory stale.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.safefs import open_dir, read_at, split_relative

MAX_MANIFEST_BYTES = 4 * 1024 * 1024
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
JUSTFILES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
COMPOSE_FILES = (
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
)
COMPOSE_OVERRIDES = ("compose.override.yaml", "compose.override.yml",
                     "docker-compose.override.yaml", "docker-compose.override.yml")  # fmt: skip
# Greedy up to the first `:`, `=` or `#` (trailing blanks are stripped after): a lazy name
# followed by `\s*` retried the blanks at every length, quadratic in a line of spaces.
MAKE_RULE = re.compile(r"^([^\s#:=][^:=#]*)::?(?!=)")
MAKE_INCLUDE = re.compile(r"^-?(?:include|sinclude)\s+(.+)$")
JUST_RECIPE = re.compile(r"^@?([A-Za-z_][A-Za-z0-9_-]*)(?:\s[^:]*)?:(?!=)")
JUST_ALIAS = re.compile(r"^alias\s+([A-Za-z_][A-Za-z0-9_-]*)\s*:=")
JUST_OPEN = re.compile(r"^(?:import|mod)\b")
YAML_KEY = re.compile(r"""^(\s*)(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9._-]+))\s*:(?:\s|$)""")


@dataclass(frozen=True)
class Names:
    """The names a manifest defines; `open_ended`: others may exist that it does not list."""

    names: frozenset[str]
    open_ended: bool = False

    def has(self, name: str) -> bool | None:
        """True / False / None (cannot tell) for `name`."""
        if name in self.names:
            return True
        return None if self.open_ended else False


class Manifests:
    """Cached reads of worktree files for one verify run (paths are worktree-relative)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._texts: dict[str, str | None] = {}
        self._kinds: dict[str, str | None] = {}
        self._parsed: dict[tuple[str, str], Names | None] = {}

    def kind(self, relpath: str) -> str | None:
        """`file`, `dir`, `other` or None (absent) for a worktree-relative path. No link is
        followed: a symbolic link anywhere on the path makes it `other` (present, never
        read), so no answer depends on what lies outside the worktree."""
        if relpath not in self._kinds:
            self._kinds[relpath] = self._kind(relpath)
        return self._kinds[relpath]

    def _kind(self, relpath: str) -> str | None:
        try:
            parts = split_relative(relpath)
            with open_dir(self.root, parts[:-1]) as parent:
                mode = os.lstat(parts[-1], dir_fd=parent).st_mode
        except GitMemoryError as exc:
            return "other" if exc.code == "GM_SYMLINK_REFUSED" else None
        except (OSError, ValueError):
            return None
        return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else "other"

    def consulted(self) -> tuple[dict[str, str | None], dict[str, str | None]]:
        """(every path whose kind was looked at → its kind, every file read → its text):
        what this run's verdicts depend on."""
        return dict(self._kinds), dict(self._texts)

    def text(self, relpath: str) -> str | None:
        """The file's text (a regular file ≤ 4 MiB inside the worktree, reached without
        following any link), else None."""
        if relpath not in self._texts:
            self._texts[relpath] = self._read(relpath)
        return self._texts[relpath]

    def _read(self, relpath: str) -> str | None:
        try:
            parts = split_relative(relpath)
            with open_dir(self.root, parts[:-1]) as parent:
                data = read_at(parent, parts[-1], relpath, max_bytes=MAX_MANIFEST_BYTES)
        except (GitMemoryError, OSError, ValueError):
            return None
        return None if data is None else data.decode("utf-8", errors="replace")

    def first(self, directory: str, names: tuple[str, ...], *, upward: bool) -> str | None:
        """The first of `names` in `directory` (and, when `upward`, its parents up to the
        worktree root) that is a file; worktree-relative, or None."""
        current = directory
        while True:
            for name in names:
                candidate = posixpath.join(current, name) if current else name
                if self.kind(candidate) in ("file", "other"):
                    return candidate
            if not upward or not current:
                return None
            current = posixpath.dirname(current)

    def names(self, kind: str, relpath: str) -> Names | None:
        """The parsed names of manifest `relpath` (make, just, npm, compose); None when it
        cannot be read."""
        key = (kind, relpath)
        if key not in self._parsed:
            text = self.text(relpath)
            self._parsed[key] = None if text is None else PARSERS[kind](self, relpath, text)
        return self._parsed[key]


def make_targets(manifests: Manifests, relpath: str, text: str, *, follow: bool = True) -> Names:
    """Rule targets of a Makefile and of the files it includes (one level deep). An include
    outside the worktree (or through a link) is not read: the names become open-ended."""
    names: set[str] = set()
    open_ended = False
    for line in _logical_lines(text):
        included = MAKE_INCLUDE.match(line)
        if included:
            for name in included.group(1).split():
                child = posixpath.normpath(posixpath.join(posixpath.dirname(relpath), name))
                child_text = None if "$" in name or not follow else manifests.text(child)
                if child_text is None:
                    open_ended = True
                    continue
                found = make_targets(manifests, child, child_text, follow=False)
                names |= found.names
                open_ended = open_ended or found.open_ended
            continue
        rule = MAKE_RULE.match(line)
        if rule:
            for target in rule.group(1).rstrip().split():
                open_ended = open_ended or "%" in target or "$" in target
                names.add(target)
    return Names(frozenset(names), open_ended)


def _logical_lines(text: str) -> list[str]:
    """Lines with backslash continuations joined; recipe lines (tab-indented) dropped."""
    joined = re.sub(r"\\\n", " ", text)
    return [line for line in joined.split("\n") if line and not line.startswith("\t")]


def just_recipes(manifests: Manifests, relpath: str, text: str) -> Names:
    """Recipes and aliases of a justfile; `import`/`mod` make the set open-ended."""
    names: set[str] = set()
    open_ended = False
    for line in text.split("\n"):
        if not line or line[0].isspace() or line.startswith(("#", "[")):
            continue
        open_ended = open_ended or JUST_OPEN.match(line) is not None
        found = JUST_ALIAS.match(line) or JUST_RECIPE.match(line)
        if found:
            names.add(found.group(1))
    return Names(frozenset(names), open_ended)


def package_scripts(manifests: Manifests, relpath: str, text: str) -> Names | None:
    """The `scripts` of a package.json; None when it is not a JSON object (or is beyond the
    caps of `formats.bounded_json`: nested too deeply, numbers too long)."""
    try:
        document = bounded_json.loads(text, max_bytes=MAX_MANIFEST_BYTES)
    except ValueError:
        return None
    if not isinstance(document, dict):
        return None
    scripts = document.get("scripts")
    return Names(frozenset(scripts) if isinstance(scripts, dict) else frozenset())


def compose_services(manifests: Manifests, relpath: str, text: str) -> Names:
    """Keys of the top-level `services:` mapping of a compose file (block style). A file
    that includes or extends others, or a flow-style mapping, is open-ended."""
    names: set[str] = set()
    open_ended = False
    inside = False
    indent: int | None = None
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key = YAML_KEY.match(line)
        if not line[0].isspace():
            name = key and (key.group(2) or key.group(3) or key.group(4))
            inside = name == "services"
            open_ended = open_ended or name == "include" or (inside and "{" in line)
            continue
        if not inside or key is None:
            continue
        depth = len(key.group(1))
        indent = depth if indent is None else indent
        if depth == indent:
            names.add(key.group(2) or key.group(3) or key.group(4))
    return Names(frozenset(names), open_ended)


PARSERS = {
    "make": make_targets,
    "just": just_recipes,
    "npm": package_scripts,
    "compose": compose_services,
}
