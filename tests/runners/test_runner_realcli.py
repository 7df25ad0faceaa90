"""The real claude / codex CLIs with their profiles (runs when they are on PATH).

They accept the profile argv: no credentials exist in the hermetic environment, so the CLI
fails to authenticate or to reach the network; that is fine. What must never appear is an
argument-parser error: that would mean a flag of the profile no longer exists in the
installed version. A control run with one bogus flag shows the parser error is detected.

And each passes conformance in the OS sandbox against the scripted model of
`tests/realcli/fake_model.py`, served over TLS as the model's host: the real CLI, in its
allow-listed root, tries nothing its profile denies.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import ssl
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.repo.secret import load_or_create_secret
from git_memory.runners import conformance, sandbox
from git_memory.runners.binary import identify
from git_memory.runners.process import spawn
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions, resolve_profile
from tests.realcli.fake_model import AnthropicAgent, FakeModel, ResponsesAgent

PARSER_ERROR = re.compile(
    r"unexpected argument|unknown option|unknown feature flag|unrecognized (option|subcommand|"
    r"argument)|invalid value for|error parsing|unknown command",
    re.IGNORECASE,
)
# Long enough for a parser error (immediate), short enough that a CLI stuck retrying the
# unreachable network does not slow the suite.
PROBE_MS = 6_000
# Claude's fixed endpoint, and a name for the codex endpoint the test configures.
MODEL_HOSTS = ("api.anthropic.com", "model.test")
FILES = ("ca.key", "ca.pem", "key.pem", "csr", "cert.pem")


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


@pytest.fixture
def certificates(tmp_path: Path) -> dict[str, Path]:
    """A CA and a server certificate for the model hosts, made with `openssl`; readable by
    the runner (run as root, the sandbox runs it as an id of its own)."""
    folder = tmp_path / "tls"
    folder.mkdir(mode=0o755)
    ca_key, ca, key, csr, cert = (str(folder / name) for name in FILES)
    names = folder / "names"
    names.write_text("subjectAltName=" + ",".join(f"DNS:{host}" for host in MODEL_HOSTS) + "\n")
    fresh = ["-newkey", "rsa:2048", "-nodes", "-days", "2"]
    authority = ["req", "-x509", *fresh, "-subj", "/CN=test ca", "-keyout", ca_key, "-out", ca]
    request = ["req", *fresh, "-subj", f"/CN={MODEL_HOSTS[0]}", "-keyout", key, "-out", csr]
    sign = ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial"]
    sign += ["-days", "2", "-out", cert, "-extfile", str(names)]
    for argv in (authority, request, sign):
        subprocess.run(["openssl", *argv], check=True, capture_output=True, timeout=60)
    for path in folder.iterdir():
        path.chmod(0o644)
    return {name: folder / name for name in FILES}


@contextlib.contextmanager
def model_over_tls(
    agent: Callable[[str, Any], tuple[str, bytes]],
    certificates: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[FakeModel]:
    """The scripted model on 127.0.0.1, speaking TLS as the model hosts; the egress proxy
    dials it when the runner asks for one of those hosts (there is no other network)."""
    model = FakeModel(agent)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificates["cert.pem"], certificates["key.pem"])
    server = model._server  # the test's own server, wrapped in TLS
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    dial = socket.create_connection

    def redirected(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        if address[0] in MODEL_HOSTS:
            address = ("127.0.0.1", port)
        return dial(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", redirected)
    with model:
        yield model


def _conformance(profile: ResolvedProfile, env: dict[str, str]) -> conformance.ProbeOutcome:
    assert profile.binary is not None
    secret = load_or_create_secret(Path(os.environ["GIT_MEMORY_HOME"]))
    return conformance.probe(profile, identify(profile.binary, env), secret, host_env=env)


@pytest.mark.realcli("claude")
def test_claude_profile_passes_conformance_in_the_sandbox(
    certificates: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key",
        "NODE_EXTRA_CA_CERTS": str(certificates["ca.pem"]),
    }
    agent = AnthropicAgent()
    with model_over_tls(agent, certificates, monkeypatch) as model:
        outcome = _conformance(resolve_profile(RunnerOptions("claude"), environ=env), env)
    assert outcome.failures == []
    assert outcome.passed
    assert any(request.path.startswith("/v1/messages") for request in model.requests)
    assert outcome.layers == dict.fromkeys(sandbox.LAYERS, "held")


@pytest.mark.realcli("codex")
def test_codex_profile_passes_conformance_in_the_sandbox(
    certificates: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "OPENAI_API_KEY": "sk-test-not-a-real-key",
        "SSL_CERT_FILE": str(certificates["ca.pem"]),
    }
    options = RunnerOptions("codex", model="gpt-5", endpoint=f"https://{MODEL_HOSTS[1]}/v1")
    with model_over_tls(ResponsesAgent(), certificates, monkeypatch) as model:
        outcome = _conformance(resolve_profile(options, environ=env), env)
    assert outcome.failures == []
    assert outcome.passed
    assert [request.path for request in model.requests] == ["/v1/responses"]
    assert outcome.layers == dict.fromkeys(sandbox.LAYERS, "held")
