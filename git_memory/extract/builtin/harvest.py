"""Harvest: each item of an agent's own memory store becomes a quarantined candidate.

An item travels the path a drafted transcript memory does: a DraftCandidate validated by its
contract, one statement citing the store item (the store, the item's key and its content
digest; never a path under the home directory or a session id) and the transcript turns
that wrote it when the sessions index saw them (agent_memory/origin.py), assessed by the host
(`unverified` until a person confirms it in review), then the promotion lint gate. What an
agent wrote is typed the way transcript memories are: a command or a trap is a work method,
a rule or a fact a work fact. An item whose substance approved memory already holds is not
offered; an item harvested once is offered again only when its text changed, as an update of
the entry it became.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from git_memory.agent_memory.items import MemoryItem
from git_memory.agent_memory.origin import WritingTurn, writing_turns
from git_memory.agent_memory.read import UnreadFile, read_store
from git_memory.agent_memory.stores import FoundStore, StoreSpec, locate
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import DraftCandidate, DraftStatement
from git_memory.contracts.host_records import CatalogItem
from git_memory.extract.assess import assess_statements
from git_memory.extract.builtin.window import memory_keys
from git_memory.extract.private_text import without_homes
from git_memory.store import agent_memory as harvest_state
from git_memory.store import candidates as store
from git_memory.store.approved import list_approved_entries
from git_memory.store.session import Workspace

LIMITATION = "agent-memory: written by an agent; not checked against the repository"
_COMMAND = re.compile(r"`[^`\n]+`")
_TRAP = re.compile(
    r"\b(?:fails?|failed|failing|error|breaks?|broke|instead|hangs?|crash(?:es)?)\b",
    re.IGNORECASE,
)
_RULE = re.compile(
    r"^(?:always|never|don'?t|do not|must|prefer|avoid|use|keep|only|ask|make sure)\b",
    re.IGNORECASE,
)
# How review names a cited turn, by its relation to the item (agent_memory/origin.py).
SAYS = {
    "wrote-memory": "the turn that wrote it",
    "learned-in": "the first turn of the session it was learned in",
}
TYPE_OF = {
    "command": "work_method",
    "trap": "work_method",
    "rule": "work_fact",
    "fact": "work_fact",
}


@dataclass
class HarvestOutcome:
    """What a harvest found, offered and left alone."""

    stores: list[FoundStore] = field(default_factory=list)
    offered: list[tuple[str, MemoryItem, str, str]] = field(default_factory=list)
    unchanged: int = 0
    already_approved: int = 0
    diagnostics: list[UnreadFile] = field(default_factory=list)


def kind_of(text: str) -> str:
    """command, trap, rule or fact: how the builtin extractor would file the same words."""
    if _COMMAND.search(text) and _TRAP.search(text):
        return "trap"
    if _RULE.match(text.lstrip("*_ ")):
        return "rule"
    return "command" if _COMMAND.search(text) else "fact"


def item_kind(item: MemoryItem) -> str:
    """What the store files the item as, else what its words make it."""
    return item.kind or kind_of(item.text)


def harvest(workspace: Workspace, specs: list[StoreSpec]) -> HarvestOutcome:
    """Read every enabled store of this worktree and stage what is new or changed."""
    worktree = workspace.worktree
    outcome = HarvestOutcome(stores=locate(worktree, specs))
    prior = harvest_state.harvested_items(workspace.db, workspace.owner)
    approved = _approved(workspace)
    items: list[MemoryItem] = []
    for found in outcome.stores:
        read, diagnostics = read_store(found, worktree.root)
        outcome.diagnostics += diagnostics
        items += read
    writers = writing_turns(worktree, outcome.stores, items)
    for item in items:
        turns = writers.get((item.store, item.key), [])
        _one(workspace, outcome, item, prior.get((item.store, item.key)), approved, turns=turns)
    if outcome.offered:
        store.bump_candidate_generation(workspace.db, workspace.owner)
    return outcome


def _approved(workspace: Workspace) -> list[tuple[str, str]]:
    """(entry id, normalized body) of every approved entry."""
    rows = list_approved_entries(workspace.db, workspace.owner)
    return [(row["entry_id"], _normalized(row["body_text"])) for row in rows]


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split())


def _one(
    workspace: Workspace,
    outcome: HarvestOutcome,
    item: MemoryItem,
    previous: harvest_state.HarvestedItem | None,
    approved: list[tuple[str, str]],
    *,
    turns: list[WritingTurn],
) -> None:
    if previous is not None and previous.content_digest == item.digest:
        outcome.unchanged += 1
        return
    target = _entry_of(workspace, previous, approved)
    # An edited item is compared with approved memory other than the entry it became.
    others = [body for entry, body in approved if entry != target]
    keys = memory_keys(item.content.strip())
    if any(keys & memory_keys(body) or body == _normalized(item.content) for body in others):
        outcome.already_approved += 1
        _remember(workspace, item, None)
        return
    _supersede(workspace, previous)
    candidate_id = f"harvest-{digest([item.store, item.key, item.digest])[:16]}-c1"
    existing = store.get_candidate(workspace.db, candidate_id)
    if existing is None:
        _stage(workspace, candidate_id, item, target, turns)
    _remember(workspace, item, candidate_id)
    if existing is None or existing.status == "quarantined":
        outcome.offered.append(
            (candidate_id, item, item_kind(item), "update" if target else "store")
        )


def _supersede(workspace: Workspace, previous: harvest_state.HarvestedItem | None) -> None:
    """The earlier text of an edited item leaves the review queue when nobody decided on it."""
    if previous is None or previous.candidate_id is None:
        return
    earlier = store.get_candidate(workspace.db, previous.candidate_id)
    if earlier is not None and earlier.status == "quarantined":
        store.discard(workspace.db, earlier.candidate_id, expected_revision=earlier.revision)


def _remember(workspace: Workspace, item: MemoryItem, candidate_id: str | None) -> None:
    harvest_state.record_harvest(
        workspace.db,
        workspace.owner,
        store=item.store,
        item_key=item.key,
        digest=item.digest,
        candidate_id=candidate_id,
    )


def _entry_of(
    workspace: Workspace,
    previous: harvest_state.HarvestedItem | None,
    approved: list[tuple[str, str]],
) -> str | None:
    """The approved entry the item's earlier text became (its promoted candidate's content)."""
    if previous is None or previous.candidate_id is None:
        return None
    earlier = store.get_candidate(workspace.db, previous.candidate_id)
    if earlier is None or earlier.status != "promoted":
        return None
    text = _normalized(str(earlier.payload.get("content", "")))
    return next((entry for entry, body in approved if body == text), None)


def _stage(
    workspace: Workspace,
    candidate_id: str,
    item: MemoryItem,
    target: str | None,
    turns: list[WritingTurn],
) -> None:
    pointer = {"kind": "memory", "store": item.store, "item": item.key, "digest": item.digest}
    evidence_id = f"ev-1-{digest(pointer)[:12]}"
    evidence = CatalogItem(
        evidence_id=evidence_id,
        pointer=pointer,
        pointer_digest=digest(pointer),
        strength="contextual",
        relations=("states",),
        limitations=(LIMITATION,),
    )
    written = _turn_evidence(turns)
    catalog = {evidence_id: evidence, **{e.evidence_id: e for e, _ in written}}
    text = item.content.strip()
    draft = without_homes(
        DraftCandidate(
            content=text,
            type=TYPE_OF[item_kind(item)],
            priority=50,
            confidence="medium",
            scene=None,
            statements=[DraftStatement(statement_id="s1", text=text, evidence_ids=list(catalog))],
        )
    )
    text = draft.content
    (assessment,) = assess_statements(draft.statements, catalog)
    payload = {
        **draft.to_json(),
        "candidateKind": "entry",
        "action": "update" if target else "store",
        "targetEntryIds": [target] if target else [],
        "source": {"store": item.store, "item": item.key, "digest": item.digest},
    }
    store.insert_candidate(
        workspace.db,
        candidate_id=candidate_id,
        owner=workspace.owner,
        kind="entry",
        payload=payload,
        content=text,
        status="quarantined",
    )
    detail = {
        **pointer,
        "display": f"{item.store} {item.key} (sha256 {item.digest[:12]})",
        "excerpt": item.text.strip()[:480],
        **_person_quote(item),
    }
    refs = [
        store.EvidenceRef(
            statement_id="s1",
            evidence_id=evidence_id,
            pointer_digest=evidence.pointer_digest,
            relation="states",
            strength=evidence.strength,
            limitations=[LIMITATION],
            detail=detail,
        )
    ]
    for cited, turn in written:
        refs.append(
            store.EvidenceRef(
                statement_id="s1",
                evidence_id=cited.evidence_id,
                pointer_digest=cited.pointer_digest,
                session_key=turn.session_key,
                turn_key=turn.turn_key,
                revision=turn.revision,
                relation=cited.relations[0],
                strength=cited.strength,
                limitations=list(cited.limitations),
                detail={
                    **cited.pointer,
                    "display": f"{SAYS[turn.relation]} ({turn.started or 'time unknown'})",
                    "started": turn.started,
                    "excerpt": turn.prompt.strip()[:480],
                },
            )
        )
    store.add_evidence_refs(workspace.db, candidate_id, refs)
    store.set_assessment(workspace.db, candidate_id, assessment)


def _person_quote(item: MemoryItem) -> dict[str, list[dict[str, str]]]:
    """The words the store quotes as the person's, shown in review as typed by a person."""
    said = (item.said or "").strip()
    return {"quotes": [{"origin": "person", "text": said[:480]}]} if said else {}


def _turn_evidence(turns: list[WritingTurn]) -> list[tuple[CatalogItem, WritingTurn]]:
    """A catalog item for each transcript turn that wrote the item (sessions index)."""
    found = []
    for number, turn in enumerate(turns, start=2):
        pointer = {"kind": "turn", "turnKey": turn.turn_key}
        item = CatalogItem(
            evidence_id=f"ev-{number}-{digest(pointer)[:12]}",
            pointer=pointer,
            pointer_digest=digest(pointer),
            strength="direct",
            relations=(turn.relation,),
            limitations=("source-local-only",),
        )
        found.append((item, turn))
    return found
