"""Passwords and passphrases stated in prose, in the languages the extractor reads. Pure.

`NAME=value` is not the only way a password is written down: "the staging db password is
"correct horse battery staple 42"" states one in a sentence. Each row of `STATED` is one
language's way of saying it — the word for password or passphrase, then within a few words
a verb or colon that introduces the value — with the sentence it was written from. The
value is what follows: a quoted string (any of the quotes the languages use) or one
unbroken token. A value that visibly is not the secret (a placeholder, a `$VAR` reference,
plain words such as "stored in Vault") is not a finding (`assigned.not_a_secret`).
"""

from __future__ import annotations

from collections.abc import Iterator

from git_memory.lint.assigned import Hit, not_a_secret
from git_memory.patterns import compiled
from git_memory.records import Record

STATED_CODE = "GM_LINT_STATED_PASSWORD"


class Stated(Record):
    """One language's way to state a password: its words (a regex, and the lowercase
    substrings one of which it needs), the link to the value, and an example."""

    language: str
    words: str
    link: str
    example: str
    keys: tuple[str, ...]


STATED: tuple[Stated, ...] = (
    Stated(
        "en",
        r"(?i:pass(?:word|phrase|code)s?|pwd|pin code)",
        r"(?i:\s+(?:is|was|remains|reads|=)|\s+(?:is\s+)?set\s+to|:)",
        'the staging db password is "correct horse battery staple 42"',
        keys=("password", "passphrase", "passcode", "pwd", "pin code"),
    ),
    Stated(
        "zh",
        r"(?:密码|口令|密碼)",
        r"(?:是|为|為|：|:)",
        "测试库的密码是 Tr0ub4dor&3",
        keys=("密码", "口令", "密碼"),
    ),
    Stated(
        "ja",
        r"(?:パスワード|暗証番号|パスフレーズ)",
        r"(?:は|：|:)",
        "ステージングのパスワードは「Tr0ub4dor&3」です",
        keys=("パスワード", "暗証番号", "パスフレーズ"),
    ),
    Stated(
        "ko",
        r"(?:비밀번호|암호|패스워드)",
        r"(?:는|은|:|：)",
        "스테이징 비밀번호는 Tr0ub4dor&3 입니다",
        keys=("비밀번호", "암호", "패스워드"),
    ),
    Stated(
        "ru",
        r"(?i:парол[ьяюе]|кодов(?:ое|ая) (?:слово|фраза))",
        r"(?i:\s+(?:—|-|это|такой)|:)",
        "пароль от staging базы: «Tr0ub4dor&3»",
        keys=("парол", "кодов"),
    ),
    Stated(
        "es",
        r"(?i:contraseña|clave de acceso|frase de paso)",
        r"(?i:\s+(?:es|era|=)|:)",
        'la contraseña de staging es "Tr0ub4dor&3"',
        keys=("contraseña", "clave de acceso", "frase de paso"),
    ),
    Stated(
        "pt",
        r"(?i:senha|palavra-passe|frase-senha)",
        r"(?i:\s+(?:é|era|=)|:)",
        'a senha do banco de staging é "Tr0ub4dor&3"',
        keys=("senha", "palavra-passe"),
    ),
    Stated(
        "de",
        r"(?i:passwort|kennwort|passphrase)",
        r"(?i:\s+(?:ist|lautet|war|=)|:)",
        'das Passwort der Staging-DB lautet "Tr0ub4dor&3"',
        keys=("passwort", "kennwort", "passphrase"),
    ),
    Stated(
        "fr",
        r"(?i:mot de passe|phrase secrète|mdp)",
        r"(?i:\s+(?:est|était|=)|\s?:)",
        "le mot de passe de la base de staging est « Tr0ub4dor&3 »",
        keys=("mot de passe", "phrase secrète", "mdp"),
    ),
)

# Between the word and its link: a few words naming what it opens ("of the staging db").
_BETWEEN = r"[^\n.;。！？!?\"'“”«»「」『』]{0,40}?"
_QUOTED = (
    r"\"([^\"\n]{1,128})\"|'([^'\n]{1,128})'|“([^”\n]{1,128})”|«\s?([^»\n]{1,128}?)\s?»"
    r"|「([^」\n]{1,128})」|『([^』\n]{1,128})』|`([^`\n]{1,128})`"
)
# An unquoted password is printable ASCII and ends the clause: `Passwort: hunter2!`, not
# `argon2id로` (a Korean particle follows: the word is part of the sentence).
_BARE = r"([!#-&(-~]{1,128})(?![^\s.,;:!?)\]。、，！？])"
# The word stands alone (`usernamePassword(` or `passwordVariable` name a parameter).
_PATTERN = "(?<![A-Za-z])(?:{words})(?![A-Za-z]){between}(?:{link})[ \\t]*(?:{quoted}|{bare})"
MIN_PASSWORD = 6
MIN_PASSPHRASE_WORDS = 3
# A quoted phrase opening with one of these says where a password is, not what it is.
_WHERE_WORDS = frozenset(
    {"in", "at", "on", "from", "under", "stored", "kept", "see", "managed", "rotated", "via"}
)


def _pattern(row: Stated) -> str:
    return _PATTERN.format(
        words=row.words, between=_BETWEEN, link=row.link, quoted=_QUOTED, bare=_BARE
    )


def _a_password(value: str, quoted: bool) -> bool:
    value = value.strip().rstrip(".,")
    words = value.split()
    if quoted and len(words) >= MIN_PASSPHRASE_WORDS:
        # A quoted phrase of three or more words is a passphrase, unless it is a placeholder,
        # a reference ("<the one in the vault>", "$DB_PASSPHRASE") or says where one is kept
        # ("in the team vault").
        if words[0].lower() in _WHERE_WORDS:
            return False
        return not any(not_a_secret(word) and not word.isalnum() for word in words)
    if len(value) < MIN_PASSWORD or len(words) > 1 or not_a_secret(value):
        return False
    # One word must look like a password (a digit or a symbol in it): "is stored in Vault"
    # states none.
    return any(not char.isalpha() for char in value)


def stated_passwords(text: str) -> Iterator[Hit]:
    """Every password or passphrase `text` states in a sentence."""
    lowered = text.lower()
    for row in STATED:
        if not any(key in lowered for key in row.keys):
            continue
        for match in compiled(_pattern(row)).finditer(text):
            group = next(g for g in range(1, 9) if match.group(g) is not None)
            if _a_password(match.group(group), quoted=group < 8):
                yield Hit(STATED_CODE, match.start(group), match.end(group))
