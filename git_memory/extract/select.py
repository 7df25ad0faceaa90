"""Shared selection for recall and extract: the worktree's sealed turns in a window.

The host injects the scope (this worktree) and the closure states; a caller can only narrow.
More than `MAX_MATCHING_TURNS` matches is refused rather than silently cut to a prefix, with
counts per day and provider so the user can narrow the window or the query.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import MemoryExtractionRequest, OwnerKeys
from git_memory.contracts.extraction import Selection as SelectionDigests
from git_memory.contracts.host_records import (
    EvidencePointer,
    SelectedTurn,
    SelectionResultSet,
    SelectionSources,
)
from git_memory.errors import GitMemoryError
from git_memory.extract.source import EvidenceEdge, SourceEvent, SourceTurn
from git_memory.formats.homes import rewrite_homes
from git_memory.sessions.query import TurnRecord, select_turns
from git_memory.sessions.turns import ToolCall

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

MAX_MATCHING_TURNS = 200
DEFAULT_MIN_SESSION_TURNS = 1
SKIP_ACTIVE = "still active: no turn sealed yet"
# Request provider names → the session index's provider names (the agents added later use
# the index's names in requests too).
PROVIDERS = {
    "claude": "claude-code",
    "codex": "codex",
    **{
        name: name
        for name in ("gemini-cli", "qwen-code", "opencode", "copilot-cli", "cursor", "antigravity")
    },
}
PUBLIC_PROVIDER = {value: key for key, value in PROVIDERS.items()}


def capability_key(kind: str, name: str) -> str:
    """The opaque key of a tool or skill name, as request filters carry them."""
    return digest({"kind": kind, "name": name})


@dataclass(frozen=True)
class SessionSelection:
    """The selected turns of one session, ordered by (observed time, turn key): the index's
    records, and their source form (scrubbed events, evidence edges) computed on first use,
    since an in-process extractor chunks only the sessions it cites."""

    session_key: str
    provider: str
    records: tuple[TurnRecord, ...]
    repository: str | None = None
    scrub: Callable[[str], str] = field(default=str, repr=False, compare=False)

    @cached_property
    def turns(self) -> tuple[SourceTurn, ...]:
        """The turns as the chunker and the evidence catalog see them."""
        return tuple(to_source_turn(r, self.repository, self.scrub) for r in self.records)


@dataclass(frozen=True)
class WindowSelection:
    """Everything recall and extract need from the selection step."""

    request_digest: str
    result_set_digest: str
    source_binding_digest: str
    sessions: tuple[SessionSelection, ...]
    rejected_sessions: int
    # Sessions of the window left out, by reason (what `extract` reports).
    skipped: tuple[tuple[str, int], ...] = ()
    # The same, one (session key, reason) per session left out.
    skipped_sessions: tuple[tuple[str, str], ...] = ()
    # The index's record of every selected turn, by turn key: an in-process extractor reads
    # them here rather than from the index a second time.
    records: Mapping[str, TurnRecord] = field(default_factory=dict)

    @property
    def matched_sessions(self) -> int:
        """Sessions that passed the minimum-turns gate."""
        return len(self.sessions)

    def digests(self) -> SelectionDigests:
        """The `selection` object a task's binding carries: the three digests only."""
        return SelectionDigests(
            request_digest=self.request_digest,
            result_set_digest=self.result_set_digest,
            source_binding_digest=self.source_binding_digest,
        )


