"""The lint rule table (docs/formats.md): what blocks a commit and what only warns.

Each pattern rule carries `triggers`: literal substrings at least one of which every match
contains. Text without any trigger skips the regex, which is what keeps the pre-commit hook
fast on large memory roots (most rules never run on ordinary prose).
"""

from __future__ import annotations

import re

from git_memory.lint.assigned import ASSIGNED_CODE, HTTP_CODE
from git_memory.lint.directive_keywords import DIRECTIVE_CODES
from git_memory.lint.prose import STATED_CODE
from git_memory.patterns import compiled
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Severity = Literal["block", "warn"]

BLOCK: Severity = "block"
WARN: Severity = "warn"


class PatternRule(Record):
    """A regex rule: any match is a finding (unless `allowed` says otherwise)."""

    code: str
    severity: Severity
    message: str
    source: str
    triggers: tuple[str, ...]
    # A cheap regex every match also contains, for rules whose literal triggers are too common.
    prefilter_source: str | None = None

    # Compiled on first use and kept: text without any trigger never needs them, so the
    # pre-commit hook does not compile every rule at start-up.
    @property
    def pattern(self) -> re.Pattern[str]:
        """The rule's compiled regex."""
        return compiled(self.source)

    @property
    def prefilter(self) -> re.Pattern[str] | None:
        """The compiled prefilter, if the rule has one."""
        return None if self.prefilter_source is None else compiled(self.prefilter_source)


def _rule(
    name: str,
    severity: Severity,
    message: str,
    pattern: str,
    triggers: tuple[str, ...],
    *,
    prefilter: str | None = None,
) -> PatternRule:
    return PatternRule(
        code=f"GM_LINT_{name}",
        severity=severity,
        message=message,
        source=pattern,
        triggers=triggers,
        prefilter_source=prefilter or None,
    )


NOT_ALNUM_BEFORE = r"(?<![A-Za-z0-9])"

