"""Codex memories folders of every layout Codex has written, built from its documented shapes.

Each builder writes, in the sandboxed CODEX_HOME, what one version of Codex writes, with the
shape taken from the Codex source named beside it (openai/codex; see
tests/fixtures/agent-memory/PROVENANCE.md). Project facts are invented.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

# Thread ids are UUID v7, as Codex makes them; each stands for one session of the project.
RELEASE = "0196a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b"
MIGRATION = "0196b5c6-1d2e-7f30-9a4b-5c6d7e8f9a0b"
OTHER = "01968c3d-1e2f-7a3b-9c4d-5e6f7a8b9c0d"
QUOTE = "bump the version in one commit, tag in a second"
OFFERED = "When releasing, keep the version bump and the tag as separate commits"


@dataclass(frozen=True)
class Session:
    """One Codex session a summary describes: its thread id, rollout file and directory."""

    thread: str
    rollout: Path
    cwd: str


def rollout_path(codex_home: Path, thread: str) -> Path:
    """Where Codex keeps the session's rollout (tests/sessions/transcripts.codex_path)."""
    day = codex_home / "sessions" / "2026" / "03" / "02"
    return day / f"rollout-2026-03-02T09-00-00-{thread}.jsonl"


def summary(session: Session, body: str, *, era: str = "current") -> str:
    """A rollout summary file: its header lines, a blank line, then Codex's recap.

    current: `thread_id`, `updated_at`, `rollout_path`, `cwd`, `git_branch`
    (codex-rs/memories/write/src/storage.rs, `write_rollout_summary_for_thread`);
    cwd: `thread_id`, `updated_at`, `cwd` (an earlier codex-rs/core/src/memories/storage.rs);
    bare: `thread_id`, `updated_at` (the first version of that file)."""
    lines = [f"thread_id: {session.thread}", "updated_at: 2026-03-02T09:40:12+00:00"]
    if era == "current":
        lines += [f"rollout_path: {session.rollout}", f"cwd: {session.cwd}", "git_branch: main"]
    elif era == "cwd":
        lines += [f"cwd: {session.cwd}"]
    return "\n".join(lines) + "\n\n" + body + "\n"


def handbook(cwd: str, routing: str, other_cwd: str = "/home/dev/other-service") -> str:
    """`MEMORY.md` in the consolidation template's strict block shape
    (codex-rs/memories/write/templates/memories/consolidation.md, "MEMORY.md FORMAT"): a
    block for `cwd` whose task 1 lists `routing` under `### rollout_summary_files`, its
    preferences, knowledge and failures, then a block of another checkout."""
    return f"""# Task Group: app release and database workflow

scope: Releasing the app and resetting its local database.
applies_to: cwd={cwd}; reuse_rule=safe for this checkout; recheck script names after refactors.

## Task 1: Cut a patch release, success

### rollout_summary_files

- {routing}

### keywords

- release, changelog, scripts/release.sh, version bump

## Task 2: Add the orders migration, success

### rollout_summary_files

- rollout_summaries/2026-03-03T10-00-00-{MIGRATION}-orders_migration.md (cwd={cwd}, \
rollout_path=/nowhere/rollout-2026-03-03T10-00-00-{MIGRATION}.jsonl, \
updated_at=2026-03-03T10:30:00+00:00, thread_id={MIGRATION}, success)

### keywords

- migration, alembic

## User preferences

- when releasing, the user asked / corrected: "{QUOTE}" -> keep the version bump and the \
tag as separate commits [Task 1]
- when a migration is added, the user corrected: “name it after the table” -> name \
migrations after the table they change [Task 2]
- Keep release notes short. [Task 1][Task 2]

## Reusable knowledge

- `make db-reset` drops and reseeds the local Postgres; run it before \
`make test-integration`. [Task 1]
- The release script refuses to run on a dirty tree; commit or stash first. [Task 1]

## Failures and how to do differently

- symptom: `make test-integration` fails with "relation does not exist"; cause: stale local \
schema; fix: `make db-reset` then rerun [Task 2]

# Task Group: notes for another checkout

scope: Work in an unrelated repository.
applies_to: cwd={other_cwd}; reuse_rule=checkout-specific

## Task 1: Fix the other service's build, success

### rollout_summary_files

- rollout_summaries/{OTHER}.md (cwd={other_cwd}, rollout_path=/nowhere/rollout-{OTHER}.jsonl, \
updated_at=2026-02-28T16:30:01+00:00, thread_id={OTHER}, success)

### keywords

- gradle

## Reusable knowledge

- The other service builds with `./gradlew build --offline`. [Task 1]
"""


# memory_summary.md: first line exactly `v1`, then `## User Profile`, `## User preferences`,
# `## General Tips`, `## What's in Memory` (the same template, "memory_summary.md FORMAT").
PROFILE = """v1

## User Profile

Backend developer across several services; prefers short reports with the commands run.

## User preferences

- Keep the version bump and the tag as separate commits.

## General Tips

- Search MEMORY.md by keyword before opening rollout summaries.

## What's in Memory

### /home/dev/app

#### 2026-03-02

- app release: release, scripts/release.sh, db-reset
  - desc: releasing the app and resetting its local database
"""

