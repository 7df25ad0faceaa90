"""Byte-exact canonical JSON and the digests built on it (docs/contracts.md).

Rules: strings (keys included) are NFC-normalized and must be well-formed (no lone
surrogates); numbers are integers only; object keys are sorted by UTF-16 code units (what a
JavaScript `<` compares, so digests match the original tool's); output is compact with
non-ASCII characters written raw.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from git_memory.errors import GitMemoryError

# JavaScript's Number.MAX_SAFE_INTEGER: larger integers would not survive a round-trip
# through the original tool or most JSON parsers.
MAX_SAFE_INTEGER = 2**53 - 1


class CanonicalJsonError(GitMemoryError):
    """A value that has no canonical JSON form."""

    def __init__(self, message: str) -> None:
        super().__init__("GM_CANONICAL_JSON", message)


def _utf16_key(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _normalize_string(value: str) -> str:
    if value.isascii():
        return value  # ASCII is well-formed and already NFC
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CanonicalJsonError("string contains a lone surrogate") from exc
    return unicodedata.normalize("NFC", value)


def normalize(value: Any) -> Any:
    """Return the canonical form of `value` as plain Python data, or raise."""
    # The common types first, by exact type: digests of whole tasks walk many nodes.
    kind = type(value)
    if kind is str:
        return _normalize_string(value)
    if kind is dict:
        return _normalize_mapping(value)
    if kind is list:
        return [normalize(item) for item in value]
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise CanonicalJsonError(f"integer {value} is outside the safe range")
        return value
    if isinstance(value, float):
        raise CanonicalJsonError("floats have no canonical form; use integers")
    if isinstance(value, str):
        return _normalize_string(value)
    if isinstance(value, Mapping):
        return _normalize_mapping(value)
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [normalize(item) for item in value]
    raise CanonicalJsonError(f"type {type(value).__name__} has no canonical JSON form")


def _normalize_mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ascii_keys = True
    for raw_key, item in value.items():
        if type(raw_key) is not str and not isinstance(raw_key, str):
            raise CanonicalJsonError("object keys must be strings")
        key = _normalize_string(raw_key)
        if key in out:
            raise CanonicalJsonError(f"object keys collide after NFC normalization: {key!r}")
        ascii_keys = ascii_keys and key.isascii()
        out[key] = normalize(item)
    # ASCII keys sort the same by code point as by UTF-16 code unit.
    order = sorted(out) if ascii_keys else sorted(out, key=_utf16_key)
    return {key: out[key] for key in order}


def canonical_json(value: Any) -> bytes:
    """The canonical UTF-8 bytes of `value`."""
    text = json.dumps(normalize(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8")


def digest(value: Any) -> str:
    """`sha256hex(canonical(value))`: the digest every task id and plan digest is built on."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def sha256_hex(data: bytes) -> str:
    """Plain sha256 of raw bytes (file contents, stdin payloads)."""
    return hashlib.sha256(data).hexdigest()