PATTERN_RULES: tuple[PatternRule, ...] = (
    _rule(
        "AWS_ACCESS_KEY",
        BLOCK,
        "AWS access key id",
        NOT_ALNUM_BEFORE + r"(?:AKIA|ASIA)[0-9A-Z]{16}",
        ("AKIA", "ASIA"),
    ),
    _rule(
        "GITHUB_TOKEN",
        BLOCK,
        "GitHub token",
        NOT_ALNUM_BEFORE + r"(?:gh[oprsu]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})",
        ("gho_", "ghp_", "ghr_", "ghs_", "ghu_", "github_pat_"),
    ),
    _rule(
        "GITLAB_TOKEN",
        BLOCK,
        "GitLab personal access token",
        NOT_ALNUM_BEFORE + r"glpat-[A-Za-z0-9_-]{16,}",
        ("glpat-",),
    ),
    _rule(
        "NPM_TOKEN",
        BLOCK,
        "npm access token",
        NOT_ALNUM_BEFORE + r"npm_[A-Za-z0-9]{16,}",
        ("npm_",),
    ),
    _rule(
        "GOOGLE_API_KEY",
        BLOCK,
        "Google API key",
        NOT_ALNUM_BEFORE + r"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
        ("AIza",),
    ),
    _rule(
        "SLACK_TOKEN",
        BLOCK,
        "Slack token",
        NOT_ALNUM_BEFORE + r"xox[abps]-[A-Za-z0-9-]{8,}",
        ("xoxa-", "xoxb-", "xoxp-", "xoxs-"),
    ),
    _rule(
        "MODEL_API_KEY",
        BLOCK,
        "model provider API key",
        NOT_ALNUM_BEFORE + r"sk-[A-Za-z0-9_-]{20,}",
        ("sk-",),
    ),
    _rule(
        "PRIVATE_KEY_BLOCK",
        BLOCK,
        "private key block",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        ("-----BEGIN ",),
    ),
    _rule(
        "JWT",
        BLOCK,
        "JSON Web Token",
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ("eyJ",),
    ),
    _rule(
        "URL_CREDENTIALS",
        BLOCK,
        "credentials in a URL",
        # The reference pattern, widened to passwords holding a `/` (`postgres://u:pa/ss@h`);
        # a port followed by a path (`host:8080/a/@b`) is not a password.
        r"://[^\s/@:]+:(?![0-9]*/)[^\s@]+@",
        ("://",),
    ),
    _rule(
        "TWILIO_API_KEY",
        BLOCK,
        "Twilio API key",
        NOT_ALNUM_BEFORE + r"SK[0-9a-fA-F]{32}(?![0-9A-Za-z])",
        ("SK",),
        prefilter=r"SK[0-9a-fA-F]{32}",
    ),
    _rule(
        "MAILGUN_API_KEY",
        BLOCK,
        "Mailgun API key",
        NOT_ALNUM_BEFORE + r"key-[0-9a-fA-F]{32}(?![0-9A-Za-z])",
        ("key-",),
    ),
    _rule(
        "DIGITALOCEAN_TOKEN",
        BLOCK,
        "DigitalOcean token",
        NOT_ALNUM_BEFORE + r"do[opr]_v1_[0-9a-fA-F]{64}(?![0-9A-Za-z])",
        ("dop_v1_", "doo_v1_", "dor_v1_"),
    ),
    _rule(
        "PROVIDER_SESSION_ID",
        BLOCK,
        "agent transcript location (names a private session)",
        # `~/.claude/projects/` as the reference has it, and any absolute spelling of it; the
        # transcript homes of the other agents the session index reads
        # (docs/sessions.md), in either slash; and the session ids those agents put in
        # file names: Gemini's `session-<date>T<time>-<8 hex>`, OpenCode's `ses_…`, Copilot's
        # legacy `session_<uuid>`.
        r"/\.claude/projects/|\.codex/sessions|\\\.claude\\projects\\|\.codex\\sessions"
        r"|AppData\\(?:[^\\\s]+\\)*Claude(?![A-Za-z0-9])"
        r"|\.gemini[/\\]tmp(?![A-Za-z0-9_-])|\.qwen[/\\](?:projects|tmp|todos|debug)(?![A-Za-z0-9_-])"
        r"|\.copilot[/\\](?:history-)?session-(?:state|store)"
        r"|\.cursor[/\\](?:projects|chats)(?![A-Za-z0-9_-])|agent-transcripts(?![A-Za-z0-9_-])"
        r"|opencode[/\\](?:storage|opencode\.db)(?![A-Za-z0-9_-])"
        r"|session-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-[0-9a-fA-F]{8}(?![0-9A-Za-z])"
        r"|(?<![A-Za-z0-9])ses_[0-9a-f]{12}[0-9A-Za-z]{14}(?![0-9A-Za-z])"
        r"|session_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        (
            *(".claude", ".codex", "AppData", ".gemini", ".qwen", ".copilot", ".cursor"),
            *("agent-transcripts", "opencode", "session-", "ses_", "session_"),
        ),
    ),
    _rule(
        "ABSOLUTE_PATH",
        BLOCK,
        "absolute home path",
        # `/Users/…` and `/home/…` as the reference has them, root's home and a Windows
        # profile; the real `$HOME`, whatever it is, is added by the callers that know it.
        # A home path names a person and their machine: it blocks a commit as a secret does
        # (SPEC §1), not only a promotion.
        r"/(?:Users|USERS|home)/[^\s\"'`)\]]+"
        r"|(?<![A-Za-z0-9_.~/-])/root(?![A-Za-z0-9_.-])[^\s\"'`)\]]*"
        # a Windows profile in any case (the file system ignores it), with either separator,
        # its backslashes doubled inside JSON; a drive's letter, not the end of a word or of a
        # URL's path (`e.g:/users/…`, `http://x/a:/users/…`)
        r"|(?<![\w.])(?<!\w/)[A-Za-z]:(?:\\{1,2}|/)(?i:users)(?:\\{1,2}|/)[^\s\\/\"'`)\]]+"
        # a Linux home of WSL through Windows's share (any case, either separator):
        # \\wsl$\Ubuntu\home\bob
        r"|(?i:wsl(?:\$|\.localhost))[\\/]{1,2}[^\s\\/]+[\\/]{1,2}home[\\/]{1,2}[^\s\\/\"'`)\]]+",
        # every Windows profile holds its drive's `:\` or `:/`; a WSL share starts with `\\`,
        # or with `//` before its `/home/`
        ("/Users/", "/USERS/", "/home/", "/root", ":\\", ":/", "\\\\"),
    ),
    _rule(
        "EMAIL",
        WARN,
        "email address",
        r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
        ("@",),
    ),
    _rule(
        "IP_PORT",
        WARN,
        "IP address with port",
        r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}(?!\d)",
        (":",),
        prefilter=r"\.\d{1,3}:\d",
    ),
)

