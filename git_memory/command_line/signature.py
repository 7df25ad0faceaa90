"""The error of a failed run: its first meaningful error line, and that line's signature.

`error_line` picks the line a person would quote: an error naming the environment (a
missing module, a refused connection) first, then any line that reads as an error; noise of
the machine the run happened on (a sandbox refusing the network) counts only when nothing
else reads as an error. `error_signature` normalizes it so two runs that failed the same way
compare equal: colour, paths, numbers, hashes and addresses become placeholders
(`resume_test.go:244: want 3, got 4` → `<path>:<n>: want <n>, got <n>`), while the words,
the exception type and a test's name stay, so a different red test has another signature.
"""

from __future__ import annotations

import re

# A terminal's colour and cursor codes, and its hyperlinks (`ESC ] 8 ;; url ESC \`): a tool
# writing to a terminal spells its words with them.
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
STRONG = re.compile(
    r"^(?:[\w.]+\.)?\w*(?:Error|Exception)\b[:(]|^error(?:\[\w+\])?:|^ERROR\b|^npm ERR!|^ERR!"
    r"|^fatal:|^panic:|^FAIL(?:ED)?\b|^--- FAIL|\.{3,}\s*Failed\b|command not found"
    r"|No module named|[Cc]onnection refused|Cannot find module|[Mm]issing script"
    r"|would reformat|[Nn]o such file or directory|not found$"
)
WEAK = re.compile(
    r"(?i)\b(error|failed|failure|not found|cannot|can't|couldn't|refused|denied|missing|invalid"
    r"|unable|does not exist|undefined)\b"
)
# Lines that are no error of their own: a stack frame (`at …`, vitest's `❯ …`), a rule.
NOISE = re.compile(
    r"^(Traceback \(most recent call last\)|Exit code \d+$"
    r"|npm ERR! (A complete log|code|errno|syscall|path|To see)\b"
    r"|at |❯ |→ |[-=_*~⎯]{3,}(?! ?FAIL)|\s*\^+\s*$|\d+ (passed|failed)"
    r"|.*Error: Process completed with exit code)"
)
# What a login shell's start-up files print before every command: the person's dotfiles
# (`~/.profile: line 5: compdef: command not found`, `~/.nvm/nvm.sh: line 3: …`) and the
# machine's scripts they source (`/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18:
# /bin/ps: Operation not permitted`). The machine's words, not the command's; the shell
# running the command (`/usr/bin/bash: line 2: firebase: command not found`) is not one.
STARTUP = re.compile(
    # (a home as Linux, macOS, Git Bash and WSL name it: /home/bob, /c/Users/bob, /mnt/c/Users/bob)
    r"^(?:[\w-]+: )?(?:(?:~|(?:/mnt)?(?:/[A-Za-z])?/(?:home|Users)/[^/\s:]+|/root)/\.[^\s:]+"
    r"|/(?:opt|usr|etc)/[^\s:]+\.sh|/etc/(?:profile|bashrc|bash\.bashrc|zshrc|zprofile|zshenv))"
    r": line \d+: "
)
# Decoration before an error: pytest's `E`, npm's, a log level, a quote, Gemini CLI's
# `Output:` framing of a shell result.
PREFIX = re.compile(r"^(E\s{2,}|npm ERR!\s+|ERR!\s+|\[\w+\]\s+|>\s+|Output:\s+)")
# An error in how the command was invoked or what its environment lacks.
INVOCATION = re.compile(
    # "not found" of what a run needs (`sh: 1: http: not found`, `go.mod file not found`,
    # `Rust not found`), not of what a test looked for (`Error: element(s) not found`)
    r"(?i)command not found|(?:\b(?:module|file|package|command|program|executable|binary"
    r"|directory|folder|path|repository|image|template|crate|header|library|plugin|interpreter"
    r"|sdk|toolchain|version|rust|node|python|java|cargo|go|npm|pnpm|yarn|git)"
    r"|[\w.()/'\"-]+:|404)(?:\s+['\"][^'\"\n]{1,200}['\"])?\s+not found\b"
    r"|No module named|ModuleNotFoundError|ImportError"
    r"|Cannot find module|ENOENT|missing script|unknown (command|option|flag|argument)"
    r"|unrecognized (arguments?|option)|no such (command|subcommand|option|file)|not recognized"
    r"|permission denied|not installed|could not (find|locate|resolve|connect)"
    r"|connection refused|ECONNREFUSED|is not running|cannot connect|did you mean|^usage:"
    r"|no (rule|target) to make|EADDRINUSE|address already in use|missing go\.sum entry"
    r"|does not exist|unapplied migration|(?<![.\w])requires? (python|node|rust|go)\b"
    r"|couldn'?t find|cannot find package|can'?t find crate|no required module provides package"
    r"|externally-managed-environment|package\.json defines \W?packageManager"
    r"|is not a [\w-]+ command"
)
# A check's finding in the code, at a position: `a.ts(3,1): error TS2339: …`, `a.py:3:1: E501
# …`, ESLint's `157:10  error …`, Rust's `--> src/main.rs:3:5`.
# The position is a file's, with its extension: a time of day (`12:30:45: …`) is none.
FINDING = re.compile(
    r"^\s*\d+:\d+\s+(?:error|warning)\b|\(\d+,\d+\): error|\.[A-Za-z]\w*:\d+:\d+:\s"
    r"|^\s*--> \S+:\d+:\d+"
)
# A finding that names a dependency the environment lacks: a module, a header, a package, a
# checksum entry, a linter's plugin.
_MISSING_DEPENDENCY = re.compile(
    r"Cannot find module|No module named|ModuleNotFoundError"
    r"|fatal error: .*(?:No such file or directory|file not found)|missing go\.sum entry"
    r"|cannot find package|can'?t find crate|no required module provides package"
    r"|Definition for rule .* was not found"
)
# A sandbox or offline machine refusing the network or a path: not what a teammate meets.
ENVIRONMENT = re.compile(
    r"(?i)could not resolve host|temporary failure in name resolution|name or service not known"
    r"|network is unreachable|spurious network error|failed to (?:download|fetch|query)\b"
    r"|error sending request|\bdns error|\bgetaddrinfo\b|(?-i:\b(?:ENOTFOUND|EAI_AGAIN"
    r"|ENETUNREACH)\b)|operation not permitted|read-only file system|\bsandbox"
    r"|network (?:access|request)|os error (?:1|13|30|101)\b"
)
# What varies between two runs that failed the same way, and its placeholder, in order.
_VARYING: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://\S+"), "<url>"),
    (
        re.compile(
            r"(?:[A-Za-z]:)?(?:[~.]{0,2}[/\\])?(?:[\w@.+-]+[/\\])+[\w@.+-]+"
            r"|\b[\w-]+\.[a-z]{1,4}\b(?=:\d)"
        ),
        "<path>",
    ),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<n>"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"), "<sha>"),
    (re.compile(r"(?<!\w)\d+(?:\.\d+)*"), "<n>"),
)


