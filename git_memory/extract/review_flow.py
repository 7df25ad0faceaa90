"""The review queue, and the fast interactive review a human does at a terminal.

Review friction is what kills memory features: typed facts (checked by the host) are shown
together, each with the command as run and its observed result line, and confirmed with one
key; each other statement is shown beside its evidence and the quoted words that back it
(typed by a person, a pasted document, a program's prompt, the agent's own words, a tool's
output, with the turn's date) and takes one key; one that no person's words back says so.
Confirming builds the PrepareRequest — its digests are the confirmation — so the session
ends with a promotion plan ready to approve.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from git_memory.extract.review_items import review_item
from git_memory.sessions.origin import ORIGIN_WORDS
from git_memory.store.session import Workspace

if TYPE_CHECKING:
    from git_memory.store.candidates import Candidate

STORE_KIND = {"entry": "entry", "skill": "skill", "consolidation": "consolidation-patch"}
MAX_ITEMS = 200


def queue(workspace: Workspace, kind: str | None) -> list[dict[str, Any]]:
    """Quarantined candidates of `kind` (all kinds when None), oldest first."""
    from git_memory.store.candidates import list_candidates

    found = list_candidates(
        workspace.db,
        workspace.owner,
        statuses=("quarantined",),
        kind=STORE_KIND[kind] if kind else None,
        limit=MAX_ITEMS,
    )
    from git_memory.extract.skill_stage import check_review

    if kind is None:
        # Reviewing everything must not be blocked by one skill whose memory context moved:
        # it is left out here, and `review --kind skill` names it (GM_BINDING_DRIFT).
        found = [c for c in found if c.kind != "skill" or _skill_current(workspace, c)]
    check_review(workspace, found)  # a skill whose memory context moved: GM_BINDING_DRIFT
    return [review_item(workspace.db, candidate) for candidate in found]


def _skill_current(workspace: Workspace, candidate: Candidate) -> bool:
    from git_memory.errors import GitMemoryError
    from git_memory.extract.skill_stage import check_review

    try:
        check_review(workspace, [candidate])
    except GitMemoryError:
        return False
    return True


def is_typed_fact(item: dict[str, Any]) -> bool:
    """Every statement of the item was produced by a fixed typed-fact renderer."""
    return bool(item["statements"]) and all(
        s["claimSupport"] == "typed-fact" for s in item["statements"]
    )


def bulk_confirmable(item: dict[str, Any]) -> bool:
    """A typed fact whose every statement shows the observed run it rests on (the command as
    run, from the tool call): only these may be confirmed together. Everything else, and a
    statement only the agent's words back, is decided on its own."""
    return is_typed_fact(item) and all(
        "tool" in (s.get("origins") or []) for s in item["statements"]
    )


def support_warning(statement: dict[str, Any]) -> str:
    """A warning when no person's words back an unverified statement ("" otherwise)."""
    origins = statement.get("origins")
    if statement["claimSupport"] == "typed-fact" or (origins and "person" in origins):
        return ""
    if not origins:
        return "no quoted words back this statement"
    named = ", ".join(ORIGIN_WORDS[o] for o in origins)
    return f"no person stated this: only {named}"


def quote_lines(evidence: dict[str, Any], indent: str) -> list[str]:
    """The quoted words of one evidence item, each with its origin and date."""
    lines = []
    for quote in evidence.get("quotes") or []:
        when = f", {quote['at'][:10]}" if quote.get("at") else ""
        lines.append(f"{indent}[{ORIGIN_WORDS[quote['origin']]}{when}] {quote['text']}")
    return lines


def prepare_document(items: list[dict[str, Any]], kind: str = "entry") -> dict[str, Any]:
    """The PrepareRequest that confirms every statement of `items` as reviewed."""
    return {
        "format": "git-memory-prepare-request@v1",
        "kind": kind,
        "candidates": [
            {
                "candidateId": item["candidateId"],
                "expectedRevision": item["revision"],
                "statements": [
                    {
                        "statementId": s["statementId"],
                        "statementTextDigest": s["statementTextDigest"],
                        "citationsDigest": s["citationsDigest"],
                    }
                    for s in item["statements"]
                ],
                **({"scope": item[WIDENED]} if WIDENED in item else {}),
            }
            for item in items
        ],
    }