# Session ids are v4 UUIDs; they block only near the words session, transcript,
# conversation or resume: 48 chars either
# side on the UUID's own line (a "Sessions" heading does not make every UUID below it one).
# Kept as sources and compiled on first use (`git_memory.patterns`): text without the
# prefilter's `-4xxx-[89ab]` never needs them.
SESSION_UUID = (
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}"
)
# Any UUID: most indexed session ids have this shape, and finding the candidates
# once is cheaper than searching the text for each of thousands of known ids.
ANY_UUID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE
)
SESSION_UUID_PREFILTER = re.compile(r"-4[0-9a-fA-F]{3}-[89abAB]")
# "agent" alone is not one: an agent pool, a build agent or a user agent has ids too.
SESSION_CONTEXT = r"(?i:session|transcript|conversation|resume)"
SESSION_CONTEXT_RADIUS = 48
SESSION_ID_CODE = "GM_LINT_PROVIDER_SESSION_ID"

# Candidate secrets for the entropy rule, and long hex runs (warn only).
ENTROPY_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{20,}")
ENTROPY_THRESHOLD = 4.0
ENTROPY_CODE = "GM_LINT_HIGH_ENTROPY"
# A source compiled on first use: only a token of 32 characters or more is searched.
HEX_RUN = r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,}(?![0-9a-fA-F])"
HEX_RUN_MIN = 32
HEX_RUN_CODE = "GM_LINT_POSSIBLE_ENCODED_SECRET"
# A bare 40- or 64-hex token is a key as often as a hash (a SHA-1 commit, a SHA-256 sum): it
# blocks unless it is the entry's id or a commit the entry declares as evidence.
HEX_TOKEN_LENGTHS = frozenset({40, 64})
HEX_TOKEN_CODE = "GM_LINT_HEX_TOKEN"
INVISIBLE_CODE = "GM_LINT_INVISIBLE_CHARACTER"

CONTROL_CODE = "GM_LINT_CONTROL_CHARACTER"
INDEX_STALE_CODE = "GM_INDEX_STALE"
SYMLINK_CODE = "GM_LINT_SYMLINK"

# Every lint code with its severity and a one-line description (documentation, SARIF rules).
LINT_CODES: dict[str, tuple[Severity, str]] = {
    **{rule.code: (rule.severity, rule.message) for rule in PATTERN_RULES},
    ENTROPY_CODE: (BLOCK, "high-entropy token (looks like a secret)"),
    HEX_RUN_CODE: (WARN, "long hex run (a hash, or an encoded secret)"),
    HEX_TOKEN_CODE: (BLOCK, "bare 40- or 64-hex token (a key, or a hash not declared as evidence)"),
    ASSIGNED_CODE: (BLOCK, "secret assigned to a key, token, secret or password name"),
    HTTP_CODE: (BLOCK, "HTTP Basic or Bearer credentials"),
    STATED_CODE: (BLOCK, "password or passphrase stated in a sentence"),
    CONTROL_CODE: (BLOCK, "control or bidi character (can hide or reorder text)"),
    INVISIBLE_CODE: (BLOCK, "invisible character (zero-width, soft hyphen, tag): hides text"),
    INDEX_STALE_CODE: (WARN, "index.json differs from the memory tree"),
    SYMLINK_CODE: (BLOCK, "symbolic link in the memory root"),
    **{code: (WARN, message) for code, message in DIRECTIVE_CODES.items()},
}
