"""Git's index and loose objects read directly agree with git, or step aside for git.

Every layout is made by the real `git` binary; `git ls-files --stage` and `git cat-file` are
the reference. What the reader does not cover must answer None (then git is asked), never a
different list.
"""

from __future__ import annotations

import os
import subprocess
import zlib
from pathlib import Path

import pytest

from git_memory.repo import git_files
from tests.repos import Repo, git


def _listed(repo: Repo, index: Path | None = None) -> list[tuple[str, int, str]]:
    env = {"GIT_INDEX_FILE": str(index)} if index else None
    listing = git(repo.root, "ls-files", "--stage", "-z", env=env)
    entries = []
    for record in listing.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        mode, oid, stage = meta.split(" ")
        if stage == "0":
            entries.append((path, int(mode, 8), oid))
    return entries


def _read(repo: Repo, oid_size: int = 20) -> list[tuple[str, int, str]] | None:
    return git_files.index_entries(str(repo.root / ".git" / "index"), oid_size)


def _populate(repo: Repo, oid_size: int = 20) -> None:
    repo.write(".memory/entries/deploy-notes.md", "deploy with make\n")
    repo.write("docs/ünïcode name.md", "text\n")
    repo.write("bin/run.sh", "#!/bin/sh\n")
    (repo.root / "bin" / "run.sh").chmod(0o755)
    os.symlink("README.md", repo.root / "link")
    repo.git("add", "-A")
    # A gitlink (a submodule's commit) and an intent-to-add entry (extended flags).
    missing = ("0123456789abcdef" * 4)[: oid_size * 2]
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{missing},vendor/lib")
    repo.write("later.md", "added with -N\n")
    repo.git("add", "-N", "later.md")


@pytest.mark.parametrize("version", [2, 3, 4])
def test_every_index_version_reads_as_git_lists_it(repo: Repo, version: int) -> None:
    _populate(repo)
    repo.git("update-index", "--index-version", str(version))
    assert _read(repo) == _listed(repo)
    assert ("vendor/lib", 0o160000, "0123456789abcdef0123456789abcdef01234567") in _read(repo)


@pytest.mark.parametrize("version", [2, 4])
def test_a_path_longer_than_the_name_field_reads_whole(repo: Repo, version: int) -> None:
    deep = "/".join(["d" * 200] * 25) + "/note.md"  # > 4095 bytes: the name length saturates
    blob = repo.git("hash-object", "-w", "README.md").strip()
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{deep}")
    repo.git("update-index", "--index-version", str(version))
    read = _read(repo)
    assert read == _listed(repo)
    assert read is not None
    assert any(path == deep for path, _, _ in read)


def test_conflicted_paths_are_left_out_as_git_commit_would_stop_on_them(repo: Repo) -> None:
    blob = repo.git("hash-object", "-w", "README.md").strip()
    stages = "".join(f"100644 {blob} {n}\tconflicted.md\n" for n in (1, 2, 3))
    subprocess.run(
        ["git", "update-index", "--index-info"],
        cwd=repo.root,
        input=stages,
        text=True,
        check=True,
    )
    assert "conflicted.md" in repo.git("ls-files", "--unmerged")
    read = _read(repo)
    assert read == _listed(repo)
    assert read is not None
    assert all(path != "conflicted.md" for path, _, _ in read)


def test_optional_extensions_are_passed_over(repo: Repo) -> None:
    _populate(repo)
    repo.git("config", "core.untrackedCache", "true")
    repo.git("update-index", "--untracked-cache")
    repo.git("status", "--porcelain")  # writes the untracked cache and the cached tree
    repo.git("write-tree")
    data = (repo.root / ".git" / "index").read_bytes()
    assert b"UNTR" in data
    assert b"TREE" in data
    assert _read(repo) == _listed(repo)


def test_a_split_index_is_left_to_git(repo: Repo) -> None:
    _populate(repo)
    repo.git("update-index", "--split-index")
    assert list((repo.root / ".git").glob("sharedindex.*"))
    assert _read(repo) is None


def test_a_sparse_index_is_left_to_git(repo: Repo) -> None:
    repo.write("kept/a.md", "a\n")
    repo.write("elsewhere/b.md", "b\n")
    repo.commit_all("two directories")
    repo.git("sparse-checkout", "init", "--cone", "--sparse-index")
    repo.git("sparse-checkout", "set", "kept")
    assert b"sdir" in (repo.root / ".git" / "index").read_bytes()
    assert _read(repo) is None


