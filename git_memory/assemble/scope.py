"""Where an approved entry applies: the whole repository or one subtree (pure).

An entry applies below one directory when its frontmatter says so (`scope: path:<dir>`,
docs/formats.md; `path:.` is the whole worktree), or when the projects it needs lie there: the
directories its commands run in (`cd web && npm test` needs `web/package.json`) and the project
manifests its evidence cites (`web/package.json`). The scope is the deepest directory holding
all of them, provided every other path the evidence cites lies below it too. An entry that
needs no project below the root, or cites anything outside that directory, applies everywhere
(None). Only the entry's own text decides, so the same entry file always has the same scope.
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable, Sequence

from git_memory.errors import GitMemoryError
from git_memory.formats.entry import is_scope, scope_directory
from git_memory.verify.commands import requirements

PATH_PREFIX = "path:"
# Files that make their directory a project of its own.
MANIFESTS = frozenset(
    {"package.json", "pyproject.toml", "setup.py", "Cargo.toml", "go.mod", "Makefile",
     "GNUmakefile", "makefile", "justfile", "Justfile", "compose.yaml", "compose.yml",
     "docker-compose.yaml", "docker-compose.yml", "pom.xml", "build.gradle",
     "build.gradle.kts", "Gemfile", "composer.json", "deno.json", "mix.exs", "CMakeLists.txt"}
)  # fmt: skip


def _anchors(paths: Iterable[str], body: str) -> list[str]:
    """The project directories an entry needs: cited manifests and where its commands run."""
    anchors = [posixpath.dirname(p) for p in paths if posixpath.basename(p) in MANIFESTS]
    for need in requirements(body):
        anchors.append(need.directory)
        if need.file:
            anchors.append(posixpath.dirname(posixpath.join(need.directory, need.file)))
    return anchors


def common_directory(places: Sequence[str]) -> str:
    """The deepest directory holding every one of `places` ("" when that is the root)."""
    split = [[part for part in place.split("/") if part not in ("", ".")] for place in places]
    if not split or any(".." in parts for parts in split):
        return ""
    common: list[str] = []
    for parts in zip(*split, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    return "/".join(common)


def entry_scope(scope: str, paths: Sequence[str], body: str) -> str | None:
    """The directory an entry applies below, or None when it applies everywhere."""
    if scope.startswith(PATH_PREFIX):
        return scope_directory(scope)
    cited = [path.strip("/") for path in paths]
    anchors = _anchors(cited, body)
    found = common_directory(anchors) if anchors else ""
    if not found or not all(contains(found, path) for path in cited):
        return None
    return found


def contains(scope: str, path: str) -> bool:
    """Whether the worktree-relative `path` lies at or below the directory `scope`."""
    return path == scope or path.startswith(scope + "/")


def _invalid(answer: str, why: str) -> GitMemoryError:
    return GitMemoryError(
        "GM_SCOPE_INVALID",
        f"cannot narrow the scope to {answer!r}: {why}",
        hint="name a directory of the worktree below the current scope, relative to the "
        "worktree root (for example web/api)",
    )


def narrower_scope(current: str, answer: str) -> str:
    """The directory `answer` names to narrow an entry that applies below `current` to
    (worktree-relative, normalized): a relative path without `..` or control characters,
    in the `scope: path:<dir>` alphabet (docs/formats.md), below `current`. Whether it
    exists is the caller's to check."""
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in answer):
        raise _invalid(answer, "it contains a control or invisible character")
    if answer.startswith(("/", "\\")) or posixpath.isabs(answer):
        raise _invalid(answer, "it is an absolute path")
    if ".." in answer.replace("\\", "/").split("/"):
        raise _invalid(answer, "it leaves the directory through `..`")
    directory = "/".join(part for part in answer.strip(" ").split("/") if part not in ("", "."))
    if not directory:
        raise _invalid(answer, "it names the whole worktree (widen the entry instead)")
    if not is_scope(PATH_PREFIX + directory):
        raise _invalid(answer, "a scope names directories of letters, digits and . _ @ + -")
    if current and not contains(current, directory):
        raise _invalid(answer, f"it is not below {current}/")
    if directory == current:
        raise _invalid(answer, f"the entry already applies below {current}/")
    return directory