def select(
    worktree: Worktree,
    request: MemoryExtractionRequest,
    *,
    now: float | None = None,
    capped: bool = True,
) -> WindowSelection:
    """Select, gate and digest the turns of `request` for this worktree.

    `capped=False` lifts the cap for the in-process builtin runner: nothing it reads leaves
    the machine or fills a model's context, so a whole window is fine there.
    """
    filters = request.filters
    providers = [PROVIDERS[p] for p in (filters.providers or [])] if filters else []
    records = select_turns(
        worktree,
        since=request.window.after,
        until=request.window.before,
        query=request.query,
        providers=providers or None,
        session_keys=(filters.session_keys or None) if filters else None,
        result_states=_tool_states(request),
        now=now,
        closures=("hard-sealed", "quiescent", "open"),
    )
    records = [r for r in records if _capabilities_match(r, request)]
    # Sessions whose every turn is still open (the agent may still be writing) wait.
    active = {r.session_key for r in records} - {
        r.session_key for r in records if r.closure != "open"
    }
    records = [r for r in records if r.closure != "open"]
    if capped and len(records) > MAX_MATCHING_TURNS:
        raise _too_broad(records)
    binding = worktree.binding()
    request_digest = digest(
        {
            "request": request.to_json(),
            "scope": OwnerKeys(
                repository_key=binding.repository_key, worktree_key=binding.worktree_key
            ).to_json(),
        }
    )
    repository = binding.public_repository_identity
    minimum = _min_session_turns(worktree)
    sessions, rejected = _group(records, minimum, repository, path_scrubber(worktree.root))
    skipped = _skipped(minimum, rejected, len(active))
    kept = [r for s in sessions for r in s.records]
    result_set = SelectionResultSet(
        request_digest=request_digest,
        turns=sorted((_selected(r) for r in kept), key=lambda i: (i.session_key, i.turn_key)),
    ).digest()
    edges = {digest(e.pointer) for r in kept for e in evidence_edges(r, repository)}
    source_binding = SelectionSources(
        turn_revisions=sorted(r.revision for r in kept),
        delivery_edge_revisions=sorted(edges),
    ).digest()
    kept_keys = {s.session_key for s in sessions}
    short = sorted({r.session_key for r in records} - kept_keys)
    each = tuple((key, skipped[0][0]) for key in short if rejected) + tuple(
        (key, SKIP_ACTIVE) for key in sorted(active)
    )
    chosen = {r.turn_key: r for r in records if r.session_key in kept_keys}
    return WindowSelection(
        request_digest, result_set, source_binding, tuple(sessions), rejected, skipped, each, chosen
    )


def _tool_states(request: MemoryExtractionRequest) -> list[str] | None:
    states = request.filters.capability_terminal_states if request.filters else None
    return [s for s in states if s in ("completed", "failed", "unknown")] if states else None


def _capabilities_match(record: TurnRecord, request: MemoryExtractionRequest) -> bool:
    filters = request.filters
    if filters is None:
        return True
    if filters.tool_capability_keys:
        keys = {capability_key("tool", call.name) for call in record.tool_calls}
        if not keys & set(filters.tool_capability_keys):
            return False
    if filters.skill_capability_keys:
        keys = {capability_key("skill", name) for name in record.skills}
        if not keys & set(filters.skill_capability_keys):
            return False
    if filters.result_evidence:
        evidence = "provider-completed" if record.closure == "hard-sealed" else "unknown"
        if evidence not in filters.result_evidence:
            return False
    return True


def _too_broad(records: list[TurnRecord]) -> GitMemoryError:
    per_day = Counter((r.started or "unknown")[:10] for r in records)
    per_provider = Counter(PUBLIC_PROVIDER.get(r.provider, r.provider) for r in records)
    days = ", ".join(f"{day}: {n}" for day, n in sorted(per_day.items()))
    return GitMemoryError(
        "GM_QUERY_TOO_BROAD",
        f"{len(records)} turns match; at most {MAX_MATCHING_TURNS} can be selected at once",
        hint=f"narrow --since/--until, add --query or --providers (turns per day: {days})",
        details={
            "matchingTurns": len(records),
            "perDay": dict(sorted(per_day.items())),
            "perProvider": dict(sorted(per_provider.items())),
        },
    )


def _skipped(minimum: int, short: int, active: int) -> tuple[tuple[str, int], ...]:
    reasons = (
        (f"fewer than {minimum} sealed turns (memory.minSessionTurns)", short),
        (SKIP_ACTIVE, active),
    )
    return tuple((reason, count) for reason, count in reasons if count)


def _min_session_turns(worktree: Worktree) -> int:
    return positive_setting(worktree, "memory.minSessionTurns", DEFAULT_MIN_SESSION_TURNS)


def positive_setting(worktree: Worktree, key: str, default: int) -> int:
    """A `memory.*` git config value that must be a positive integer (`default` when unset);
    anything else is `GM_CONFIG_INVALID`."""
    configured = worktree.config_value(key)
    if configured is None:
        return default
    try:
        value = int(configured)
    except ValueError:
        value = 0
    if value < 1:
        raise GitMemoryError(
            "GM_CONFIG_INVALID",
            f"{key} must be a positive integer: {configured!r}",
            hint=f"git config {key} {default}",
        )
    return value


