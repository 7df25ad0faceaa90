"""Every model runner gets an allowlisted environment and a one-time private home."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.errors import GitMemoryError
from git_memory.runners.binary import identify
from git_memory.runners.process import run_checked
from git_memory.runners.profiles import COMMON_ALLOWLIST, RunnerOptions, resolve_profile

FakeRunner = Callable[[str], Path]
SECRET = "s3cr3t-value-that-must-not-leak"
FORCED = {
    "PATH",
    "HOME",
    "TMPDIR",
    "TMP",
    "TEMP",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
}


def _host_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_MEMORY_FORBIDDEN_SECRET=SECRET,
        AWS_SECRET_ACCESS_KEY=SECRET,
        GITHUB_TOKEN=SECRET,
        OPENAI_API_KEY="openai-key",
        ANTHROPIC_API_KEY="anthropic-key",
        LANG="C.UTF-8",
        HTTPS_PROXY="http://proxy.invalid:3128",
    )
    return env


def _report(name: str, script: Path, tmp_path: Path, **options: str) -> dict[str, object]:
    host = _host_env()
    host[f"GIT_MEMORY_{name.upper()}_BIN"] = str(script)
    profile = resolve_profile(RunnerOptions(name, **options), environ=host)
    temp_root = tmp_path / "runner-tmp"
    temp_root.mkdir(exist_ok=True)
    out = run_checked(profile, identify(str(script)), b"task", host_env=host, temp_root=temp_root)
    assert list(temp_root.iterdir()) == []  # the one-time tree is gone afterwards
    report: dict[str, object] = json.loads(out)
    return report


@pytest.mark.parametrize(
    ("name", "credential", "options"),
    [
        ("claude", "ANTHROPIC_API_KEY", {}),
        ("codex", "OPENAI_API_KEY", {"model": "gpt-test"}),
    ],
)
def test_host_secrets_never_reach_the_runner(
    fake_runner: FakeRunner,
    tmp_path: Path,
    name: str,
    credential: str,
    options: dict[str, str],
) -> None:
    report = _report(name, fake_runner("conformant"), tmp_path, **options)
    environment = report["environment"]
    assert isinstance(environment, dict)
    assert report["environmentLeak"] is None
    assert SECRET not in json.dumps(report)
    assert "GIT_MEMORY_HOME" not in environment
    extra = {"CODEX_HOME"} if name == "codex" else {"CLAUDE_CONFIG_DIR"}
    allowed = FORCED | extra | {credential} | set(COMMON_ALLOWLIST)
    assert set(environment) <= allowed
    assert {"LANG", "HTTPS_PROXY"} <= set(environment)
    assert environment[credential]
    other = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY"} - {credential}
    assert not other & set(environment)
    home = Path(str(environment["HOME"]))
    assert home.name == "home"
    assert str(home).startswith(str(tmp_path / "runner-tmp"))
    assert Path(str(report["cwd"])).name == "workspace"


def test_command_runner_gets_only_its_configured_credential(
    fake_runner: FakeRunner, tmp_path: Path
) -> None:
    script = fake_runner("conformant")
    host = _host_env()
    host["LOCAL_MODEL_TOKEN"] = "token"
    profile = resolve_profile(
        RunnerOptions("command", command=str(script)),
        config={"memory.runner.credentialenv": "LOCAL_MODEL_TOKEN"},
        environ=host,
    )
    out = json.loads(run_checked(profile, identify(str(script)), b"x", host_env=host))
    assert out["environment"]["LOCAL_MODEL_TOKEN"] == "token"
    assert "OPENAI_API_KEY" not in out["environment"]
    assert SECRET not in json.dumps(out)


def test_codex_home_holds_only_a_copy_of_auth_json(tmp_path: Path, fake_runner: FakeRunner) -> None:
    lister = tmp_path / "lister.py"
    lister.write_text(
        "#!" + sys.executable + "\nimport json, os\n"
        "home = os.environ['CODEX_HOME']\n"
        "print(json.dumps({'files': sorted(os.listdir(home)),"
        " 'auth': open(os.path.join(home, 'auth.json')).read()}))\n"
    )
    lister.chmod(0o755)
    user_codex = tmp_path / "user-codex"
    user_codex.mkdir()
    (user_codex / "auth.json").write_text('{"token": "t"}')
    (user_codex / "config.toml").write_text("model = 'other'\n")
    (user_codex / "sessions").mkdir()
    host = {**_host_env(), "CODEX_HOME": str(user_codex), "GIT_MEMORY_CODEX_BIN": str(lister)}
    profile = resolve_profile(RunnerOptions("codex", model="m"), environ=host)
    out = json.loads(run_checked(profile, identify(str(lister)), b"", host_env=host))
    assert out == {"files": ["auth.json"], "auth": '{"token": "t"}'}
    assert sorted(p.name for p in user_codex.iterdir()) == ["auth.json", "config.toml", "sessions"]


def test_unreadable_codex_auth(tmp_path: Path, fake_runner: FakeRunner) -> None:
    user_codex = tmp_path / "user-codex"
    (user_codex / "auth.json").mkdir(parents=True)  # a directory cannot be read as a file
    script = fake_runner("conformant")
    host = {**_host_env(), "CODEX_HOME": str(user_codex), "GIT_MEMORY_CODEX_BIN": str(script)}
    profile = resolve_profile(RunnerOptions("codex", model="m"), environ=host)
    with pytest.raises(GitMemoryError) as caught:
        run_checked(profile, identify(str(script)), b"", host_env=host)
    assert caught.value.code == "GM_RUNNER_AUTH_UNREADABLE"


PASSWORD = "Pr0xy-Passw0rd-" + "7c1f"
PROXIES = {
    "HTTPS_PROXY": f"http://alice:{PASSWORD}@proxy.corp.invalid:3128",
    "all_proxy": f"socks5h://alice:{PASSWORD}@proxy.corp.invalid:1080",
    "http_proxy": f"alice:{PASSWORD}@proxy.corp.invalid:3128",
}


@pytest.mark.parametrize("setting", ["auto", "off"])
def test_a_proxy_reaches_the_runner_without_its_user_and_password(
    fake_runner: FakeRunner, tmp_path: Path, setting: str
) -> None:
    script = fake_runner("conformant")
    host = {**_host_env(), **PROXIES, "GIT_MEMORY_CLAUDE_BIN": str(script)}
    host["GIT_MEMORY_RUNNER_SANDBOX"] = setting
    profile = resolve_profile(RunnerOptions("claude"), environ=host)
    out = json.loads(run_checked(profile, identify(str(script)), b"x", host_env=host))
    assert PASSWORD not in json.dumps(out)
    assert "alice" not in json.dumps(out)
    environment = out["environment"]
    if setting == "off":  # the host's proxies, without who and how
        assert environment["HTTPS_PROXY"] == "http://proxy.corp.invalid:3128"
        assert environment["all_proxy"] == "socks5h://proxy.corp.invalid:1080"
        assert environment["http_proxy"] == "proxy.corp.invalid:3128"
    else:  # the sandbox's own way out, to the model endpoint only
        proxies = {environment[name] for name in PROXIES}
        assert len(proxies) == 1
        assert proxies.pop().startswith("http://127.0.0.1:")


@pytest.mark.parametrize("setting", ["auto", "off"])
def test_a_runner_whose_model_is_local_gets_no_proxy(
    fake_runner: FakeRunner, tmp_path: Path, setting: str
) -> None:
    script = fake_runner("conformant")
    host = {**_host_env(), **PROXIES, "NO_PROXY": "localhost", "GIT_MEMORY_RUNNER_SANDBOX": setting}
    profile = resolve_profile(RunnerOptions("command", command=str(script)), environ=host)
    out = json.loads(run_checked(profile, identify(str(script)), b"x", host_env=host))
    assert not {key for key in out["environment"] if key.lower().endswith("_proxy")}
