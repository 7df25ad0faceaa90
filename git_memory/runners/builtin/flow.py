"""`git memory extract --runner builtin`: the whole batch, in process, with no model.

The builtin runner answers the same ExtractionTasks the agent gets, from the session index.
It reads every task of the window first, so a memory is proposed once however many sessions
show it (`window.plan_window`), then stages each task's facts: typed facts through the fixed
renderers (re-verified here before they may claim `typed-fact`) and stated rules
(`unverified`). Its adjudication skips exact duplicates of pool items or earlier drafts and
stores the rest. Nothing is sent anywhere, so no plan or approval is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from git_memory.contracts.adjudication import (
    Adjudication,
    AdjudicationBinding,
    AdjudicationResult,
)
from git_memory.contracts.extraction import (
    MAX_QUOTE_CHARS,
    MAX_QUOTES,
    CandidateDraftBatch,
    DraftCandidate,
    DraftQuote,
    DraftStatement,
    ExtractionBinding,
)
from git_memory.contracts.host_records import RecallRecord
from git_memory.runners.builtin import renderers
from git_memory.runners.builtin.renderers import BuiltinFact

if TYPE_CHECKING:
    from git_memory.extract.quotes import TurnSource
    from git_memory.runners.batch import BatchOutcome
    from git_memory.store.session import Workspace

TYPE_OF = {
    renderers.RENDERER_COMMAND_EXIT: "work_method",
    renderers.RENDERER_COMMAND_FIX: "work_method",
    renderers.RENDERER_USER_RULE: "work_fact",
}


def _known_keys(workspace: Workspace) -> set[str]:
    """Keys of the memory this worktree already has: approved entries and every candidate."""
    from git_memory.runners.builtin.window import memory_keys
    from git_memory.store.approved import list_approved_entries
    from git_memory.store.candidates import list_candidates

    texts = [row["body_text"] for row in list_approved_entries(workspace.db, workspace.owner)]
    texts += [
        str(c.payload.get("content", c.summary))
        for c in list_candidates(
            workspace.db,
            workspace.owner,
            statuses=("draft", "quarantined", "promoted", "discarded"),
            kind="entry",
        )
    ]
    return {key for text in texts for key in memory_keys(text.strip())}


def plan_facts(
    workspace: Workspace,
    loaded: list[tuple[dict[str, Any], RecallRecord]],
    tally: dict[str, int] | None = None,
) -> tuple[dict[str, list[BuiltinFact]], TurnSource]:
    """The facts of every task (by task id) of a window, each memory once, and the turns
    they were read from (staging finds the facts' quotes in them); `tally` receives the
    facts each session showed."""
    from git_memory.extract.quotes import read_turns
    from git_memory.extract.select import path_scrubber
    from git_memory.runners.builtin.window import plan_window

    source = read_turns(workspace, sorted({record.session_key for _, record in loaded}))
    found = source.turns
    sessions: dict[str, dict[str, Any]] = {}
    task_of_turn: dict[str, str] = {}
    for task, record in loaded:
        for key in (turn.turn_key for turn in record.turns):
            if key in found:
                sessions.setdefault(record.session_key, {})[key] = found[key]
                task_of_turn.setdefault(key, task["taskId"])
    ordered = [
        (key, sorted(turns.values(), key=lambda t: (t.started or "", t.ordinal)))
        for key, turns in sessions.items()
    ]
    scrub = path_scrubber(workspace.worktree.root)
    known = _known_keys(workspace)
    planned = plan_window(
        ordered, task_of_turn, known, scrub, programs=source.programs, tally=tally
    )
    return planned, source


def _evidence_of(task: dict[str, Any], record: RecallRecord) -> dict[str, str]:
    """Turn key → the evidence id of that turn in the task's chunk."""
    by_turn = {e["turnIndex"]: e["evidenceId"] for e in task["chunk"]["turnEvidence"]}
    return {t.turn_key: by_turn[t.turn_index] for t in record.turns}


def _evidence_ids(task: dict[str, Any], record: RecallRecord, fact: BuiltinFact) -> list[str]:
    evidence = _evidence_of(task, record)
    return sorted({evidence[key] for key in fact.turn_keys if key in evidence})


def _quotes(task: dict[str, Any], record: RecallRecord, fact: BuiltinFact) -> list[DraftQuote]:
    """The words backing a fact, each at the evidence id of its turn (at most MAX_QUOTES)."""
    evidence = _evidence_of(task, record)
    found = [
        DraftQuote(evidence_id=evidence[q.turn_key], part=q.part, text=q.text[:MAX_QUOTE_CHARS])
        for q in fact.quotes
        if q.turn_key in evidence and q.text.strip()
    ]
    return found[:MAX_QUOTES]


def extraction_answer(
    task: dict[str, Any], record: RecallRecord, facts: list[BuiltinFact]
) -> tuple[CandidateDraftBatch, dict[int, str]]:
    """The draft batch for one task, and the claim support of each candidate (by number)."""
    candidates, support = [], {}
    for number, fact in enumerate(facts, start=1):
        typed = fact.claim_support == "typed-fact" and renderers.verify_typed_fact(
            fact.renderer, fact.statement, fact.parameters
        )
        support[number] = "typed-fact" if typed else "unverified"
        candidates.append(
            DraftCandidate(
                content=fact.content,
                type=TYPE_OF[fact.renderer],
                priority=60 if typed else 50,
                confidence="high" if typed else "medium",
                scene=None,
                statements=[
                    DraftStatement(
                        statement_id="s1",
                        text=fact.statement,
                        evidence_ids=_evidence_ids(task, record, fact),
                        quotes=_quotes(task, record, fact) or None,
                    )
                ],
            )
        )
    batch = CandidateDraftBatch(
        task_id=task["taskId"],
        binding=ExtractionBinding.model_validate(task["binding"]),
        candidates=candidates,
    )
    return batch, support


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split())


