"""Time flags of the CLI (`--since`, `--until`): the forms people type, made canonical."""

from __future__ import annotations

from datetime import UTC, datetime

from git_memory.errors import UsageError


def utc_timestamp(value: str | None, option: str) -> str | None:
    """`2026-11-01`, `2026-11-01T09:30`, `…Z` or `…+02:00` as `YYYY-MM-DDTHH:MM:SS.mmmZ`;
    a date or a time without an offset is UTC."""
    from git_memory.contracts.base import format_timestamp

    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise UsageError(
            "GM_REQUEST_INVALID",
            f"{option} is not an ISO date or time: {value!r}",
            hint="e.g. 2026-11-01 or 2026-11-01T09:30:00Z",
        ) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_timestamp(moment)
