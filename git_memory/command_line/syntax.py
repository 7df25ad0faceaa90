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


def joined(found: Sequence[str]) -> str:
    """Words as a command line a shell splits back into the same words: a word with blanks or
    an operator in it quoted (`python -c 'import x; x.run()'`), the others as they are (a
    glob or `$VAR` left to the shell, as it was most likely typed)."""
    return " ".join(shlex.quote(word) if _NEEDS_QUOTES.search(word) else word for word in found)


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


class _Splitter:
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
    splitter = _Splitter()
    found, closed = tokens(command)
    for token in found:
        if token.strip("();<>|&\n"):
            splitter.word(token)
        else:
            for op in _PUNCTUATION.findall(token):
                splitter.operator(op)
    splitter.end("")
    return splitter.pieces, closed