def adjudication_answer(task: dict[str, Any]) -> AdjudicationResult:
    """Skip exact duplicates (normalized text) of pool items or earlier drafts; store the rest."""
    drafts = {draft["candidateId"] for draft in task["drafts"]}
    # Batch drafts show up in each other's recall; only existing items count as the pool.
    pool = {
        _normalized(item["summary"]): item["id"]
        for item in task["pool"]
        if item["id"] not in drafts
    }
    kept: dict[str, str] = {}
    decisions = []
    for draft in task["drafts"]:
        ref, text = draft["candidateId"], _normalized(draft["content"])
        target = pool.get(text) or kept.get(text)
        if target:
            decisions.append(
                Adjudication(draft_ref=ref, action="skip", target_ids=[target], merged_fields=None)
            )
        else:
            kept[text] = ref
            decisions.append(
                Adjudication(draft_ref=ref, action="store", target_ids=[], merged_fields=None)
            )
    return AdjudicationResult(
        task_id=task["taskId"],
        binding=AdjudicationBinding.model_validate(task["binding"]),
        adjudications=decisions,
    )


def _support_of(support: dict[int, str]) -> Callable[[int, str], str]:
    def claim_support(number: int, _statement_id: str) -> str:
        return support[number]

    return claim_support


def run_builtin(workspace: Workspace, tasks: list[dict[str, Any]], outcome: BatchOutcome) -> None:
    """Answer, stage and adjudicate `tasks` in process; fills the batch outcome."""
    from git_memory import output
    from git_memory.extract import artifacts

    home = workspace.worktree.state_home
    loaded = [(task, artifacts.load_recall(home, task["taskId"])) for task in tasks]
    tally: dict[str, int] = {}
    planned, source = plan_facts(workspace, loaded, tally)
    with output.progress("extract via builtin", len(tasks)) as bar:
        for task, record in loaded:
            facts = planned.get(task["taskId"], [])
            _answer_one(workspace, task, record, facts, outcome, source=source)
            bar.advance()
    outcome.session_notes += _barren(loaded, outcome, tally, source)


def _barren(
    loaded: list[tuple[dict[str, Any], RecallRecord]],
    outcome: BatchOutcome,
    tally: dict[str, int],
    source: TurnSource,
) -> list[tuple[str, str]]:
    """Why each session read in this run added no candidate."""
    tasks: dict[str, list[str]] = {}
    for task, record in loaded:
        tasks.setdefault(record.session_key, []).append(task["taskId"])
    notes = []
    for session, ids in tasks.items():
        if any(c.startswith(f"{t}-c") for t in ids for c in outcome.quarantined):
            continue
        if tally.get(session):
            notes.append((session, NOTHING_NEW))
        elif session in source.programs:
            notes.append((session, NOTHING_FROM_PROGRAM))
        else:
            notes.append((session, NOTHING_FOUND))
    return notes


NOTHING_NEW = "read; nothing new: what it shows is already approved or proposed"
NOTHING_FOUND = (
    "read; nothing to keep: no command with an observed result, no failure it fixed, "
    "no rule a person typed"
)
NOTHING_FROM_PROGRAM = (
    "read; nothing to keep: a program wrote its prompts (no rules taken from them) and it "
    "shows no command with an observed result"
)


def _answer_one(
    workspace: Workspace,
    task: dict[str, Any],
    record: RecallRecord,
    facts: list[BuiltinFact],
    outcome: BatchOutcome,
    *,
    source: TurnSource,
) -> None:
    from git_memory.extract.adjudicate import stage_adjudication
    from git_memory.extract.stage_drafts import stage_drafts

    batch, support = extraction_answer(task, record, facts)
    staged = stage_drafts(workspace, batch, claim_support=_support_of(support), turns=source)
    outcome.extracted.append(task["taskId"])
    adjudication = staged.adjudication_task
    if adjudication is None:
        return
    decided = stage_adjudication(workspace, adjudication_answer(adjudication.to_json()))
    outcome.adjudicated.append(adjudication.task_id)
    outcome.quarantined += [d.candidate_id for d in decided.decisions if d.status == "quarantined"]
