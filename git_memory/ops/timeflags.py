"""Time flags of the CLI (`--since`, `--until`): the forms people type, made canonical."""

from __future__ import annotations

from git_memory.contracts.base import format_timestamp
from git_memory.extract.window import parse_moment, utc_now


def utc_timestamp(value: str | None, option: str) -> str | None:
    """`2026-11-01`, `2026-11-01T09:30`, `…Z`, `…+02:00` or a relative form (`7d`, `2w`,
    `12h`, `yesterday`, `today`, `now`) as `YYYY-MM-DDTHH:MM:SS.mmmZ`; a date or a time
    without an offset is UTC. Every command's time flags take the forms `extract` takes."""
    if value is None:
        return None
    return format_timestamp(parse_moment(value, option, utc_now()))
