"""Whether Claude Code and Codex have `git memory mcp` registered (read-only).

Claude Code keeps user- and local-scope servers in `~/.claude.json` (under
`$CLAUDE_CONFIG_DIR` when set) and project-scope servers in `.mcp.json` at the repository
root, which it starts only once the project is trusted and the server approved. Codex keeps
them in `$CODEX_HOME/config.toml` (default `~/.codex`) and passes a server only the variables
it names (`env` or `env_vars`), so a `GIT_MEMORY_HOME` set in the shell is lost unless
forwarded. The registration snippets ship with the package (`packaged_file`), and the hints
name where they are installed.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from git_memory.doctor.checks import DoctorCheck
from git_memory.formats import bounded_json
from git_memory.paths import packaged_file

SERVER = "git-memory"
# The one way README.md, docs/guide-agent.md, contrib/mcp/README.md and `git memory mcp -h`
# tell to register the server with Claude Code: user scope, so every project finds it, and
# Claude Code starts it in the project directory, so it binds to that worktree.
CLAUDE_REGISTER = "claude mcp add --scope user git-memory -- git memory mcp"
# A recalled task carries a transcript chunk of up to 40 KiB (about 10k tokens); Codex cuts
# the middle out of longer tool results (contrib/mcp/codex-config.toml).
TOOL_OUTPUT_TOKENS = 40_000


def shipped(relative: str) -> str:
    """Where a shipped contrib file is on this machine, for a hint (its name alone when the
    install lacks it)."""
    found = packaged_file("contrib", relative)
    return str(found) if found is not None else f"contrib/{relative} in the git-team-memory sources"


def claude_hint() -> str:
    """How to register the server with Claude Code."""
    return f"{CLAUDE_REGISTER} (permissions and project scope: {shipped('mcp/README.md')})"


def codex_hint() -> str:
    """How to register the server with Codex."""
    return f"merge {shipped('mcp/codex-config.toml')} into {codex_config_path()}"


def claude_config_path() -> Path:
    """Where Claude Code keeps its user configuration (`.claude.json`)."""
    directory = os.environ.get("CLAUDE_CONFIG_DIR")
    if directory:
        return Path(directory).expanduser() / ".claude.json"
    return Path.home() / ".claude.json"


def codex_config_path() -> Path:
    """Where Codex keeps its configuration (`config.toml`)."""
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex").expanduser() / "config.toml"


def check_claude(root: Path | None) -> DoctorCheck:
    """Claude Code: user, local or project scope, and whether a project server may start."""
    config = _read_json(claude_config_path()) or {}
    if SERVER in _servers(config):
        return DoctorCheck(
            name="mcp claude",
            status="ok",
            detail=f"registered in user scope ({claude_config_path()})",
        )
    project: dict[str, Any] = {}
    if root is not None:
        projects = config.get("projects")
        entry = projects.get(str(root)) if isinstance(projects, dict) else None
        project = entry if isinstance(entry, dict) else {}
        if SERVER in _servers(project):
            return DoctorCheck(
                name="mcp claude", status="ok", detail=f"registered in local scope for {root}"
            )
        shared = _read_json(root / ".mcp.json") or {}
        if SERVER in _servers(shared):
            return _project_scope(project, _approvals(root))
    return DoctorCheck(
        name="mcp claude",
        status="warn",
        detail="git-memory is not registered with Claude Code",
        hint=claude_hint(),
    )


def _approvals(root: Path) -> list[dict[str, Any]]:
    """The settings files that may approve project servers (user, project, local)."""
    user = claude_config_path().parent if os.environ.get("CLAUDE_CONFIG_DIR") else None
    places = [
        (user or Path.home() / ".claude") / "settings.json",
        root / ".claude" / "settings.json",
        root / ".claude" / "settings.local.json",
    ]
    return [settings for place in places if (settings := _read_json(place)) is not None]


def _project_scope(project: dict[str, Any], settings: list[dict[str, Any]]) -> DoctorCheck:
    trusted = project.get("hasTrustDialogAccepted") is True
    approved = any(
        SERVER in (source.get("enabledMcpjsonServers") or [])
        or source.get("enableAllProjectMcpServers") is True
        for source in [project, *settings]
    )
    if trusted and approved:
        return DoctorCheck(
            name="mcp claude",
            status="ok",
            detail="registered in project scope (.mcp.json), approved",
        )
    return DoctorCheck(
        name="mcp claude",
        status="warn",
        detail="registered in .mcp.json; Claude Code starts it once the project is trusted and "
        "the server approved",
        hint="run `claude` here once and accept the trust and MCP prompts "
        '(or "enabledMcpjsonServers": ["git-memory"] in .claude/settings.json)',
    )


def check_codex() -> DoctorCheck:
    """Codex: the server entry, and whether `GIT_MEMORY_HOME` reaches it."""
    path = codex_config_path()
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return DoctorCheck(
            name="mcp codex",
            status="warn",
            detail="git-memory is not registered with Codex",
            hint=codex_hint(),
        )
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return DoctorCheck(
            name="mcp codex", status="warn", detail=f"cannot read {path}: {exc}", hint=codex_hint()
        )
    entry = _servers(config).get(SERVER)
    if not isinstance(entry, dict):
        return DoctorCheck(
            name="mcp codex",
            status="warn",
            detail="git-memory is not registered with Codex",
            hint=codex_hint(),
        )
    if os.environ.get("GIT_MEMORY_HOME") and not _forwards_home(entry):
        return DoctorCheck(
            name="mcp codex",
            status="warn",
            detail=f"registered in {path}, but Codex does not pass GIT_MEMORY_HOME to it",
            hint='add env_vars = ["GIT_MEMORY_HOME"] to [mcp_servers.git-memory], or use '
            "`git config --global memory.home PATH` instead of the variable",
        )
    limit = config.get("tool_output_token_limit")
    if not isinstance(limit, int) or limit < TOOL_OUTPUT_TOKENS:
        return DoctorCheck(
            name="mcp codex",
            status="warn",
            detail=f"registered in {path}, but Codex cuts tool results over "
            f"{limit if isinstance(limit, int) else 'its default'} tokens: recalled tasks "
            "arrive cut in the middle",
            hint=f"set tool_output_token_limit = {TOOL_OUTPUT_TOKENS} (top level of the config)",
        )
    return DoctorCheck(name="mcp codex", status="ok", detail=f"registered in {path}")


def _forwards_home(entry: dict[str, Any]) -> bool:
    env = entry.get("env")
    names = entry.get("env_vars")
    return (isinstance(env, dict) and "GIT_MEMORY_HOME" in env) or (
        isinstance(names, list) and "GIT_MEMORY_HOME" in names
    )


def _servers(config: dict[str, Any]) -> dict[str, Any]:
    servers = config.get("mcpServers", config.get("mcp_servers"))
    return servers if isinstance(servers, dict) else {}


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        # Depth-capped only in effect: Claude Code keeps its history in its config file.
        text = path.read_text(encoding="utf-8")
        document = bounded_json.loads(text, max_bytes=1 << 30, max_depth=256)
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None
