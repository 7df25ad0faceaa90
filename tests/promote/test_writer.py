"""The conditional writer: CAS, no-follow traversal, resumable artifacts, third-party edits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from git_memory import safefs
from git_memory.errors import GitMemoryError
from git_memory.failpoints import FailpointError
from git_memory.promote.writer import (
    ARTIFACT_PREFIX,
    Swap,
    TargetDrift,
    artifact_token,
    conditional_replace,
    undo_forward,
)

PATH = ".memory/entries/a.md"


def _swap(expect: bytes | None, install: bytes | None, direction: str = "forward") -> Swap:
    return Swap(PATH, expect, install, artifact_token("plan-1", PATH, direction))


def _artifacts(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob(f"{ARTIFACT_PREFIX}*"))


def test_create_makes_missing_dirs_0755(tmp_path: Path) -> None:
    conditional_replace(tmp_path, _swap(None, b"new\n"))
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert (tmp_path / ".memory/entries").stat().st_mode & 0o777 == 0o755 & ~_umask()
    assert _artifacts(tmp_path) == []


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def test_create_refuses_an_existing_target(tmp_path: Path) -> None:
    (tmp_path / ".memory/entries").mkdir(parents=True)
    (tmp_path / PATH).write_bytes(b"theirs\n")
    with pytest.raises(TargetDrift) as caught:
        conditional_replace(tmp_path, _swap(None, b"new\n"))
    assert caught.value.preserved
    assert (tmp_path / PATH).read_bytes() == b"theirs\n"
    assert _artifacts(tmp_path) == []


def test_update_replaces_expected_bytes_only(tmp_path: Path) -> None:
    (tmp_path / ".memory/entries").mkdir(parents=True)
    (tmp_path / PATH).write_bytes(b"old\n")
    with pytest.raises(TargetDrift):
        conditional_replace(tmp_path, _swap(b"something else\n", b"new\n"))
    assert (tmp_path / PATH).read_bytes() == b"old\n"
    conditional_replace(tmp_path, _swap(b"old\n", b"new\n"))
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert _artifacts(tmp_path) == []


def test_repeating_a_done_swap_is_a_no_op(tmp_path: Path) -> None:
    conditional_replace(tmp_path, _swap(None, b"new\n"))
    conditional_replace(tmp_path, _swap(None, b"new\n"))
    assert (tmp_path / PATH).read_bytes() == b"new\n"


def test_resume_after_target_was_moved_aside(tmp_path: Path) -> None:
    """A crash between the move to hold and the install: the rerun installs the new bytes."""
    swap = _swap(b"old\n", b"new\n")
    entries = tmp_path / ".memory/entries"
    entries.mkdir(parents=True)
    (entries / swap.hold_name).write_bytes(b"old\n")
    (entries / swap.staged_name).write_bytes(b"ne")  # torn staged write
    conditional_replace(tmp_path, swap)
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert _artifacts(tmp_path) == []


def test_held_third_party_bytes_are_put_back(tmp_path: Path) -> None:
    swap = _swap(b"old\n", b"new\n")
    entries = tmp_path / ".memory/entries"
    entries.mkdir(parents=True)
    (entries / swap.hold_name).write_bytes(b"edited by someone\n")
    with pytest.raises(TargetDrift) as caught:
        conditional_replace(tmp_path, swap)
    assert caught.value.preserved
    assert (tmp_path / PATH).read_bytes() == b"edited by someone\n"
    assert _artifacts(tmp_path) == []


def test_target_created_while_held_is_kept(tmp_path: Path) -> None:
    swap = _swap(b"old\n", b"new\n")
    entries = tmp_path / ".memory/entries"
    entries.mkdir(parents=True)
    (entries / swap.hold_name).write_bytes(b"old\n")
    (tmp_path / PATH).write_bytes(b"theirs\n")
    with pytest.raises(TargetDrift):
        conditional_replace(tmp_path, swap)
    assert (tmp_path / PATH).read_bytes() == b"theirs\n"
    assert _artifacts(tmp_path) == []


def test_rollback_of_a_create_removes_only_our_bytes(tmp_path: Path) -> None:
    conditional_replace(tmp_path, _swap(None, b"new\n"))
    (tmp_path / PATH).write_bytes(b"edited after apply\n")
    with pytest.raises(TargetDrift) as caught:
        conditional_replace(tmp_path, _swap(b"new\n", None, "rollback"))
    assert caught.value.preserved
    assert (tmp_path / PATH).read_bytes() == b"edited after apply\n"
    (tmp_path / PATH).write_bytes(b"new\n")
    conditional_replace(tmp_path, _swap(b"new\n", None, "rollback"))
    assert not (tmp_path / PATH).exists()
    assert _artifacts(tmp_path) == []


@pytest.mark.parametrize("link_at", [".memory", ".memory/entries"])
def test_symlinked_directory_is_refused(tmp_path: Path, link_at: str) -> None:
    outside = tmp_path / "outside"
    (outside / "entries").mkdir(parents=True)
    root = tmp_path / "wt"
    (root / ".memory").mkdir(parents=True) if link_at != ".memory" else root.mkdir()
    (root / link_at).symlink_to(outside if link_at == ".memory" else outside / "entries")
    with pytest.raises(GitMemoryError) as caught:
        conditional_replace(root, _swap(None, b"new\n"))
    assert caught.value.code == "GM_SYMLINK_REFUSED"
    assert list(outside.rglob("*.md")) == []


def test_symlinked_target_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"old\n")
    (tmp_path / ".memory/entries").mkdir(parents=True)
    (tmp_path / PATH).symlink_to(victim)
    with pytest.raises(GitMemoryError) as caught:
        conditional_replace(tmp_path, _swap(b"old\n", b"new\n"))
    assert caught.value.code == "GM_SYMLINK_REFUSED"
    assert victim.read_bytes() == b"old\n"


def test_undo_cleans_leftovers(tmp_path: Path) -> None:
    swap = _swap(None, b"new\n")
    entries = tmp_path / ".memory/entries"
    entries.mkdir(parents=True)
    (entries / swap.staged_name).write_bytes(b"n")
    undo_forward(tmp_path, swap)
    undo_forward(tmp_path / "absent", swap)
    assert _artifacts(tmp_path) == []


def test_rename_noreplace_fallback_is_exclusive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safefs, "_renameat2", lambda: None)
    conditional_replace(tmp_path, _swap(None, b"new\n"))
    (tmp_path / "src").write_bytes(b"other\n")
    (tmp_path / "dst").write_bytes(b"kept\n")
    with safefs.open_dir(tmp_path, []) as fd, pytest.raises(FileExistsError):
        safefs.rename_noreplace(fd, "src", "dst")
    assert (tmp_path / "dst").read_bytes() == b"kept\n"
    assert (tmp_path / PATH).read_bytes() == b"new\n"


def test_a_fifo_at_the_target_is_refused_without_hanging(tmp_path: Path) -> None:
    (tmp_path / ".memory/entries").mkdir(parents=True)
    os.mkfifo(tmp_path / PATH)
    with pytest.raises(GitMemoryError) as caught:
        conditional_replace(tmp_path, _swap(None, b"new\n"))
    assert caught.value.code == "GM_NOT_A_FILE"


def _existing(tmp_path: Path, data: bytes) -> Path:
    (tmp_path / ".memory/entries").mkdir(parents=True, exist_ok=True)
    (tmp_path / PATH).write_bytes(data)
    return tmp_path / ".memory/entries"


def test_exchange_swaps_two_entries_and_refuses_a_missing_one(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"a\n")
    (tmp_path / "b").write_bytes(b"b\n")
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert safefs.exchange(fd, "a", "b")
        assert ((tmp_path / "a").read_bytes(), (tmp_path / "b").read_bytes()) == (b"b\n", b"a\n")
        with pytest.raises(FileNotFoundError):
            safefs.exchange(fd, "a", "absent")
    finally:
        os.close(fd)


def test_a_replace_cut_short_after_the_exchange_has_the_new_bytes_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = _existing(tmp_path, b"old\n")
    swap = _swap(b"old\n", b"new\n")
    monkeypatch.setenv("GIT_MEMORY_FAILPOINT", "promote.write.swapped:raise")
    with pytest.raises(FailpointError):
        conditional_replace(tmp_path, swap)
    monkeypatch.delenv("GIT_MEMORY_FAILPOINT")
    # Cut short right after the exchange: the new bytes are in place, the old ones beside.
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert (entries / swap.staged_name).read_bytes() == b"old\n"
    conditional_replace(tmp_path, swap)
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert _artifacts(tmp_path) == []


def test_an_edit_that_races_in_before_the_exchange_goes_straight_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _existing(tmp_path, b"old\n")
    real = safefs.exchange

    def racing(dir_fd: int, first: str, second: str) -> bool:
        (tmp_path / PATH).write_bytes(b"edited by a teammate\n")
        monkeypatch.setattr(safefs, "exchange", real)
        return real(dir_fd, first, second)

    monkeypatch.setattr(safefs, "exchange", racing)
    with pytest.raises(TargetDrift) as caught:
        conditional_replace(tmp_path, _swap(b"old\n", b"new\n"))
    assert caught.value.preserved
    assert (tmp_path / PATH).read_bytes() == b"edited by a teammate\n"
    assert _artifacts(tmp_path) == []


@pytest.mark.parametrize("settle", ["rerun", "undo"])
def test_third_party_bytes_displaced_before_a_crash_are_given_back(
    tmp_path: Path, settle: str
) -> None:
    """A crash between an exchange and its check, with a teammate's edit displaced."""
    swap = _swap(b"old\n", b"new\n")
    entries = _existing(tmp_path, b"new\n")
    (entries / swap.staged_name).write_bytes(b"edited by a teammate\n")
    if settle == "rerun":
        with pytest.raises(TargetDrift) as caught:
            conditional_replace(tmp_path, swap)
        assert caught.value.preserved
    else:
        undo_forward(tmp_path, swap)
    assert (tmp_path / PATH).read_bytes() == b"edited by a teammate\n"
    assert _artifacts(tmp_path) == []


