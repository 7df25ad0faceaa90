"""Harvest: each item of an agent's own memory store becomes a quarantined candidate.

An item travels the path a drafted transcript memory does: a DraftCandidate validated by its
contract, one statement citing the store item (the store, the item's key and its content
digest; never a path under the home directory or a session id), the transcript turns that
wrote it when the sessions index saw them (agent_memory/origin.py) and the files of the
repository it names, assessed by the host (`unverified` until a person confirms it in
review), then the promotion lint gate. A promoted item thus cites those files, and
`git memory verify` checks them as it checks an extracted memory's. An item is typed as
its store files it (`item_kind`), else the way the builtin extractor types what it finds: a
trap or a command only when its inline code holds a project command or a set-up step as the
one command model reads it (`command_line`), a rule by its opening words, else a fact; a
command or a trap is a work method, a rule or a fact a work fact. Which items are offered
is `harvest_triage`'s decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from git_memory.agent_memory.items import MemoryItem
from git_memory.agent_memory.origin import WritingTurn, writing_turns
from git_memory.agent_memory.read import UnreadFile, read_store
from git_memory.agent_memory.stores import FoundStore, StoreSpec, locate
from git_memory.command_line.line import parse
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import DraftCandidate, DraftStatement
from git_memory.contracts.host_records import CatalogItem
from git_memory.extract.assess import assess_statements
from git_memory.extract.builtin import harvest_triage as triage
from git_memory.extract.private_text import without_homes
from git_memory.repo.evidence import RepositoryFacts
from git_memory.store import agent_memory as harvest_state
from git_memory.store import candidates as store
from git_memory.store.session import Workspace

LIMITATION = "agent-memory: written by an agent; not checked against the repository"
PATH_LIMITATION = "path-named: the item names this tracked file; what it says of it is unchecked"
_CODE = re.compile(r"`([^`\n]+)`")
# A file or folder of the repository as a note names it: `src/app/parser.py`, `Makefile`,
# docs/guide.md (with or without inline code; a trailing `/`, `.`, `,` or `:` is not part).
_PATH = re.compile(r"(?<![\w./~-])(?:\./)?([\w-][\w.-]*(?:/[\w.-]+)*)/?")
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
    """command, trap, rule or fact: how the builtin extractor would file the same words.

    Inline code counts as a command only when the extractor's command model reads a project
    command (a test, build, lint… run) or a set-up step (`make migrate`, `bun install`) in
    it, so a file path, an identifier or a shell tool in backticks leaves a fact a fact."""
    command = any(_is_command(code) for code in _CODE.findall(text))
    if command and _TRAP.search(text):
        return "trap"
    if _RULE.match(text.lstrip("*_ ")):
        return "rule"
    return "command" if command else "fact"


def _is_command(code: str) -> bool:
    """A project command, or a set-up step of a tool and what it sets up (`uv sync`): a lone
    word in backticks that is no project command is a name (`.env`, `virtualenv`)."""
    return any(
        segment.kind is not None or (segment.setup and len(segment.words) > 1)
        for segment in parse(code).commands
    )


def named_paths(text: str, tracked: frozenset[str]) -> list[str]:
    """The files and folders of the repository (tracked by git) the text names, in order."""
    found: list[str] = []
    for match in _PATH.finditer(text):
        path = match.group(1).rstrip(".")
        if path in tracked and path not in found and ("/" in path or "." in path[1:]):
            found.append(path)
    return found


def item_kind(item: MemoryItem) -> str:
    """What the store files the item as, else what its words make it."""
    return item.kind or kind_of(item.text)


def harvest(workspace: Workspace, specs: list[StoreSpec]) -> HarvestOutcome:
    """Read every enabled store of this worktree and stage what is new or changed."""
    worktree = workspace.worktree
    outcome = HarvestOutcome(stores=locate(worktree, specs))
    prior = harvest_state.harvested_items(workspace.db, workspace.owner)
    approved = triage.approved_bodies(workspace)
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


def _one(
    workspace: Workspace,
    outcome: HarvestOutcome,
    item: MemoryItem,
    previous: harvest_state.HarvestedItem | None,
    approved: triage.Approved,
    *,
    turns: list[WritingTurn],
) -> None:
    decision, target = triage.decide(workspace, item, previous, approved)
    if decision == "unchanged":
        outcome.unchanged += 1
        return
    if decision == "approved":
        outcome.already_approved += 1
        _remember(workspace, item, None)
        return
    _supersede(workspace, previous)
    candidate_id = triage.candidate_id(item)
    _remember(workspace, item, candidate_id)
    if decision == "decided":  # its text came back to one a person already decided on
        outcome.unchanged += 1
        return
    if store.get_candidate(workspace.db, candidate_id) is None:
        _stage(workspace, candidate_id, item, target, turns)
    outcome.offered.append((candidate_id, item, item_kind(item), "update" if target else "store"))


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
    text = item.content.strip()
    named = _path_evidence(named_paths(text, tracked_paths(workspace)), first=len(written) + 2)
    catalog = {
        evidence_id: evidence,
        **{e.evidence_id: e for e, _ in written},
        **{e.evidence_id: e for e in named},
    }
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
    refs += [_path_ref(cited) for cited in named]
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


def tracked_paths(workspace: Workspace) -> frozenset[str]:
    """Every path git tracks in this worktree, and every folder that holds one."""
    return RepositoryFacts(workspace.worktree.repository).tracked


def _path_evidence(paths: list[str], *, first: int) -> list[CatalogItem]:
    """A catalog item for each repository file the item names (numbered from `first`)."""
    found = []
    for number, path in enumerate(paths, start=first):
        pointer = {"kind": "path", "path": path}
        found.append(
            CatalogItem(
                evidence_id=f"ev-{number}-{digest(pointer)[:12]}",
                pointer=pointer,
                pointer_digest=digest(pointer),
                strength="contextual",
                relations=("named-in-item",),
                limitations=(PATH_LIMITATION,),
            )
        )
    return found


def _path_ref(cited: CatalogItem) -> store.EvidenceRef:
    path = str(cited.pointer["path"])
    return store.EvidenceRef(
        statement_id="s1",
        evidence_id=cited.evidence_id,
        pointer_digest=cited.pointer_digest,
        relation=cited.relations[0],
        strength=cited.strength,
        limitations=list(cited.limitations),
        detail={"kind": "path", "path": path, "display": f"path {path} (tracked by git)"},
    )