def _group(
    records: list[TurnRecord], minimum: int, repository: str | None, scrub: Callable[[str], str]
) -> tuple[list[SessionSelection], int]:
    by_session: dict[str, list[TurnRecord]] = {}
    for record in records:
        by_session.setdefault(record.session_key, []).append(record)
    kept: list[SessionSelection] = []
    rejected = 0
    for key in sorted(by_session):
        ordered = sorted(by_session[key], key=lambda r: (r.started or "", r.turn_key))
        if len(ordered) < minimum:
            rejected += 1
            continue
        provider = PUBLIC_PROVIDER.get(ordered[0].provider, ordered[0].provider)
        kept.append(SessionSelection(key, provider, tuple(ordered), repository, scrub))
    return kept, rejected


def _selected(record: TurnRecord) -> SelectedTurn:
    """What `resultSetDigest` covers for a turn (`SourceTurn.selection_item`)."""
    return SelectedTurn(
        session_key=record.session_key,
        turn_key=record.turn_key,
        revision=record.revision,
        observed_timestamp=record.started or "",
    )


def path_scrubber(root: Path) -> Callable[[str], str]:
    """Rewrite absolute paths of this machine and people's homes in transcript text before
    it leaves the host.

    Paths inside the worktree become worktree-relative; any home directory (this machine's,
    wherever it lies, and `/Users/…`, `/home/…`, `C:\\Users\\…` of whoever ran the session)
    becomes `~` and the user names they reveal `<user>` (`formats/homes.py`). Models then
    never see (and never copy into a memory) where the repository lives or whose machine
    it was, and neither does a reviewer.
    """
    home = str(Path.home())
    # Windows names a folder in any letter case and with either separator, mixed at will
    # (`C:\\Users\\Ana\\App`, typed `c:\\users\\ana/app`): one pattern finds every spelling
    # `root_spellings` lists and more. A POSIX folder has one spelling (a drive's root none).
    windows = windows_root_pattern(str(root))
    exact = [] if windows is not None else [f for f in root_spellings(str(root)) if len(f) > 1]

    def scrub(text: str) -> str:
        for form in exact:
            if form in text:
                text = _relative(text, form)
        if windows is not None:
            for form in {found.group(0) for found in windows.finditer(text)}:
                text = _relative(text, form)
        return rewrite_homes(text, home).text

    return scrub


# A character that continues a longer path or word before the worktree's folder: there it is
# part of another path (`/srv/app/logs`, `github.com/org/app/pull/3`), not the worktree.
_ON_A_PATH = frozenset("_.\\/-")
# What ends a path after the worktree's folder named alone: a blank, a quote, the end of an
# argument; an escape in JSON text (`\\"`, `\\n`) after a folder spelled with slashes.
_PATH_END = frozenset(" \t\r\n\"'`;:,)|&<>]}?!")


def _relative(text: str, form: str) -> str:
    """`text` with the worktree's folder spelled `form` made relative where it is a whole path
    element: `form/web` → `web`, `form/` → `./`, `form` alone → `.`; a sibling folder
    (`form-api`) or a longer path holding it (`/srv/form`) stays as it is."""
    separators = _separators(form)
    parts = text.split(form)
    out = [parts[0]]
    before = parts[0][-1:]
    for part in parts[1:]:
        kept = bool(before) and (before.isalnum() or before in _ON_A_PATH)
        # a share's folder spelled with slashes after a URL's scheme is a web address
        kept = kept or (before == ":" and form.startswith("//"))
        separator = next((sep for sep in separators if part.startswith(sep)), "")
        after = part[len(separator) :] if separator else None
        if kept:
            out.append(form + part)
        elif after is not None:
            # a path inside it; its folder alone when nothing of a path follows the separator
            ends = not after or after[0] in _PATH_END
            out.append(("." + separator if ends else "") + after)
        elif not part or part[0] in _PATH_END or (part[0] == "\\" and "\\" not in separators):
            # after a spelling whose separators are no single backslash, a backslash starts an
            # escape of JSON text (`\n`, `\"`)
            out.append("." + part)
        elif part[0] == "." and (len(part) == 1 or part[1] in _PATH_END):
            out.append("." + part)  # the end of a sentence
        else:
            out.append(form + part)  # another folder whose name starts the same
        before = out[-1][-1:] if out[-1] else before
    return "".join(out)


def _separators(form: str) -> tuple[str, ...]:
    """The separators a spelling of the folder continues with: a spelling with backslashes
    (JSON-escaped ones doubled) continues with them or with a slash, as Windows reads both; a
    spelling with slashes alone only with a slash (a backslash after it is an escape: `\\n`)."""
    if "\\\\" in form[2:]:
        return ("\\\\", "/")
    if "\\" in form:
        return ("\\", "/")
    return ("/",)


_DRIVE = re.compile(r"^([A-Za-z]):[\\/]")


