"""Which part of the labelled real-session corpus a source repository belongs to.

The corpus (`tests/fixtures/real-sessions/`) is split by repository, never by session, so that
the sessions of one project never sit on both sides. The rule is a fixed hash of the repository
name and nothing else: the first eight bytes of SHA-256 of `owner/repo` lower-cased, read as a
big-endian integer, modulo 100; below `TUNING_SHARE` the repository is in the tuning part, else
in the test part. The rule was fixed before the corpus was grown under it and is never changed
to move a repository from one part to the other; the test part is only ever measured
(its totals), never read for individual misses or tuned on.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Part = Literal["tune", "test"]

TUNING_SHARE = 60


def bucket(repository: str) -> int:
    """The repository's fixed place in 0..99."""
    digest = hashlib.sha256(repository.lower().encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100


def part(repository: str) -> Part:
    """`tune` for the tuning part (about 60 % of repositories), `test` for the test part."""
    return "tune" if bucket(repository) < TUNING_SHARE else "test"
