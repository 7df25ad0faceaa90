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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from git_memory.assemble.scope import PATH_PREFIX, narrower_scope
from git_memory.contracts.promotion import ConfirmedStatement, PrepareCandidate, PrepareRequest
from git_memory.contracts.review import ReviewEvidence, ReviewItem, ReviewStatement
from git_memory.errors import GitMemoryError
from git_memory.extract.review_items import review_model
from git_memory.extract.skill_stage import check_review
from git_memory.glossary import plain
from git_memory.safefs import open_dir
from git_memory.sessions.origin import ORIGIN_WORDS
from git_memory.store.candidates import Candidate, review_queue
from git_memory.store.journal import get_plan, plan_ids
from git_memory.store.session import Workspace

STORE_KIND = {"entry": "entry", "skill": "skill", "consolidation": "consolidation-patch"}
MAX_ITEMS = 200
# The scope a human picks when widening a scoped entry to the whole repository.
WHOLE_REPOSITORY = PATH_PREFIX + "."


def queue(workspace: Workspace, kind: str | None) -> list[ReviewItem]:
    """Quarantined candidates of `kind` (all kinds when None) offered for review, the best
    corroborated first (`store.candidates.review_queue`)."""
    found = review_queue(
        workspace.db,
        workspace.owner,
        kind=STORE_KIND[kind] if kind else None,
        limit=MAX_ITEMS,
    )
    if kind is None:
        # Reviewing everything must not be blocked by one skill whose memory context moved:
        # it is left out here, and `review --kind skill` names it (GM_BINDING_DRIFT).
        found = [c for c in found if c.kind != "skill" or _skill_current(workspace, c)]
    check_review(workspace, found)  # a skill whose memory context moved: GM_BINDING_DRIFT
    return [review_model(workspace.db, candidate) for candidate in found]


def _skill_current(workspace: Workspace, candidate: Candidate) -> bool:
    try:
        check_review(workspace, [candidate])
    except GitMemoryError:
        return False
    return True


def is_typed_fact(item: ReviewItem) -> bool:
    """Every statement of the item was produced by a fixed typed-fact renderer."""
    return bool(item.statements) and all(s.claim_support == "typed-fact" for s in item.statements)


def bulk_confirmable(item: ReviewItem) -> bool:
    """A typed fact whose every statement shows the observed run it rests on (the command as
    run, from the tool call) and that tells agents nothing beyond a memory's role: only these
    may be confirmed together. Everything else, and a statement only the agent's words back,
    is decided on its own."""
    return (
        is_typed_fact(item)
        and not item.directives
        and all("tool" in (s.origins or []) for s in item.statements)
    )


def directive_lines(item: ReviewItem, indent: str) -> list[str]:
    """Each directive of the item, with what it tells agents and its words."""
    return [
        f"{indent}! instruction to agents (line {d.line}, {d.code}): {d.message}: {d.excerpt}"
        for d in item.directives or []
    ]


def support_warning(statement: ReviewStatement) -> str:
    """A warning when no person's words back an unverified statement ("" otherwise)."""
    origins = statement.origins
    if statement.claim_support == "typed-fact" or (origins and "person" in origins):
        return ""
    if not origins:
        return "no quoted words back this statement"
    named = ", ".join(ORIGIN_WORDS[o] for o in origins)
    return f"no person stated this: only {named}"


def quote_lines(evidence: ReviewEvidence, indent: str) -> list[str]:
    """The quoted words of one evidence item, each with its origin and date."""
    lines = []
    for quote in evidence.quotes or []:
        when = f", {quote.at[:10]}" if quote.at else ""
        lines.append(f"{indent}[{ORIGIN_WORDS[quote.origin]}{when}] {quote.text}")
    return lines


def prepare_request(
    items: Sequence[ReviewItem],
    kind: str = "entry",
    scopes: Mapping[str, str] | None = None,
    directives: Mapping[str, Sequence[str]] | None = None,
) -> PrepareRequest:
    """The PrepareRequest that confirms every statement of `items` as reviewed; the
    candidates in `scopes` (candidate id → `path:<dir>`) take the scope the human chose, and
    those in `directives` (candidate id → codes) carry the directives the human confirmed."""
    return PrepareRequest.model_validate(
        {
            "kind": kind,
            "candidates": [
                PrepareCandidate(
                    candidate_id=item.candidate_id,
                    expected_revision=item.revision,
                    statements=[
                        ConfirmedStatement(
                            statement_id=s.statement_id,
                            statement_text_digest=s.statement_text_digest,
                            citations_digest=s.citations_digest,
                        )
                        for s in item.statements
                    ],
                    scope=(scopes or {}).get(item.candidate_id),
                    confirmed_directives=(directives or {}).get(item.candidate_id),
                )
                for item in items
            ],
        }
    )


