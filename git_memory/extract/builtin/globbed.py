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


def quoted_fix(failing: Sequence[str], path: str, command: str) -> tuple[str, str] | None:
    """(the refused command, the same command with the path quoted) when `failing` (a step's
    words) names `path` and `command` (a later run's line) typed those same words with the path
    quoted."""
    if path not in failing:
        return None
    quoted = shlex.quote(path)
    typed = " ".join(quoted if word == path else word for word in failing)
    if typed not in command and typed.replace("'", '"') not in command:
        return None
    return " ".join(failing), typed


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
