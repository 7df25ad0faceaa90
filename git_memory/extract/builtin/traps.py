"""`command-fix@1`: a project command that failed, and what made it work in the same session.

These shapes count, each ending in a later success of the same purpose:
- *prerequisite*: the same command succeeds after setup steps (`docker compose up -d db`,
  `npm install`, `uv sync`, a build or code generation), run separately or chained before it,
  with no file edit in between unless the error names the environment (a refused
  connection, a missing module): a failure an edit fixed was a bug, not a trap;
- *variant*: a corrected invocation of the same kind succeeds (`uv run pytest` after `pytest`
  failed with `ModuleNotFoundError`): another wrapper around the same tool, or any command of
  the same kind after an invocation error (command not found, unknown option, …), the same
  command in another folder when this one holds no project of its tool (`go.mod file not
  found` before `cd backend && go test ./...`), or a setup
  step that worked once an option was added (`npm install --legacy-peer-deps`) or, refused
  for want of something in the environment, through the project's own installation of its
  program (`python3 -m venv .venv && .venv/bin/pip install -r requirements.txt`); a set-up
  step so refused that worked after other set-up steps is a *prerequisite* (`yarn install`
  unless `corepack enable` runs first);
- *hook*: `git commit`/`git push` refused by a hook succeeds after a formatter or linter ran;
- *file*: the error names a file that is missing ("ESLint couldn't find an
  eslint.config.(js|mjs|cjs) file") and the same command succeeds once the session wrote that
  file, and only that file, in between;
- *told by the output* (`told_by_output.py`): a program the machine lacks and one of the same
  use, a switch refused and the program run without it, a route folder zsh took for a
  pattern and the command with it quoted, a refusal naming the program to use instead;
- *environment*: Python code run by the bare interpreter (`python3 -c "import openpyxl …"`,
  `python - <<'PY' … PY`, `python3 tools/x.py`) fails for want of a module, and the same
  code succeeds through the project's environment (`./.venv/bin/python`, `source
  venv/bin/activate && python3`, `uv run python`): the trap is about the interpreter.
A failure nothing fixed is not a memory, and neither is one "fixed" by turning a safeguard
off (`renderers.weakens_safety`). The error quoted is the failure's own line, not the noise
of a sandboxed or offline machine printed beside it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import replace

from git_memory.command_line.line import located
from git_memory.command_line.program import program_name
from git_memory.command_line.signature import (
    ENVIRONMENT,
    FINDING,
    error_line,
    invocation_error,
    missing_dependency,
)
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.observed import own_output
from git_memory.extract.builtin.pointed import pointed_program
from git_memory.extract.builtin.renderers import (
    BuiltinFact,
    Quote,
    bare_python,
    plain_words,
    script_run,
    verify_typed_fact,
)
from git_memory.extract.builtin.runs import Run
from git_memory.extract.builtin.told_by_output import (
    alternative_trap,
    pointed_trap,
    quoted_trap,
    switch_trap,
)
from git_memory.extract.builtin.trap_fact import first_error_line, trap_fact
from git_memory.extract.builtin.writes import setup_file, written_files

MAX_FIX_STEPS = 3
_HOOK = re.compile(
    r"(?i)\bhooks?\b|pre-commit|husky|lint-staged|would reformat|files were modified"
)


def trap_facts(runs: Sequence[Run]) -> list[BuiltinFact]:
    """One fact per (failing command, fix) of one session's runs, first occurrence first."""
    facts: dict[str, BuiltinFact] = {}
    for index, run in enumerate(runs):
        if run.command is None or run.state == "completed":
            continue
        if run.state != "failed":
            # refused before it ran, by a hook naming what to use (`pointed`)
            fact = pointed_trap(runs, index) if pointed_program(run.output) else None
        else:
            fact = _hook_fix(runs, index) if _hooked(run) else _fix(runs, index)
        if fact is None or fact.key in facts:
            continue
        # Every shape is rendered by the one renderer; what it would not vouch for stays out.
        if verify_typed_fact(fact.renderer, fact.statement, fact.parameters):
            facts[fact.key] = fact
    return list(facts.values())


