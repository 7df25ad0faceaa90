"""The instruction files `assemble --provider all` writes reach the real GitHub Copilot CLI
(docs/guide-context.md, "Scoped memory"): Copilot CLI 1.0.102 runs in prompt mode with its
own model provider (`COPILOT_PROVIDER_BASE_URL`, offline: no GitHub sign-in, no telemetry)
set to a scripted model on 127.0.0.1 that records every request. It quotes
`.github/copilot-instructions.md` and lists each `.github/instructions/*.instructions.md`
with its `applyTo` pattern, for the model to read before it changes code there."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.assemble.test_assemble_scope import API_FACT, ROOT_FACT, WEB_FACT, memory
from tests.realcli.fake_model import ChatCompletionsAgent, FakeModel
from tests.realcli.test_scoped_memory import _assemble, run_client
from tests.repos import Repo

__all__ = ["memory"]  # the fixture, used by name
# The variables a developer's shell may hold for Copilot or GitHub; each run sets its own.
FOREIGN = ("COPILOT_", "GITHUB_", "GH_", "OPENAI_")


def _copilot(root: Path, home: Path) -> list[str]:
    """`copilot -p` at `root`; every chat-completions request."""
    agent = ChatCompletionsAgent()
    with FakeModel(agent) as model:
        env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
        env.update(
            HOME=str(home),
            COPILOT_HOME=str(home / ".copilot"),
            COPILOT_PROVIDER_BASE_URL=f"{model.url}/v1",
            COPILOT_PROVIDER_API_KEY="dummy",
            COPILOT_MODEL="gpt-4o",
            COPILOT_OFFLINE="true",
            COPILOT_AUTO_UPDATE="false",
        )
        run_client(["copilot", "-p", "What should I know here?"], root, env, model)
    assert agent.turns
    return agent.turns


@pytest.mark.realcli("copilot")
def test_copilot_cli_gets_the_root_block_and_is_pointed_at_the_web_instructions(
    memory: Repo, gm: Any, tmp_path: Path
) -> None:
    # Copilot CLI also reads AGENTS.md and CLAUDE.md: with Copilot the only target, the root
    # block can only come from .github/copilot-instructions.md.
    memory.git("config", "memory.assembleTargets", "copilot")
    assert gm(["assemble"], cwd=memory.root).exit_code == 0
    home = tmp_path / "copilot-home"
    home.mkdir()
    request = json.loads(_copilot(memory.root, home)[0])
    system = request["messages"][0]["content"]
    custom = system.split("<custom_instruction>", 1)[1].split("</custom_instruction>", 1)[0]
    assert "<!-- BEGIN GIT MEMORY" in custom
    assert ROOT_FACT in custom
    # A path-specific file is listed with its `applyTo` pattern for the model to read when it
    # works there; its memory is not in the request before that.
    for scope in ("api", "db", "web"):
        assert (
            f"| {scope}/** | '.github/instructions/git-memory-{scope}.instructions.md' |" in system
        )
    assert WEB_FACT not in json.dumps(request, ensure_ascii=False)
    assert API_FACT not in json.dumps(request, ensure_ascii=False)
    web = memory.root / ".github" / "instructions" / "git-memory-web.instructions.md"
    assert WEB_FACT in web.read_text(encoding="utf-8")


@pytest.mark.realcli("copilot")
def test_copilot_cli_gets_each_entry_once_beside_codex_and_qwen(
    memory: Repo, gm: Any, tmp_path: Path
) -> None:
    # AGENTS.md carries the memory; Copilot's own files point there (docs/guide-context.md,
    # "Once per agent"), and the scoped files it lists are Claude Code's when those exist.
    memory.git("config", "memory.assembleTargets", "codex,qwen,copilot")
    assert gm(["assemble"], cwd=memory.root).exit_code == 0
    home = tmp_path / "copilot-home"
    home.mkdir()
    request = json.dumps(json.loads(_copilot(memory.root, home)[0]), ensure_ascii=False)
    assert request.count(ROOT_FACT) == 1
    assert "The team memory is in `AGENTS.md`" in request
    for scope in ("api", "db", "web"):
        assert request.count(f"| {scope}/** |") == 1, scope


@pytest.mark.realcli("copilot")
def test_copilot_cli_lists_each_scope_once_beside_claude_code(
    memory: Repo, gm: Any, tmp_path: Path
) -> None:
    _assemble(memory, gm)  # every agent's file, Claude Code's rule files among them
    home = tmp_path / "copilot-home"
    home.mkdir()
    system = json.loads(_copilot(memory.root, home)[0])["messages"][0]["content"]
    assert system.count(ROOT_FACT) == 1
    for scope in ("api", "db", "web"):
        assert system.count(f"| {scope}/** |") == 1, scope
        assert f"| {scope}/** | '.claude/rules/git-memory-{scope}.md' |" in system


@pytest.mark.realcli("copilot")
def test_copilot_cli_gets_each_entry_once_from_the_default_targets(
    memory: Repo, gm: Any, tmp_path: Path
) -> None:
    # The default targets write CLAUDE.md and AGENTS.md, both of which Copilot CLI may read: a
    # developer who works with Copilot beside them still gets each entry once.
    memory.git("config", "memory.assembleTargets", "claude,codex")
    assert gm(["assemble"], cwd=memory.root).exit_code == 0
    home = tmp_path / "copilot-home"
    home.mkdir()
    request = json.dumps(json.loads(_copilot(memory.root, home)[0]), ensure_ascii=False)
    assert request.count(ROOT_FACT) == 1
