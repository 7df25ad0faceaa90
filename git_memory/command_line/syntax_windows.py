"""The words of a command line as PowerShell or cmd splits them (pure, never raises).

The line a Windows shell is handed (`powershell.exe -NoProfile -Command "…"`, `pwsh -c …`,
`cmd /c "…"`) is not POSIX: a backslash is an ordinary character (`.\\.venv\\Scripts\\python`),
PowerShell escapes with a backtick and cmd with a caret. The pieces are the ones `syntax`
gives a POSIX line (`Piece`), so one reader serves both:
- PowerShell: `'…'` is a literal string (`''` a quote inside it), `"…"` a string whose
  backtick escapes are read (`` `n ``, `` `" ``); `;` and newlines separate statements, `&&`
  and `||` join them (PowerShell 7), `|` pipes; `&` opening a statement is the call operator
  (`& ".\\build.ps1" -Release` runs the script), elsewhere it sends a job to the background;
  `#` opening a word starts a comment; `$(…)`, `(…)`, `{…}` stay inside their word.
- cmd: `"…"` quotes, `^` escapes the next character, `&` runs the next command after
  (as `;` does), `&&`, `||` and `|` as in PowerShell; parentheses only group, and do not
  scope a `cd`; `@` opening a command only hides its echo.
- Both: a redirection (`> out.txt`, `2>&1`, `*> log`, `2>$null`) and its target are no
  arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from git_memory.command_line.syntax import Dialect, Piece, Splitter

_BLANKS = frozenset(" \t\r")
# PowerShell's escape sequences for control characters (`` `n ``, `` `e ``): kept as typed,
# so a word never holds a control character and a command reads back on one line; a
# backtick before any other character stands for that character.
_CONTROL_ESCAPES = frozenset("0abefnrtv")
# A redirection's operator: an optional stream (`2`, `*`), `>` or `>>`, and a merge into
# another stream (`2>&1`), which takes no target. cmd reads input with `<` as well.
_REDIRECTION = re.compile(r"[0-9*]?(?:>>?|<)(&[0-9])?")
_STREAM = re.compile(r"[0-9*]")
_OPENERS = {"(": ")", "{": "}"}


@dataclass(slots=True)
class _Scanner:
    """The state of one pass over a Windows line: the word being read and the pieces."""

    text: str
    dialect: Dialect
    splitter: Splitter = field(default_factory=Splitter)
    word: list[str] = field(default_factory=list)
    quoted: bool = False  # the word holds a quoted part, so it is a word even when empty
    skip_word: bool = False  # the next word is a redirection's target
    closed: bool = True
    index: int = 0

    @property
    def at_statement_start(self) -> bool:
        return not self.splitter.target and not self.word and not self.quoted

    def end_word(self) -> None:
        if self.word or self.quoted:
            if self.skip_word:
                self.skip_word = False
            else:
                self.splitter.target.append("".join(self.word))
        self.word, self.quoted = [], False

    def operator(self, op: str) -> None:
        self.end_word()
        self.skip_word = False
        self.splitter.operator(op)

    def scan(self) -> tuple[list[Piece], bool]:
        text = self.text
        while self.index < len(text):
            self.step(text[self.index])
        self.end_word()
        self.splitter.end("")
        return self.splitter.pieces, self.closed

    def step(self, char: str) -> None:
        text, at = self.text, self.index
        self.index += 1
        if char in _BLANKS:
            self.end_word()
        elif char == "\n":
            self.operator("\n")
        elif char in "&|":
            self.control(char, text[at + 1 : at + 2] == char)
        elif char == ";" and self.dialect == "powershell":
            self.operator(";")
        elif (redirection := self.redirection(at)) is not None:
            self.redirect(redirection)
        elif self.dialect == "powershell":
            self.powershell(char)
        else:
            self.cmd(char)

    def control(self, char: str, doubled: bool) -> None:
        """`&&`, `||`, `|`, and `&`: PowerShell's call operator opening a statement, else a
        background job (PowerShell) or the next command (cmd)."""
        if doubled:
            self.index += 1
            self.operator(char * 2)
        elif char == "|":
            self.operator("|")
        elif self.dialect == "cmd":
            self.operator(";")
        elif not self.at_statement_start:
            self.operator("&")

    def redirection(self, at: int) -> re.Match[str] | None:
        """The redirection starting here: at `>`, `<`, or a stream number right before one
        (`2>&1`, but not the `2` of `v2>`, part of a word)."""
        char = self.text[at]
        if char not in "<>" and not (_STREAM.fullmatch(char) and not self.word):
            return None
        if char == "<" and self.dialect == "powershell":
            return None  # reserved in PowerShell, never typed as a redirection
        return _REDIRECTION.match(self.text, at)

    def redirect(self, found: re.Match[str]) -> None:
        self.end_word()
        self.index = found.end()
        self.skip_word = found.group(1) is None  # `2>&1` has no target; `> out.txt` has

    def powershell(self, char: str) -> None:
        if char in "'\"":
            self.quoted_string(char)
        elif char == "`":
            self.escape()
        elif char == "#" and not self.word and not self.quoted:
            end = self.text.find("\n", self.index)
            self.index = len(self.text) if end < 0 else end
        elif char in _OPENERS or (char in "$@" and self.text[self.index : self.index + 1] == "("):
            self.group(char)
        else:
            self.word.append(char)

    def quoted_string(self, quote: str) -> None:
        """A string in `quote`s: that quote doubled is one inside it; in double quotes a
        backtick escapes (in single quotes every character is as it is)."""
        text, self.quoted = self.text, True
        while self.index < len(text):
            char = text[self.index]
            self.index += 1
            if char == "`" and quote == '"':
                self.escape()
            elif char != quote:
                self.word.append(char)
            elif text[self.index : self.index + 1] == quote:
                self.word.append(quote)
                self.index += 1
            else:
                return
        self.closed = False

    def escape(self) -> None:
        """A backtick: the next character as it is (a special one read), or, before a
        newline, the line continued."""
        if self.index >= len(self.text):
            self.word.append("`")
            return
        char = self.text[self.index]
        self.index += 1
        if char in _CONTROL_ESCAPES:
            self.word.append(f"`{char}")
        elif char != "\n":
            self.word.append(char)

    def group(self, char: str) -> None:
        """`(…)`, `{…}`, `$(…)`, `@(…)`: an expression, script block or subexpression kept
        inside its word as typed, whatever separators it holds."""
        text, quote = self.text, ""
        start = self.index - 1
        if char in "$@":
            self.index += 1  # the `(` after it
        opener = text[self.index - 1]
        closer = _OPENERS[opener]
        depth = 1
        while self.index < len(text) and depth:
            char = text[self.index]
            self.index += 1
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == opener:
                depth += 1
            elif char == closer:
                depth -= 1
        self.closed = self.closed and depth == 0
        self.word.append(text[start : self.index])

    def cmd(self, char: str) -> None:
        if char == '"':
            self.quoted = True
            end = self.text.find('"', self.index)
            self.closed = self.closed and end >= 0
            end = len(self.text) if end < 0 else end
            self.word.append(self.text[self.index : end])
            self.index = end + 1
        elif char == "^":
            following = self.text[self.index : self.index + 1]
            self.index += 1
            self.word.append("" if following == "\n" else following)
        elif char in "()":
            self.end_word()  # a group: its commands run as they would without it
        elif char == "@" and self.at_statement_start:
            return
        else:
            self.word.append(char)


def windows_pieces(command: str, dialect: Dialect) -> tuple[list[Piece], bool]:
    """The simple commands of a line PowerShell or cmd runs, as `syntax.pieces` gives a
    POSIX line's, and whether its quotes and groups close."""
    return _Scanner(command, dialect).scan()
