"""Secrets recognised by where they stand: assigned to a secret-sounding name, or sent as
HTTP credentials. Pure.

`PGPASSWORD=hunter2` or `webhook_secret: <64 hex>` carry no provider prefix and may fall
under the entropy threshold, but the name says what the value is. The rules run over the
Markdown-plain text (`lint.markdown.plain`), so `**password**: hunter2` reads as
`password: hunter2`.

A value is not a finding when it visibly is not the secret: an explicit placeholder (`…`,
`...`, `<redacted>`, `XXXX`, `<your key>`), a reference (`$VAR`, `${{ secrets.X }}`,
`os.environ[...]`, an all-caps constant name), a fake (`aaaa…`, `123456`, `EXAMPLE`) or plain
words (`required`, `same-origin`).
"""

from __future__ import annotations

import binascii
import re
from collections import Counter
from collections.abc import Iterable

from git_memory.lint.entropy import (
    decode_base64,
    decodes_to_text,
    is_identifier_like,
    looks_fake,
    shannon_bits,
    value_core,
)
from git_memory.patterns import compiled
from git_memory.records import Record

ASSIGNED_CODE = "GM_LINT_ASSIGNED_SECRET"
HTTP_CODE = "GM_LINT_HTTP_CREDENTIALS"

# `name = value`, `name: value`, `"name": "value"`, `name := value`, `name => value`: found
# from the secret word that ends the name, then the name is read backwards (`_name_start`).
_SECRET_WORDS = ("key", "token", "secret", "pass", "pwd", "auth", "credential")
# Each word spelled out in the three cases names use (`key`, `Key`, `KEY`): a plain
# alternation lets the regex engine skip ahead on first letters, `(?i:…)` is six times slower.
_SECRET_WORD = "|".join(f(w) for w in _SECRET_WORDS for f in (str.lower, str.capitalize, str.upper))
_ASSIGNMENT = re.compile(
    rf"(?P<tail>(?:{_SECRET_WORD})[A-Za-z]*)[\"']?[ \t]*"
    r"(?::=|=>|[:=])[ \t]*[\"']?(?P<value>[^\s\"'`,;]+)"
)
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
MAX_NAME = 64
# Words a secret's name ends with; the long ones also as the tail of one word (`PGPASSWORD`).
_SUFFIX_WORDS = ("password", "passwd", "secret", "token", "credential", "apikey")
_PART_WORDS = frozenset({*_SUFFIX_WORDS, "credentials", "key", "pwd", "auth", "pass", "passphrase"})
_PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passphrase"})
_PUBLIC_WORDS = frozenset({"public", "publishable", "pub"})
_NAME_PART = r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+"

MIN_PASSWORD = 6
# API keys and tokens are longer than passwords; a short value under a key name is far more
# often a setting (`hotkey: Ctrl+K`, `key: AbCdE123`) than a credential.
MIN_VALUE = 12
MIN_ENCODED = 16
MIN_BITS = 3.0
DOMINANT_SHARE = 0.5
_ENCODED = r"[A-Za-z0-9+/=_-]+"
# Inside a value: an elision, a template, a call or a URL (the URL rule judges URLs).
_PLACEHOLDERS = ("…", "...", "redacted", "xxxx", "your", "<", ">", "{", "}", "(", "://")
# At its start: a variable, a path or a reference.
_REFERENCE_START = ("$", "%", "/", "./", "~/", "@", "&", "#", "[", "\\")
_CONSTANT_NAME = r"[A-Z][A-Z_]*"

_HTTP = (
    r"(?<![A-Za-z0-9])(?P<scheme>[Bb]asic|BASIC|[Bb]earer|BEARER)[ \t]+"
    r"(?P<value>[A-Za-z0-9._~+/-]{8,}=*)(?![A-Za-z0-9._~+/=-])"
)
_HTTP_TRIGGERS = ("asic ", "earer ", "BASIC ", "BEARER ")


class Hit(Record):
    """A value the rules judge to be a secret: [start, end) in the text, and its code."""

    code: str
    start: int
    end: int


def _name_kind(name: str) -> str | None:
    """What the last word of `name` says its value is: "password", "secret", "key" (a bare
    `key`, which names map entries and cache keys as often as credentials) or None."""
    words = [part.lower() for part in compiled(_NAME_PART).findall(name)]
    if not words or _PUBLIC_WORDS.intersection(words):
        return None  # `PublicKeyToken`, `publishable_key`: public by name
    last = words[-1]
    if last not in _PART_WORDS and not last.endswith(_SUFFIX_WORDS):
        return None
    if last in _PASSWORD_WORDS or last.endswith(("password", "passwd")):
        return "password"
    return "key" if words == ["key"] else "secret"


def _name_start(text: str, end: int) -> int:
    start = end
    while start > 0 and end - start < MAX_NAME and text[start - 1] in _NAME_CHARS:
        start -= 1
    return start


def _dominated(value: str) -> bool:
    return Counter(value).most_common(1)[0][1] >= DOMINANT_SHARE * len(value)


def not_a_secret(value: str) -> bool:
    """Whether `value` visibly is not the secret (placeholder, reference, fake or words)."""
    lowered = value.lower()
    return (
        any(mark in lowered for mark in _PLACEHOLDERS)
        or value.startswith(_REFERENCE_START)
        or compiled(_CONSTANT_NAME).fullmatch(value) is not None
        or _dominated(value)
        or looks_fake(value)
        or is_identifier_like(value)
    )


def _secret_value(value: str, kind: str) -> bool:
    if len(value) < (MIN_PASSWORD if kind == "password" else MIN_VALUE) or not_a_secret(value):
        return False
    if kind == "password":
        return True
    if value.isdigit() or decodes_to_text(value_core(value)):
        return False  # counts and limits (`max_token: 81920`); base64 of text, not key bytes
    encoded = len(value) >= MIN_ENCODED and compiled(_ENCODED).fullmatch(value) is not None
    if kind == "key":
        return encoded and shannon_bits(value) >= MIN_BITS
    return encoded or shannon_bits(value) >= MIN_BITS


def assigned_secrets(text: str) -> Iterable[Hit]:
    """Values assigned to secret-sounding names in `text` (already Markdown-plain)."""
    for match in _ASSIGNMENT.finditer(text):
        name = text[_name_start(text, match.start()) : match.end("tail")]
        kind = _name_kind(name)
        # Sentence punctuation after a value is not part of it; an ellipsis alone is not one.
        value = match.group("value").rstrip(".…")
        if kind is not None and _secret_value(value, kind):
            start = match.start("value")
            yield Hit(ASSIGNED_CODE, start, start + len(value))


def _basic_credentials(value: str) -> bool:
    try:
        decoded = decode_base64(value + "=" * (-len(value) % 4))
        user, _, password = decoded.decode("utf-8").partition(":")
    except (binascii.Error, ValueError):
        return False
    return bool(user) and bool(password) and decoded.isascii()


def http_credentials(text: str) -> Iterable[Hit]:
    """`Basic <base64 of user:password>` and `Bearer <token>` credentials in `text`."""
    if not any(trigger in text for trigger in _HTTP_TRIGGERS):
        return
    for match in compiled(_HTTP).finditer(text):
        value = match.group("value")
        if match.group("scheme").lower() == "basic":
            found = _basic_credentials(value)
        else:
            found = len(value) >= MIN_ENCODED and _secret_value(value, "secret")
        if found:
            yield Hit(HTTP_CODE, match.start("value"), match.end("value"))
