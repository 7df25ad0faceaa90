"""No-follow traversal below the worktree root."""

from __future__ import annotations

from pathlib import Path

import pytest

from git_memory import safefs
from git_memory.errors import GitMemoryError


@pytest.mark.parametrize("bad", ["../outside", "/etc/passwd", "", ".", "a/../../b"])
def test_paths_outside_the_worktree_are_refused(bad: str) -> None:
    with pytest.raises(GitMemoryError) as info:
        safefs.split_relative(bad)
    assert info.value.code == "GM_PATH_OUTSIDE_WORKTREE"


def test_create_never_replaces_and_reads_refuse_links(tmp_path: Path) -> None:
    with safefs.open_dir(tmp_path, ["a", "b"], create=True) as fd:
        safefs.create_file_at(fd, "f.md", b"one")
        with pytest.raises(FileExistsError):
            safefs.create_file_at(fd, "f.md", b"two")
    assert (tmp_path / "a" / "b" / "f.md").read_bytes() == b"one"
    (tmp_path / "a" / "link.md").symlink_to(tmp_path / "a" / "b" / "f.md")
    with pytest.raises(GitMemoryError) as info:
        safefs.read_file_nofollow(tmp_path, "a/link.md")
    assert info.value.code == "GM_SYMLINK_REFUSED"
    (tmp_path / "dirlink").symlink_to(tmp_path / "a")
    with pytest.raises(GitMemoryError) as info:
        safefs.read_file_nofollow(tmp_path, "dirlink/b/f.md")
    assert info.value.code == "GM_SYMLINK_REFUSED"
    assert safefs.read_file_nofollow(tmp_path, "a/b/missing.md") is None


def test_a_read_with_a_size_cap_refuses_a_larger_file_before_reading_it(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(b"x" * 101)
    (tmp_path / "small").write_bytes(b"x" * 100)
    with safefs.open_dir(tmp_path, []) as fd:
        assert safefs.read_at(fd, "small", "small", max_bytes=100) == b"x" * 100
        with pytest.raises(GitMemoryError) as refused:
            safefs.read_at(fd, "big", "big", max_bytes=100)
    assert refused.value.code == "GM_FILE_TOO_LARGE"
