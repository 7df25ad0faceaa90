"""`git memory extract --runner builtin`: the whole batch, in process, with no model.

The builtin runner answers the same ExtractionTasks the agent gets, from the session index:
typed facts through the fixed renderers (re-verified by the host before they may claim
`typed-fact`) and quoted user rules (`unverified`). Its adjudication skips exact duplicates of
pool items or earlier drafts and stores the rest. Nothing is sent anywhere, so no plan or
approval is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from git_memory.contracts.adjudication import AdjudicationResult
from git_memory.contracts.extraction import MAX_CANDIDATES_PER_BATCH, CandidateDraftBatch
from git_memory.runners import builtin
from git_memory.runners.builtin import BuiltinFact

TYPE_OF = {
    builtin.RENDERER_COMMAND_EXIT: "work_method",
    builtin.RENDERER_COMMIT_PATHS: "work_fact",
    builtin.RENDERER_USER_RULE: "work_fact",
}


def _records(workspace: Any, record: dict[str, Any]) -> list[Any]:
    """The chunk's turns as the session index holds them, in chunk order."""
    from git_memory.sessions.query import select_turns

    wanted = [turn["turnKey"] for turn in record["turns"]]
    found = {
        r.turn_key: r
        for r in select_turns(
            workspace.worktree,
            session_keys=[record["sessionKey"]],
            closures=("hard-sealed", "quiescent", "open"),
        )
    }
    return [found[key] for key in wanted if key in found]


def _facts(workspace: Any, records: list[Any]) -> list[BuiltinFact]:
    from git_memory.repo.commits import changed_paths

    repository = workspace.worktree.repository
    typed = builtin.command_facts(records) + builtin.commit_facts(
        records, lambda commit: changed_paths(repository, commit)
    )
    return (typed + builtin.user_rules(records))[:MAX_CANDIDATES_PER_BATCH]


def _evidence_ids(task: dict[str, Any], record: dict[str, Any], fact: BuiltinFact) -> list[str]:
    by_turn = {e["turnIndex"]: e["evidenceId"] for e in task["chunk"]["turnEvidence"]}
    index_of = {t["turnKey"]: t["turnIndex"] for t in record["turns"]}
    ids = [by_turn[index_of[key]] for key in fact.turn_keys if key in index_of]
    values = {value for _, value in fact.parameters}
    for item in task["evidenceCatalog"]:
        kind, _, shown = item["display"].partition(" ")
        if kind in ("commit", "path") and shown.split(" @ ")[0] in values:
            ids.append(item["evidenceId"])
    return sorted(set(ids))


def extraction_answer(
    workspace: Any, task: dict[str, Any]
) -> tuple[CandidateDraftBatch, dict[int, str]]:
    """The draft batch for one task, and the claim support of each candidate (by number)."""
    from git_memory.extract import artifacts

    record = artifacts.load_recall(workspace.worktree.state_home, task["taskId"])
    candidates, support = [], {}
    for number, fact in enumerate(_facts(workspace, _records(workspace, record)), start=1):
        typed = fact.claim_support == "typed-fact" and builtin.verify_typed_fact(
            fact.renderer, fact.text, fact.parameters
        )
        support[number] = "typed-fact" if typed else "unverified"
        candidates.append(
            {
                "content": fact.text,
                "type": TYPE_OF[fact.renderer],
                "priority": 60 if typed else 50,
                "confidence": "high" if typed else "medium",
                "scene": dict(fact.parameters).get("kind"),
                "statements": [
                    {
                        "statementId": "s1",
                        "text": fact.text,
                        "evidenceIds": _evidence_ids(task, record, fact),
                    }
                ],
            }
        )
    batch = CandidateDraftBatch.model_validate(
        {"taskId": task["taskId"], "binding": task["binding"], "candidates": candidates}
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
                {"draftRef": ref, "action": "skip", "targetIds": [target], "mergedFields": None}
            )
        else:
            kept[text] = ref
            decisions.append(
                {"draftRef": ref, "action": "store", "targetIds": [], "mergedFields": None}
            )
    return AdjudicationResult.model_validate(
        {"taskId": task["taskId"], "binding": task["binding"], "adjudications": decisions}
    )


def _support_of(support: dict[int, str]) -> Callable[[int, str], str]:
    def claim_support(number: int, _statement_id: str) -> str:
        return support[number]

    return claim_support


def run_builtin(workspace: Any, tasks: list[dict[str, Any]], outcome: Any) -> None:
    """Answer, stage and adjudicate `tasks` in process; fills the batch outcome."""
    from git_memory import output

    with output.progress("extract via builtin", len(tasks)) as bar:
        for task in tasks:
            _answer_one(workspace, task, outcome)
            bar.advance()


def _answer_one(workspace: Any, task: dict[str, Any], outcome: Any) -> None:
    from git_memory.extract.adjudicate import stage_adjudication
    from git_memory.extract.stage_drafts import stage_drafts

    batch, support = extraction_answer(workspace, task)
    staged = stage_drafts(workspace, batch, claim_support=_support_of(support))
    outcome.extracted.append(task["taskId"])
    adjudication = staged.get("adjudicationTask")
    if adjudication is None:
        return
    decided = stage_adjudication(workspace, adjudication_answer(adjudication))
    outcome.adjudicated.append(adjudication["taskId"])
    outcome.quarantined += [
        d["candidateId"] for d in decided["decisions"] if d["status"] == "quarantined"
    ]