def test_damaged_or_foreign_index_files_are_left_to_git(repo: Repo, tmp_path: Path) -> None:
    _populate(repo)
    data = (repo.root / ".git" / "index").read_bytes()
    cases = {
        "truncated": data[: len(data) // 2],
        "no signature": b"XXXX" + data[4:],
        "version 5": data[:4] + (5).to_bytes(4, "big") + data[8:],
        "more entries than written": data[:8] + (10_000).to_bytes(4, "big") + data[12:],
        "empty": b"",
        "required extension": data[:-20] + b"abcd" + (0).to_bytes(4, "big") + data[-20:],
    }
    for name, damaged in cases.items():
        path = tmp_path / name
        path.write_bytes(damaged)
        assert git_files.index_entries(str(path), 20) is None, name
    assert git_files.index_entries(str(tmp_path / "absent"), 20) is None


def test_sha256_repositories_read_with_their_object_size(tmp_path: Path) -> None:
    root = tmp_path / "sha256"
    root.mkdir()
    git(root, "init", "-q", "--object-format=sha256")
    repo = Repo(root)
    _populate(repo, 32)
    listed = _listed(repo)
    assert len(listed[0][2]) == 64
    assert _read(repo, 32) == listed
    for _, mode, oid in listed:
        if mode in (0o100644, 0o100755):
            expected = repo.git("cat-file", "blob", oid).encode()
            assert git_files.loose_blob(str(root / ".git" / "objects"), oid) == expected


def test_loose_blobs_read_as_git_reads_them_packed_ones_are_left_to_git(repo: Repo) -> None:
    _populate(repo)
    objects = str(repo.root / ".git" / "objects")
    oid = repo.git("rev-parse", ":.memory/entries/deploy-notes.md").strip()
    assert git_files.loose_blob(objects, oid) == b"deploy with make\n"
    # The empty blob of an intent-to-add entry is known without being stored.
    empty = repo.git("rev-parse", ":later.md").strip()
    assert empty == git_files.EMPTY_BLOB[20]
    assert git_files.loose_blob(objects, empty) == b""
    tree = repo.git("write-tree").strip()
    assert git_files.loose_blob(objects, tree) is None  # not a blob
    repo.git("commit", "-q", "-m", "everything")
    repo.git("gc", "-q", "--prune=now")
    assert git_files.loose_blob(objects, oid) is None  # packed now: git reads it
    assert git_files.loose_blob(objects, "0" * 40) is None


def _write_loose(objects: Path, oid: str, raw: bytes) -> None:
    directory = objects / oid[:2]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / oid[2:]).write_bytes(raw)


def test_damaged_loose_objects_are_left_to_git(tmp_path: Path) -> None:
    objects = tmp_path / "objects"
    cases = {
        "not zlib": b"plain bytes",
        "truncated stream": zlib.compress(b"blob 10\x000123456789")[:-6],
        "short body": zlib.compress(b"blob 10\x00012345"),
        "long body": zlib.compress(b"blob 3\x000123456789"),
        "no size": zlib.compress(b"blob \x00abc"),
        "no NUL": zlib.compress(b"blob 3"),
        "a commit": zlib.compress(b"commit 3\x00abc"),
    }
    for n, raw in enumerate(cases.values()):
        oid = f"{n:02x}" + "a" * 38
        _write_loose(objects, oid, raw)
        assert git_files.loose_blob(str(objects), oid) is None, list(cases)[n]


def test_a_loose_object_is_never_inflated_past_its_declared_size(tmp_path: Path) -> None:
    objects = tmp_path / "objects"
    oid = "ab" + "c" * 38
    # 64 MiB of zeros behind a header declaring 5 bytes: refused after a few bytes of output.
    bomb = zlib.compressobj()
    raw = bomb.compress(b"blob 5\x00")
    for _ in range(64):
        raw += bomb.compress(bytes(1 << 20))
    raw += bomb.flush()
    _write_loose(objects, oid, raw)
    assert git_files.loose_blob(str(objects), oid) is None


def test_discover_git_dir_finds_a_linked_worktree_and_its_common_dir(
    repo: Repo, tmp_path: Path
) -> None:
    linked = repo.add_worktree(tmp_path / "linked", "topic")
    found = git_files.discover_git_dir(str(linked.root))
    assert found is not None
    root, git_dir, common_dir = found
    assert root == str(linked.root)
    assert git_dir == os.path.realpath(repo.root / ".git" / "worktrees" / "linked")
    assert common_dir == os.path.realpath(repo.root / ".git")
    assert git_files.discover_git_dir(str(linked.root / "sub" / "dir")) == found
    assert git_files.discover_git_dir("/") is None
