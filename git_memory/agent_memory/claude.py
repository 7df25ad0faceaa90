"""Where Claude Code keeps a repository's auto memory, resolved the way Claude Code does.

The folder is, first match wins (docs/agent-memory.md):
1. `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`, an absolute path;
2. the `autoMemoryDirectory` setting of the managed policy settings, of the worktree's
   `.claude/settings.local.json` when git does not track it, or of the user settings
   `<config>/settings.json`; a leading `~/` is the home directory, anything that is not then
   an absolute path is ignored. The checked-in `.claude/settings.json` is not followed: a
   clone must not point the reader at a folder of its choosing;
3. `<config>/projects/<slug>/memory/`, the slug being the main worktree's path with every
   character other than a letter or digit turned into `-`; a slug longer than 200
   characters keeps its first 200 and gains `-` and a base-36 hash of the path, so two
   long paths that share a prefix stay apart.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from git_memory.formats import bounded_json
from git_memory.sessions.source_io import SourceRefused, open_regular

MAX_SLUG = 200
SETTING = "autoMemoryDirectory"
OVERRIDE_VARIABLE = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
POLICY_SETTINGS = {
    "darwin": "/Library/Application Support/ClaudeCode/managed-settings.json",
    "linux": "/etc/claude-code/managed-settings.json",
}
MAX_SETTINGS_BYTES = 1024 * 1024
_SLUG_CHAR = re.compile(r"[^A-Za-z0-9]")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def project_slug(path: Path) -> str:
    """Claude Code's folder name for a project (see the module's rule 3)."""
    text = str(path)
    # Claude Code replaces UTF-16 code units: a character beyond the BMP becomes `--`.
    slug = _SLUG_CHAR.sub(lambda m: "-" * (1 + (ord(m.group()) > 0xFFFF)), text)
    return slug if len(slug) <= MAX_SLUG else f"{slug[:MAX_SLUG]}-{_path_hash(text)}"


def _path_hash(text: str) -> str:
    """The 32-bit `h * 31 + unit` hash over the path's UTF-16 code units, its absolute
    value written in base 36: how Claude Code tells long project paths apart."""
    data = text.encode("utf-16-le")
    value = 0
    for index in range(0, len(data), 2):
        value = (value * 31 + int.from_bytes(data[index : index + 2], "little")) & 0xFFFFFFFF
    number = abs(value - (1 << 32) if value >= 1 << 31 else value)
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = _DIGITS[rest] + digits
        if number == 0:
            return digits


def configured_directory(config_home: Path, local_settings: Path | None) -> Path | None:
    """The auto memory folder an override or an `autoMemoryDirectory` setting names."""
    override = _absolute(os.environ.get(OVERRIDE_VARIABLE), expand_home=False)
    if override is not None:
        return override
    places = [POLICY_SETTINGS.get(sys.platform), local_settings, config_home / "settings.json"]
    for place in places:
        if place is None:
            continue
        found = _absolute(_setting(Path(place)), expand_home=True)
        if found is not None:
            return found
    return None


def _setting(path: Path) -> str | None:
    """The setting's value in one settings file (None when absent, unreadable or not JSON)."""
    try:
        with open_regular(str(path)) as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except (OSError, SourceRefused):
        return None
    if len(data) > MAX_SETTINGS_BYTES:
        return None
    try:
        settings: Any = bounded_json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    value = settings.get(SETTING) if isinstance(settings, dict) else None
    return value if isinstance(value, str) else None


def _absolute(value: str | None, *, expand_home: bool) -> Path | None:
    """The folder `value` names, or None when it is not a usable absolute path."""
    if not value or "\x00" in value:
        return None
    if expand_home and value.startswith(("~/", "~\\")):
        rest = os.path.normpath(value[2:] or ".")
        if rest in {".", ".."} or rest.startswith(("../", "..\\")):
            return None
        value = os.path.join(Path.home(), value[2:])
    folder = os.path.normpath(value).rstrip("/\\")
    if not os.path.isabs(folder) or len(folder) < 3 or folder.startswith("//"):
        return None
    return Path(folder)
