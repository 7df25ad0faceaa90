"""A path zsh read as a pattern: a folder named in brackets (a Next.js route:
`app/destinations/[slug]`, `app/api/trips/[id]`) typed bare is a glob to zsh, which refuses the
whole command when it matches nothing (`zsh:1: no matches found: app/destinations/[slug]`);
the same command with the path quoted works. Agents type such paths bare again in every
session on that shell; the trap tells the next one to quote them:
"Trap: `mkdir -p app/destinations/[slug]` fails with "zsh:1: no matches found:
app/destinations/[slug]"; run `mkdir -p 'app/destinations/[slug]'` instead."

A glob that simply matched nothing (`ls .eslintrc*`) is no trap: nothing was to be quoted.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from git_memory.command_line.syntax import Dialect, joined

# zsh's words for a pattern that matched no file, and the path it names.
_NO_MATCH = re.compile(r"no matches found: (\S+)\s*$")
# A folder named in brackets: a route segment, not a wildcard.
_ROUTE_SEGMENT = re.compile(r"(?:^|/)\[[^\]/*?]+\](?:/|$)")


def unmatched_route(output: str) -> tuple[str, str] | None:
    """The path zsh refused as a pattern that matched nothing, when it names a folder in
    brackets, and the line saying so."""
    for line in output.splitlines():
        found = _NO_MATCH.search(line.strip())
        if found is not None and _ROUTE_SEGMENT.search(found.group(1)):
            return found.group(1), line.strip()
    return None


def quoted_fix(
    failing: Sequence[str], path: str, later: Sequence[Sequence[str]], command: str
) -> tuple[str, str] | None:
    """(the refused command, the same command with its route paths quoted) when `failing` (a
    step's words) names `path` and a later run (`later`, its steps' words; `command`, its
    line) ran those same words with the path quoted."""
    if path not in failing or not any(list(words) == list(failing) for words in later):
        return None
    if shlex.quote(path) not in command and f'"{path}"' not in command:
        return None  # the same words, typed bare again: nothing was quoted
    return " ".join(failing), typed_back(failing)


def typed_back(words: Sequence[str], dialect: Dialect | None = None) -> str:
    """A command's words as a POSIX shell that globs reads them back: a route path quoted
    (`'app/[slug]'`, `"$OUT/app/[id]"` where a variable must still expand), every other
    word as `syntax.joined` types it; PowerShell's or cmd's line as `joined` types it."""
    if dialect is not None or not any(_ROUTE_SEGMENT.search(word) for word in words):
        return joined(words, dialect)
    return " ".join(
        _quoted_route(word) if _ROUTE_SEGMENT.search(word) else joined([word]) for word in words
    )


def _quoted_route(word: str) -> str:
    if "$" in word and not any(c in word for c in '"`\\'):
        return f'"{word}"'
    return shlex.quote(word)


def quoted_again(failing: str, fix: str) -> bool:
    """Whether a trap's fix is its failing command with its route paths quoted, and nothing
    else changed."""
    words = failing.split()
    try:
        fixed = shlex.split(fix)
    except ValueError:
        return False
    routes = [word for word in words if _ROUTE_SEGMENT.search(word)]
    return bool(routes) and fixed == words and fix != failing
