"""`git memory extract --runner builtin`: the in-process runner that needs no model.

The builtin runner answers the same ExtractionTasks the agent gets, from the session index.
It reads every task of the window first, so a memory is proposed once however many sessions
show it (`window.plan_window`), then yields each task's facts: typed facts through the fixed
renderers (re-verified here before they may claim `typed-fact`) and stated rules
(`unverified`). Its adjudication skips exact duplicates of pool items or earlier drafts and
stores the rest. Nothing is sent anywhere, so no plan or approval is needed; the extract
pipeline (`extract/pipeline.py`) stages every answer.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from git_memory import output
from git_memory.contracts.adjudication import (
    Adjudication,
    AdjudicationResult,
    AdjudicationTask,
)
from git_memory.contracts.extraction import (
    MAX_QUOTE_CHARS,
    MAX_QUOTES,
    CandidateDraftBatch,
    DraftCandidate,
    DraftQuote,
    DraftStatement,
    ExtractionTask,
)
from git_memory.contracts.host_records import RecallRecord
from git_memory.extract import artifacts
from git_memory.extract.builtin import renderers
from git_memory.extract.builtin.corroboration import corroboration_of, strengthened
from git_memory.extract.builtin.people import person_of
from git_memory.extract.builtin.renderers import BuiltinFact
from git_memory.extract.builtin.window import WindowFacts, find_window, memory_keys
from git_memory.extract.quotes import TurnSource
from git_memory.extract.select import SessionSelection, path_scrubber
from git_memory.extract.stage_drafts import SupportOf
from git_memory.store import offers
from git_memory.store.approved import list_approved_entries
from git_memory.store.candidates import list_candidates
from git_memory.store.offers import Corroboration
from git_memory.store.session import Workspace

TYPE_OF = {
    renderers.RENDERER_COMMAND_EXIT: "work_method",
    renderers.RENDERER_COMMAND_FIX: "work_method",
    renderers.RENDERER_USER_RULE: "work_fact",
}

NOTHING_NEW = "read; nothing new: what it shows is already approved or proposed"
NOTHING_FOUND = (
    "read; nothing to keep: no command with an observed result, no failure it fixed, "
    "no rule a person typed"
)
NOTHING_FROM_PROGRAM = (
    "read; nothing to keep: a program wrote its prompts (no rules taken from them) and it "
    "shows no command with an observed result"
)


@dataclass(frozen=True)
class TaskTurns:
    """One task with what its host record says of the chunk: the session and the turn key
    of each turn index, in chunk order."""

    task: ExtractionTask
    session_key: str
    turns: tuple[tuple[str, int], ...]
    record: RecallRecord

    @classmethod
    def of(cls, record: RecallRecord) -> TaskTurns:
        """The task of a host record."""
        turns = tuple((t.turn_key, t.turn_index) for t in record.turns)
        return cls(record.task, record.session_key, turns, record)

    def evidence(self) -> dict[str, str]:
        """Turn key → the evidence id of that turn in the task's chunk."""
        by_turn = {e.turn_index: e.evidence_id for e in self.task.chunk.turn_evidence}
        return {key: by_turn[index] for key, index in self.turns}


@dataclass(frozen=True)
class BuiltinDrafts:
    """The builtin's answer to one extraction task: the draft batch, the claim support of
    each candidate (by number) and the turns its quotes were read from."""

    batch: CandidateDraftBatch
    claim_support: SupportOf
    turns: TurnSource
    record: RecallRecord
    # What corroborates each candidate (by number), kept with it once it is staged.
    corroborations: Mapping[int, Corroboration] = field(default_factory=dict)


def _known_texts(workspace: Workspace) -> list[str]:
    """The texts of the memory this worktree already has: approved entries and every
    candidate."""
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
    return [text.strip() for text in texts]


def find_facts(
    workspace: Workspace, sessions: Sequence[SessionSelection], programs: Collection[str]
) -> tuple[WindowFacts, dict[str, int]]:
    """The memories a window's sessions show that nothing holds yet, and the facts each
    session showed (its tally). A memory a candidate still in review holds adds this window's
    sessions and people to that candidate instead."""
    held = offers.held(workspace.db, workspace.owner)
    tally: dict[str, int] = {}
    found = read_facts(workspace, sessions, programs, held, tally)
    for fact in found.again:
        candidate_id, current = held[fact.key]
        more = strengthened(current, fact)
        if more is not None:
            offers.set_support(workspace.db, candidate_id, more)
    return found, tally