@dataclass
class Decisions:
    """What the human decided in one session."""

    confirmed: list[dict[str, Any]] = field(default_factory=list)
    discarded: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0


Ask = Callable[[str, str, str], str]
# The item key the terminal review sets when the human widens a scoped entry.
WIDENED = "scopeChosen"
Say = Callable[[str], None]


def held_by_open_plans(workspace: Workspace) -> dict[str, str]:
    """Candidate id → the open promotion plan (not yet applied or voided) that holds it."""
    from git_memory.store.journal import get_plan, plan_ids

    held: dict[str, str] = {}
    for plan_id in plan_ids(workspace.db, workspace.owner):
        record = get_plan(workspace.db, plan_id)
        for candidate_id in record.candidate_ids if record else []:
            held[candidate_id] = plan_id
    return held


def interactive(items: list[dict[str, Any]], ask: Ask, say: Say) -> Decisions:
    """Typed facts in one batch (or one by one on request), then each other candidate
    statement by statement; every item is shown beside its evidence."""
    decisions = Decisions()
    typed = [item for item in items if bulk_confirmable(item)]
    rest = [item for item in items if not bulk_confirmable(item)]
    if typed:
        say(f"{len(typed)} typed fact(s), each shown with the run it was observed in:")
        for item in typed:
            say(f"  - {item['content'].strip()}")
            _say_evidence(item, say, "      ")
        answer = ask("Typed facts: confirm (a)ll, decide (o)ne by one, or (s)kip them?", "aos", "a")
        if answer == "a":
            decisions.confirmed += typed
        elif answer == "o":
            rest = typed + rest
        else:
            decisions.skipped += len(typed)
    for position, item in enumerate(rest, start=1):
        verdict = _one_item(item, position, len(rest), ask, say)
        if verdict == "q":
            decisions.skipped += len(rest) - position + 1
            break
        if verdict == "c":
            decisions.confirmed.append(item)
        elif verdict == "d":
            decisions.discarded.append(item)
        else:
            decisions.skipped += 1
    return decisions


def _say_evidence(item: dict[str, Any], say: Say, indent: str) -> None:
    seen: set[str] = set()
    for statement in item["statements"]:
        for evidence in statement["evidence"]:
            if evidence["evidenceId"] in seen:
                continue
            seen.add(evidence["evidenceId"])
            for line in quote_lines(evidence, indent) or [_evidence_line(evidence, indent)]:
                say(line)


def _evidence_line(evidence: dict[str, Any], indent: str) -> str:
    excerpt = f" — {evidence['excerpt']}" if evidence["excerpt"] else ""
    return f"{indent}{evidence['display']}{excerpt}"


def replaced_lines(item: dict[str, Any], indent: str) -> list[str]:
    """An update's approved text beside its new text, one pair per entry it rewrites."""
    lines: list[str] = []
    for replaced in item.get("replaces") or []:
        lines.append(f"{indent}updates {replaced['entryId']}:")
        for label, text in (("approved", replaced["approvedText"]), ("proposed", item["content"])):
            first, *rest = text.strip().splitlines() or [""]
            lines.append(f"{indent}  {label}: {first}")
            lines += [f"{indent}            {line}" for line in rest]
    return lines


def _one_item(item: dict[str, Any], position: int, total: int, ask: Ask, say: Say) -> str:
    say(f"\n[{position}/{total}] {item['type'] or item['kind']}: {item['content'].strip()}")
    for line in replaced_lines(item, "  "):
        say(line)
    for statement in item["statements"]:
        say(f"  claim: {statement['text']}  ({statement['provenanceStrength']})")
        warning = support_warning(statement)
        if warning:
            say(f"  ! {warning}")
        for evidence in statement["evidence"]:
            say(_evidence_line(evidence, "    "))
            for line in quote_lines(evidence, "      "):
                say(line)
        answer = ask("  (c)onfirm, (d)iscard, (s)kip, (q)uit?", "cdsq", "s")
        if answer != "c":
            return answer
    scope = item.get("scope")
    if scope:
        where = scope.removeprefix("path:") + "/"
        say(f"  applies below {where} (its agents read it only when working there)")
        question = f"  keep it for {where} (k), or (w)iden it to the whole repository?"
        if ask(question, "kw", "k") == "w":
            item[WIDENED] = "path:."
    return "c"
