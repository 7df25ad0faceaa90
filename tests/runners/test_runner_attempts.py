"""Conformance refuses a runner that tries what its profile denies, even when the sandbox
stops every try (issue 47); the attempt watch names each try with the layer that stopped it,
and a refused runner is not started again until it passes."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.repo.secret import OriginSecret, load_or_create_secret
from git_memory.runners import conformance
from git_memory.runners.attempts import attempts_in
from git_memory.runners.binary import identify
from git_memory.runners.private_paths import hidden_paths
from git_memory.runners.refusal import refusal_path
from git_memory.runners.sandbox_watch import Judge
from tests.conftest import run_cli
from tests.repos import Repo, make_repo
from tests.runners.conftest import command_profile, spawn_count

FakeRunner = Callable[[str], Path]
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
NONCONFORMANT = "GM_RUNNER_NONCONFORMANT"


@pytest.fixture
def secret(tmp_path: Path) -> OriginSecret:
    return load_or_create_secret(tmp_path / "state")


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """A home with a key and a repository, outside /tmp; git memory runs in the repository."""
    base = Path(tempfile.mkdtemp(prefix="gm-attempts-", dir="/var/tmp"))
    home = base / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(KEY)
    (home / ".bashrc").write_text("# the user's own\n")
    repo = make_repo(base / "repo")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(repo.root)
    yield {"base": base, "home": home, "repo": repo.root}
    shutil.rmtree(base, ignore_errors=True)


def _trying(fake_runner: FakeRunner, **targets: Any) -> Path:
    script = fake_runner("trying")
    script.with_suffix(".targets").write_text(json.dumps(targets))
    return script


def test_a_runner_that_only_tries_is_refused(
    fake_runner: FakeRunner, world: dict[str, Path], secret: OriginSecret
) -> None:
    hook = world["repo"] / ".git" / "hooks" / "post-checkout"
    # The private places the isolation probe reads, but for the ones on the way to this
    # Python (a runner's interpreter is in its view, read-only, and its parents with it).
    python = {os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix)}
    private = [
        path
        for path in hidden_paths(os.environ)
        if Path(path).exists() and not any(p.startswith(path + "/") for p in python)
    ]
    script = _trying(
        fake_runner,
        read=[str(world["home"] / ".ssh" / "id_rsa"), *private],
        write=[str(hook), str(world["home"] / ".bashrc")],
        connect=[["10.255.255.1", 443], ["127.0.0.1", 9]],
    )
    outcome = conformance.probe(command_profile(script), identify(str(script)), secret)
    # Every try was contained: nothing was written, read out or reached…
    assert not hook.exists()
    assert (world["home"] / ".bashrc").read_text() == "# the user's own\n"
    # …and the runner is refused for trying, each try named with what stopped it.
    assert {failure.code for failure in outcome.failures} == {NONCONFORMANT}
    tried = [failure.detail for failure in outcome.failures]
    for path in [str(world["home"] / ".ssh" / "id_rsa"), *private]:
        assert f"read {path}: stopped by allow-list root" in tried
    assert f"write {hook}: stopped by allow-list root" in tried
    assert f"write {world['home'] / '.bashrc'}: stopped by allow-list root" in tried
    assert "connect 10.255.255.1:443: stopped by net ns" in tried
    assert "connect 127.0.0.1:9: stopped by net ns" in tried
    assert outcome.record is None


def test_the_same_runner_trying_nothing_passes(
    fake_runner: FakeRunner, world: dict[str, Path], secret: OriginSecret
) -> None:
    script = _trying(fake_runner)
    outcome = conformance.probe(command_profile(script), identify(str(script)), secret)
    assert outcome.failures == []
    assert outcome.passed


def test_reverify_refuses_it_and_extract_does_not_start_it_until_it_passes(
    repo: Repo, fake_runner: FakeRunner, hermetic_env: dict[str, Path]
) -> None:
    key = hermetic_env["home"] / ".ssh" / "id_rsa"
    key.parent.mkdir(exist_ok=True)
    key.write_text(KEY)
    script = _trying(fake_runner, read=[str(key)])
    args = ["reverify-runner", "--runner", "command", "--runner-command", str(script)]
    result = run_cli([*args, "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1
    failures = result.json()["failures"]
    assert failures == [
        {"code": NONCONFORMANT, "detail": f"read {key}: stopped by allow-list root"}
    ]
    text = run_cli(args, cwd=repo.root)
    assert f"{NONCONFORMANT}: read {key}: stopped by allow-list root" in text.stdout
    # Remembered: an approved delivery refuses the runner without starting it.
    state = hermetic_env["state"]
    assert refusal_path(state, "command").is_file()
    profile = command_profile(script)
    spawned = spawn_count(script)
    with pytest.raises(GitMemoryError) as caught:
        conformance.ensure(state, profile, load_or_create_secret(state))
    assert caught.value.code == NONCONFORMANT
    assert caught.value.details["attempts"] == [f"read {key}: stopped by allow-list root"]
    assert spawn_count(script) == spawned
    # Fixed, it passes again, and the refusal is gone.
    script.with_suffix(".targets").write_text("{}")
    assert run_cli(args, cwd=repo.root).exit_code == 0
    assert not refusal_path(state, "command").exists()
    assert conformance.ensure(state, profile, load_or_create_secret(state))["passedAt"]


def test_doctor_names_a_refused_model_cli(
    repo: Repo, fake_runner: FakeRunner, hermetic_env: dict[str, Path], monkeypatch: Any
) -> None:
    key = hermetic_env["home"] / ".ssh" / "id_rsa"
    key.parent.mkdir(exist_ok=True)
    key.write_text(KEY)
    script = _trying(fake_runner, read=[str(key)])
    monkeypatch.setenv("GIT_MEMORY_CLAUDE_BIN", str(script))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    assert run_cli(["reverify-runner", "--runner", "claude"], cwd=repo.root).exit_code == 1
    doctor = run_cli(["doctor", "--format", "json"], cwd=repo.root)
    check = {c["name"]: c for c in doctor.json()["checks"]}["runner claude"]
    assert check["status"] == "fail"
    assert NONCONFORMANT in check["detail"]
    assert f"read {key}: stopped by allow-list root" in check["detail"]
    assert check["hint"] == "fix its setup, then git memory reverify-runner --runner claude"


def test_what_is_an_attempt() -> None:
    here = str(Path(__file__).resolve())
    report = {
        "attempts": [
            {"what": "read", "target": here, "layer": "allow-list root"},
            # Looking for an optional file the host does not have either: nothing to reach.
            {"what": "read", "target": "/no/such/python311.zip", "layer": "allow-list root"},
            {"what": "write", "target": "/no/such/dir/file", "layer": "allow-list root"},
            {"what": "write", "target": "/etc/evil", "layer": "read-only view"},
            {"what": "connect", "target": "192.0.2.1:443", "layer": "net ns"},
            {"what": "open a unix socket", "target": "", "layer": "seccomp"},
            {"what": "read", "target": "/etc/passwd", "layer": "allow-list root"},
        ],
        "egressRefused": ["CONNECT ab.example:443"],
    }
    assert attempts_in(report, expected=["/etc/passwd"]) == [
        f"read {here}: stopped by allow-list root",
        "write /etc/evil: stopped by read-only view",
        "connect 192.0.2.1:443: stopped by net ns",
        "open a unix socket: stopped by seccomp",
        "CONNECT ab.example:443 through the egress proxy: stopped by egress proxy",
    ]
    assert attempts_in(None) == []


def test_the_watch_judges_by_the_view(tmp_path: Path) -> None:
    own = tmp_path / "own"
    own.mkdir()
    (own / "link").symlink_to("/usr/bin/env")
    judge = Judge(
        [("/usr", False), (str(own), True), ("/tmp", True), ("/dev/null", True)],
        fresh=frozenset({"/tmp"}),
    )
    assert judge.layer("/usr/lib/x", write=False) is None
    assert judge.layer("/usr/lib/x", write=True) == "read-only view"
    assert judge.layer(str(own / "file"), write=True) is None
    # A link it made in its own directory is its own; what the link leads to is not.
    assert judge.layer(str(own / "link"), write=True) is None
    assert judge.layer(str(own / "link"), write=False) is None  # /usr/bin/env: given
    assert judge.layer("/root/.ssh/id_rsa", write=False) == "allow-list root"
    assert judge.layer("/", write=False) is None  # the view's own skeleton
    assert judge.layer("/evil", write=True) == "read-only view"
    assert judge.layer("/dev/tty", write=True) == "no terminal"
    assert judge.layer("/dev/pts/0", write=False) == "no terminal"
    assert judge.layer("/proc/self/status", write=False) is None  # the kernel's own
    assert judge.layer("/sys/kernel/debug/tracing/trace_marker", write=True) is None
    # Its fresh /tmp hides the host's: a path in a directory it does not have there.
    assert judge.layer("/tmp/host-only-dir/escape.txt", write=True) == "allow-list root"
