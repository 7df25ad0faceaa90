"""RepositoryBinding@v1: which repository and worktree a piece of state belongs to."""

from __future__ import annotations

from typing import Literal

from git_memory.contracts.base import DecimalString, Hex64, Model, contract_format

BINDING_FORMAT = contract_format("repository-binding")


class DirectoryIdentity(Model):
    """device/inode of the common git dir, as decimal strings (they exceed JS integers)."""

    device: DecimalString
    inode: DecimalString


class RepositoryBinding(Model):
    """Keys are HMACs under the private origin secret; no absolute path ever appears here."""

    format: Literal["git-memory-repository-binding@v1"] = BINDING_FORMAT  # type: ignore[assignment]
    repository_key: Hex64
    worktree_key: Hex64
    public_repository_identity: str | None
    root_realpath_digest: Hex64
    common_directory_identity: DirectoryIdentity
    memory_root: str

    def owner(self) -> dict[str, str]:
        """The owner triple that plans and tasks are scoped by."""
        return {
            "repositoryKey": self.repository_key,
            "worktreeKey": self.worktree_key,
            "memoryRoot": self.memory_root,
        }
