"""The unconfigured state home is platformdirs' answer, computed without importing it in the
plain cases (a measured part of every hook run and session start)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from git_memory import paths
from tests.conftest import PROJECT_ROOT

HOMES = ["/home/dev", "/home/dev/", "/", "relative/home", " /home/dev", ""]
XDG_STATES = [None, "", "/var/state", "/var/state/", "relative/state", " /var/state", "  "]


def _environment(monkeypatch: pytest.MonkeyPatch, home: str | None, xdg: str | None) -> None:
    for name in ("GIT_MEMORY_HOME", "ANDROID_DATA", "ANDROID_ROOT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (("HOME", home), ("XDG_STATE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)


@pytest.mark.parametrize("platform", ["linux", "darwin"])
@pytest.mark.parametrize("home", HOMES)
@pytest.mark.parametrize("xdg", XDG_STATES)
def test_the_plain_answer_is_platformdirs_answer(
    monkeypatch: pytest.MonkeyPatch, platform: str, home: str | None, xdg: str | None
) -> None:
    _environment(monkeypatch, home, xdg)
    monkeypatch.setattr(sys, "platform", platform)
    reference = (Unix if platform == "linux" else MacOS)("git-memory", appauthor=False)
    try:
        expected = reference.user_state_dir
    except (RuntimeError, KeyError):
        expected = None  # platformdirs itself cannot tell: the plain path must not answer
    plain = paths._plain_default_home()
    if plain is not None:
        assert plain == expected
    if home == "/home/dev" and xdg in (None, ""):
        assert plain is not None  # the everyday case is answered without platformdirs


def test_android_and_other_platforms_are_left_to_platformdirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _environment(monkeypatch, "/home/dev", None)
    monkeypatch.setenv("ANDROID_DATA", "/data")
    assert paths._plain_default_home() is None
    monkeypatch.delenv("ANDROID_DATA")
    monkeypatch.setattr(sys, "platform", "win32")
    assert paths._plain_default_home() is None


def test_an_unconfigured_state_home_does_not_import_platformdirs() -> None:
    code = (
        "import sys; from git_memory.paths import state_home_text\n"
        "print(state_home_text()); print('platformdirs' in sys.modules)\n"
        "import platformdirs\n"
        "print(platformdirs.user_state_dir('git-memory', appauthor=False))\n"
    )
    env = {"HOME": "/home/dev", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    home, loaded, reference = result.stdout.splitlines()
    assert home == reference
    # Linux and macOS are answered without platformdirs; elsewhere it answers.
    assert loaded == str(sys.platform not in ("linux", "darwin"))
