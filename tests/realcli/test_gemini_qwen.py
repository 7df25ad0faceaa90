"""The instruction files `assemble --provider all` writes reach the real Gemini CLI and Qwen
Code (docs/guide-context.md, "Scoped memory"): each runs in prompt mode against a scripted
model on 127.0.0.1 that records every request. Gemini CLI loads the root `GEMINI.md` at start
and `web/GEMINI.md` once a tool reads a file below `web/`; Qwen Code loads the `QWEN.md` of
the directory it starts in and of the directories above it (as Gemini CLI 0.61.0 and Qwen
Code 0.15.10 do)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.assemble.test_assemble_scope import API_FACT, ROOT_FACT, WEB_FACT, memory
from tests.realcli.fake_model import ChatCompletionsAgent, FakeModel, GenerateContentAgent
from tests.realcli.test_scoped_memory import _assemble, run_client
from tests.repos import Repo

__all__ = ["memory"]  # the fixture, used by name
# Nothing but the scripted model on 127.0.0.1: no update check, usage statistics or
# telemetry (both CLIs read the same setting names).
QUIET = {
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
# The model-side variables a developer's shell may hold; each run sets its own.
FOREIGN = ("GOOGLE_", "GEMINI_API", "OPENAI_", "DASHSCOPE_", "QWEN_HOME", "QWEN_MODEL")


def _env(**values: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
    env.update(values)
    return env


def _context(request: str, name: str) -> str:
    """What the client quoted from the context file `name` (as it names it) in `request`."""
    start = f"--- Context from: {name} ---"
    assert start in request, f"{name} is not in the request"
    return request.split(start, 1)[1].split(f"--- End of Context from: {name} ---", 1)[0]


def _gemini(root: Path, gemini_home: Path) -> list[str]:
    """`gemini -p` at `root` whose first turn reads `web/src/legacy.ts`; the main-loop
    requests, in order."""
    settings = QUIET | {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (gemini_home / ".gemini").mkdir(exist_ok=True)
    (gemini_home / ".gemini" / "settings.json").write_text(json.dumps(settings))
    agent = GenerateContentAgent(("read_file", {"file_path": "web/src/legacy.ts"}))
    with FakeModel(agent) as model:
        env = _env(
            GEMINI_CLI_HOME=str(gemini_home),
            GEMINI_API_KEY="dummy",
            GOOGLE_GEMINI_BASE_URL=model.url,
            # Prompt mode runs only in a trusted folder; this one is the test's own.
            GEMINI_CLI_TRUST_WORKSPACE="true",
        )
        # A model named on the command line: no routing requests before the main loop.
        prompt = "Look at the legacy web module."
        run_client(["gemini", "--model", "gemini-2.5-flash", "-p", prompt], root, env, model)
    return agent.turns


@pytest.mark.realcli("gemini")
def test_gemini_cli_gets_the_root_block_and_the_web_block_once_it_reads_a_web_file(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    _assemble(memory, gm)
    turns = _gemini(memory.root, hermetic_env["gemini"])
    assert len(turns) == 2, [turn[:200] for turn in turns]
    first, after_read = turns
    root_file, web_file = memory.root / "GEMINI.md", memory.root / "web" / "GEMINI.md"
    assert ROOT_FACT in _context(first, str(root_file))
    assert first.count(ROOT_FACT) == 1  # GEMINI.md only, though AGENTS.md holds it too
    assert WEB_FACT not in first
    assert str(web_file) not in first
    assert "export {};" in after_read  # the read_file result came back
    web = _context(after_read, str(web_file))
    assert "Team memory for web/" in web
    assert WEB_FACT in web
    assert after_read.count(WEB_FACT) == 1
    assert API_FACT not in after_read


def _qwen(cwd: Path, qwen_home: Path) -> list[str]:
    """`qwen -p` in `cwd`; every chat-completions request."""
    settings = QUIET | {"security": {"auth": {"selectedType": "openai"}}}
    (qwen_home / "settings.json").write_text(json.dumps(settings))
    agent = ChatCompletionsAgent()
    with FakeModel(agent) as model:
        env = _env(
            QWEN_HOME=str(qwen_home),
            OPENAI_API_KEY="dummy",
            OPENAI_BASE_URL=f"{model.url}/v1",
            OPENAI_MODEL="scripted-model",
        )
        run_client(["qwen", "-p", "What should I know here?"], cwd, env, model)
    assert agent.turns
    return agent.turns


@pytest.mark.realcli("qwen")
def test_qwen_code_gets_each_entry_once_though_it_reads_qwen_md_and_agents_md(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    _assemble(memory, gm)  # every agent's file: AGENTS.md carries the memory Qwen Code reads
    at_root = _qwen(memory.root, hermetic_env["qwen"])[0]
    assert at_root.count(ROOT_FACT) == 1
    assert ROOT_FACT in _context(at_root, "AGENTS.md")
    assert "The team memory is in `AGENTS.md`" in _context(at_root, "QWEN.md")
    in_web = _qwen(memory.root / "web", hermetic_env["qwen"])[0]
    assert in_web.count(ROOT_FACT) == 1
    assert in_web.count(WEB_FACT) == 1
    assert API_FACT not in in_web


@pytest.mark.realcli("qwen")
def test_qwen_code_gets_qwen_md_at_the_root_and_the_web_block_in_web(
    memory: Repo, gm: Any, hermetic_env: dict[str, Path]
) -> None:
    memory.git("config", "memory.assembleTargets", "qwen")
    assert gm(["assemble"], cwd=memory.root).exit_code == 0  # QWEN.md alone carries it
    at_root = _qwen(memory.root, hermetic_env["qwen"])[0]
    assert ROOT_FACT in _context(at_root, "QWEN.md")
    assert WEB_FACT not in at_root
    assert API_FACT not in at_root
    in_web = _qwen(memory.root / "web", hermetic_env["qwen"])[0]
    assert ROOT_FACT in _context(in_web, "../QWEN.md")
    web = _context(in_web, "QWEN.md")
    assert "Team memory for web/" in web
    assert WEB_FACT in web
    assert in_web.count(WEB_FACT) == 1
    assert ROOT_FACT not in web
    assert API_FACT not in in_web
