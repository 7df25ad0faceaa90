"""A command line as a shell reads it: its simple commands, how they are joined, where each
ran and with which environment (see the package docstring for the whole model)."""

from __future__ import annotations

import functools
import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from git_memory.command_line import forms, words
from git_memory.command_line import program as programs
from git_memory.command_line.shapes import Shape, shape_of
from git_memory.command_line.syntax import Dialect, Piece, joined, pieces
from git_memory.command_line.syntax_windows import windows_pieces

# `FOO=1`, and PowerShell's `$env:FOO="1"` (the quotes gone once split).
_ASSIGNMENT = re.compile(r"(?:\$env:)?[A-Za-z_][A-Za-z0-9_]*=.*")
_KEYWORDS = frozenset(["if", "then", "else", "elif", "do", "while", "until", "!", "{"])
_CLOSERS = frozenset(["fi", "done", "esac", "}"])
# Commands that change the directory the rest of the line runs in (PowerShell's too).
CD = frozenset(["cd", "pushd", "Set-Location", "Push-Location"])
# The same as PowerShell and cmd read them: in any case (`CD`, `set-location`), with their
# other names (`chdir`, PowerShell's `sl`).
_WINDOWS_CD = frozenset([*(name.lower() for name in CD), "chdir", "sl"])
# The folder an environment keeps its programs in: `bin`, and on Windows `Scripts`
# (`C:\venvs\app\Scripts\pytest.exe`).
_PROGRAM_FOLDER = re.compile(r"/bin/|\\(?i:bin|scripts)\\")
# A quoted span of a POSIX line, and a backslash between a path's characters.
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_WINDOWS_PATH = re.compile(r"[\w.:]\\[\w.]")
# Under `set -e` a failure stops the script: a newline or `;` joins as `&&` does.
_ERREXIT = re.compile(r"(?:^| )-\w*e")


@dataclass(frozen=True, slots=True)
class Command:
    """One simple command: its words as typed (wrappers kept, environment assignments apart),
    the program words a wrapper runs, its kind, and the forms derived from them."""

    words: tuple[str, ...]
    kind: str | None
    setup: bool
    normal: str
    env: tuple[str, ...] = ()
    # The run was narrowed to a file, a test id or an expression (its normal form is wider).
    narrowed: bool = False
    program: tuple[str, ...] = ()
    # The Windows shell whose line it was read from (None: a POSIX shell's): its words are
    # typed back by that shell's rules (a backslash kept, double quotes around a blank).
    dialect: Dialect | None = None

    @property
    def shape(self) -> Shape:
        """The words with placeholders for what varies (`shapes`), computed when asked."""
        return shape_of(self.words)

    @property
    def navigation(self) -> bool:
        """Neither a project command nor a setup step."""
        return self.kind is None and not self.setup

    @property
    def category(self) -> str:
        """The kind, else `setup`, `vcs`, `navigation` or `other`."""
        return programs.category(self.program, self.kind, self.setup)

    @property
    def general(self) -> str:
        """The form a person would write: a project command's normal form, else its shape
        without decoration (`gh pr diff <n> --stat`)."""
        return self.normal if self.kind is not None else self.shape.text

    @property
    def text(self) -> str:
        """The command as typed, its environment assignments in front."""
        return joined((*self.env, *self.words), self.dialect)


