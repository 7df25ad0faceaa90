"""The private origin secret: 32 random bytes and an epoch, created on first use.

Every key derived from a local path (repository, worktree, session) is an HMAC under this
secret, so identifiers in contracts reveal nothing about the machine they came from.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import SECRET_FILE, ensure_private_dir, read_private, write_private_atomic


@dataclass(frozen=True)
class OriginSecret:
    """The secret and its epoch (a new epoch means every derived key changed)."""

    key: bytes
    epoch: str

    def hmac_hex(self, domain: str, value: str) -> str:
        """HMAC-SHA256 of `domain + "\\0" + value`, hex."""
        message = domain.encode() + b"\0" + value.encode("utf-8", "surrogateescape")
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()


def load_or_create_secret(home: Path) -> OriginSecret:
    """Read `secret.json`, creating it atomically (0600) under a lock on first use."""
    ensure_private_dir(home)
    path = home / SECRET_FILE
    if not path.exists():
        with FileLock(str(home / ".secret.lock"), mode=0o600):
            if not path.exists():
                document = {
                    "format": "git-memory-origin-secret@v1",
                    "secret": secrets.token_hex(32),
                    "epoch": str(uuid.uuid4()),
                }
                write_private_atomic(path, (json.dumps(document) + "\n").encode())
    return _parse_secret(read_private(path))


def _parse_secret(raw: bytes) -> OriginSecret:
    try:
        document = bounded_json.loads(raw, max_bytes=64 * 1024)
        key = bytes.fromhex(document["secret"])
        epoch = str(document["epoch"])
    except (ValueError, KeyError, TypeError) as exc:
        raise GitMemoryError(
            "GM_SECRET_CORRUPT",
            "the private origin secret (secret.json) is unreadable",
            hint="move secret.json aside; a new one is created (derived keys change)",
        ) from exc
    if len(key) != 32:
        raise GitMemoryError("GM_SECRET_CORRUPT", "the origin secret is not 32 bytes long")
    return OriginSecret(key=key, epoch=epoch)
