"""Install the real transcripts of the five other agents (tests/fixtures/transcripts/<agent>/,
provenance in tests/fixtures/PROVENANCE.md) into each agent's own on-disk layout."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from tests.sessions.transcripts import FIXTURES

OLD = time.time() - 3 * 3600  # older than the default 30 minute sealAfter


def age(directory: Path) -> None:
    """Set every file below `directory` to `OLD`, so its sessions' last turns are sealed."""
    for path in directory.rglob("*"):
        os.utime(path, (OLD, OLD), follow_symlinks=False)


def cursor_slug(workspace: Path) -> str:
    """Cursor's project directory name for a workspace path."""
    return "".join(c if c.isalnum() else "-" for c in str(workspace).lstrip("/"))


def original_name(fixture: Path) -> str:
    """A fixture's file name as the agent wrote it (`owner__repo__name` → `name`)."""
    return fixture.name.split("__")[-1]


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def install_gemini(home: Path) -> None:
    """`<GEMINI_CLI_HOME>/.gemini/tmp/<project>/chats/session-*`, with `projects.json` and
    `.project_root` for the slug directories and hash directories for the older files."""
    base, source = home / ".gemini", FIXTURES / "gemini-cli"
    _copy(next(source.glob("*projects.json")), base / "projects.json")
    for root_file in source.glob("*.project_root"):
        slug = root_file.name.split("__")[-2].removeprefix("tmp-")
        _copy(root_file, base / "tmp" / slug / ".project_root")
    for fixture in sorted(source.glob("*.json*")):
        if fixture.name.endswith("projects.json"):
            continue
        if fixture.suffix == ".jsonl":
            project = "tp-tutor"
        else:
            project = json.loads(fixture.read_text())["projectHash"]
        name = original_name(fixture)
        if not name.startswith("session-"):
            name = f"session-2025-01-01T00-00-{name}"
        _copy(fixture, base / "tmp" / project / "chats" / name)


def install_qwen(home: Path) -> None:
    """`<QWEN_RUNTIME_DIR>/projects/<sanitized cwd>/chats/<id>.jsonl`."""
    for n, fixture in enumerate(sorted((FIXTURES / "qwen-code").glob("*.jsonl"))):
        _copy(fixture, home / "projects" / f"project-{n}" / "chats" / original_name(fixture))


def install_opencode(data_home: Path) -> None:
    """`<XDG_DATA_HOME>/opencode/opencode.db` and the JSON `storage/` tree."""
    base, source = data_home / "opencode", FIXTURES / "opencode"
    _copy(next(source.glob("*opencode.db")), base / "opencode.db")
    for tree in source.glob("*__storage"):
        for fixture in tree.rglob("*.json"):
            _copy(fixture, base / "storage" / fixture.relative_to(tree))


def install_copilot(home: Path) -> None:
    """`<COPILOT_HOME>/session-state/<id>/` and `history-session-state/session_*.json`."""
    source = FIXTURES / "copilot-cli"
    for directory in sorted(p for p in source.iterdir() if p.is_dir()):
        session = directory.name.split("__")[-1]
        for fixture in directory.iterdir():
            _copy(fixture, home / "session-state" / session / fixture.name)
    for fixture in sorted(source.glob("*.json")):
        _copy(fixture, home / "history-session-state" / original_name(fixture))


def install_cursor(home: Path, slug: str = "Users-speedybee-Documents-dev-personal-config") -> None:
    """`<CURSOR_CONFIG_DIR>/projects/<slug>/agent-transcripts/<uuid>.jsonl|txt`."""
    for fixture in sorted((FIXTURES / "cursor").iterdir()):
        target = home / "projects" / slug / "agent-transcripts" / original_name(fixture)
        _copy(fixture, target)


def install_all(homes: dict[str, Path]) -> None:
    """Every other agent's fixtures into the homes of the hermetic environment."""
    install_gemini(homes["gemini"])
    install_qwen(homes["qwen"])
    install_opencode(homes["xdg_data"])
    install_copilot(homes["copilot"])
    install_cursor(homes["cursor"])
