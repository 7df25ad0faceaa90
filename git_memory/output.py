"""The only module that writes to stdout and stderr.

Data goes to stdout (text or one JSON document); diagnostics, progress and errors go to
stderr, so `--format json` output can always be piped into a parser.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of a warm
# `context` answer's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, TextIO

# Set once per process by the CLI when `--format json` was asked for: errors are then also
# printed as a JSON document on stdout, so an agent parsing stdout always gets a document.
_settings = {"json_errors": False}


def enable_json_errors(enabled: bool = True) -> None:
    """Also print errors as a JSON document on stdout (`--format json`)."""
    _settings["json_errors"] = enabled


def json_errors_enabled() -> bool:
    """Whether `--format json` asked for errors as JSON too."""
    return _settings["json_errors"]


def _stream(err: bool) -> TextIO:
    return sys.stderr if err else sys.stdout


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print one line (or a block) of text."""
    stream = _stream(err)
    stream.write(text + ("\n" if nl else ""))
    stream.flush()


def echo_json(document: Any, escape: Callable[[str], str] | None = None) -> None:
    """Print one JSON document on stdout, pretty enough for humans, stable for machines.

    `escape` rewrites the JSON text before it is printed (the CLI passes
    `formats.controls.escape_json_controls`, so no control or invisible character is shown raw).
    """
    # Start-up seam (docs/architecture.md): `git memory -h` prints no JSON.
    import json  # noqa: PLC0415

    text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False)
    echo(escape(text) if escape is not None else text)


def print_error(code: str, message: str, hint: str | None) -> None:
    """Print a user-fixable error once, git style: `error: … [GM_X]` then `hint: …`."""
    echo(f"error: {message} [{code}]", err=True)
    if hint:
        for line in hint.splitlines():
            echo(f"hint: {line}", err=True)


def is_tty(err: bool = True) -> bool:
    """Whether the given stream is an interactive terminal (progress bars, prompts)."""
    return _stream(err).isatty()


@contextmanager
def progress(label: str, total: int) -> Iterator[Progress]:
    """A progress bar on stderr when it is a TTY; silent otherwise."""
    bar = Progress(label, total, enabled=is_tty(err=True))
    try:
        yield bar
    finally:
        bar.close()


class Progress:
    """Minimal carriage-return progress line on stderr."""

    def __init__(self, label: str, total: int, *, enabled: bool) -> None:
        self.label = label
        self.total = max(total, 0)
        self.done = 0
        self.enabled = enabled

    def advance(self, step: int = 1) -> None:
        """Count `step` more units of work and redraw."""
        self.done += step
        if self.enabled:
            width = 30
            filled = width * self.done // self.total if self.total else width
            bar = "#" * filled + "-" * (width - filled)
            sys.stderr.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def prompt_choice(question: str, choices: str, default: str) -> str:
    """Ask a one-key question on the terminal; returns the lowercase choice."""
    # Start-up seam (docs/architecture.md): only a question at the terminal needs click.
    import click  # noqa: PLC0415

    answer: str = click.prompt(
        question,
        type=click.Choice(list(choices), case_sensitive=False),
        default=default,
        show_choices=True,
        err=True,
    )
    return answer.lower()


def prompt_line(question: str) -> str:
    """Ask for one line of text on the terminal (stderr); empty when the human just hits
    Enter."""
    # Start-up seam (docs/architecture.md): only a question at the terminal needs click.
    import click  # noqa: PLC0415

    answer: str = click.prompt(question, default="", show_default=False, err=True)
    return answer


def confirm(question: str) -> bool:
    """Ask a yes/no question on the terminal (stderr), `[y/N]`: only `y` says yes.

    Every yes/no question of git memory writes files or sends something when answered yes
    (review's write, promote, a runner plan, a consolidation), so every one has the same
    default, no: Enter changes nothing (docs/guide-review-promote.md, "One rule for
    questions")."""
    # Start-up seam (docs/architecture.md): only a question at the terminal needs click.
    import click  # noqa: PLC0415

    return bool(click.confirm(question, default=False, err=True))


def confirm_after(question: str, *details: str) -> bool:
    """Show what is at stake (each detail on stderr), then ask; no unless the human says yes."""
    for detail in details:
        echo(detail, err=True)
    return confirm(question)