@dataclass
class Decisions:
    """What the human decided in one session."""

    confirmed: list[ReviewItem] = field(default_factory=list)
    discarded: list[ReviewItem] = field(default_factory=list)
    skipped: int = 0
    # Candidate id → the scope the human chose for a scoped entry (widened or narrowed).
    scopes: dict[str, str] = field(default_factory=dict)
    # Candidate id → the directive codes the human confirmed as instructions to agents.
    directives: dict[str, list[str]] = field(default_factory=dict)


Ask = Callable[[str, str, str], str]
Say = Callable[[str], None]


@dataclass(frozen=True)
class Narrowing:
    """What narrowing a scope at the terminal needs: the worktree whose directory the human
    names, and a prompt that reads one line."""

    root: Path
    enter: Callable[[str], str]


def narrowed_scope(root: Path, current: str, answer: str) -> str:
    """`path:<dir>` for the directory `answer` names below `current`: it must pass
    `narrower_scope` and be a plain directory of the worktree at `root`, reached without a
    symbolic link (one could lead out of the repository)."""
    directory = narrower_scope(current, answer)
    try:
        with open_dir(root, directory.split("/")):
            pass
    except FileNotFoundError:
        raise GitMemoryError(
            "GM_PATH_NOT_FOUND",
            f"cannot narrow the scope to {directory}/: there is no such directory",
            hint="name a directory that exists in the worktree",
        ) from None
    return PATH_PREFIX + directory


def held_by_open_plans(workspace: Workspace) -> dict[str, str]:
    """Candidate id → the open promotion plan (not yet applied or voided) that holds it."""
    held: dict[str, str] = {}
    for plan_id in plan_ids(workspace.db, workspace.owner):
        record = get_plan(workspace.db, plan_id)
        for candidate_id in record.candidate_ids if record else []:
            held[candidate_id] = plan_id
    return held


def interactive(
    items: list[ReviewItem], ask: Ask, say: Say, narrowing: Narrowing | None = None
) -> Decisions:
    """Typed facts in one batch (or one by one on request), then each other candidate
    statement by statement; every item is shown beside its evidence. A scoped entry can be
    widened, and narrowed too when `narrowing` is given; with `narrowing`, an entry that
    applies everywhere can also be confirmed for one directory only."""
    decisions = Decisions()
    typed = [item for item in items if bulk_confirmable(item)]
    rest = [item for item in items if not bulk_confirmable(item)]
    if typed:
        say(f"{len(typed)} typed fact(s), each shown with the run it was observed in")
        say(f"(typed-fact: {plain('typed-fact')}):")
        for item in typed:
            say(f"  - {item.content.strip()}")
            _say_evidence(item, say, "      ")
        answer = ask("Typed facts: confirm (a)ll, decide (o)ne by one, or (s)kip them?", "aos", "a")
        if answer == "a":
            decisions.confirmed += typed
        elif answer == "o":
            rest = typed + rest
        else:
            decisions.skipped += len(typed)
    if any(s.claim_support == "unverified" for item in rest for s in item.statements):
        say(f"\nClaims marked unverified are {plain('unverified')}.")
    for position, item in enumerate(rest, start=1):
        scoping = narrowing is not None and item.kind == "entry" and not item.scope
        verdict = _one_item(item, position, len(rest), ask, say, scoping=scoping)
        if verdict == "q":
            decisions.skipped += len(rest) - position + 1
            break
        if verdict in ("c", "p") and not _instructions_kept(item, ask, say):
            decisions.skipped += 1
            continue
        if verdict in ("c", "p"):
            decisions.confirmed.append(item)
            if item.directives:
                decisions.directives[item.candidate_id] = sorted({d.code for d in item.directives})
            if verdict == "p" and narrowing is not None:
                chosen = _narrow("", narrowing, say)
            else:
                chosen = _choose_scope(item, ask, say, narrowing)
            if chosen is not None:
                decisions.scopes[item.candidate_id] = chosen
        elif verdict == "d":
            decisions.discarded.append(item)
        else:
            decisions.skipped += 1
    return decisions


def _instructions_kept(item: ReviewItem, ask: Ask, say: Say) -> bool:
    """For an item whose content tells agents to act beyond a memory's role: each directive
    is shown again and the human keeps it as an instruction to every agent only by saying so
    (`k`); the default skips the item."""
    if not item.directives:
        return True
    say("  This memory would tell every agent that reads it to:")
    for line in directive_lines(item, "    "):
        say(line)
    answer = ask(
        "  (k)eep these instructions for every agent, or (s)kip this candidate?", "ks", "s"
    )
    return answer == "k"


