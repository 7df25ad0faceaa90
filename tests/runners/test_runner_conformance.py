"""The deny-all probe gives each fake runner the verdict it deserves; records are signed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.errors import GitMemoryError
from git_memory.repo.secret import OriginSecret, load_or_create_secret
from git_memory.runners import conformance
from git_memory.runners.binary import identify
from tests.runners.conftest import command_profile, set_mode, spawn_count

FakeRunner = Callable[[str], Path]
FAST = {"GIT_MEMORY_RUNNER_TIMEOUT_MS": "1500"}


def _codes(script: Path, secret: OriginSecret) -> list[str]:
    profile = command_profile(script, **FAST)
    outcome = conformance.probe(profile, identify(str(script)), secret)
    assert outcome.passed == (not outcome.failures)
    return [failure.code for failure in outcome.failures]


@pytest.fixture
def secret(tmp_path: Path) -> OriginSecret:
    return load_or_create_secret(tmp_path / "state")


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("conformant", []),
        ("prompt-echo", []),  # repeating the prompt is not executing it
        ("extraction", []),
        (
            "file-reading",
            [
                "GM_RUNNER_CONFORMANCE_CANARY",
                "GM_RUNNER_CONFORMANCE_SIDE_EFFECT",
                "GM_RUNNER_CONFORMANCE_SANDBOX_ESCAPE",
            ],
        ),
        ("network-connecting", ["GM_RUNNER_CONFORMANCE_NETWORK"]),
        ("lingering", ["GM_RUNNER_CONFORMANCE_LINGERING"]),
        ("hang", ["GM_RUNNER_CONFORMANCE_EXIT"]),
        ("flood", ["GM_RUNNER_CONFORMANCE_EXIT"]),
    ],
)
def test_verdicts(
    fake_runner: FakeRunner,
    secret: OriginSecret,
    kind: str,
    expected: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The environment layer alone: with the OS sandbox the canary is not even reachable
    # (tests/runners/test_runner_sandbox.py).
    monkeypatch.setenv("GIT_MEMORY_RUNNER_SANDBOX", "off")
    assert _codes(fake_runner(kind), secret) == expected


@pytest.mark.parametrize("mode", ["empty", "exit-1", "non-utf8"])
def test_bad_endings_fail_exit(fake_runner: FakeRunner, secret: OriginSecret, mode: str) -> None:
    script = fake_runner("conformant")
    set_mode(script, mode)
    assert _codes(script, secret) == ["GM_RUNNER_CONFORMANCE_EXIT"]


def test_version_probe_must_succeed(tmp_path: Path, secret: OriginSecret) -> None:
    script = tmp_path / "no-version.sh"
    script.write_text("#!/bin/sh\nexit 3\n")
    script.chmod(0o755)
    assert _codes(script, secret) == ["GM_RUNNER_CONFORMANCE_VERSION"]


def test_probe_leaves_no_temporary_directories(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("file-reading")
    temp_root = tmp_path / "probe-tmp"
    temp_root.mkdir()
    profile = command_profile(script)
    conformance.probe(profile, identify(str(script)), secret, temp_root=temp_root)
    assert list(temp_root.iterdir()) == []


def test_record_is_signed_cached_and_reused(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    profile = command_profile(script)
    home = tmp_path / "state"
    record = conformance.ensure(home, profile, secret)
    assert set(record) == {*conformance.RECORD_FIELDS, "signature"}
    assert record["testVersion"] == "conformance-test@2"
    assert record["binaryRealpath"] == str(script.resolve())
    path = conformance.record_path(home, profile)
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == record
    spawned = spawn_count(script)
    assert conformance.ensure(home, profile, secret) == record  # cached: no new probe
    assert spawn_count(script) == spawned
    forced = conformance.ensure(home, profile, secret, force=True)
    assert spawn_count(script) == spawned + 2  # --version and the probe
    assert forced["passedAt"] >= record["passedAt"]
    assert forced["profileDigest"] == profile.digest


def test_changed_bytes_force_a_new_probe(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    profile = command_profile(script)
    home = tmp_path / "state"
    first = conformance.ensure(home, profile, secret)
    with open(script, "a") as handle:
        handle.write("# one more byte\n")  # same --version output, different file
    with pytest.raises(GitMemoryError) as caught:
        conformance.require_valid(home, profile, identify(str(script)), secret)
    assert caught.value.code == "GM_RUNNER_CONFORMANCE_INVALID"
    assert "binaryContentSha256 changed" in caught.value.details["problems"]
    spawned = spawn_count(script)
    second = conformance.ensure(home, profile, secret)
    assert spawn_count(script) == spawned + 2
    assert second["binaryContentSha256"] != first["binaryContentSha256"]
    assert second["cliVersionFingerprint"] == first["cliVersionFingerprint"]


def test_changed_path_or_profile_invalidates(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    home = tmp_path / "state"
    conformance.ensure(home, command_profile(script), secret)
    moved = script.with_name("moved.py")
    os.link(script, moved)
    moved_profile = command_profile(moved)
    problems = conformance.record_problems(
        conformance.load_record(home, moved_profile), moved_profile, identify(str(moved)), secret
    )
    assert "binaryRealpath changed" in problems
    assert "profileDigest changed" in problems
    tighter = command_profile(script, GIT_MEMORY_RUNNER_TIMEOUT_MS="1000")
    problems = conformance.record_problems(
        conformance.load_record(home, tighter), tighter, identify(str(script)), secret
    )
    assert problems == ["profileDigest changed"]


def test_forged_and_foreign_records_are_refused(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    profile = command_profile(script)
    home = tmp_path / "state"
    record = conformance.ensure(home, profile, secret)
    binary = identify(str(script))
    forged = {**record, "signature": "0" * 64}
    foreign_secret = load_or_create_secret(tmp_path / "other-state")
    foreign = {**record, "signature": conformance.sign(record, foreign_secret)}
    for bad in (forged, foreign, {**record, "passedAt": ""}, {"testVersion": "x"}, []):
        conformance.record_path(home, profile).write_text(json.dumps(bad))
        with pytest.raises(GitMemoryError) as caught:
            conformance.require_valid(home, profile, binary, secret)
        assert caught.value.code == "GM_RUNNER_CONFORMANCE_INVALID"
    conformance.record_path(home, profile).write_text("{not json")
    with pytest.raises(GitMemoryError) as caught:
        conformance.require_valid(home, profile, binary, secret)
    assert caught.value.code == "GM_RUNNER_CONFORMANCE_INVALID"


def test_missing_record_is_required(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    with pytest.raises(GitMemoryError) as caught:
        conformance.require_valid(
            tmp_path / "state", command_profile(script), identify(str(script)), secret
        )
    assert caught.value.code == "GM_RUNNER_CONFORMANCE_REQUIRED"
    assert spawn_count(script) == 0


def test_failed_probe_stores_nothing(
    fake_runner: FakeRunner, secret: OriginSecret, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_MEMORY_RUNNER_SANDBOX", "off")
    script = fake_runner("network-connecting")
    profile = command_profile(script)
    with pytest.raises(GitMemoryError) as caught:
        conformance.ensure(tmp_path / "state", profile, secret)
    assert caught.value.code == "GM_RUNNER_CONFORMANCE_FAILED"
    assert caught.value.details["failures"][0]["code"] == "GM_RUNNER_CONFORMANCE_NETWORK"
    assert not conformance.record_path(tmp_path / "state", profile).exists()