def _hooked(run: Run) -> bool:
    return (
        bool(run.command)
        and shell.is_hooked_git(run.command or "")
        and bool(_HOOK.search(run.output))
    )


def _fix(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    # A refusal naming what to use is the last shape tried: the others read the failure
    # itself, this one only a line the refusal printed.
    return _shaped_fix(runs, index) or pointed_trap(runs, index)


def _shaped_fix(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    failed = runs[index]
    outside = _environment_fix(runs, index)
    if outside is not None:
        return outside
    subject = _subject(failed)
    if subject is None:
        return (
            _setup_fix(runs, index)
            or alternative_trap(runs, index)
            or switch_trap(runs, index)
            or quoted_trap(runs, index)
        )
    if _NOT_EXECUTABLE.search(failed.output) and _written_by_the_session(runs[:index], failed):
        return None  # its own new script: a teammate gets the mode it is committed with
    error = first_error_line(failed.output)
    steps: list[tuple[str, str]] = []  # each step's words and the folder it ran in
    edited = False  # the code changed: what worked then was a fix of the code, not a trap
    configured: list[str] = []  # set-up files written (`.env`, `pyproject.toml`, …)
    told: list[Run] = []  # the steps the person said they ran (`told.py`)
    for later in runs[index + 1 :]:
        written = written_files(later)
        if written is not None:
            edited = edited or not written or any(not setup_file(p) for p in written)
            configured += [p for p in written if setup_file(p)]
            if later.edit:
                continue
        if later.command is None or later.state != "completed":
            continue
        if _subject(later) == subject:
            fact = _same_again(failed, later, subject, error, (steps, configured, edited))
            return _told_in(fact, told)
        if _variant(failed, later, edited, error):
            fix = _rooted([*steps, (_run_words(later), later.where)])
            return _told_in(trap_fact("variant", failed, later, error, fix, failing=subject), told)
        if later.main is None or later.main.kind in _step_kinds(failed):
            told += [later] if later.told else []
            folders = later.setup_folders()
            if later.main is None and _is_setup_line(later) and len(set(folders)) == 1:
                # a line of set-up steps in one folder is one step, not its parts and then
                # itself again
                steps.append((_setup_line(later), folders[0]))
                continue
            steps += [(plain_words(s), f) for s, f in zip(later.setups, folders, strict=False)]
            if later.main is not None:
                steps.append((later.main.normal, later.where))
    return None


def _told_in(fact: BuiltinFact | None, told: Sequence[Run]) -> BuiltinFact | None:
    """The fact with the person's words quoted for each step of its fix they said they ran:
    nothing else in the transcript shows that step."""
    fix = dict(fact.parameters).get("fix", "") if fact is not None else ""
    # each step of the fix whole (`npm i` is no step of `npm install`), as `_rooted` joins them
    parts = {part.strip("() ") for part in fix.split(" && ")}
    steps = [run for run in told if run.command in parts]
    if fact is None or not steps:
        return fact
    turns = (*fact.turn_keys[:-1], *(run.turn_key for run in steps), fact.turn_keys[-1])
    quotes = (*fact.quotes, *(Quote(run.turn_key, run.command or "", "user") for run in steps))
    return replace(fact, turn_keys=tuple(dict.fromkeys(turns)), quotes=quotes)


# How far after a missing program's failure its alternative may run.
def _rooted(steps: Sequence[tuple[str, str]]) -> str:
    """A fix's steps as a teammate runs them from the project's root: in one folder, after
    its `cd` (`cd web && pnpm install && pnpm test`); in several, each in its own subshell
    (`(cd packages/api && pnpm build) && (cd web && pnpm build)`). At most the last
    `MAX_FIX_STEPS`, each once."""
    # each step once, unless it ran again after another step changed its environment (`pip
    # install` again after `source .venv/…`, `nvm use 20` again after `nvm use 18`); a step
    # run in the root spelled `cd . &&` is the one run there without it, and a line another one
    # in the same folder starts with is run by that one
    once: list[tuple[str, str]] = []
    for step in ((w, "" if f == "." else f) for w, f in steps if w):
        if step in once and not any(
            _ENVIRONMENT_STEP.search(w) and (w, f) != step for w, f in _since(once, step)
        ):
            continue  # (nothing it depends on changed: it did the same again)
        once.append(step)
    kept = [
        (words, folder)
        for words, folder in once
        if not any(f == folder and w.startswith(words + " && ") for w, f in once)
    ][-MAX_FIX_STEPS:]
    folders = {folder for _, folder in kept}
    if len(folders) == 1:
        return located(" && ".join(_set_up_once([words for words, _ in kept])), folders.pop())
    return " && ".join(f"({located(w, f)})" if f else w for w, f in kept)


def _set_up_once(lines: Sequence[str]) -> list[str]:
    """The lines of a fix run in one shell, without the set-up a line repeats at its start
    while it is still in effect (`source .venv/bin/activate && pip install pyyaml` after
    `source .venv/bin/activate && pip install pytest`: the second `source` changes nothing).
    (Steps in several folders run in subshells: each sets its own environment up.)"""
    ran: list[str] = []  # the steps so far, one by one
    kept: list[str] = []
    for line in lines:
        parts = _steps_of(line)
        while len(parts) > 1 and _in_effect(parts[0], ran):
            parts = parts[1:]
        kept.append(" && ".join(parts))
        ran += parts
    return kept


def _steps_of(line: str) -> list[str]:
    """A line's steps as the fix names them; the line whole when its words cannot be told
    apart so (a quoted ` && `, a pipe)."""
    parts = [plain_words(segment) for segment in shell.segments(line)]
    return parts if " && ".join(parts) == line else [line]


def _in_effect(step: str, ran: Sequence[str]) -> bool:
    """Whether an environment step already ran and no other environment step ran since."""
    if not _ENVIRONMENT_STEP.search(step) or step not in ran:
        return False
    since = ran[len(ran) - ran[::-1].index(step) :]
    return not any(_ENVIRONMENT_STEP.search(other) and other != step for other in since)


# A step that changes the environment of the steps after it: an activated venv, a Node
# version, an exported variable.
_ENVIRONMENT_STEP = re.compile(
    r"(?:^|&& )(?:(?:source|export|set|workon|deactivate|conda (?:de)?activate|nvm use"
    r"|fnm use|pyenv (?:local|shell)|corepack enable|mise use|asdf (?:local|shell)|volta pin"
    r"|uv venv|python3? -m venv|virtualenv)\b|\.\s)"
)


def _since(steps: Sequence[tuple[str, str]], step: tuple[str, str]) -> Sequence[tuple[str, str]]:
    """The steps after the last time `step` ran."""
    last = max(at for at, seen in enumerate(steps) if seen == step)
    return steps[last + 1 :]


_NOT_EXECUTABLE = re.compile(r"(?i)permission denied")


def _written_by_the_session(earlier: Sequence[Run], failed: Run) -> bool:
    """Whether the program the failed run started is a file the session wrote before."""
    program = failed.main.words[0] if failed.main is not None else ""
    name = posixpath.normpath(program.removeprefix("./")) if program else ""
    if not name or name == ".":
        return False
    written = [posixpath.normpath(p) for run in earlier for p in written_files(run) or []]
    return any(path == name or path.endswith("/" + name) for path in written)


def _same_again(
    failed: Run,
    later: Run,
    subject: str,
    error: str,
    between: tuple[list[tuple[str, str]], list[str], bool],
) -> BuiltinFact | None:
    """The failing command worked again: after set-up steps run before it or in its own line
    (`prerequisite`: `pip install openpyxl -q && python3 convert.py`), after a set-up file was
    written (`file`), or with variables set on it."""
    steps, configured, edited = between
    if _MISSING_SCRIPT.search(error) and any(p.endswith("package.json") for p in configured):
        return None  # the session added the script to the project: nothing a teammate meets
    before = set(zip(failed.setups, failed.setup_folders(), strict=False))
    new = [
        (plain_words(s), folder)
        for s, folder in zip(later.setups, later.setup_folders(), strict=False)
        if (s, folder) not in before
    ]
    steps = [*steps, *new]
    environmental = invocation_error(failed.output)
    if steps and (not edited or environmental):
        return trap_fact("prerequisite", failed, later, error, _rooted(steps), failing=subject)
    path = _named_file(error_line(failed.output), configured, edited)
    if path and _FINDING.search(error) and not _names(error, path):
        path = None  # a finding in the code, "fixed" by the check's configuration: no trap
    if path:
        return trap_fact("file", failed, later, error, path, failing=subject)
    return _with_environment(failed, later, error, edited)


def _subject(run: Run) -> str | None:
    """What a failure of this run is a trap about: its project command (after `cd web &&`
    when it ran in a folder), else a repository file an interpreter ran
    (`renderers.trap_subject`); a set-up step's own failure is `_setup_fix`'s."""
    if run.key is not None:
        return run.key
    scripts = [s for s in shell.segments(run.command or "") if script_run(s)]
    return plain_words(scripts[-1]) if scripts else None


def _run_words(run: Run) -> str:
    """The run's project command (normal form) or script, wherever it ran."""
    if run.main is not None:
        return run.main.normal
    return (_subject(run) or "") if run.command else ""


_FILE_NAME = re.compile(r"(?<![\w/.-])(\.?[\w-]+(?:\.[\w-]+)*)\.(?:\([\w|]+\)|[\w]+)(?![\w/])")


_MISSING_SCRIPT = re.compile(r"(?i)missing script")
# A check's finding in the code: at a position (`signature.FINDING`), or a count of problems.
_FINDING = re.compile(rf"{FINDING.pattern}|\b\d+ problems?\b")


def _names(error: str, path: str) -> bool:
    """Whether an error line names a file (`eslint.config.js` for "eslint.config.(js|mjs)")."""
    stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
    return len(stem) > 3 and stem in error


def _named_file(error: str, configured: Sequence[str], edited: bool) -> str | None:
    """The set-up file that fixed the failure, when no code changed: the one the error names
    ("couldn't find an eslint.config.(js|mjs|cjs) file" → `eslint.config.js`), or the only
    one written (a `.env` the failing run needed)."""
    paths = list(dict.fromkeys(p for p in configured if not shell.outside(p)))
    if edited:
        return None  # the code changed too: the fix may be there
    stems = {match.group(1) for match in _FILE_NAME.finditer(error)}
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        if any(name.startswith(f"{stem}.") or name == stem for stem in stems if len(stem) > 3):
            return path
    return paths[0] if len(paths) == 1 else None


_MISSING = re.compile(
    r"(?i)couldn'?t find|could not find|cannot find|can't find|no such file|not found|missing"
    r"|does not exist|ENOENT"
)


_NO_MODULE = re.compile(r"\bNo module named ['\"]?(?P<module>[\w]+)")
# Python called by its bare name at the start of a command (or after `&&`, `;`), and what it
# runs: the rest of the line, inline code and here-documents included.
_BARE_CALL = re.compile(r"(?:\A|(?:&&|;)\s*)(?P<python>\S+)\s+(?P<code>.+)\Z", re.DOTALL)
# The interpreter of the project's own environment: a virtualenv's, activated or by its path,
# or through the project's tool.
_ENVIRONMENT_CALL = re.compile(
    r"(?:\A|(?:&&|;)\s*)(?P<python>(?:(?:source|\.)\s+\S*(?:venv|env)/bin/activate\s*&&\s*"
    r"python(?:\d+(?:\.\d+)?)?)|\S*(?:venv|env)/bin/python(?:\d+(?:\.\d+)?)?"
    r"|(?:uv|poetry|pipenv|pdm|hatch)\s+run\s+python(?:\d+(?:\.\d+)?)?)\s+(?P<code>.+)\Z",
    re.DOTALL,
)


def _environment_fix(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """Python code that failed for want of a module under the bare interpreter and worked
    through the project's environment (the same code, or code importing that module):
    "`python3` fails with
    "ModuleNotFoundError: No module named 'openpyxl'"; run `source venv/bin/activate &&
    python3` instead."."""
    failed = runs[index]
    missing = _NO_MODULE.search(failed.output)
    if missing is None:
        return None
    # The same code, or code that imports the module the bare interpreter lacked.
    imports = re.compile(rf"\b(?:import|from)\s+{missing.group('module')}\b")
    bare = _BARE_CALL.search(failed.command or "")
    while bare is not None and not bare_python(bare.group("python")):
        bare = _BARE_CALL.search(failed.command or "", bare.start("code"))
    if bare is None or _ENVIRONMENT_CALL.search(failed.command or ""):
        return None
    for later in runs[index + 1 :]:
        if later.command is None or later.state != "completed":
            continue
        found = _ENVIRONMENT_CALL.search(later.command)
        code = found.group("code") if found is not None else ""
        if found is not None and (code == bare.group("code") or imports.search(code)):
            error = first_error_line(failed.output)
            fix = " ".join(found.group("python").split())
            return trap_fact("variant", failed, later, error, fix, failing=bare.group("python"))
    return None


def _setup_fix(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    """A setup step that failed and worked once options were added to it (`npm install` →
    `npm install --legacy-peer-deps`); or, when it failed for want of something in the
    environment, once other set-up steps ran right before it (`corepack enable` before `yarn
    install`, in its line or the call before) or run by another installation of its program
    (`.venv/bin/pip install -r requirements.txt` after `python3 -m venv .venv`, where the
    system's pip refused). A network that failed is the machine's, not the project's."""
    failed = runs[index]
    subject = failed.setups[-1] if failed.setups else None
    if subject is None:
        return None
    error = first_error_line(failed.output)
    failing = located(subject.normal, failed.folder(subject))  # where a teammate runs it
    environmental = (
        invocation_error(failed.output)
        and not ENVIRONMENT.search(error)
        and not _NETWORK.search(failed.output)
    )
    edited = False  # the code changed since: what worked then was a fix of the code
    for position in range(index + 1, len(runs)):
        later = runs[position]
        written = written_files(later) if later.edit else None
        edited = edited or any(not setup_file(path) for path in written or ())
        if later.command is None or later.state != "completed" or not later.setups:
            continue
        fixed = later.setups[-1]
        if later.folder(fixed) != failed.folder(subject):
            continue  # a step in another folder: another project's, not this one's fix
        before = [(plain_words(s), later.folder(s)) for s in later.setups[:-1]]
        if fixed.normal == subject.normal:
            previous = runs[position - 1]
            told: list[Run] = []
            if previous is not failed and previous.state == "completed" and not previous.main:
                before = [(plain_words(s), previous.folder(s)) for s in previous.setups] + before
                told += [previous] if previous.told else []
            if not (before and environmental):
                return None
            fact = trap_fact("prerequisite", failed, later, error, _rooted(before), failing=failing)
            return _told_in(fact, told)
        # the same step with switches only (`--legacy-peer-deps`), not with packages named
        # (`npm install --save-dev @types/uuid` installs something else)
        extra = fixed.words[len(subject.words) :]
        added = fixed.words[: len(subject.words)] == subject.words and all(
            w.startswith("-") or w[:1].isdigit() for w in extra
        )
        if added and extra and not edited:
            fix = located(fixed.normal, later.folder(fixed))
            return trap_fact("variant", failed, later, error, fix, failing=failing)
        if environmental and _installed_elsewhere(subject, fixed):
            fix = _rooted([*before, (plain_words(fixed), later.folder(fixed))])
            return trap_fact("variant", failed, later, error, fix, failing=failing)
    return None


# A network or a proxy that failed: this machine's connection, not what the project lacks.
_NETWORK = re.compile(
    r"(?i)\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|socket hang up|proxy"
    r"|network|timed? ?out|could not resolve|temporary failure|tls|ssl|certificate)\b"
)


def _installed_elsewhere(subject: shell.Segment, fixed: shell.Segment) -> bool:
    """The same step run by another installation of its program: `.venv/bin/pip install …`
    or `python3 -m pip install …` for `pip install …`."""

    def named(segment: shell.Segment) -> str:
        # `pip3` is `pip`, `docker-compose up` is `docker compose up`
        program = list(segment.program)
        head = _VERSIONED.sub("", program_name(program[0])) if program else ""
        return " ".join([head, *program[1:]]).replace("-", " ")

    return fixed.words != subject.words and bool(named(fixed)) and named(fixed) == named(subject)


_VERSIONED = re.compile(r"(?<=[a-z])\d+(?:\.\d+)*$")


def _step_kinds(failed: Run) -> tuple[str, ...]:
    """Project commands that can be a prerequisite: builds and code generation, and the
    formatter itself before a format check."""
    kind = failed.main.kind if failed.main else None
    return ("build", "generate", "format") if kind == "format" else ("build", "generate")


def _with_environment(failed: Run, later: Run, error: str, edited: bool) -> BuiltinFact | None:
    """The same command worked once variables were set on it (`DATABASE_URL=… pytest`), with
    no edit in between unless the error names the environment (`No module named 'opk'`
    before `PYTHONPATH=. pytest`)."""
    if failed.main is None or later.main is None:
        return None
    if edited and not invocation_error(failed.output):
        return None
    added = [v for v in later.main.env if v not in failed.main.env]
    if not added:
        return None
    fix = located(" ".join([*added, later.main.normal]), later.where)
    return trap_fact("variant", failed, later, error, fix)


def _variant(failed: Run, later: Run, edited: bool, error: str) -> bool:
    """A corrected invocation: same kind, after an invocation error; the same tool run
    another way with no edit in between; or, when the failure said nothing but its exit
    code, another command of its kind that worked with no edit in between."""
    if failed.main is None or later.main is None or later.main.kind != failed.main.kind:
        return False
    if failed.main.kind == "script" and _script(failed.main) != _script(later.main):
        return False  # a project script whose name says no job: another one does another
    if later.where != failed.where:
        # another folder's command (a package built first) is a step, not a variant, unless
        # the failure said this folder is no project's (`go.mod file not found`)
        return later.main.normal == failed.main.normal and bool(_NO_PROJECT.search(failed.output))
    if invocation_error(failed.output):
        # a module, package or crate named wrong in the code is fixed by the edit, not by
        # the other invocation
        return not (edited and missing_dependency(failed.output))
    if not edited and _silent(failed.output):
        return True  # `npm test` exited 1 with no word, `npx vitest run` then worked
    # The same tool through another wrapper (`pytest` → `uv run pytest`).
    same_tool = _tool(failed.main) == _tool(later.main)
    return not edited and same_tool and _prefix(failed.main) != _prefix(later.main)


# A project command run in a folder that holds no project of its tool.
_NO_PROJECT = re.compile(
    r"go\.mod file not found|Could not read package\.json|no such file or directory, open"
    r" \S*package\.json|could not find `Cargo\.toml`|does not appear to be a Python project"
    r"|No targets specified and no makefile found|neither 'setup\.py' nor 'pyproject\.toml'"
    r"|MSB1003: Specify a project or solution file|there is no POM in this directory"
)


def _silent(output: str) -> bool:
    """The failure printed nothing but its exit code: nothing beside what the agent framed
    the output with (`observed.own_output`)."""
    return not own_output(output).strip()


def _prefix(segment: shell.Segment) -> tuple[str, ...]:
    program = shell.program_words(segment.words)
    return segment.words[: len(segment.words) - len(program)]


def _tool(segment: shell.Segment) -> tuple[str, ...]:
    program = shell.program_words(segment.words)
    return tuple(program[:2])


def _script(segment: shell.Segment) -> str:
    """The script a segment runs, however it was named (`./x.sh`, `bash x.sh`)."""
    program = shell.program_words(segment.words)
    return program[0].removeprefix("./") if program else ""


def _is_setup_line(run: Run) -> bool:
    return any(s.setup for s in shell.segments(run.command or ""))


def _setup_line(run: Run) -> str:
    return " && ".join(plain_words(s) for s in shell.segments(run.command or "") if s.setup)


def _hook_fix(runs: Sequence[Run], index: int) -> BuiltinFact | None:
    failed = runs[index]
    verb = "push" if "git push" in (failed.command or "") else "commit"
    steps: list[tuple[str, str]] = []  # each step's words and the folder it ran in
    for later in runs[index + 1 :]:
        if later.command is None or later.state != "completed":
            continue
        if later.main is not None and later.main.kind in ("format", "lint", "check"):
            steps.append((later.main.normal, later.where))
        if shell.is_hooked_git(later.command) and f"git {verb}" in later.command:
            if not steps:
                return None
            error = first_error_line(failed.output)
            return trap_fact("hook", failed, later, error, _rooted(steps))
    return None
