"""The extraction window: relative forms, defaults, the last extraction, plain usage errors."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path

import pytest

from git_memory.errors import EXIT_USAGE, UsageError
from git_memory.extract.window import (
    EPOCH,
    FIRST_WINDOW,
    MAX_WINDOW,
    OVERLAP,
    parse_moment,
    resolve_window,
    split,
)
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo

NOW = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("7d", datetime(2026, 11, 26, 9, 30, tzinfo=UTC)),
        ("2w", datetime(2026, 11, 19, 9, 30, tzinfo=UTC)),
        ("12h", datetime(2026, 12, 2, 21, 30, tzinfo=UTC)),
        ("1y", datetime(2025, 12, 3, 9, 30, tzinfo=UTC)),
        ("yesterday", datetime(2026, 12, 2, tzinfo=UTC)),
        ("today", datetime(2026, 12, 3, tzinfo=UTC)),
        ("2026-11-01", datetime(2026, 11, 1, tzinfo=UTC)),
        ("2026-11-01T10:00:00+02:00", datetime(2026, 11, 1, 8, tzinfo=UTC)),
    ],
)
def test_time_forms(value: str, expected: datetime) -> None:
    assert parse_moment(value, "--since", NOW) == expected


def test_defaults_until_now_and_since_the_last_extraction() -> None:
    first = resolve_window(None, None, last_until=None, now=NOW)
    assert (first.after, first.before) == (NOW - FIRST_WINDOW, NOW)
    later = resolve_window(None, None, last_until="2026-12-01T00:00:00.000Z", now=NOW)
    assert later.after == datetime(2026, 12, 1, tzinfo=UTC) - OVERLAP
    assert resolve_window("7d", None, last_until=None, now=NOW).before == NOW


@pytest.mark.parametrize(
    ("since", "until", "words"),
    [
        ("2026-12-01", "2026-11-01", "the window ends before it starts"),
        ("last tuesday", None, "--since is not a date, a time or a relative form like 7d"),
    ],
)
def test_bad_windows_are_usage_errors_in_plain_words(
    since: str, until: str | None, words: str
) -> None:
    with pytest.raises(UsageError) as raised:
        resolve_window(since, until, last_until=None, now=NOW)
    assert words in raised.value.message
    assert raised.value.exit_code == EXIT_USAGE


def test_the_cli_refuses_bad_windows_and_digests_with_exit_2(sample_repo: SampleRepo) -> None:
    cases = [
        (["--since", UNTIL, "--until", SINCE], "the window ends before it starts"),
        (["--approve-plan", "abc123"], "--approve-plan takes a digest of 64 lowercase hex"),
        (["--approve-manifest", "Z" * 64], "--approve-manifest takes a digest"),
    ]
    for flags, words in cases:
        result = run_cli(["extract", "--runner", "codex", *flags], cwd=sample_repo.root)
        assert result.exit_code == 2, result.stderr
        assert words in result.stderr
        assert "pydantic" not in result.stderr
        assert "Value error" not in result.stderr


def test_a_request_file_with_a_reversed_window_is_a_usage_error(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    import json

    request = tmp_path / "request.json"
    window = {"after": UNTIL, "before": SINCE}
    request.write_text(json.dumps({"format": "git-memory-extraction-request@v1", "window": window}))
    result = run_cli(
        ["extract", "--runner", "builtin", "--request", str(request)], cwd=sample_repo.root
    )
    assert result.exit_code == 2, result.stderr
    assert "the window ends before it starts" in result.stderr


def test_no_window_takes_everything_since_the_last_extraction(sample_repo: SampleRepo) -> None:
    first = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--format", "json"],
        cwd=sample_repo.root,
    ).json()
    assert first["window"] == {"after": SINCE, "before": UNTIL}
    again = run_cli(["extract", "--runner", "builtin", "--format", "json"], cwd=sample_repo.root)
    assert again.exit_code == 0, again.stderr
    assert again.json()["window"]["after"] == "2026-11-30T00:00:00.000Z"
    relative = run_cli(
        ["extract", "--runner", "builtin", "--since", "2w", "--format", "json"],
        cwd=sample_repo.root,
    )
    assert relative.exit_code == 0, relative.stderr


def test_a_window_longer_than_a_year_is_split_into_parts_oldest_first() -> None:
    whole = resolve_window("2020-01-01", None, last_until=None, now=NOW)
    parts = split(whole)
    assert parts[0].after == datetime(2020, 1, 1, tzinfo=UTC)
    assert parts[-1].before == NOW
    assert all(a.before == b.after for a, b in itertools.pairwise(parts))
    assert all(part.before - part.after <= MAX_WINDOW for part in parts)
    oldest = datetime(2026, 11, 2, tzinfo=UTC)
    assert [part.before > oldest for part in split(whole, not_before=oldest)] == [True]


def test_a_relative_form_older_than_any_clock_starts_at_the_epoch() -> None:
    assert parse_moment("1000000000d", "--since", NOW) == EPOCH
    assert parse_moment("99999999999999999999y", "--since", NOW) == EPOCH


@pytest.mark.parametrize("since", ["2020-01-01", "1000000000d"])
def test_extract_since_an_old_date_takes_everything_in_one_run(
    sample_repo: SampleRepo, since: str
) -> None:
    result = run_cli(
        ["extract", "--runner", "builtin", "--since", since, "--format", "json"],
        cwd=sample_repo.root,
    )
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert document["window"]["after"] < SINCE
    assert document["sessions"] == 2
    assert document["quarantined"]
    # The next run without a window starts where this one ended: nothing is extracted twice.
    again = run_cli(["extract", "--runner", "builtin", "--format", "json"], cwd=sample_repo.root)
    assert again.exit_code == 0, again.stderr
    assert again.json()["quarantined"] == []


def test_every_command_takes_the_relative_time_forms(sample_repo: SampleRepo) -> None:
    listed = run_cli(["sessions", "list", "--since", "3650d"], cwd=sample_repo.root)
    assert listed.exit_code == 0, listed.stderr
    assert len(listed.stdout.strip().splitlines()) >= 2
    help_text = run_cli(["help", "extract"], cwd=sample_repo.root).stdout
    assert "7d" in help_text