def _say_evidence(item: ReviewItem, say: Say, indent: str) -> None:
    seen: set[str] = set()
    for statement in item.statements:
        for evidence in statement.evidence:
            if evidence.evidence_id in seen:
                continue
            seen.add(evidence.evidence_id)
            for line in quote_lines(evidence, indent) or [_evidence_line(evidence, indent)]:
                say(line)


def _support(statement: ReviewStatement) -> str:
    """`unverified, direct`: the claim support a confirmation changes, and the evidence's
    strength (only the strength for a typed fact, which is confirmed as it stands)."""
    if statement.claim_support == "unverified":
        return f"unverified, {statement.provenance_strength}"
    return statement.provenance_strength


def _evidence_line(evidence: ReviewEvidence, indent: str) -> str:
    excerpt = f" — {evidence.excerpt}" if evidence.excerpt else ""
    return f"{indent}{evidence.display}{excerpt}"


def replaced_lines(item: ReviewItem, indent: str) -> list[str]:
    """An update's approved text beside its new text, one pair per entry it rewrites, and
    the text of each candidate it replaced in review."""
    lines: list[str] = []
    pairs = [(f"updates {r.entry_id}:", "approved", r.approved_text) for r in item.replaces or []]
    pairs += [
        (f"replaces candidate {r.candidate_id}:", "was", r.content)
        for r in item.replaces_candidates or []
    ]
    for heading, old_label, old_text in pairs:
        lines.append(f"{indent}{heading}")
        for label, text in ((old_label, old_text), ("proposed", item.content)):
            first, *rest = text.strip().splitlines() or [""]
            lines.append(f"{indent}  {label}: {first}")
            lines += [f"{indent}            {line}" for line in rest]
    return lines


def _one_item(
    item: ReviewItem, position: int, total: int, ask: Ask, say: Say, *, scoping: bool = False
) -> str:
    """The verdict on one item: (c)onfirmed, (d)iscarded, (s)kipped or (q)uit; with
    `scoping`, the last statement may also be confirmed for one (p)ath only."""
    say(f"\n[{position}/{total}] {item.type or item.kind}: {item.content.strip()}")
    for line in replaced_lines(item, "  "):
        say(line)
    for line in directive_lines(item, "  "):
        say(line)
    last = len(item.statements)
    for number, statement in enumerate(item.statements, start=1):
        say(f"  claim: {statement.text}  ({_support(statement)})")
        warning = support_warning(statement)
        if warning:
            say(f"  ! {warning}")
        for evidence in statement.evidence:
            say(_evidence_line(evidence, "    "))
            for line in quote_lines(evidence, "      "):
                say(line)
        if scoping and number == last:
            answer = ask(
                "  (c)onfirm, (d)iscard, (s)kip, (q)uit, or confirm for one (p)ath only?",
                "cdsqp",
                "s",
            )
        else:
            answer = ask("  (c)onfirm, (d)iscard, (s)kip, (q)uit?", "cdsq", "s")
        if answer != "c":
            return answer
    return "c"


def _choose_scope(item: ReviewItem, ask: Ask, say: Say, narrowing: Narrowing | None) -> str | None:
    """Show where a confirmed scoped entry applies; the human keeps (None), widens or narrows
    it (the scope chosen)."""
    if not item.scope:
        return None
    current = item.scope.removeprefix(PATH_PREFIX)
    say(f"  applies below {current}/ (its agents read it only when working there)")
    if narrowing is None:
        question = f"  keep it for {current}/ (k), or (w)iden it to the whole repository?"
        choices = "kw"
    else:
        question = (
            f"  keep it for {current}/ (k), (w)iden it to the whole repository,"
            " or (n)arrow it to a directory below?"
        )
        choices = "kwn"
    answer = ask(question, choices, "k")
    if answer == "w":
        return WHOLE_REPOSITORY
    if answer == "n" and narrowing is not None:
        return _narrow(current, narrowing, say)
    return None


def _narrow(current: str, narrowing: Narrowing, say: Say) -> str | None:
    """Ask for the directory until it is one (an empty answer keeps the scope); `current`
    is empty for an entry that applies to the whole repository."""
    question = (
        f"  directory below {current}/ (for example {current}/src)"
        if current
        else "  directory it applies to (for example web or services/api)"
    )
    while True:
        answer = narrowing.enter(question)
        if not answer.strip():
            return None
        try:
            chosen = narrowed_scope(narrowing.root, current, answer)
        except GitMemoryError as error:
            say(f"  ! {error}" + (f" ({error.hint})" if error.hint else ""))
            continue
        say(f"  applies below {chosen.removeprefix(PATH_PREFIX)}/ now")
        return chosen
