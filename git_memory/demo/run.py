"""The demo's steps: sync → extract (builtin) → review → prepare → promote → assemble.

Each step calls the same operation a user would run and reports what it did.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from git_memory.demo.environment import Sandbox
from git_memory.extract.review_flow import prepare_request
from git_memory.glossary import plain
from git_memory.ops.base import OpContext, load_operation
from git_memory.repo.scratch import create_repository
from git_memory.samples import install_samples

if TYPE_CHECKING:
    from git_memory.contracts.review import Review

Say = Callable[[str], None]

APP_BEFORE = "import os\n\n\ndef greeting() -> str:\n    return 'hello'\n"
APP_AFTER = "def greeting() -> str:\n    return 'hello'\n"
ORIGIN = "https://example.com/acme/sample-app.git"
README = "# sample-app\n\nA tiny application for the git memory demo.\n"
# The project files the sample sessions' commands need (`make build`, `uv run pytest`,
# `docker compose up -d db`), so the memory they teach is fresh when `git memory verify` checks it.
MAKEFILE = "build:\n\tpython -m compileall src\n\nintegration:\n\tuv run pytest -q\n"
PYPROJECT = '[project]\nname = "sample-app"\nversion = "0.1.0"\n'
COMPOSE = "services:\n  db:\n    image: postgres:16\n"


def build_repository(box: Sandbox, today: datetime.date) -> str:
    """The sample repository and its two sessions; returns the commit they mention."""
    ids = create_repository(
        box.repository,
        [
            (
                "Add the sample app",
                {
                    "README.md": README,
                    "src/app.py": APP_BEFORE,
                    "Makefile": MAKEFILE,
                    "pyproject.toml": PYPROJECT,
                    "compose.yaml": COMPOSE,
                },
            ),
            ("Remove unused import", {"src/app.py": APP_AFTER}),
        ],
        origin=ORIGIN,
    )
    samples = install_samples(
        box.repository,
        ids[-1],
        box.claude_home,
        box.codex_home,
        day1=today - datetime.timedelta(days=2),
        day2=today - datetime.timedelta(days=1),
    )
    idle = time.time() - 3600  # the sessions ended an hour ago: their last turns are sealed
    for path in (samples.claude, samples.codex):
        os.utime(path, (idle, idle))
    return ids[-1]


def _run(ctx: OpContext, name: str, request: object) -> Any:
    return load_operation(name).invoke(ctx, request)


def run_demo(box: Sandbox, say: Say) -> dict[str, Any]:
    """Run every step in the sandbox; returns what was written."""
    today = datetime.datetime.now(datetime.UTC).date()
    build_repository(box, today)
    say(f"1. built a throw-away sample repository with two agent sessions: {box.repository}")
    ctx = OpContext(repository=box.repository)
    _run(ctx, "init", {})
    synced = _run(ctx, "sessions-sync", {})
    say(f"2. indexed the transcripts: {synced.files_seen} files, {synced.turns_added} turns")
    window = {
        "after": f"{today - datetime.timedelta(days=7)}T00:00:00.000Z",
        "before": f"{today + datetime.timedelta(days=1)}T00:00:00.000Z",
    }
    extracted = _run(
        ctx,
        "extract",
        {
            "runner": "builtin",
            "limit": 8,
            "request": {"format": "git-memory-extraction-request@v1", "window": window},
        },
    )
    say(
        f"3. builtin runner (no model, nothing sent anywhere): {len(extracted.quarantined)} "
        f"candidate(s) in quarantine ({plain('quarantine')}):"
    )
    review = _run(ctx, "review", {})
    supports = [item.statements[0].claim_support for item in review.items]
    for item, support in zip(review.items, supports, strict=True):
        say(f"   - [{support}] {item.content.strip()}")
    for support in sorted(set(supports) & {"typed-fact", "unverified"}):
        say(f"   [{support}]: {plain(support)}")
    say("   (`git memory help glossary` says every word these screens use in plain words)")
    return _promote_and_assemble(ctx, box, review, say)


def _promote_and_assemble(ctx: OpContext, box: Sandbox, review: Review, say: Say) -> dict[str, Any]:

    say("4. review: the demo confirms every statement (a real review asks you for each one)")
    plan = _run(ctx, "prepare", prepare_request(review.items))
    say(
        f"5. prepared promotion plan {plan.plan_id} ({len(plan.per_file)} file(s)); plan digest "
        f"{plan.plan_digest[:16]}…: {plain('plan digest')}"
    )
    promoted = _run(ctx, "promote", {"plan": plan.plan_id, "approve": plan.plan_digest})
    say(
        "6. promoted: the demo approves the plan by its digest (a real run shows you the diff "
        "and asks)"
    )
    files = sorted(
        str(p.relative_to(box.repository))
        for p in (box.repository / ".memory").rglob("*")
        if p.is_file()
    )
    say("   memory files written (commit them through your normal flow):")
    for path in files:
        say(f"     {path}")
    assembled = _run(ctx, "assemble", {"provider": "all"})
    claude_md = (box.repository / "CLAUDE.md").read_text(encoding="utf-8")
    block = assembled.block
    say(
        f"7. assembled CLAUDE.md and AGENTS.md: {len(block.shown)} entries in "
        f"{block.bytes} of {block.budget} bytes; what the agent now reads at every session "
        "(`git memory context` prints the same):"
    )
    for line in claude_md.splitlines():
        say(f"   | {line}")
    return {
        "plan": plan.plan_id,
        "promoted": promoted.to_json(),
        "files": files,
        "assembled": assembled.to_json(),
        "claudeMd": claude_md,
    }