def error_line(output: str) -> str:
    """The output line a person would quote as the error (colour and decoration removed;
    "" when no line reads as an error)."""
    lines = [PREFIX.sub("", ANSI.sub("", line).strip()) for line in output.splitlines()]
    lines = [line for line in lines if line and not NOISE.match(line) and not STARTUP.match(line)]
    real = [line for line in lines if not ENVIRONMENT.search(line)]
    return _first_error(real) or _first_error(lines)


def missing_dependency(output: str) -> bool:
    """Whether the output names a module, package, crate or header the run could not find."""
    return _MISSING_DEPENDENCY.search(output) is not None


def invocation_error(output: str) -> bool:
    """Whether the output tells of an error in how the command was invoked or what its
    environment lacks (`INVOCATION`), in the command's own lines. A check's findings in the
    code say the check ran: "Property 'id' does not exist on type 'never'" is the code's,
    unless the finding names a dependency the environment lacks ("Cannot find module")."""
    within = False  # in a finding: its own line and the indented lines that go on with it
    for line in output.splitlines():
        if FINDING.search(line):
            within = True
        elif not line[:1].isspace():
            within = False
        if within and not _MISSING_DEPENDENCY.search(line):
            continue
        if INVOCATION.search(line) and not STARTUP.match(line):
            return True
    return False


def _first_error(lines: list[str]) -> str:
    # An error naming the environment (a missing module, a refused connection) says most
    # about a trap; then any line that reads as an error.
    tiers: tuple[tuple[re.Pattern[str], ...], ...] = (
        (STRONG, INVOCATION),
        (INVOCATION,),
        (STRONG,),
        (WEAK,),
    )
    for patterns in tiers:
        found = next((ln for ln in lines if all(p.search(ln) for p in patterns)), None)
        if found is not None:
            return found
    return ""


def normalized(line: str) -> str:
    """An error line with what varies between runs made placeholders, spaces collapsed."""
    text = ANSI.sub("", line)
    for pattern, placeholder in _VARYING:
        text = pattern.sub(placeholder, text)
    return " ".join(text.split())


def error_signature(output: str) -> str:
    """The normalized first error line of a failed run's output ("" when none reads as an
    error): equal for two runs that failed the same way."""
    return normalized(error_line(output))