def test_undo_after_an_exchange_keeps_the_new_bytes_for_the_rollback(tmp_path: Path) -> None:
    swap = _swap(b"old\n", b"new\n")
    entries = _existing(tmp_path, b"new\n")
    (entries / swap.staged_name).write_bytes(b"old\n")
    undo_forward(tmp_path, swap)
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert _artifacts(tmp_path) == []
    conditional_replace(tmp_path, _swap(b"new\n", b"old\n", "rollback"))
    assert (tmp_path / PATH).read_bytes() == b"old\n"


def test_without_an_exchange_the_new_bytes_are_renamed_over_the_checked_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safefs, "exchange", lambda *_: False)
    _existing(tmp_path, b"old\n")
    before = (tmp_path / PATH).stat().st_ino
    conditional_replace(tmp_path, _swap(b"old\n", b"new\n"))
    assert (tmp_path / PATH).read_bytes() == b"new\n"
    assert (tmp_path / PATH).stat().st_ino != before
    assert _artifacts(tmp_path) == []


def test_without_an_exchange_a_target_replaced_meanwhile_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safefs, "exchange", lambda *_: False)
    _existing(tmp_path, b"old\n")
    real_link = os.link

    def racing_link(*args: object, **kwargs: object) -> None:
        real_link(*args, **kwargs)  # type: ignore[arg-type]
        theirs = tmp_path / "theirs"
        theirs.write_bytes(b"saved by an editor\n")
        theirs.replace(tmp_path / PATH)

    monkeypatch.setattr(os, "link", racing_link)
    with pytest.raises(TargetDrift) as caught:
        conditional_replace(tmp_path, _swap(b"old\n", b"new\n"))
    assert caught.value.preserved
    assert (tmp_path / PATH).read_bytes() == b"saved by an editor\n"
    assert _artifacts(tmp_path) == []
