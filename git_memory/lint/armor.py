"""Whether an armored block's body is the public material its label says. Pure, stdlib only.

A certificate or public key is public and looks random, so the lint exempts its body from the
entropy rule, but only when the body really is one: a private key relabelled
`-----BEGIN CERTIFICATE-----` must still block. The checks read the structure, not the
cryptography: DER (X.509 `Certificate`, `SubjectPublicKeyInfo`), OpenPGP packets (public key
packets, no secret key packet) and the SSH public key wire format (RFC 4716).
"""

from __future__ import annotations

import binascii
import re

from git_memory.lint.entropy import decode_base64

SEQUENCE, INTEGER, BIT_STRING, OID, CONTEXT_0 = 0x30, 0x02, 0x03, 0x06, 0xA0
PGP_PUBLIC_KEY, PGP_SECRET_KEY, PGP_SECRET_SUBKEY = 6, 5, 7
SSH_KEY_TYPE = re.compile(rb"(?:ssh|ecdsa|sk)-[a-z0-9@.-]+")
MIN_TBS_FIELDS = 6


def is_public_material(label: str, body: str) -> bool:
    """Whether the base64 `body` of a `-----BEGIN <label>-----` block is public material."""
    try:
        data = decode_base64(body)
    except (binascii.Error, ValueError):
        return False
    if label == "CERTIFICATE":
        return _certificate(data)
    if label == "PUBLIC KEY":
        return _public_key_info(data)
    if label == "PGP PUBLIC KEY BLOCK":
        return _pgp_public(data)
    return _ssh_public(data)


def _tlv(data: bytes, position: int, limit: int) -> tuple[int, int, int] | None:
    """(tag, content start, end) of the DER element at `position`, or None if malformed."""
    if position + 2 > limit:
        return None
    tag, first = data[position], data[position + 1]
    if tag & 0x1F == 0x1F:
        return None  # high tag numbers: none at the levels checked here
    start = position + 2
    if first < 0x80:
        length = first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or start + count > limit:
            return None  # indefinite length is BER, not DER
        length = int.from_bytes(data[start : start + count], "big")
        start += count
    end = start + length
    return (tag, start, end) if end <= limit else None


def _children(data: bytes, start: int, end: int) -> list[tuple[int, int, int]] | None:
    """The elements filling [start, end) exactly, or None."""
    found = []
    position = start
    while position < end:
        element = _tlv(data, position, end)
        if element is None:
            return None
        found.append(element)
        position = element[2]
    return found


def _sequence(data: bytes) -> list[tuple[int, int, int]] | None:
    """The children of the SEQUENCE that is all of `data`."""
    outer = _tlv(data, 0, len(data))
    if outer is None or outer[0] != SEQUENCE or outer[2] != len(data):
        return None
    return _children(data, outer[1], outer[2])


def _tags(elements: list[tuple[int, int, int]] | None) -> list[int]:
    return [] if elements is None else [tag for tag, _, _ in elements]


def _certificate(data: bytes) -> bool:
    """X.509: SEQUENCE { tbsCertificate SEQUENCE, signatureAlgorithm SEQUENCE, BIT STRING },
    the tbsCertificate opening with its version [0] or serial INTEGER. A private key (PKCS#1
    or PKCS#8) opens with an INTEGER instead."""
    elements = _sequence(data)
    if _tags(elements) != [SEQUENCE, SEQUENCE, BIT_STRING] or elements is None:
        return False
    _, start, end = elements[0]
    tbs = _children(data, start, end)
    return (
        tbs is not None
        and len(tbs) >= MIN_TBS_FIELDS
        and tbs[0][0] in (CONTEXT_0, INTEGER)
        and SEQUENCE in _tags(tbs)
    )


def _public_key_info(data: bytes) -> bool:
    """SubjectPublicKeyInfo: SEQUENCE { AlgorithmIdentifier SEQUENCE { OID, … }, BIT STRING }."""
    elements = _sequence(data)
    if _tags(elements) != [SEQUENCE, BIT_STRING] or elements is None:
        return False
    _, start, end = elements[0]
    return _tags(_children(data, start, end))[:1] == [OID]


def _pgp_public(data: bytes) -> bool:
    """OpenPGP packets (RFC 4880 §4.2) filling the data, the first a public key packet and
    none a secret key packet."""
    tags = []
    position = 0
    while position < len(data):
        header = data[position]
        if not header & 0x80:
            return False
        if header & 0x40:  # new format: tag in 6 bits, length octets after
            tag = header & 0x3F
            parsed = _new_length(data, position + 1)
        else:  # old format: tag in 4 bits, length type in 2
            tag = (header >> 2) & 0x0F
            parsed = _old_length(data, position + 1, header & 0x03)
        if parsed is None:
            return False
        start, length = parsed
        tags.append(tag)
        position = start + length
    return (
        position == len(data)
        and tags[:1] == [PGP_PUBLIC_KEY]
        and not {PGP_SECRET_KEY, PGP_SECRET_SUBKEY} & set(tags)
    )


def _old_length(data: bytes, position: int, kind: int) -> tuple[int, int] | None:
    if kind == 3:
        return None  # indeterminate: not used by key blocks
    size = 1 << kind
    if position + size > len(data):
        return None
    return position + size, int.from_bytes(data[position : position + size], "big")


def _new_length(data: bytes, position: int) -> tuple[int, int] | None:
    if position >= len(data):
        return None
    first = data[position]
    if first < 192:
        return position + 1, first
    if first < 224 and position + 1 < len(data):
        return position + 2, ((first - 192) << 8) + data[position + 1] + 192
    if first == 255 and position + 5 <= len(data):
        return position + 5, int.from_bytes(data[position + 1 : position + 5], "big")
    return None  # partial lengths: not used by key packets


def _ssh_public(data: bytes) -> bool:
    """RFC 4716 body: the SSH wire format, a length-prefixed key type (`ssh-ed25519`, …)."""
    if len(data) < 4:
        return False
    size = int.from_bytes(data[:4], "big")
    return 4 + size <= len(data) and SSH_KEY_TYPE.fullmatch(data[4 : 4 + size]) is not None