# raw_memories.md as Codex merges phase-1 outputs (codex-rs/memories/write/src/storage.rs,
# `rebuild_raw_memories_file`): a heading per thread, its fields, then the raw memory.
RAW = """# Raw Memories

Merged stage-1 raw memories (stable ascending thread-id order):

## Thread `{thread}`
updated_at: 2026-03-02T09:40:12+00:00
cwd: {cwd}
rollout_path: {rollout}
rollout_summary_file: {name}

Raw memory text: the person profile says they live in Lisbon.
"""


def write(path: Path, text: str) -> Path:
    """Write `text` at `path`, its folders made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def current_folder(codex_home: Path, cwd: str, *, bullet: str | None = None) -> Path:
    """The memories folder as Codex writes it now, for a project at `cwd`: the handbook,
    the rollout summaries it names, the profile, raw memories, a skill, an ad-hoc note
    extension (codex-rs/memories/write/src/extensions/ad_hoc.rs), and the git state and
    diff of the consolidation workspace (codex-rs/memories/write/src/workspace.rs).
    `bullet` replaces task 1's `### rollout_summary_files` bullet."""
    memories = codex_home / "memories"
    release = Session(RELEASE, rollout_path(codex_home, RELEASE), cwd)
    name = f"2026-03-02T09-00-00-{RELEASE}-patch_release.md"
    routing = bullet or (
        f"rollout_summaries/{name} (cwd={cwd}, rollout_path={release.rollout}, "
        f"updated_at=2026-03-02T09:40:12+00:00, thread_id={RELEASE}, success)"
    )
    write(memories / "MEMORY.md", handbook(cwd, routing))
    recap = "# Cut a patch release\n\nRecap: the person lives in Lisbon and ran `make release`."
    write(memories / "rollout_summaries" / name, summary(release, recap))
    write(memories / "memory_summary.md", PROFILE)
    raw = RAW.format(thread=RELEASE, cwd=cwd, rollout=release.rollout, name=name)
    write(memories / "raw_memories.md", raw)
    skill = "---\nname: cut-release\ndescription: cut a patch release\n---\n\n1. `make release`\n"
    write(memories / "skills" / "cut-release" / "SKILL.md", skill)
    write(memories / "extensions" / "ad_hoc" / "notes" / "note.md", "- The person is on leave.\n")
    write(memories / ".gitignore", "phase2_workspace_diff.md\n")
    write(memories / ".git" / "HEAD", "ref: refs/heads/main\n")
    write(memories / "phase2_workspace_diff.md", "+memory\n")
    return memories


def bucket(directory: str, digits: int = 16) -> str:
    """A legacy bucket's name: the sha256 of the directory in hex, cut to 16 characters
    (codex-rs/core/src/memories/layout.rs) or whole (the first versions, mod.rs)."""
    return hashlib.sha256(directory.encode()).hexdigest()[:digits]


# A legacy registry: "merged durable memory registry for this CWD", its template asking for
# proven first steps, failure modes and pivots, commands, paths and errors, verification and
# stop rules (codex-rs/core/templates/memories/consolidation.md of the bucket versions),
# in no prescribed shape.
REGISTRY = """# Memory registry

## Proven first steps

- Run `make bootstrap` before the first test run in this checkout.

## Failure modes and pivots

- `pytest` fails with "ModuleNotFoundError: app" outside the virtualenv; activate `.venv` first.

### rollout_summary_files

- rollout_summaries/{thread}.md (cwd={cwd}, rollout_path=/home/dev/.codex/sessions/x.jsonl)

### keywords

- bootstrap, pytest
"""


def bucket_folder(
    codex_home: Path, directory: str, *, era: str, digits: int = 16, registry: str = REGISTRY
) -> Path:
    """A legacy bucket `memories/<bucket>/memory/` for `directory`, as one version wrote it:

    traces: `trace_summaries/`, `memory_summary.md`, `MEMORY.md` (the first template);
    raw: `raw_memories/<thread>.md`, `memory_summary.md`, `MEMORY.md`, and the older
    registry `consolidated.md` (`LEGACY_CONSOLIDATED_FILENAME`) beside it;
    rollouts: `rollout_summaries/<thread>.md` headed `thread_id`, `updated_at`, `cwd`,
    `raw_memories.md` and `MEMORY.md` (codex-rs/core/src/memories/layout.rs)."""
    folder = codex_home / "memories" / bucket(directory, digits) / "memory"
    text = registry.format(thread=RELEASE, cwd=directory)
    routing_map = f"# Memory Summary\n\n- {RELEASE}: the person lives in Lisbon\n"
    session = Session(RELEASE, rollout_path(codex_home, RELEASE), directory)
    if era == "traces":
        write(folder / "trace_summaries" / f"{RELEASE}.md", "The person lives in Lisbon.\n")
        write(folder / "memory_summary.md", routing_map)
    elif era == "raw":
        write(folder / "raw_memories" / f"{RELEASE}.md", "The person lives in Lisbon.\n")
        write(folder / "memory_summary.md", routing_map)
        write(folder / "consolidated.md", "- Tag releases from `main` only.\n")
    else:
        recap = summary(session, "The person lives in Lisbon.", era="cwd")
        write(folder / "rollout_summaries" / f"{RELEASE}.md", recap)
        write(folder / "raw_memories.md", "# Raw Memories\n\nThe person lives in Lisbon.\n")
    write(folder / "MEMORY.md", text)
    return folder
