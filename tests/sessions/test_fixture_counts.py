"""Every real transcript fixture indexes with the sessions and turns counted by hand.

How the turns were counted (a turn opens at each visible main-line user message):
- claude-reliability coverage-test-fix: line 2 is the typed prompt; the two "Stop hook
  feedback" records are isMeta and the other user records only carry tool_results → 1.
- claude-code-viewer 1af7fc5e: `/init` typed as a slash command opens the only turn; its
  expanded body is isMeta; the rest are tool_results → 1.
- claude-code-viewer 5c0375b4: `/orchestrator` opens the turn; the Task subagents' prompts
  are inline sidechain records (isSidechain) and never open a turn → 1.
- agent-sessions stage0 claude (synthetic): "Hello" is a sidechain and "Summary of prior
  context." a compaction summary; five non-meta user records remain (lines 49, 60, 62, 63, 87) → 5.
- agentcmd full-session-five: one typed prompt (line 12), 16 summary records ignored → 1.
- spotter ae4a77f8 excerpt: line 1's parent is outside the excerpt and holds a tool_result; the
  compaction summary, the local-command caveat, `/compact` (a client-local command) and its
  stdout are hidden; "continue implementation" (line 36) opens the only turn → 1.
- spotter short: "mix phx.server doesnt seem to start"; the later text block is
  "[Request interrupted by user for tool use]" (hidden) → 1.
- spotter subagent: `/handgemacht:create-beads` and "create the beads"; "[Request interrupted
  by user]" is hidden → 2.
- spotter subagents/agent-aac57f5 and agent-acompact-946d2b sit in `<session>/subagents/`:
  excluded by layout (every record is a sidechain anyway).
- agent-sessions stage0 codex (synthetic): event_msg user_message at lines 4, 71, 85 and a
  paginated `item_completed` UserMessage at line 101; the response_item user twin of line 4
  is not counted again → 4.
- agentcmd rollout 0.40: one user_message (IDE context preamble stripped) → 1.
- localpush 12-40-23: five user_message events, each followed by task_complete → 5.
- localpush 12-54-34 excerpt (line 1 + 1761-1800): no user message in the excerpt → 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.sessions.turns import session_key
from tests.repos import Repo
from tests.sessions.transcripts import install_fixtures

EXPECTED_TURNS = {
    ("claude-code", "DRMacIver__claude-reliability__coverage-test-fix__transcript"): 1,
    ("claude-code", "d-kimuson__claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a"): 1,
    ("claude-code", "d-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7"): 1,
    ("claude-code", "jazzyalex__agent-sessions__stage0-claude-small.SYNTHETIC"): 5,
    ("claude-code", "jnarowski__agentcmd__full-session-five"): 1,
    ("claude-code", "marot__spotter__ae4a77f8-aedd-4bc1-888f-c94edc91af04.excerpt-L1456-1545"): 1,
    ("claude-code", "marot__spotter__short"): 1,
    ("claude-code", "marot__spotter__subagent"): 2,
    ("codex", "jazzyalex__agent-sessions__stage0-codex-small.SYNTHETIC"): 4,
    (
        "codex",
        "jnarowski__agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e",
    ): 1,
    (
        "codex",
        "madshn__localpush__rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a",
    ): 5,
    (
        "codex",
        "madshn__localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9"
        ".excerpt-L1+L1761-1800",
    ): 0,
}


def test_every_fixture_indexes_with_pinned_turns(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    install_fixtures(hermetic_env["claude"], hermetic_env["codex"])
    synced = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert synced.exit_code == 0, synced.stderr
    summary = synced.json()
    assert summary["filesSeen"] == 14
    assert summary["new"] == 12
    assert summary["excluded"] == 2  # the two files under <session>/subagents/
    assert summary["turnsAdded"] == sum(EXPECTED_TURNS.values()) == 23
    listed = gm(["sessions", "list", "--all", "--format", "json"], cwd=repo.root).json()
    got = {s["sessionKey"]: s["turns"] for s in listed["sessions"]}
    want = {session_key(p, sid): turns for (p, sid), turns in EXPECTED_TURNS.items()}
    assert got == want


def test_fixture_resync_is_a_no_op(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    install_fixtures(hermetic_env["claude"], hermetic_env["codex"])
    gm(["sessions", "sync"], cwd=repo.root)
    again = gm(["sessions", "sync", "--format", "json"], cwd=repo.root).json()
    assert (again["unchanged"], again["new"], again["turnsAdded"]) == (12, 0, 0)
