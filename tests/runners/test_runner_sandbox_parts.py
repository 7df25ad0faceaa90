"""The small parts of the runner sandbox, each from the real example it was made for: the
allow-list's rows, the runner's identity, the filter's program, the report's JSON and a
proxy URL without its password."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from git_memory.runners.environment import without_credentials
from git_memory.runners.identity import RUNNER_ID, free_id
from git_memory.runners.sandbox_filter import program
from git_memory.runners.sandbox_init import to_json
from git_memory.runners.view_paths import allowed_paths, install_root, program_paths


def test_the_cli_install_is_its_npm_package(tmp_path: Path) -> None:
    # /usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe, codex's bin/codex.js
    scoped = tmp_path / "lib" / "node_modules" / "@anthropic-ai" / "claude-code"
    assert install_root(scoped / "bin" / "claude.exe") == scoped
    plain = tmp_path / "lib" / "node_modules" / "some-cli"
    assert install_root(plain / "dist" / "cli.js") == plain
    assert install_root(tmp_path / "opt" / "model" / "run") == tmp_path / "opt" / "model"


def test_a_script_brings_the_interpreter_its_first_line_names(tmp_path: Path) -> None:
    script = tmp_path / "wrapper"
    script.write_text(f"#!/usr/bin/env {Path(sys.executable).name}\nprint('hi')\n")
    found = program_paths([str(script)], os.path.dirname(sys.executable))
    assert str(tmp_path) in found
    assert os.path.realpath(sys.base_prefix) in {os.path.realpath(p) for p in found}


def test_the_allow_list_gives_the_system_and_its_own_directory_only(tmp_path: Path) -> None:
    own = tmp_path / "one-time"
    own.mkdir()
    allowed = allowed_paths(["/usr/bin/true"], {"PATH": "/usr/bin"}, "claude", write=[str(own)])
    assert allowed["/usr"] is False
    certificates = [path for path in allowed if path.startswith(("/etc/ssl", "/etc/pki"))]
    assert certificates  # this machine's store, whichever distribution it is
    assert allowed[str(own)] is True
    assert [path for path, writable in allowed.items() if writable] == [str(own)]
    for private in ("/home", "/root", "/etc", "/etc/ssh", "/etc/shadow", "/var", "/tmp"):
        assert private not in allowed


def test_as_root_the_runner_gets_an_id_no_account_has(tmp_path: Path) -> None:
    everything = tmp_path / "uid_map"
    everything.write_text("         0          0 4294967295\n")
    assert free_id(str(everything), group=False) == RUNNER_ID
    container = tmp_path / "container_map"
    container.write_text("         0     100000      65536\n")
    chosen = free_id(str(container), group=False)
    assert chosen is not None
    assert 0 < chosen < 65536
    assert chosen not in (65534, 65535)
    only_root = tmp_path / "root_map"
    only_root.write_text("         0       1000          1\n")
    assert free_id(str(only_root), group=False) is None


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
@pytest.mark.parametrize("watch", [True, False])
def test_the_filter_program_resolves_on_each_architecture(machine: str, watch: bool) -> None:
    code, state = program(machine, watch)
    assert state == "held"
    assert all(0 <= jt <= 255 and 0 <= jf <= 255 for _op, jt, jf, _k in code)
    notifying = [k for op, _jt, _jf, k in code if op == 0x06 and k == 0x7FC00000]
    assert len(notifying) == 1  # the one "hand it to the watch" return
    assert program("riscv64", watch) == ([], "not available (no syscall table for riscv64)")


def test_the_report_is_json_without_the_json_module() -> None:
    value = {
        "attempts": [{"what": "read", "target": '/tmp/\udcff-bad-name\t\n\x01"\\'}],
        "layers": {"seccomp": "held"},
        "total": 3,
        "flags": [True, False, None],
    }
    assert json.loads(to_json(value).encode("utf-8")) == value


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        ("http://alice:s3cret@proxy.corp:3128", "http://proxy.corp:3128"),
        ("http://alice:pa/ss@w@proxy.corp:3128", "http://proxy.corp:3128"),
        ("alice:s3cret@proxy.corp:3128", "proxy.corp:3128"),
        ("socks5h://proxy.corp:1080", "socks5h://proxy.corp:1080"),
        ("localhost,.corp.example", "localhost,.corp.example"),
    ],
)
def test_a_proxy_url_loses_its_user_and_password(given: str, passed: str) -> None:
    assert without_credentials(given) == passed
