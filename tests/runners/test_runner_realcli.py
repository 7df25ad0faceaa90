"""The real claude / codex CLIs accept the profile argv (runs when they are on PATH).

No credentials exist in the hermetic environment, so the CLI fails to authenticate or to
reach the network; that is fine. What must never appear is an argument-parser error: that
would mean a flag of the profile no longer exists in the installed version. A control run
with one bogus flag shows the parser error is detected.
"""

from __future__ import annotations

import re

import pytest

from git_memory.runners.binary import identify
from git_memory.runners.process import spawn
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions, resolve_profile

PARSER_ERROR = re.compile(
    r"unexpected argument|unknown option|unknown feature flag|unrecognized (option|subcommand|"
    r"argument)|invalid value for|error parsing|unknown command",
    re.IGNORECASE,
)
# Long enough for a parser error (immediate), short enough that a CLI stuck retrying the
# unreachable network does not slow the suite.
PROBE_MS = 6_000


def _profile(name: str) -> ResolvedProfile:
    options = RunnerOptions(name, model="gpt-5") if name == "codex" else RunnerOptions(name)
    return resolve_profile(options)


def _parser_complaint(profile: ResolvedProfile, extra: list[str] | None = None) -> str | None:
    assert profile.binary is not None
    binary = identify(profile.binary)
    argv = [str(binary.realpath), *(extra or []), *profile.argv_template]
    result = spawn(profile, binary, b"Reply with the word OK.", argv=argv, timeout_ms=PROBE_MS)
    text = (result.stdout + result.stderr).decode("utf-8", "replace")
    match = PARSER_ERROR.search(text)
    return text[max(match.start() - 200, 0) : match.end() + 200] if match else None


@pytest.mark.realcli("claude")
def test_claude_accepts_the_profile_argv() -> None:
    profile = _profile("claude")
    assert _parser_complaint(profile) is None
    assert _parser_complaint(profile, ["--no-such-option-here"]) is not None


@pytest.mark.realcli("codex")
def test_codex_accepts_the_profile_argv() -> None:
    profile = _profile("codex")
    assert _parser_complaint(profile) is None
    bogus = list(profile.argv_template)
    bogus[bogus.index("--disable") + 1] = "no_such_feature_flag"
    swapped = ResolvedProfile(**{**profile.__dict__, "argv_template": tuple(bogus)})
    assert _parser_complaint(swapped) is not None
