"""Home directories and user names in text a reviewer reads, rewritten as `~`.

A transcript names the machine it ran on: `/Users/alice/Work/cli/x.go`, `/home/bob/.cache`,
`C:\\Users\\carol\\AppData`, `/root/.npmrc`, and whatever this machine's `$HOME` is. What
becomes a memory names none of them: each home directory becomes `~` (the rest of the path
kept, `~/Work/cli/x.go`), and a user name those homes revealed (or this machine's) becomes
`<user>` where it stands as a word of its own (`ssh alice@build`, `chown alice`). A shared
account's home (`/home/runner` of a CI machine) is a home too, but its name is an ordinary
word and stays one elsewhere; `/Users/Shared` is no one's home and stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from git_memory.records import Record

USER = "<user>"
# The home directories of the common systems, one row each, with the shape it was written
# from: the name of the person is the `name` group.
_ROWS = (
    r"/Users/(?P<mac>{account})",  # macOS: /Users/alice/Work/cli
    r"/home/(?P<linux>{account})",  # Linux: /home/bob/src/api
    r"/root(?![A-Za-z0-9._-])",  # the superuser: /root/.npmrc
    # Windows, as typed, with forward slashes, or escaped inside JSON: C:\Users\carol\src
    # (`users`, `USERS` too: the file system ignores case); its colon percent-encoded in a
    # `file:///c%3A/Users/…` link
    r"[A-Za-z](?::|%3[Aa])(?:\\\\|\\|/)(?i:users)(?:\\\\|\\|/)(?P<windows>" + r"{name})",
    # Windows as Git Bash and WSL name it, the folder's case kept: /c/Users/carol/src,
    # /mnt/c/Users/carol/src, /C/USERS/carol (an API's `/v/users/123` is no home)
    r"(?:/mnt)?/[A-Za-z]/(?:Users|USERS)/(?P<unix_windows>" + r"{name})",
    # a Linux home of WSL as Windows reaches it, through the `\\wsl$` or `\\wsl.localhost`
    # share (any case) and the distribution's name (\\wsl$\Ubuntu\home\bob,
    # //wsl.localhost/Debian/…, the long-path `\\?\UNC\wsl$\…`), escaped inside JSON too; not
    # a web address on a host of that name (`http://wsl.localhost/…`)
    r"(?:\\\\\\\\|\\\\|(?<!:)//|\\\\\?\\(?i:unc)\\)(?i:wsl(?:\$|\.localhost))(?:\\\\|\\|/)[\w.-]+"
    r"(?:\\\\|\\|/)home(?:\\\\|\\|/)(?P<wsl>{account})",
)
# An account's name: letters of any alphabet, digits, `.`, `_` and `-`, not ending in the full
# stop of a sentence (`cd /home/bob. Then …`); an `@` inside it (a domain's account,
# `bob@corp`).
_ACCOUNT = r"[\w.-]*[\w-](?:@[\w-](?:[\w.-]*[\w-])?)*"
# A Windows account may hold an apostrophe before a capital (`O'Brien`, `D’Angelo`), not the
# `'s` of "bob's" or the quote closing an argument (`'C:\Users\bob'if …`).
_WINDOWS_ACCOUNT = _ACCOUNT + r"(?:['’][A-Z][\w-]*)*"
# A Windows account's folder: its name, with a blank in it (`John Smith`, `John%20Smith` in a
# link) when the path goes on after it, else up to where the path or its argument ends.
_WINDOWS_NAME = (
    rf"{_WINDOWS_ACCOUNT}(?:(?: |%20){_WINDOWS_ACCOUNT})+(?=\\|/)"
    rf"|{_WINDOWS_ACCOUNT}(?:%20{_WINDOWS_ACCOUNT})*(?=\.?(?:[\\/\s\"'`);:,<>|\]]|$))"
)
_HOMES = tuple(row.replace("{account}", _ACCOUNT).replace("{name}", _WINDOWS_NAME) for row in _ROWS)


def may_name_a_home(text: str) -> bool:
    """Whether the text could name a home: it holds what each row of `_HOMES` does (plain
    substring scans, faster than a pattern; Windows's `users` and WSL's share in any case)."""
    if "Users" in text or "/home/" in text or "/root" in text:
        return True
    lowered = text.lower()
    return "users" in lowered or "wsl" in lowered


# A home starts a path of its own, the path of a link to a file (`file:///home/bob/x`,
# `file:///C:/Users/bob/x`, `file://localhost/home/bob/x`, VS Code's `vscode://file/home/…`),
# a Windows path written with its long-path prefix (`\\?\C:\Users\bob`), or a line of text
# escaped inside JSON (`ls\n/home/bob`, a tool call's input as it is read).
_HOME = re.compile(
    r"(?:(?<![\w.~/\\-])|(?<=file://)|(?<=file:///)|(?<=FILE://)|(?<=FILE:///)"
    r"|(?<=file://localhost)|(?<=vscode://file)|(?<=\\\\\?\\)|(?<=\\[nrt]))"
    r"(?:" + "|".join(_HOMES) + ")"
)
# Directories below /Users that are no one's home (macOS's shared folder).
_NOT_A_HOME = frozenset(["shared"])
# Account names that are ordinary words or shared machines' accounts: a home, not a person.
_NOT_A_PERSON = frozenset(
    """shared guest public runner user users admin administrator default ubuntu debian
    vagrant ec2-user node app dev developer build ci test root home work""".split()  # noqa: SIM905
)
MIN_NAME = 3


class Rewrite(Record):
    """Rewritten text and the user names its home directories revealed."""

    text: str
    names: frozenset[str]


def home_names(text: str) -> set[str]:
    """The user names the home directories in `text` reveal (not shared accounts)."""
    found = set()
    for match in _HOME.finditer(text):
        name = _name(match)
        if name and _a_person(name):
            found.add(name)
            # a domain's account (`bob@corp`) is its person's name alone too
            local = name.split("@", 1)[0]
            if local != name and _a_person(local):
                found.add(local)
    return found


def rewrite_homes(text: str, local_home: str = "", names: Iterable[str] = ()) -> Rewrite:
    """`text` with every home directory as `~` (`local_home`: this machine's, wherever it
    lies) and every user name (`names`, and those its homes reveal) as `<user>`."""
    home = local_home.rstrip("/\\")
    local = len(home) > 1 and home in text
    if not local and not names and not may_name_a_home(text):
        return Rewrite(text, frozenset())  # most text names no home: a few scans of C speed
    revealed = home_names(text)
    if local:
        revealed.add(re.split(r"[/\\]", home)[-1])
        text = re.sub(re.escape(home) + r"(?![A-Za-z0-9._-])", "~", text)
    text = _HOME.sub(_tilde, text)
    people = {name for name in [*revealed, *names] if _a_person(name)}
    named = sorted((n for n in people if n in text), key=len, reverse=True)
    if named:
        # one pass for all the names: a transcript can reveal thousands
        # a domain's account (`bob@corp`) is no part of a longer address (`bob@corp.com`)
        alternatives = "|".join(
            re.escape(name) + (r"(?!\.\w)" if "@" in name else "") for name in named
        )
        text = re.sub(rf"(?<![\w.-])(?:{alternatives})(?![\w-])", USER, text)
    return Rewrite(text, frozenset(people))


def _name(match: re.Match[str]) -> str | None:
    """The user name a home directory names (None for /root), a link's `%20` a blank again."""
    groups = ("mac", "linux", "windows", "unix_windows", "wsl")
    name = next((match.group(g) for g in groups if match.group(g)), None)
    return None if name is None else name.replace("%20", " ")


def _tilde(match: re.Match[str]) -> str:
    name = _name(match)
    return match.group(0) if name and name.casefold() in _NOT_A_HOME else "~"


def _a_person(name: str) -> bool:
    return len(name) >= MIN_NAME and name.casefold() not in _NOT_A_PERSON
