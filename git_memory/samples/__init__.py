"""Sample transcripts of a small repository, for `git memory demo` and tests.

Two sessions written for this project in the providers' real record formats (Claude Code 2.x
and a Codex CLI rollout): passing and failing commands, a file edit, a commit and stated team
rules. Placeholders (`@@CWD@@`, `@@COMMIT@@`, …) are filled for the repository they are
installed for, so the commit and paths they mention exist there.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import date
from importlib import resources
from pathlib import Path

CLAUDE_TEMPLATE = "claude-session.jsonl.in"
CODEX_TEMPLATE = "codex-session.jsonl.in"


@dataclass(frozen=True)
class InstalledSamples:
    """Where the samples were written."""

    claude: Path
    codex: Path


def _render(template: str, values: dict[str, str]) -> str:
    text = resources.files(__name__).joinpath(template).read_text(encoding="utf-8")
    for key, value in values.items():
        # Values land inside JSON strings: escape them as JSON would.
        text = text.replace(f"@@{key}@@", json.dumps(value)[1:-1])
    return text


def install_samples(
    cwd: Path, commit: str, claude_home: Path, codex_home: Path, *, day1: date, day2: date
) -> InstalledSamples:
    """Write both sessions for a repository at `cwd` whose HEAD commit is `commit`."""
    claude_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"git-memory-sample-claude:{cwd}"))
    codex_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"git-memory-sample-codex:{cwd}"))
    values = {
        "CWD": str(cwd),
        "COMMIT": commit,
        "COMMIT_SHORT": commit[:7],
        "DAY1": day1.isoformat(),
        "DAY2": day2.isoformat(),
        "CLAUDE_SESSION": claude_id,
        "CODEX_SESSION": codex_id,
    }
    project = claude_home / "projects" / ("-" + str(cwd).strip("/").replace("/", "-"))
    project.mkdir(parents=True, exist_ok=True)
    claude = project / f"{claude_id}.jsonl"
    claude.write_text(_render(CLAUDE_TEMPLATE, values), encoding="utf-8")
    day = codex_home / "sessions" / f"{day2:%Y}" / f"{day2:%m}" / f"{day2:%d}"
    day.mkdir(parents=True, exist_ok=True)
    codex = day / f"rollout-{day2.isoformat()}T14-00-00-{codex_id}.jsonl"
    codex.write_text(_render(CODEX_TEMPLATE, values), encoding="utf-8")
    return InstalledSamples(claude=claude, codex=codex)
