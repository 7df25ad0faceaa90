"""Cheap precision filters on top of the reference patterns (which stay the floor).

Each filter recognises a shape real credentials do not have: placeholder bodies
(`ghp_xxxx…`), ascending-run fakes for generic key prefixes, Slack tokens without their
numeric team/user part, empty private-key blocks, and elided examples (`…`, `...`) that show
only part of a token, which are downgraded to warnings rather than dropped.
"""

from __future__ import annotations

import re

from git_memory.lint.entropy import sequence_share
from git_memory.lint.rules import BLOCK, WARN, PatternRule, Severity

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
ELISIONS = ("...", "…", "##", "**")
PUBLIC_ARMOR = re.compile(
    r"-----BEGIN (?:PGP PUBLIC KEY BLOCK|PUBLIC KEY|CERTIFICATE|SSH2 PUBLIC KEY)-----"
)


def elided(text: str, start: int, end: int) -> bool:
    """Whether the token at [start, end) is visibly cut short (`…`, `...`, `###` around it)."""
    after = text[end : end + 3]
    before = text[max(0, start - 3) : start]
    return any(after.startswith(mark) or before.endswith(mark) for mark in ELISIONS)


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
        if rule.code == "GM_LINT_SLACK_TOKEN" and SLACK_BODY.match(body) is None:
            return None
    if rule.code == "GM_LINT_PRIVATE_KEY_BLOCK" and _empty_key_block(text, match.end()):
        return None
    if rule.severity == BLOCK and elided(text, match.start(), match.end()):
        return WARN
    return rule.severity


def _empty_key_block(text: str, body_start: int) -> bool:
    end = PRIVATE_KEY_END.search(text, body_start)
    if end is None:
        return False
    material = KEY_MATERIAL.findall(text, body_start, end.start())
    return len(material) < MIN_KEY_MATERIAL


def public_armor_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) ranges of public key / certificate blocks (public by definition)."""
    if "-----BEGIN " not in text:
        return []
    spans = []
    for begin in PUBLIC_ARMOR.finditer(text):
        end = text.find("-----END ", begin.end())
        spans.append((begin.start(), len(text) if end < 0 else end))
    return spans
