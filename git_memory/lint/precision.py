"""Cheap precision filters on top of the reference patterns (which stay the floor).

Each filter recognises a shape real credentials do not have: placeholder bodies
(`ghp_xxxx…`), ascending-run fakes for generic key prefixes, Slack tokens without their
numeric team/user part, and empty private-key blocks. Filters judge the matched text only:
what surrounds a token (Markdown emphasis, a heading, an ellipsis after it) never lowers a
finding, so `**sk-proj-…**` blocks like the bare key.
"""

from __future__ import annotations

import re

from git_memory.lint.entropy import sequence_share
from git_memory.lint.rules import PatternRule, Severity

TOKEN_PREFIX = re.compile(r"(?:AKIA|ASIA|gh[oprsu]_|github_pat_|glpat-|npm_|AIza|xox[abps]-|sk-)")
TOKEN_RULES = frozenset(
    f"GM_LINT_{name}"
    for name in (
        "AWS_ACCESS_KEY",
        "GITHUB_TOKEN",
        "GITLAB_TOKEN",
        "NPM_TOKEN",
        "GOOGLE_API_KEY",
        "SLACK_TOKEN",
        "MODEL_API_KEY",
    )
)
SEQUENCE_CHECKED = frozenset({"GM_LINT_GOOGLE_API_KEY", "GM_LINT_MODEL_API_KEY"})
SLACK_BODY = re.compile(r"[0-9]{6,}-[A-Za-z0-9-]{13,}")
PRIVATE_KEY_END = re.compile(r"-----END [A-Z ]*PRIVATE KEY-----")
KEY_MATERIAL = re.compile(r"[A-Za-z0-9+/=]")
MIN_KEY_MATERIAL = 64
PUBLIC_ARMOR = re.compile(
    r"-----BEGIN (?:PGP PUBLIC KEY BLOCK|PUBLIC KEY|CERTIFICATE|SSH2 PUBLIC KEY)-----"
)
ARMOR_BODY = re.compile(r"[A-Za-z0-9+/=]+")
ARMOR_HEADER = re.compile(r"[A-Za-z-]+: .*")


def adjust(rule: PatternRule, text: str, match: re.Match[str]) -> Severity | None:
    """The severity of a pattern match after the precision filters (None: not a finding)."""
    token = match.group()
    if rule.code in TOKEN_RULES:
        prefix = TOKEN_PREFIX.match(token)
        body = token[prefix.end() :] if prefix else token
        if len(set(body.replace("-", "").replace("_", ""))) <= 3:
            return None
        if rule.code in SEQUENCE_CHECKED and sequence_share(body) >= 0.5:
            return None
        if rule.code == "GM_LINT_SLACK_TOKEN" and (
            SLACK_BODY.match(body) is None or token.endswith("-")
        ):
            return None  # no numeric ids, or only the ids before the secret (`xoxp-1-2-3-###`)
    if rule.code == "GM_LINT_PRIVATE_KEY_BLOCK" and _empty_key_block(text, match.end()):
        return None
    return rule.severity


def _empty_key_block(text: str, body_start: int) -> bool:
    end = PRIVATE_KEY_END.search(text, body_start)
    if end is None:
        return False
    material = KEY_MATERIAL.findall(text, body_start, end.start())
    return len(material) < MIN_KEY_MATERIAL


def public_armor_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) ranges of the body lines of public key / certificate blocks.

    Only lines made of base64 alone are public material; a block ends at its END line or at
    the first line that is neither body, armor header nor blank, so a BEGIN line without an
    END exempts nothing after the block (a token written below it is judged as usual).
    """
    if "-----BEGIN " not in text:
        return []
    spans = []
    for begin in PUBLIC_ARMOR.finditer(text):
        spans += _armor_body(text, text.find("\n", begin.end()) + 1)
    return spans


def _armor_body(text: str, start: int) -> list[tuple[int, int]]:
    body = []
    while 0 < start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip("\r")
        if line.startswith("-----END "):
            break
        if ARMOR_BODY.fullmatch(line):
            body.append((start, start + len(line)))
        elif line and not ARMOR_HEADER.fullmatch(line):
            break
        start = end + 1
    return body
