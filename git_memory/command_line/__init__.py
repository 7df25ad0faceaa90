"""One model of a shell command line, shared by extraction, impact and verify (pure: no I/O,
stdlib only).

Reading a line (`line.parse`, cached per distinct text) gives a `Line` of `Step`s:

    parse("cd api && FOO=1 uv run pytest tests/test_x.py -k slow -q 2>&1 | tail -20")

- **structure**: each step's `joiner` (`&&`, `||`, `;`, newline, `&`, "" for the last);
  `piped` when its output went into a pipe (its own exit status is then hidden: the
  pipeline's is the last filter's, unless `Line.pipefail`); the pipeline's `filters`
  (`tail -20`); subshells scope their `cd`; heredoc bodies and comments are not commands;
  `bash -lc '…'` is read as the line it runs, and so is a Windows shell's
  (`powershell -Command "…"`, `cmd /c "…"`), split by its own rules (`syntax_windows`: a
  backslash is a path's separator); its commands are typed back as that shell reads them
  (`Command.text`, `normal`). `a && b` stays two steps, never `b`.
- **where and with what**: each step's `directory` relative to where the line started
  (`api`; None when a `cd` went somewhere the line cannot tell) and its command's `env`
  (`FOO=1`), kept apart from its `words` (`uv run pytest tests/test_x.py -k slow -q`).
- **what it runs**: `Command.program` (wrappers seen through: `pytest tests/…`; so are the
  environments a command runs in: `conda run -n ml`, `nix develop -c`, `devbox run --`), `kind`
  (test, lint, format, typecheck, check, build, generate, run, script, deploy; None
  otherwise) from the `kinds` table and task-runner targets (`make test`, `mise run fmt`,
  `npm run typecheck`), `setup` (an install, a service, a migration), and `category` (the
  kind, else setup, vcs, navigation or other).
- **forms**: `normal` (a project command with what narrows or decorates it dropped, wrappers
  kept: `uv run pytest`), `narrowed` (the run named one file, test or path), `shape`
  (placeholders for numbers, ids, hashes, tests, paths, URLs, temp paths, decoration set
  apart: `gh pr diff <n> --stat`), `general` (what a person would write: the normal form of
  a project command, the shape of any other).
- **matching** (`match.runs`): an observed line runs a memory's line when it runs each of
  its commands in order, in the same directory, as a person means it.
- **outcomes** (`outcomes.line_outcomes`): worked, failed or unknown per step from the exit
  status and the tools' own words (`reports.REPORTS`, one row per tool); `signature`
  gives a failure's first meaningful error line and its normalized signature.
"""

from __future__ import annotations
