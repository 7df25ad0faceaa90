"""The words of a command line as a shell splits them (pure, never raises).

`pieces` splits on newlines, `;`, `&&`, `||` and `&` outside quotes; heredoc bodies, line
continuations, comments and redirections are left out; a pipeline's later commands are kept
apart as its filters (`pytest | tail -20` runs `pytest`, and `tail` decides the exit status);
a subshell's parentheses are counted so that a `cd` inside one ends with it; `$(…)` stays
inside its word.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

# The Windows shell whose rules a line is read by (`syntax_windows`); None is a POSIX shell.
Dialect = Literal["powershell", "cmd"]

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w.-]*)\1")
_PUNCTUATION = re.compile(r"&&|\|\||;;|\|&|&>>|&>|>>|>&|<&|>\||<<-|<<|[;&|()<>\n]")
_SEPARATORS = frozenset(["&&", "||", ";", ";;", "&", "\n"])
# A line without quotes, escapes, operators or comments splits on blanks alone: most recorded
# lines are such, and reading them without the lexer is several times faster.
_SPECIAL = re.compile(r"[\'\"\\;&|()<>#\n]")
_BLANKS = re.compile(r"[ \t\r]+")


@dataclass(slots=True)
class Piece:
    """One simple command as split: its words, the operator after it, whether its output went
    into a pipe, the pipeline's filters, and the subshells opened before it and closed after."""

    words: list[str]
    joiner: str = ""
    piped: bool = False
    filters: list[list[str]] = field(default_factory=list)
    opens: int = 0
    closes: int = 0


# A word that cannot stand in a command line as it is: blanks or a shell operator in it.
_NEEDS_QUOTES = re.compile(r"[\s;&|()<>'\"`\\]")


# The same in a line PowerShell or cmd reads, where a backslash is an ordinary character
# (`.\.venv\Scripts\python`) and a bare brace, `@` or `#` opening a word means something.
_WINDOWS_NEEDS_QUOTES = re.compile(r"[\s;&|()<>{}'\"`^]|^[@#]|^$")
# How deep a PowerShell expression, script block or subexpression each bracket goes.
_BRACKETS = {"(": 1, "{": 1, ")": -1, "}": -1}


def joined(found: Sequence[str], dialect: Dialect | None = None) -> str:
    """Words as a command line a shell splits back into the same words: a word with blanks or
    an operator in it quoted (`python -c 'import x; x.run()'`), the others as they are (a
    glob or `$VAR` left to the shell, as it was most likely typed). With a `dialect`, as
    PowerShell or cmd reads it (`windows_quoted`); PowerShell runs a program named by a
    quoted path only after its call operator (`& "C:\\Program Files\\nodejs\\npm.cmd" test`)."""
    if dialect is not None:
        typed = [windows_quoted(word, dialect) for word in found]
        program_quoted = bool(found) and typed[0] != found[0]
        return " ".join(["&", *typed] if program_quoted and dialect == "powershell" else typed)
    return " ".join(_posix_quoted(word) for word in found)


def _posix_quoted(word: str) -> str:
    """A word as a POSIX shell reads it back: as it is, or quoted when it holds a blank or an
    operator; in double quotes when it expands (`JAVA_HOME="$(/usr/libexec/java_home)"`:
    single quotes would make the expansion literal text), else in single quotes."""
    if _NEEDS_QUOTES.search(word) is None:
        return word
    if "$" in word or "`" in word:
        return '"' + re.sub(r'(["\\])', r"\\\1", word) + '"'
    return shlex.quote(word)


def windows_quoted(word: str, dialect: Dialect) -> str:
    """A word as a Windows user types it: as it is, or in double quotes when it holds a blank
    or an operator (`"C:\\Program Files\\nodejs\\node.exe"`), a quote inside doubled, which
    PowerShell and cmd both read as one quote; a PowerShell expression as it is."""
    if _WINDOWS_NEEDS_QUOTES.search(word) is None:
        return word
    if dialect == "powershell" and _expression(word):
        return word
    return '"' + word.replace('"', '""') + '"'


