"""Issue 42 rows L1–L5: what a person or a shell reads that the lint once did not.

L1–L4 are lines of memory text, each with the code that must now block it; L5 are ordinary
memory texts that must pass. The same samples run through the lint
(tests/lint/test_lint_views.py), and through prepare, promote and a real `git commit` with
the installed hook (tests/hooks/test_lint_views_end_to_end.py). Keys are generated here
(seeded), never real.
"""

from __future__ import annotations

import base64
import codecs
import random

RNG = random.Random(42)
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
KEY = "ghp_" + "".join(RNG.choice(_ALNUM) for _ in range(36))  # a GitHub token's shape
AWS = "AKIA" + "".join(RNG.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16))
RANDOM = "".join(RNG.choice(_ALNUM) for _ in range(40))  # no prefix: the entropy rule's
GITHUB = "GM_LINT_GITHUB_TOKEN"
AWS_CODE = "GM_LINT_AWS_ACCESS_KEY"
ENTROPY = "GM_LINT_HIGH_ENTROPY"
STATED = "GM_LINT_STATED_PASSWORD"


def pieces(text: str, size: int) -> list[str]:
    """`text` cut into pieces of `size` characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def _fullwidth(text: str) -> str:
    return "".join(chr(0xFF00 + ord(c) - 0x20) if "!" <= c <= "~" else c for c in text)


def _mathematical(text: str) -> str:
    def one(c: str) -> str:
        if c.isupper():
            return chr(0x1D5A0 + ord(c) - ord("A"))  # MATHEMATICAL SANS-SERIF CAPITAL
        if c.islower():
            return chr(0x1D5BA + ord(c) - ord("a"))
        return chr(0x1D7E2 + ord(c) - ord("0")) if c.isdigit() else c

    return "".join(one(c) for c in text)


_TWINS = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")  # Cyrillic look-alikes


L1 = {
    "fullwidth": (f"Deploy with {_fullwidth(KEY)} today.", GITHUB),
    "mathematical": (f"Deploy with {_mathematical(KEY)} today.", GITHUB),
    "cyrillic-twins": (f"Deploy with {KEY.translate(_TWINS)} today.", GITHUB),
    "cyrillic-twins-aws": (f"The CI key is {AWS.translate(_TWINS)}.", AWS_CODE),
    "greek-and-cyrillic-random": (f"token {RANDOM.translate(_TWINS)}", ENTROPY),
}
_TABLE = "| a | b | c | d | e |\n|---|---|---|---|---|\n| " + " | ".join(pieces(KEY, 8)) + " |"
_SHELL = "export TOKEN='" + "''".join(pieces(KEY, 8)) + "'"
L2 = {
    "hair-space": ("\u200a".join(pieces(KEY, 4)), GITHUB),
    "thin-space": ("\u2009".join(pieces(KEY, 4)), GITHUB),
    "narrow-no-break-space": ("\u202f".join(pieces(KEY, 4)), GITHUB),
    "adjacent-links": ("".join(f"[{p}](#)" for p in pieces(KEY, 5)), GITHUB),
    "table-cells": (_TABLE, GITHUB),
    "list-items": ("\n".join(f"- {p}" for p in pieces(KEY, 8)), GITHUB),
    "line-break-every-15": ("\n".join(pieces(KEY, 15)), GITHUB),
    "random-line-break-every-15": ("\n".join(pieces(RANDOM, 15)), ENTROPY),
    "footnote-markers": ("[^1]".join(pieces(KEY, 8)) + "\n\n[^1]: see the runbook", GITHUB),
    "shell-quotes": (_SHELL, GITHUB),
    "python-plus": ("token = " + " + ".join(f'"{p}"' for p in pieces(KEY, 8)), GITHUB),
    "implicit-concatenation": (
        "token = (" + " ".join(f'"{p}"' for p in pieces(KEY, 8)) + ")",
        GITHUB,
    ),
    "php-dot": ("$token = " + ".".join(f"'{p}'" for p in pieces(KEY, 8)) + ";", GITHUB),
    "sql-pipes": ("SELECT " + " || ".join(f"'{p}'" for p in pieces(KEY, 8)) + ";", GITHUB),
}
L3 = {
    "quoted-printable": ("".join(f"={b:02X}" for b in KEY.encode()), GITHUB),
    "quoted-printable-soft-breaks": (
        "=\n".join(pieces("".join(f"={b:02X}" for b in KEY.encode()), 30)),
        GITHUB,
    ),
    "base64-wrapped-16": (
        "\n".join(pieces(base64.b64encode(f"deploy with {KEY}".encode()).decode(), 16)),
        GITHUB,
    ),
    "ascii85": (base64.a85encode(KEY.encode()).decode(), GITHUB),
    "ascii85-delimited": (base64.a85encode(KEY.encode(), adobe=True).decode(), GITHUB),
    "rot13": (f"the token (rot13) is {codecs.encode(KEY, 'rot13')}", GITHUB),
    "rot13-aws": (f"the key (rot13) is {codecs.encode(AWS, 'rot13')}", AWS_CODE),
    "reversed": (f"the token, backwards: {KEY[::-1]}", GITHUB),
    "reversed-aws": (f"the key, backwards: {AWS[::-1]}", AWS_CODE),
    "decimal-codes": ("String.fromCharCode(" + ",".join(str(ord(c)) for c in KEY) + ")", GITHUB),
    "python-chr": ("+".join(f"chr({ord(c)})" for c in KEY), GITHUB),
    "octal-escapes": ("printf '" + "".join(f"\\{ord(c):o}" for c in KEY) + "'", GITHUB),
}
L4 = {
    "english-quoted-passphrase": (
        'the staging db password is "correct horse battery staple 42"',
        STATED,
    ),
    "english-colon": ("The admin passphrase: Tr0ub4dor&3", STATED),
    "chinese": ("测试库的密码是 Tr0ub4dor&3", STATED),
    "japanese": ("ステージングのパスワードは「Tr0ub4dor&3」です", STATED),
    "korean": ("스테이징 비밀번호는 Tr0ub4dor&3 입니다", STATED),
    "russian": ("пароль от staging базы: «Tr0ub4dor&3»", STATED),
    "spanish": ('la contraseña de staging es "Tr0ub4dor&3"', STATED),
    "portuguese": ('a senha do banco de staging é "Tr0ub4dor&3"', STATED),
    "german": ('das Passwort der Staging-DB lautet "Tr0ub4dor&3"', STATED),
    "french": ("le mot de passe de la base de staging est « Tr0ub4dor&3 »", STATED),
}

# L5: ordinary memory text with hashes where hashes are written and script joiners.
L5 = {
    "commit-after-the-word": (
        "The regression came in with commit 3f786850e387550fdab836ed7e6dc881de23001b;"
        " revert it before the release."
    ),
    "docker-digest": (
        "Pin the base image: `python:3.12-slim@sha256:"
        "2bcabc23b45489fb0885d69a06ba1d648aeda973fae7bb981bafbb884165e514`."
    ),
    "cargo-checksum": (
        'Cargo.lock pins it: `checksum = "4c7e2a4d7c5d2cda1b7c3a4b5f6e7d8c'
        '9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e"`.'
    ),
    "npm-integrity": (
        'package-lock.json: `"integrity": "sha512-Xg3p/ZkN9Hd1mA5tQJ0k8iYVZb3E1wR7uT6yL2oP4sD9'
        'fG8hJ7kL6mN5bV4cX3zQ2wE1rT0yU9iO8pA7sD6fG5h=="`'
    ),
    "sri": (
        'Load it with `integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQ'
        'ho1wx4JwY8wC"` and `crossorigin="anonymous"`.'
    ),
    "uuid-near-agent": "The build agent pool id is 7c9e6679-7425-40de-944b-e07fc1f90ae7.",
    "persian-zwnj": (
        "برای اجرای آزمون‌ها از دستور `make test` استفاده کنید؛ می‌خواهیم همه‌ی آزمون‌ها سبز باشند."
    ),
    "hindi-zwj": "टेस्ट चलाने के लिए `make test` चलाएँ। क्‍या यह काम करता है?",
    "go-sum": "go.sum: `golang.org/x/text v0.3.7 h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk=`",
    "pip-hash": (
        "Install with `pip install --require-hashes` and lines such as `requests==2.32.3 "
        "--hash=sha256:70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc6`."
    ),
}

BLOCKING: dict[str, tuple[str, str]] = {
    **{f"L1/{k}": v for k, v in L1.items()},
    **{f"L2/{k}": v for k, v in L2.items()},
    **{f"L3/{k}": v for k, v in L3.items()},
    **{f"L4/{k}": v for k, v in L4.items()},
}
SECRETS = (KEY, AWS, RANDOM, "Tr0ub4dor&3", "correct horse battery staple 42")