# A separator of a Windows path as a command line may type it: a backslash, escaped inside
# JSON or not, or a slash.
_ANY_SEPARATOR = r"(?:\\\\|\\|/)"


def windows_root_pattern(root: str) -> re.Pattern[str] | None:
    """Every spelling of a Windows worktree's folder (`root_spellings`), in any letter case and
    with any mix of separators (`c:\\users\\ana/app`); None for a POSIX folder or a drive's
    root."""
    drive = _DRIVE.match(root)
    if drive is not None:
        letter = re.escape(drive.group(1))
        start = rf"(?:{letter}:|(?:/mnt)?/{letter}){_ANY_SEPARATOR}"
        rest = root[3:]
    elif root.startswith("\\\\"):
        start = r"(?:\\\\\\\\|\\\\|//)"
        rest = root[2:]
    else:
        return None
    elements = [element for element in re.split(r"[\\/]", rest) if element]
    if not elements:
        return None
    return re.compile(
        start + _ANY_SEPARATOR.join(re.escape(element) for element in elements), re.IGNORECASE
    )


def root_spellings(root: str) -> list[str]:
    """The ways a command line names the worktree's folder: as it is, and for a Windows
    folder (`C:\\Users\\ana\\app`) with forward slashes (`C:/Users/ana/app`), either case of
    its drive, as Git Bash (`/c/Users/ana/app`) and WSL (`/mnt/c/Users/ana/app`) name it, and
    escaped inside JSON (`C:\\\\Users\\\\…`); a UNC share (`\\\\server\\share\\app`)
    with forward slashes too. A drive's root (`D:\\`) names no folder of its own: none."""
    drive = _DRIVE.match(root)
    if root.startswith("\\\\"):
        root = "\\\\" + root[2:].rstrip("/\\")
        forward = root.replace("\\", "/")
        return list(dict.fromkeys([root, forward, root.replace("\\", "\\\\")]))
    if drive is None:
        return [root]
    letter, rest = drive.group(1), root[2:].rstrip("/\\")
    if not rest:
        return []
    forward, backward = rest.replace("\\", "/"), rest.replace("/", "\\")
    forms = []
    for case in (letter.upper(), letter.lower()):
        forms += [
            f"{case}:{backward}",
            f"{case}:{forward}",
            f"{case}:{backward}".replace("\\", "\\\\"),
        ]
    forms += [f"/{letter.lower()}{forward}", f"/mnt/{letter.lower()}{forward}"]
    return list(dict.fromkeys(forms))


def to_source_turn(
    record: TurnRecord, repository: str | None, scrub: Callable[[str], str] = str
) -> SourceTurn:
    """A session-index turn as the chunker sees it: ordered events and evidence edges."""
    events: list[SourceEvent] = []
    if record.user_text:
        events.append(SourceEvent("user", scrub(record.user_text)))
    for call in record.tool_calls:
        events.append(SourceEvent("tool_call", scrub(_tool_call_text(call))))
        if call.output is not None:
            events.append(SourceEvent("tool_result", scrub(f"[{call.state}] {call.output}")))
    if record.assistant_text:
        events.append(SourceEvent("assistant", scrub(record.assistant_text)))
    edges = evidence_edges(record, repository)
    return SourceTurn(
        session_key=record.session_key,
        turn_key=record.turn_key,
        revision=record.revision,
        observed_at=record.started or "",
        provider=PUBLIC_PROVIDER.get(record.provider, record.provider),
        events=tuple(events),
        edges=edges,
    )


def evidence_edges(record: TurnRecord, repository: str | None) -> tuple[EvidenceEdge, ...]:
    """The host-side evidence edges of a turn: commits its tools printed, paths they touched."""
    edges = []
    for edge in record.evidence:
        if edge.kind == "commit":
            pointer: EvidencePointer = {"kind": "commit", "commitHash": edge.value}
            if repository:
                pointer["repository"] = repository
            edges.append(EvidenceEdge(pointer, "commit-in-tool-output", "direct"))
        elif edge.kind == "path":
            edges.append(
                EvidenceEdge(
                    {"kind": "path", "path": edge.value},
                    "tool-touched-path",
                    "observed",
                    ("tool-observed",),
                )
            )
    return tuple(edges)


def _tool_call_text(call: ToolCall) -> str:
    rendered = (
        call.input
        if isinstance(call.input, str)
        else json.dumps(call.input, ensure_ascii=False, sort_keys=True)
    )
    return f"{call.name} {rendered}"
