"""Cheap precision filters on top of the reference patterns (which stay the floor).

Each filter recognises a shape real credentials do not have: placeholder bodies
(`ghp_xxxx…`), ascending-run fakes for generic key prefixes, Slack tokens without their
numeric team/user part, and empty private-key blocks. Filters judge the matched text only:
what surrounds a token (Markdown emphasis, a heading, an ellipsis after it) never lowers a
finding, so `**sk-proj-…**` blocks like the bare key.
"""

from __future__ import annotations

import re

from git_memory.lint.armor import is_public_material
from git_memory.lint.entropy import sequence_share
from git_memory.lint.rules import PatternRule
from git_memory.patterns import compiled

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from git_memory.lint.rules import Severity

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
SLACK_BODY = r"[0-9]{6,}-[A-Za-z0-9-]{13,}"
PRIVATE_KEY_END = r"-----END [A-Z ]*PRIVATE KEY-----"
KEY_MATERIAL = r"[A-Za-z0-9+/=]"
MIN_KEY_MATERIAL = 64
# PEM and OpenPGP armor (five dashes), and RFC 4716's `---- BEGIN SSH2 PUBLIC KEY ----`.
PUBLIC_ARMOR = (
    r"(-----|---- )BEGIN (PGP PUBLIC KEY BLOCK|PUBLIC KEY|CERTIFICATE|SSH2 PUBLIC KEY)"
    r"(?:-----| ----)[ \t]*\r?\n"
)
ARMOR_BODY = r"[A-Za-z0-9+/=]+"
ARMOR_HEADER = r"[A-Za-z-]+: .*"
PGP_CHECKSUM = r"=[A-Za-z0-9+/]{4}"


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
            compiled(SLACK_BODY).match(body) is None or token.endswith("-")
        ):
            return None  # no numeric ids, or only the ids before the secret (`xoxp-1-2-3-###`)
    if rule.code == "GM_LINT_PRIVATE_KEY_BLOCK" and _empty_key_block(text, match.end()):
        return None
    return rule.severity


def _empty_key_block(text: str, body_start: int) -> bool:
    end = compiled(PRIVATE_KEY_END).search(text, body_start)
    if end is None:
        return False
    material = compiled(KEY_MATERIAL).findall(text, body_start, end.start())
    return len(material) < MIN_KEY_MATERIAL


def public_armor_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) ranges of the body lines of complete public key / certificate blocks.

    A block is exempt only whole: its BEGIN line, then base64 lines (armor headers and blank
    lines between), then the matching END line, and a body that decodes to what the label
    says (`lint.armor`). A BEGIN line alone, a line of anything else inside, or a private key
    relabelled as a certificate exempts nothing: the entropy rule judges those lines.
    """
    if "BEGIN " not in text:
        return []
    spans: list[tuple[int, int]] = []
    for begin in compiled(PUBLIC_ARMOR).finditer(text):
        dashes, label = begin.groups()
        end_line = f"{dashes}END {label}{dashes[::-1]}"
        spans += _armor_body(text, begin.end(), label, end_line)
    return spans


def _armor_body(text: str, start: int, label: str, end_line: str) -> list[tuple[int, int]]:
    body: list[tuple[int, int]] = []
    material: list[str] = []
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip("\r")
        if line.rstrip() == end_line:
            return body if is_public_material(label, "".join(material)) else []
        if label == "PGP PUBLIC KEY BLOCK" and compiled(PGP_CHECKSUM).fullmatch(line):
            body.append((start, start + len(line)))
        elif compiled(ARMOR_BODY).fullmatch(line):
            body.append((start, start + len(line)))
            material.append(line)
        elif line and not compiled(ARMOR_HEADER).fullmatch(line):
            return []
        start = end + 1
    return []