def read_facts(
    workspace: Workspace,
    sessions: Sequence[SessionSelection],
    programs: Collection[str],
    held: Mapping[str, object],
    tally: dict[str, int] | None = None,
) -> WindowFacts:
    """What `find_facts` finds, changing nothing: `held` are the keys of the candidates
    still waiting for review (`offers.held`)."""
    ordered = [
        (s.session_key, sorted(s.records, key=lambda t: (t.started or "", t.ordinal)))
        for s in sessions
    ]
    root, home = str(workspace.worktree.root), str(Path.home())
    people = {key: person_of(records, root, home) for key, records in ordered}
    known = _known_texts(workspace)
    return find_window(
        ordered,
        {key for text in known for key in memory_keys(text)} | set(held),
        path_scrubber(workspace.worktree.root),
        programs=programs,
        people=people,
        held=held,
        known_texts=known,
        tally=tally,
    )


def _evidence_ids(evidence: dict[str, str], fact: BuiltinFact) -> list[str]:
    return sorted({evidence[key] for key in fact.turn_keys if key in evidence})


def _quotes(evidence: dict[str, str], fact: BuiltinFact) -> list[DraftQuote]:
    """The words backing a fact, each at the evidence id of its turn (at most MAX_QUOTES)."""
    found = [
        DraftQuote(evidence_id=evidence[q.turn_key], part=q.part, text=q.text[:MAX_QUOTE_CHARS])
        for q in fact.quotes
        if q.turn_key in evidence and q.text.strip()
    ]
    return found[:MAX_QUOTES]


def extraction_answer(
    item: TaskTurns, facts: list[BuiltinFact]
) -> tuple[CandidateDraftBatch, dict[int, str]]:
    """The draft batch for one task, and the claim support of each candidate (by number)."""
    evidence = item.evidence()
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
                        evidence_ids=_evidence_ids(evidence, fact),
                        quotes=_quotes(evidence, fact) or None,
                    )
                ],
            )
        )
    batch = CandidateDraftBatch(
        task_id=item.task.task_id, binding=item.task.binding, candidates=candidates
    )
    return batch, support


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split())


def adjudication_answer(task: AdjudicationTask) -> AdjudicationResult:
    """Skip exact duplicates (normalized text) of pool items or earlier drafts; store the rest."""
    drafts = {draft.candidate_id for draft in task.drafts}
    # Batch drafts show up in each other's recall; only existing items count as the pool.
    pool = {_normalized(item.summary): item.id for item in task.pool if item.id not in drafts}
    kept: dict[str, str] = {}
    decisions = []
    for draft in task.drafts:
        ref, text = draft.candidate_id, _normalized(draft.content)
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
        task_id=task.task_id,
        binding=task.binding,
        adjudications=decisions,
    )


def _support_of(support: dict[int, str]) -> SupportOf:
    def claim_support(number: int, _statement_id: str) -> str:
        return support[number]

    return claim_support


@dataclass
class BuiltinExtractor:
    """The builtin `Runner` of extraction tasks: answers a window's tasks in process with the
    facts planned for each (by task id).

    `records` are the private records of the tasks (by task id) and `source` the turns of
    the window, both as this run planned and read them."""

    workspace: Workspace
    records: Mapping[str, RecallRecord]
    source: TurnSource
    planned: Mapping[str, list[BuiltinFact]]

    def answer(self, tasks: Sequence[ExtractionTask]) -> Iterator[BuiltinDrafts]:
        """Yield each task's drafts."""
        with output.progress("extract via builtin", len(tasks)) as bar:
            for task in tasks:
                item = TaskTurns.of(self._record(task))
                facts = list(self.planned.get(task.task_id, []))
                batch, support = extraction_answer(item, facts)
                found = {n: corroboration_of(fact) for n, fact in enumerate(facts, start=1)}
                yield BuiltinDrafts(batch, _support_of(support), self.source, item.record, found)
                bar.advance()

    def _record(self, task: ExtractionTask) -> RecallRecord:
        """The task's host record: as planned in this run, else as kept in the state home."""
        found = self.records.get(task.task_id)
        if found is not None:
            return found
        return artifacts.load_recall(self.workspace.worktree.state_home, task.task_id)


def session_notes(
    sessions: Sequence[str],
    tally: Mapping[str, int],
    added: Collection[str],
    programs: Collection[str],
) -> list[tuple[str, str]]:
    """Why each session read (`sessions`) added no candidate (`added`: the sessions whose
    tasks the run's candidates came from)."""
    notes = []
    for session in sessions:
        if session in added:
            continue
        if tally.get(session):
            notes.append((session, NOTHING_NEW))
        elif session in programs:
            notes.append((session, NOTHING_FROM_PROGRAM))
        else:
            notes.append((session, NOTHING_FOUND))
    return notes


class BuiltinAdjudicator:
    """The builtin `Runner` of adjudication tasks (see `adjudication_answer`)."""

    def answer(self, tasks: Sequence[AdjudicationTask]) -> Iterator[AdjudicationResult]:
        """One result per task, decided in process."""
        for task in tasks:
            yield adjudication_answer(task)
