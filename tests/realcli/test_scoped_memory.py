"""Scoped memory reaches the real clients where they work (docs/guide-context.md, "Scoped
memory"): Claude Code gets the `web/` rule file in the request after it reads a file below
`web/`, not before; Codex started in `web/` gets the nested `web/AGENTS.md` block, and started
elsewhere does not. Both talk to a scripted model on 127.0.0.1 that records every request."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.assemble.test_assemble_scope import API_FACT, ROOT_FACT, WEB_FACT, memory
from tests.realcli.fake_model import (
    FakeModel,
    ResponsesAgent,
    _anthropic_message,
    _anthropic_stream,
)
from tests.realcli.test_claude_code import _client_env
from tests.realcli.test_codex import PROVIDER
from tests.repos import Repo

__all__ = ["memory"]  # the fixture, used by name
TIMEOUT = 90


@dataclass
class ReadsOneFile:
    """The Messages API: the first turn reads `path` with Claude Code's Read tool, the next
    one ends. `turns` keeps the text of every main-loop request (the ones offering Read)."""

    path: Path
    turns: list[str] = field(default_factory=list)

    def __call__(self, path: str, body: Any) -> tuple[str, bytes]:
        if "count_tokens" in path:
            return "application/json", b'{"input_tokens": 100}'
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "Done."}]
        stop = "end_turn"
        if any(tool.get("name") == "Read" for tool in body.get("tools", [])):
            self.turns.append(json.dumps(body, ensure_ascii=False))
            if len(self.turns) == 1:
                read = {"file_path": str(self.path)}
                blocks = [{"type": "tool_use", "id": "toolu_read", "name": "Read", "input": read}]
                stop = "tool_use"
        if body.get("stream"):
            return "text/event-stream", _anthropic_stream(body.get("model"), blocks, stop)
        return "application/json", json.dumps(
            _anthropic_message(body.get("model"), blocks, stop)
        ).encode()


def run_client(command: list[str], cwd: Path, env: dict[str, str], model: FakeModel) -> None:
    """Run a client to its end in prompt mode; it and the scripted model must succeed."""
    completed = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert not model.errors, model.errors[0]
    assert completed.returncode == 0, completed.stderr[-3000:] + completed.stdout[-3000:]


def _assemble(repo: Repo, gm: Any) -> None:
    result = gm(["assemble", "--provider", "all"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr


@pytest.mark.realcli("claude")
def test_claude_code_gets_the_web_rule_after_reading_a_web_file_and_not_before(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path], tmp_path: Path, claude_bin: str
) -> None:
    _assemble(memory, gm)
    agent = ReadsOneFile(memory.root / "web" / "src" / "legacy.ts")
    with FakeModel(agent) as model:
        command = [claude_bin, "-p", "Look at the legacy web module.", "--allowedTools", "Read"]
        run_client(command, memory.root, _client_env(model.url, hermetic_env), model)
    model.dump(tmp_path / "requests.jsonl")
    assert len(agent.turns) == 2, [turn[:200] for turn in agent.turns]
    first, after_read = agent.turns
    # CLAUDE.md (the root block) is in every request; the web/ rule only once a web file was read.
    assert first.count(ROOT_FACT) == 1  # once, though Copilot's and Codex's files hold it too
    assert WEB_FACT not in first
    assert "export {};" in after_read  # the Read result came back
    assert after_read.count(ROOT_FACT) == 1
    assert after_read.count(WEB_FACT) == 1
    assert API_FACT not in after_read


def _codex(cwd: Path, codex_home: Path) -> list[str]:
    agent = ResponsesAgent()
    with FakeModel(agent) as model:
        (codex_home / "config.toml").write_text(PROVIDER.format(url=model.url))
        command = ["codex", "exec", "--skip-git-repo-check", "What should I know here?"]
        run_client(command, cwd, dict(os.environ, SCRIPTED_MODEL_API_KEY="dummy"), model)
    sent = [json.dumps(r.body, ensure_ascii=False) for r in model.requests if "responses" in r.path]
    assert sent
    return sent


@pytest.mark.realcli("codex")
def test_codex_in_web_gets_the_nested_agents_md_block_and_elsewhere_not(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    _assemble(memory, gm)
    memory.commit_all("memory assembled")
    in_web = _codex(memory.root / "web", hermetic_env["codex"])
    assert in_web[0].count(ROOT_FACT) == 1
    assert in_web[0].count(WEB_FACT) == 1
    assert API_FACT not in in_web[0]
    in_api = _codex(memory.root / "api", hermetic_env["codex"])
    assert in_api[0].count(ROOT_FACT) == 1
    assert in_api[0].count(API_FACT) == 1
    assert WEB_FACT not in in_api[0]