@dataclass(frozen=True, slots=True)
class Step:
    """A simple command of a line, how the shell joins it to the next, and where it ran."""

    command: Command
    # The operator after it: `&&`, `||`, `;`, a newline, `&` (sent to the background), or
    # "" for the last one.
    joiner: str
    # Its output went into a pipe: the pipeline's exit status is the last filter's, so its
    # own is hidden (unless `set -o pipefail`).
    piped: bool = False
    # It runs after a `cd` to an absolute or home path: not one of the project's commands.
    elsewhere: bool = False
    # The directory it ran in, relative to where the line started ("" the same, `../x` above
    # it); None when a `cd` went somewhere this line cannot tell (a variable, `-`, home, an
    # absolute path).
    directory: str | None = ""
    # The pipeline's later commands (`tail -20` of `pytest | tail -20`).
    filters: tuple[Command, ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """A command line as a shell reads it."""

    text: str
    steps: tuple[Step, ...]
    # `set -o pipefail` ran before: a pipeline fails when any of its commands fails.
    pipefail: bool = False
    # The quotes do not close: the words are the line's plain words, a guess.
    guessed: bool = False

    @property
    def commands(self) -> tuple[Command, ...]:
        """The simple commands in order (pipeline filters left out)."""
        return tuple(step.command for step in self.steps)

    @property
    def main_index(self) -> int | None:
        """Index of the last project command (None without one)."""
        return main_index(self.commands)

    @property
    def main(self) -> Command | None:
        """The last project command: what the line was run for."""
        index = self.main_index
        return None if index is None else self.steps[index].command


def main_index(found: Sequence[Command]) -> int | None:
    """Index of the last project command of a line's commands (None without one)."""
    return next((i for i in range(len(found) - 1, -1, -1) if found[i].kind is not None), None)


def in_project(step: Step) -> bool:
    """The step ran in the project: not after a `cd` to an absolute or home path, nor above
    the project's root (`cd .. && make`, from the root), nor in a folder of an agent's own
    (`.codex/skills/…`: the agent's tooling), nor in one named with quotes or shell syntax."""
    folder = step.directory or ""
    top = folder.split("/", 1)[0]
    plain = not words.UNPLAIN_FOLDER.search(folder)  # `cd 'a; b'`: no folder a memory names
    return not step.elsewhere and top != ".." and top not in words.AGENT_FOLDERS and plain


def located(command: str, directory: str | None) -> str:
    """The command as a teammate runs it from the project's root: `cd web && npm test` for
    `npm test` run in `web/`."""
    return f"cd {shlex.quote(directory)} && {command}" if directory else command


def is_assignment(word: str) -> bool:
    """A variable assignment in front of a command (`PYTHONPATH=.`)."""
    return _ASSIGNMENT.fullmatch(word) is not None


def join_directory(base: str | None, target: str | None) -> str | None:
    """The directory after `cd target` from `base` (both relative to where the line started),
    or None when it cannot be told: no target (home), `-`, a variable, an absolute path."""
    if base is None or not target or target.startswith(("/", "~", "-", "$")) or "$" in target:
        return None
    if programs.outside(target):
        return None
    joined = posixpath.normpath(posixpath.join(base or ".", target))
    return "" if joined == "." else joined


@functools.lru_cache(maxsize=65536)
def parse(text: str, start: str = "", *, dialect: Dialect | None = None) -> Line:
    """The line's steps: split as a shell splits it (`syntax`), shell keywords around a
    command left out, `bash -c '…'` read as the line it runs, each command classified, and
    the directory and environment of each kept apart. `start` is where the line ran, relative
    to the project's root ("" the root; an absolute or home path is outside the project).
    With a `dialect`, the line is that Windows shell's (`syntax_windows`). Never raises;
    parses are cached."""
    reader = _Reader(join_directory("", start) if start else "", dialect=dialect)
    reader.elsewhere = bool(start) and programs.outside(start)
    found, closed = pieces(text) if dialect is None else windows_pieces(text, dialect)
    for piece in found:
        reader.read(piece)
    return reader.line(text, guessed=not closed)


def memory_line(text: str) -> Line:
    """A command line a memory names, read as it was written: by Windows rules when it was
    written for PowerShell or cmd (a memory of a command read from such a line names it so:
    `.\\.venv\\Scripts\\python -m pytest`), else as a POSIX shell reads it."""
    return parse(text, dialect="powershell" if written_for_windows(text) else None)


def written_for_windows(text: str) -> bool:
    """The line names a path with backslashes outside quotes (`.\\.venv\\Scripts\\python`,
    `cd web\\app`): a POSIX shell would drop them, as no one escapes a plain character."""
    return _WINDOWS_PATH.search(_QUOTED.sub(" ", text)) is not None


class _Reader:
    """The state of one pass over a line's pieces: directories, `set` options, steps."""

    def __init__(
        self,
        directory: str | None = "",
        around: tuple[str, ...] = (),
        *,
        dialect: Dialect | None = None,
    ) -> None:
        # The environment a child shell runs in (`nix develop -c bash -lc '…'`): its
        # commands run through it.
        self.around = around
        self.dialect = dialect  # the Windows shell whose line it is (None: POSIX)
        self.steps: list[Step] = []
        self.stack: list[tuple[str | None, bool]] = []
        self.directory = directory
        self.pipefail = self.errexit = self.elsewhere = False

    def read(self, piece: Piece) -> None:
        for _ in range(piece.opens):  # a subshell: its `cd` ends with it
            self.stack.append((self.directory, self.elsewhere))
        found = unwrapped(piece.words)
        if found:
            self._step(found, piece)
        for _ in range(piece.closes):
            if self.stack:
                self.directory, self.elsewhere = self.stack.pop()

    def _step(self, found: list[str], piece: Piece) -> None:
        program = programs.program_words(found)
        handed = _shell_string(program)
        if handed is not None:
            self._inner(*handed, piece, tuple(found[: len(found) - len(program)]))
            return
        if found[0] == "set" and self.dialect is None:  # cmd's `set` assigns a variable
            options = " ".join(found[1:])
            self.pipefail = self.pipefail or "pipefail" in options
            self.errexit = self.errexit or bool(_ERREXIT.search(options))
        joiner = "&&" if self.errexit and piece.joiner in (";", "\n") else piece.joiner
        filters = tuple(command_of(tuple(f), self.dialect) for f in piece.filters if unwrapped(f))
        moves = self._changes_directory(found[0])
        around = () if moves else self.around
        step = Step(
            command_of((*around, *found), self.dialect),
            joiner,
            piece.piped,
            self.elsewhere,
            self.directory,
            filters,
        )
        self.steps.append(step)
        if moves and len(found) > 1:
            # Windows names a folder with backslashes (`cd web\app`); the project, with `/`.
            target = found[-1] if self.dialect is None else found[-1].replace("\\", "/")
            self.elsewhere = programs.outside(target)
            self.directory = join_directory(self.directory, target)

    def _changes_directory(self, name: str) -> bool:
        """The command moves the rest of the line to another directory (`cd`)."""
        return name in CD or (self.dialect is not None and name.lower() in _WINDOWS_CD)

    def _inner(
        self, inner: str, dialect: Dialect | None, piece: Piece, around: tuple[str, ...] = ()
    ) -> None:
        """`bash -lc 'cd api && make test'`: the string's steps, run in a child shell (inside
        the environment `around` it, `nix develop -c bash -lc '…'`); a Windows shell's
        (`dialect`) split by its own rules."""
        child = _Reader(self.directory, (*self.around, *around), dialect=dialect)
        child.elsewhere = self.elsewhere
        parts = pieces(inner)[0] if dialect is None else windows_pieces(inner, dialect)[0]
        for part in parts:
            child.read(part)
        if not child.steps:
            return
        last = child.steps[-1]
        filters = tuple(command_of(tuple(f), self.dialect) for f in piece.filters if unwrapped(f))
        child.steps[-1] = Step(
            last.command, piece.joiner, piece.piped or last.piped, last.elsewhere,
            last.directory, last.filters + filters,
        )  # fmt: skip
        self.steps += child.steps
        self.pipefail = self.pipefail or child.pipefail

    def line(self, text: str, *, guessed: bool) -> Line:
        steps = self.steps
        if steps and steps[-1].joiner != "&":
            last = steps[-1]
            steps[-1] = Step(
                last.command, "", last.piped, last.elsewhere, last.directory, last.filters
            )
        return Line(text, tuple(steps), self.pipefail, guessed)


def unwrapped(found: Sequence[str]) -> list[str]:
    """The command of a piece with shell keywords (`if`, `do`, …) around it left out."""
    rest = list(found)
    while rest and rest[0] in _KEYWORDS:
        rest = rest[1:]
    return [] if rest[:1] and rest[0] in _CLOSERS else rest


def _shell_string(found: Sequence[str]) -> tuple[str, Dialect | None] | None:
    """The command line a shell is handed with `-c` (`bash -lc '…'`), or PowerShell with
    `-Command` (`powershell.exe -NoProfile -Command "npm test"`) or cmd with `/c`, if any,
    and the Windows shell whose rules it is read by (None: a POSIX shell's)."""
    if len(found) < 3:
        return None
    name = programs.program_name(found[0]).lower()  # `C:\Windows\…\powershell.exe` too
    if name in words.SHELLS:
        flag = found[1]
        if flag.startswith("-") and not flag.startswith("--") and "c" in flag:
            return found[2], None
        return None
    markers = words.COMMAND_STRING.get(name)
    if markers is None:
        return None
    dialect: Dialect = "cmd" if name == "cmd" else "powershell"
    valued = False  # the word is the value of the option before it (`-ExecutionPolicy Bypass`)
    for index, word in enumerate(found[1:], start=2):
        if word.lower() in markers:
            command = " ".join(found[index:])  # the rest is the command, joined
            return (command, dialect) if command else None
        if not valued and not word.startswith(("-", "/")):
            return None  # a script file (`-File x.ps1`, or named first): not a command line
        valued = not valued and word.lower() in words.COMMAND_STRING_VALUED
    return None


@functools.lru_cache(maxsize=65536)
def command_of(typed: tuple[str, ...], dialect: Dialect | None = None) -> Command:
    """A simple command classified from its words (each distinct one once); `dialect`, the
    Windows shell that read them (`Command.dialect`)."""
    rest = list(typed)
    env: list[str] = []
    while rest:
        if _ASSIGNMENT.fullmatch(rest[0]):
            env.append(rest.pop(0))
        elif rest[0] in words.TRANSPARENT and programs.skip_options(
            rest[1:], words.PREFIX_OPTIONS
        ):  # a prefix with a command after it (a lone `env` or `time` is the command)
            rest = programs.skip_options(rest[1:], words.PREFIX_OPTIONS)
        elif len(rest) >= 2 and rest[0] == "timeout":
            rest = programs.skip_options(rest[1:], words.TIMEOUT_OPTIONS)[1:]
        else:
            break
    if rest and programs.outside(rest[0]) and _PROGRAM_FOLDER.search(rest[0]):
        rest[0] = programs.program_name(rest[0])  # `/opt/venv/bin/pytest` is `pytest`
    program = programs.program_words(rest)
    kind = programs.kind_of(program)
    normal = forms.normal_words(rest, program, kind) if kind else rest
    # a set-up program run by its path is one too (`.venv/bin/pip install`, `python -m pip`)
    named = [programs.program_name(program[0]), *program[1:]] if program else []
    setup = kind is None and any(programs.is_setup(" ".join(w)) for w in (rest, named))
    narrowed = kind is not None and forms.narrowed(rest, program, normal)
    return Command(
        tuple(rest), kind, setup, joined(normal, dialect), tuple(env), narrowed,
        tuple(program), dialect,
    )  # fmt: skip
