"""Argument shapes: the words of a command that change from one run to the next become
placeholders, and flags that only decorate a run are set apart.

`gh pr diff 88 --stat` → `gh pr diff <n> --stat`; `git show 3f2a9c1` → `git show <sha>`;
`pytest tests/test_x.py::test_y -k slow -vv` → `pytest <test> -k <test>` (decoration `-vv`);
`curl -s https://example.com/api` → `curl -s <url>`; `cat /tmp/out.log` → `cat <tmp>`.
Placeholders: `<n>` (a number, a PR or issue id), `<sha>` (a commit hash), `<test>` (a test
id or a test-name expression), `<path>` (a file path: below the command's root or of this
machine), `<url>`, `<tmp>` (a temporary path).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from git_memory.command_line import words

PLACEHOLDERS = ("<n>", "<sha>", "<test>", "<path>", "<url>", "<tmp>")
# (placeholder, pattern a whole word matches), the first that matches wins.
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<url>", re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://\S+$")),
    ("<tmp>", re.compile(r"^(?:/tmp/|/private/tmp/|/var/folders/|/var/tmp/|\$\{?TMPDIR\}?)")),
    ("<test>", re.compile(r"^\S+::\S+$")),
    ("<n>", re.compile(r"^#?\d+$")),
    ("<sha>", re.compile(r"^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}$")),
    ("<path>", re.compile(r"^(?:[~/]|\.{1,2}/|[A-Za-z]:[\\/])\S*$|^[\w@.+-]+(?:/[\w@.+-]*)+$")),
    ("<path>", words.SOURCE_FILE),
)
# Words that look like paths but are how a person writes "everything".
_GENERAL = frozenset([".", "..", "./...", "./", "...", "*"])


@dataclass(frozen=True, slots=True)
class Shape:
    """A command's words with placeholders for what varies, and its decoration set apart."""

    words: tuple[str, ...]
    decoration: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The shape as one line (`gh pr diff <n> --stat`)."""
        return " ".join(self.words)

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The placeholders the shape holds, in order."""
        return tuple(word for word in self.words if word in PLACEHOLDERS)

    @property
    def narrowed(self) -> bool:
        """The run named one file or test (a placeholder a general command leaves out)."""
        return any(word in ("<path>", "<test>") for word in self.words)


def word_shape(word: str) -> str:
    """The placeholder a word's shape is, or the word itself."""
    if word.isalpha() or word in _GENERAL or word.startswith("-"):
        return word  # a plain word, or an option: never a placeholder
    return next((name for name, pattern in _SHAPES if pattern.search(word)), word)


def shape_of(command: Sequence[str]) -> Shape:
    """The shape of a simple command's words (environment assignments already apart)."""
    return _shape(tuple(command))


@functools.lru_cache(maxsize=65536)
def _shape(command: tuple[str, ...]) -> Shape:
    kept: list[str] = []
    decoration: list[str] = []
    test_value = False
    for word in command:
        if test_value:
            kept.append("<test>")
            test_value = False
        elif words.COSMETIC.match(word) or words.DEBUG.match(word):
            decoration.append(word)
        elif word in words.TEST_VALUE:
            kept.append(word)
            test_value = True
        elif word.startswith("-") and "=" in word:
            flag, _, value = word.partition("=")
            kept.append(f"{flag}={'<test>' if flag in words.TEST_VALUE else word_shape(value)}")
        else:
            kept.append(word_shape(word))
    return Shape(tuple(kept), tuple(decoration))
