"""The extraction window: the time forms people type, the defaults, and the limits.

`--since`/`--until` take a date, an ISO time, or a relative form (`7d`, `2w`, `12h`, `1y`,
`yesterday`, `today`, `now`). Without `--until` the window ends now; without any window,
extraction takes everything since this worktree's last extraction (with a day of overlap, so
sessions still running then are finished; staged chunks are never extracted twice), or the
last 30 days the first time. A window that ends before it starts is a usage error, said in
plain words; a window over 366 days (one extraction request's limit) is split into parts of
at most 366 days, oldest first, and a relative form reaching back further than any clock
(`--since 1000000000d`) starts at the Unix epoch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from git_memory.contracts.base import format_timestamp, parse_timestamp
from git_memory.contracts.extraction import OwnerKeys, TimeWindow
from git_memory.errors import UsageError
from git_memory.store.chunks import get_cursor, set_cursor
from git_memory.store.db import StateDB

FIRST_WINDOW = timedelta(days=30)
OVERLAP = timedelta(days=1)
MAX_WINDOW = timedelta(days=366)
# No agent transcript is older than this; a relative form reaching further back starts here.
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
CURSOR_SOURCE = "extract-window"
_RELATIVE = re.compile(r"^(\d+)\s*(m|min|h|d|w|y)$", re.IGNORECASE)
_UNITS = {"m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400, "y": 365 * 86400}
_HINT = "e.g. --since 7d, --since 2026-11-01 or --since 2026-11-01T09:30:00Z"


@dataclass(frozen=True)
class Window:
    """A resolved UTC window: `after` inclusive, `before` exclusive."""

    after: datetime
    before: datetime

    def time_window(self) -> TimeWindow:
        """The `window` of a MemoryExtractionRequest."""
        return TimeWindow(after=format_timestamp(self.after), before=format_timestamp(self.before))


def utc_now() -> datetime:
    """The current time, UTC, to the millisecond (what canonical timestamps hold)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def from_request(window: TimeWindow) -> Window:
    """The Window of a request's `TimeWindow`."""
    return Window(parse_timestamp(window.after), parse_timestamp(window.before))


def parse_moment(value: str, option: str, now: datetime) -> datetime:
    """A time flag's value as an aware UTC datetime (relative forms count back from `now`)."""
    text = value.strip()
    word = text.casefold()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if word == "now":
        return now
    if word == "today":
        return midnight
    if word == "yesterday":
        return midnight - timedelta(days=1)
    relative = _RELATIVE.match(text)
    if relative:
        seconds = _UNITS[relative.group(2).casefold()] * int(relative.group(1))
        if seconds >= (now - EPOCH).total_seconds():
            return EPOCH
        return now - timedelta(seconds=seconds)
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            "GM_REQUEST_INVALID",
            f"{option} is not a date, a time or a relative form like 7d: {value!r}",
            hint=_HINT,
        ) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def resolve_window(
    since: str | None, until: str | None, *, last_until: str | None, now: datetime
) -> Window:
    """The window of an extraction from its flags and the worktree's last extraction."""
    before = parse_moment(until, "--until", now) if until else now
    if since:
        after = parse_moment(since, "--since", now)
    elif last_until:
        after = parse_moment(last_until, "the last extraction's end", now) - OVERLAP
    else:
        after = before - FIRST_WINDOW
    return checked(Window(after, before))


def checked(window: Window) -> Window:
    """Refuse a reversed window, in plain words."""
    if window.after >= window.before:
        raise UsageError(
            "GM_REQUEST_INVALID",
            f"the window ends before it starts ({_day(window.after)} → {_day(window.before)})",
            hint="--since must be earlier than --until",
        )
    return window


def split(window: Window, *, not_before: datetime | None = None) -> list[Window]:
    """`window` as consecutive parts of at most 366 days, oldest first; parts that end
    before `not_before` (the oldest session there is) hold nothing and are left out."""
    parts: list[Window] = []
    after = window.after
    while after < window.before:
        before = min(after + MAX_WINDOW, window.before)
        if not_before is None or before > not_before:
            parts.append(Window(after, before))
        after = before
    return parts or [Window(max(window.after, window.before - MAX_WINDOW), window.before)]


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def last_until(db: StateDB, owner: OwnerKeys) -> str | None:
    """Where this worktree's last extraction window ended (None before the first one)."""
    cursor = get_cursor(db, owner, CURSOR_SOURCE)
    value = (cursor or {}).get("until")
    return value if isinstance(value, str) else None


def remember(db: StateDB, owner: OwnerKeys, window: Window) -> None:
    """Record the end of a finished extraction window (the next default starts there); an
    earlier window extracted later never moves it back, a window ending in the future
    counts as ending now."""
    until = format_timestamp(min(window.before, utc_now()))
    previous = last_until(db, owner)
    if previous is None or previous < until:
        set_cursor(db, owner, CURSOR_SOURCE, {"until": until})