def _expression(word: str) -> bool:
    """A word PowerShell read with an expression, script block or subexpression in it, kept
    as typed since quotes would make it a string (`(Get-Content 'a b.txt').Length`,
    `$s=$(Get-Date)`, `{ $_ }`): its blanks and quotes are all inside brackets (a string such
    as `(fix) a b` has one outside)."""
    depth = 0
    for char in word:
        depth += _BRACKETS.get(char, 0)
        if depth < 0 or (depth == 0 and (char.isspace() or char in "'\"")):
            return False
    return depth == 0 and any(char in _BRACKETS for char in word)


def without_heredocs(command: str) -> str:
    """The command line without heredoc bodies and line continuations."""
    kept: list[str] = []
    delimiter: str | None = None
    for line in command.replace("\\\n", " ").split("\n"):
        if delimiter is not None:
            if line.strip() == delimiter:
                delimiter = None
            continue
        kept.append(line)
        found = _HEREDOC.search(line)
        if found:
            delimiter = found.group(2)
    return "\n".join(kept)


def tokens(command: str) -> tuple[list[str], bool]:
    """The shell tokens of a command line (quotes removed), and whether its quotes close
    (when they do not, the tokens are its plain words: a guess)."""
    if _SPECIAL.search(command) is None:
        return [word for word in _BLANKS.split(command) if word], True
    try:
        lexer = shlex.shlex(without_heredocs(command), posix=True, punctuation_chars="();<>|&\n")
        lexer.whitespace = " \t\r"
        lexer.commenters = ""
        lexer.whitespace_split = True
        return list(lexer), True
    except ValueError:
        return command.split(), False


class Splitter:
    """The state of one pass over the tokens."""

    def __init__(self) -> None:
        self.pieces: list[Piece] = []
        self.current = Piece([])
        self.target: list[str] = self.current.words  # where words go: the command or a filter
        self.comment = self.skip_next = False
        self.substitution = 0  # depth inside `$(…)`
        self.opened = 0  # subshells opened since the last piece

    def word(self, token: str) -> None:
        if self.comment:
            return
        if self.skip_next:
            self.skip_next = False
        elif self.substitution:
            return
        elif token.startswith("#") and self.target is self.current.words:
            self.comment = True
        else:
            self.target.append(token)

    def operator(self, op: str) -> None:
        if self.comment and op != "\n":
            return
        if self.substitution:
            self.substitution += {"(": 1, ")": -1}.get(op, 0)
        elif op == "(" and self.target and self.target[-1].endswith("$"):
            self.substitution = 1  # command substitution: `$(…)` stays inside its word
        elif op in _SEPARATORS:
            self.comment = False
            self.end(";" if op == ";;" else op)
        elif op in ("|", "|&"):
            self.current.piped = True
            self.target = []
            self.current.filters.append(self.target)
        elif op == "(":
            self.opened += 1
        elif op == ")":
            self.current.closes += 1
        else:  # a redirection: its target is no argument, nor the descriptor before it
            self.skip_next = True
            if self.target and self.target[-1].isdigit():
                self.target.pop()

    def end(self, joiner: str) -> None:
        piece = self.current
        piece.filters = [words for words in piece.filters if words]
        if piece.words:  # an empty one is a line continued after its operator
            piece.joiner, piece.opens = joiner, self.opened
            self.pieces.append(piece)
            self.opened = 0
        elif piece.closes and self.pieces:
            self.pieces[-1].closes += piece.closes
        self.current = Piece([])
        self.target = self.current.words


def pieces(command: str) -> tuple[list[Piece], bool]:
    """The simple commands of a command line, in order, with the operator after each, and
    whether its quotes close (`tokens`)."""
    splitter = Splitter()
    found, closed = tokens(command)
    for token in found:
        if token.strip("();<>|&\n"):
            splitter.word(token)
        else:
            for op in _PUNCTUATION.findall(token):
                splitter.operator(op)
    splitter.end("")
    return splitter.pieces, closed
