"""Hashes in the places hashes are written: not secrets. Pure.

A 40- or 64-hex token, or a long base64 string, blocks as a key unless what surrounds it
says it is a hash: a digest prefix (`sha256:…`, `image@sha256:…`, `h1:…` in go.sum), an
integrity string (`sha512-…`, `sha384-…`), a lockfile checksum (`checksum = "…"` in
Cargo.lock, `"integrity": …`), or a word that names a commit or digest shortly before it
(`commit 3f78…`, `reverted 3f78…`, `digest: …`). Each row of `CONTEXTS` is one such place,
with the text it was written from. A commit that exists in the repository is recognised by
the callers that can ask git (`lint_text(…, known_commit=…)`).

The words never include "key", "token", "secret" or "password": `the signing key is <hex>`
still blocks.
"""

from __future__ import annotations

from git_memory.lint.findings import Span
from git_memory.patterns import compiled
from git_memory.records import Record


class HashContext(Record):
    """Where a hash stands: a regex whose group `hash` is the hash, and its real example."""

    name: str
    source: str
    example: str


_HEX_OR_BASE64 = r"(?P<hash>[A-Za-z0-9+/_-]{20,}={0,2})"
CONTEXTS: tuple[HashContext, ...] = (
    HashContext(
        "digest prefix",
        r"(?<![A-Za-z0-9])(?:sha(?:1|224|256|384|512)|md5|blake2b|blake3|h1)[:]" + _HEX_OR_BASE64,
        "python:3.12-slim@sha256:2bcabc23b45489fb0885d69a06ba1d648aeda973fae7bb981bafbb884165e514",
    ),
    HashContext(
        "integrity string",
        r"(?<![A-Za-z0-9])sha(?:1|256|384|512)-" + _HEX_OR_BASE64,
        'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"',
    ),
    HashContext(
        "lockfile checksum",
        r"(?i:checksum|integrity|hash|digest|sha(?:1|256|512)?sum|etag)[\"']?[ \t]*[:=][ \t]*"
        r"[\"']?" + _HEX_OR_BASE64,
        'checksum = "4c7e2a4d7c5d2cda1b7c3a4b5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e"',
    ),
    HashContext(
        "named commit or digest",
        # A word naming a commit or a digest, or a git command that takes one, at most 48
        # characters before it in the same sentence, in the languages the extractor reads
        # ("fixed in <hex>" names nothing: a key can follow those words too).
        r"(?i:(?<![A-Za-z0-9_])(?:commits?|committed|revision|rev|revert(?:ed|s)?|"
        r"cherry-pick(?:ed)?|bisect|git (?:show|checkout|reset|log|revert|cherry-pick)|"
        r"sha|sha-?1|sha-?256|sha(?:1|256|512)sums?|md5sums?|digest|checksum|hash|version|"
        r"提交|コミット|커밋|коммит\w*|revisión|revisão|prüfsumme|somme de contrôle|"
        r"suma de verificación|校验和|チェックサム|체크섬|контрольн\w+ сумм\w*)(?![A-Za-z]))"
        r"[^\n.。]{0,48}?(?<![A-Za-z0-9])(?P<hash>[0-9a-fA-F]{40}|[0-9a-fA-F]{64})(?![0-9A-Za-z])",
        "The regression came in with commit 3f786850e387550fdab836ed7e6dc881de23001b",
    ),
    HashContext(
        "pinned reference",
        # An action, image or module pinned to a commit: `actions/checkout@<40 hex>`.
        r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@(?P<hash>[0-9a-f]{40})(?![0-9A-Za-z])",
        "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683",
    ),
    HashContext(
        "content hash in a file name",
        # Bundlers and stores name files by a hash of their content: `logo-<hex>.png`.
        r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]*[-_.](?P<hash>[0-9a-fA-F]{8,64})"
        r"\.[A-Za-z][A-Za-z0-9]{0,7}(?![A-Za-z0-9])",
        '<img src="./assets/vipul-f0eb1acf0da84c06a50c5b2c59932001997786b176dec02bd16128ee9'
        'ea83628.png">',
    ),
    HashContext(
        "pod checksum",
        # CocoaPods' Podfile.lock `SPEC CHECKSUMS:` lines: a pod's CamelCase name and the
        # SHA-1 of its podspec (a secret-sounding name is judged by the assigned-secret rule).
        r"(?m:^[ \t]*[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+:[ \t]+(?P<hash>[0-9a-f]{40})[ \t]*$)",
        "ReactNativeCameraKit: f15a5a04b0f6dc6073e6db0296e6ef2d8b8d2522",
    ),
)


def hash_spans(text: str) -> list[Span]:
    """[start, end) of every hash `text` writes where hashes are written. Asked only once a
    token would block, so ordinary text never runs these patterns."""
    spans: list[Span] = []
    for context in CONTEXTS:
        for match in compiled(context.source).finditer(text):
            spans.append(Span(match.start(), match.end("hash")))
    return spans


_HEX40 = r"(?<![0-9A-Za-z])[0-9a-fA-F]{40}(?![0-9A-Za-z])"


def hex40_tokens(text: str) -> list[Span]:
    """Every bare 40-hex token of `text` (a commit id, if the repository has it)."""
    return [Span(m.start(), m.end()) for m in compiled(_HEX40).finditer(text)]
