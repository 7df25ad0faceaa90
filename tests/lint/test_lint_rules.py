"""Lint rule cases: every positive blocks (or warns), every negative is clean."""

from __future__ import annotations

import json

import pytest

from git_memory.lint.engine import lint_text, scan_secrets
from tests.conftest import FIXTURES

SESSION_UUID = "6f9619ff-8b86-4d11-b42d-00c04fc964ff"
HEX16 = "0123456789abcdef"
COMMIT = "3f786850e387550fdab836ed7e6dc881de23001b"
HEX = "GM_LINT_POSSIBLE_ENCODED_SECRET"

BLOCKS = [
    ("AKIAIOSFODNN7EXAMPLE", "GM_LINT_AWS_ACCESS_KEY"),
    ("ASIAIOSFODNN7EXAMPLE", "GM_LINT_AWS_ACCESS_KEY"),
    *[(f"gh{c}_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "GM_LINT_GITHUB_TOKEN") for c in "posur"],
    ("github_pat_11ABCDEFG0abcdefghijklmnopqrstuv", "GM_LINT_GITHUB_TOKEN"),
    ("glpat-AbCdEfGhIjKlMnOpQrSt", "GM_LINT_GITLAB_TOKEN"),
    ("npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "GM_LINT_NPM_TOKEN"),
    ("AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tUvW", "GM_LINT_GOOGLE_API_KEY"),
    ("xoxb-1234567890-abcdefghijklmn", "GM_LINT_SLACK_TOKEN"),
    ("xoxp-1234567890-abcdefghijklmn", "GM_LINT_SLACK_TOKEN"),
    ("sk-ant-api03-AbCdEf0123456789AbCdEf", "GM_LINT_MODEL_API_KEY"),
    ("sk-proj-AbCdEf0123456789AbCdEf01", "GM_LINT_MODEL_API_KEY"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "GM_LINT_PRIVATE_KEY_BLOCK"),
    ("-----BEGIN RSA PRIVATE KEY-----", "GM_LINT_PRIVATE_KEY_BLOCK"),
    ("-----BEGIN PRIVATE KEY-----", "GM_LINT_PRIVATE_KEY_BLOCK"),
    (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        "c2lnbmF0dXJlLXNpZ25hdHVyZQ",
        "GM_LINT_JWT",
    ),
    ("https://alice:hunter2@git.example.com/repo.git", "GM_LINT_URL_CREDENTIALS"),
    ("A7fK9mQ2xVbZ8cRt4YwPl6NhE3sDgU1oZq5J", "GM_LINT_HIGH_ENTROPY"),
    ("A7fK9mQ2xVbZ8cRt4YwPl6NhE3s", "GM_LINT_HIGH_ENTROPY"),
    ("secret: " + HEX16 * 4, "GM_LINT_HIGH_ENTROPY"),
    ("secret: " + HEX16.upper() * 4, "GM_LINT_HIGH_ENTROPY"),
    (f"resume session {SESSION_UUID}", "GM_LINT_PROVIDER_SESSION_ID"),
    (f"claude --resume {SESSION_UUID}", "GM_LINT_PROVIDER_SESSION_ID"),
    # A home path names a person and their machine: it blocks (issue 45 item 2).
    ("/Users/wyatt/work/threadshare/notes.md", "GM_LINT_ABSOLUTE_PATH"),
    ("/home/alice/notes.md", "GM_LINT_ABSOLUTE_PATH"),
    # a Windows profile in any case, with either separator, escaped inside JSON
    ("c:\\users\\alice\\notes.md", "GM_LINT_ABSOLUTE_PATH"),
    ("C:\\USERS\\alice", "GM_LINT_ABSOLUTE_PATH"),
    ("c:/users/alice/notes.md", "GM_LINT_ABSOLUTE_PATH"),
    ('{"cwd": "C:\\\\Users\\\\alice\\\\app"}', "GM_LINT_ABSOLUTE_PATH"),
    ("cd C:\\UsErS\\alice\\src", "GM_LINT_ABSOLUTE_PATH"),
    ("dir c:/Users\\alice\\src", "GM_LINT_ABSOLUTE_PATH"),
    ("dir /C/USERS/alice/src", "GM_LINT_ABSOLUTE_PATH"),
    # a WSL home through Windows's share, as typed and escaped inside JSON
    ("cd \\\\wsl$\\Ubuntu\\home\\alice\\src", "GM_LINT_ABSOLUTE_PATH"),
    ("\\\\WSL.localhost\\Debian\\home\\alice", "GM_LINT_ABSOLUTE_PATH"),
    ('{"cwd": "\\\\\\\\wsl$\\\\Ubuntu\\\\home\\\\alice"}', "GM_LINT_ABSOLUTE_PATH"),
    ("cd \\\\Wsl$\\Ubuntu\\home\\alice\\src", "GM_LINT_ABSOLUTE_PATH"),
    ("cd \\\\WSL.LOCALHOST\\Ubuntu\\home\\alice", "GM_LINT_ABSOLUTE_PATH"),
    ("cd \\\\wsl$/Ubuntu\\home\\alice\\src", "GM_LINT_ABSOLUTE_PATH"),
    ("~/.claude/projects/-Users-x/", "GM_LINT_PROVIDER_SESSION_ID"),
    (".codex/sessions", "GM_LINT_PROVIDER_SESSION_ID"),
    ("C:\\Users\\x\\.claude\\projects\\-Users-x\\", "GM_LINT_PROVIDER_SESSION_ID"),
    ("C:\\Users\\x\\.codex\\sessions", "GM_LINT_PROVIDER_SESSION_ID"),
    ("C:\\Users\\x\\AppData\\Roaming\\Claude\\logs", "GM_LINT_PROVIDER_SESSION_ID"),
]

# The reference warns on a bare commit in prose and on 64 hex digits; a bare 40- or 64-hex
# token now blocks (issue 27: it is a key as often as a hash), below in HEX_TOKENS.
WARNS = [
    ("e3b0c44298fc1c149afbf4c8996fb924", "GM_LINT_POSSIBLE_ENCODED_SECRET"),
    ("ab" * 32, "GM_LINT_POSSIBLE_ENCODED_SECRET"),
    ("dev@example.com", "GM_LINT_EMAIL"),
    ("10.0.0.1:8080", "GM_LINT_IP_PORT"),
]

CLEAN = [
    # a word or a URL's path before `:/users/` is no drive's letter
    "See e.g:/users/42 in the API docs",
    "GET http://x/a:/users/me",
    "AKIAIOSF",
    "ASIAIOSF",
    "BAKIAIOSFODNN7EXAMPLE",
    "ghp_short",
    "ghu_short",
    "use the github pat workflow",
    "glpat-short",
    "npm_short",
    "run npm_install alias",
    "AIzaShort",
    "xoxz-1234567890-abcdefghijklmn",
    "sk-short",
    "-----BEGIN PUBLIC KEY-----",
    "eyJhbGciOiJIUzI1NiJ9",
    "prefix.eyJz.short",
    "https://git.example.com/repo.git",
    "ssh://git@github.com/org/repo.git",
    "abc" * 11,
    "staging-mobile-e2e-suite-verification-notes",
    "Zq5JA7fK9mQ2xVbZ8cR",
    HEX16,
    "a" * 31,
    "build 42 at rev 7 today",
    f"deployment {SESSION_UUID}",
    # An agent pool, a build agent or a user agent has ids too (issue 42 L5).
    f"the agent id was {SESSION_UUID}",
    "session 6f9619ff-8b86-1d11-b42d-00c04fc964ff",
    "docs/Users-guide.md",
    "release 1.2.3",
    "versions 1.2.3.4",
]


def codes(text: str) -> list[str]:
    return [f.code for f in lint_text("notes/free.md", text)]


@pytest.mark.parametrize(("text", "code"), BLOCKS)
def test_reference_positive_blocks(text: str, code: str) -> None:
    findings = lint_text("notes/free.md", text)
    matching = [f for f in findings if f.code == code]
    assert matching, findings
    assert all(f.severity == "block" for f in matching)


@pytest.mark.parametrize(("text", "code"), WARNS)
def test_reference_warn_cases_only_warn(text: str, code: str) -> None:
    findings = lint_text("notes/free.md", text)
    assert code in [f.code for f in findings]
    assert all(f.severity == "warn" for f in findings), findings


# Reference negatives target one rule each; two of them still carry a warning of another
# family (an scp-style `git@github.com` reads as an email, `abc…` is a hex run).
STILL_WARNS = {"ssh://git@github.com/org/repo.git": "GM_LINT_EMAIL", "abc" * 11: HEX}


@pytest.mark.parametrize("text", CLEAN)
def test_reference_negative_is_clean(text: str) -> None:
    expected = [STILL_WARNS[text]] if text in STILL_WARNS else []
    assert codes(text) == expected


HEX_TOKENS = [
    f"fixed in {COMMIT} last week",
    "e3b0c44298fc1c149afbf4c8996fb924" * 2,
    "MantleAPI_version=9a038989604e8da62ecddbe2094b16ce1b778be1",  # a commit, undeclared
]


@pytest.mark.parametrize("text", HEX_TOKENS)
def test_bare_40_and_64_hex_tokens_block(text: str) -> None:
    assert [(f.code, f.severity) for f in lint_text("notes/free.md", text)] == [
        ("GM_LINT_HEX_TOKEN", "block")
    ]


def test_commit_hash_is_entropy_clean_and_blocks_only_as_a_hex_token() -> None:
    assert codes(COMMIT) == ["GM_LINT_HEX_TOKEN"]


@pytest.mark.parametrize(("text", "_code"), BLOCKS)
def test_excerpt_never_shows_whole_secret(text: str, _code: str) -> None:
    for finding in lint_text("notes/free.md", text):
        assert len(finding.excerpt) <= 24
        assert len(finding.excerpt.split("…")[0]) < len(text) // 2 + 1


def test_camel_case_identifier_does_not_trip_entropy() -> None:
    assert codes("call getPagesInConfluenceSpaceWithRetry now") == []
    assert codes("use ConfluenceSearchUsingCqlQueryBuilder here") == []


def test_random_letters_still_trip_entropy() -> None:
    assert "GM_LINT_HIGH_ENTROPY" in codes("token QwErTyUiOpAsDfGhJkLzXcVbNm here")


def test_position_is_line_and_column() -> None:
    [finding] = lint_text("notes/free.md", "first line\n  key AKIAIOSFODNN7EXAMPLE\n")
    assert (finding.line, finding.column) == (2, 7)


def test_scan_secrets_sorted_raw_offsets() -> None:
    raw = scan_secrets("x AKIAIOSFODNN7EXAMPLE")
    assert [r.offset for r in raw] == [2]


PRECISION_PASSES = [
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "key = AKIAXXXXXXXXXXXXXXXX",
    "xoxb-12345-abcd234",
    "xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere",
    "sk-ant-api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA",
    "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
    "-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----",
    "api_org_96726c78_4ae3_402f_b08b_7a78c6903d2a.xml",
    "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29x",
    "meraki: abdefghjk0123456789mnopqrstuvwx12345678",
    "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
]


@pytest.mark.parametrize("text", PRECISION_PASSES)
def test_placeholder_shapes_do_not_block(text: str) -> None:
    assert [f.code for f in lint_text("notes/free.md", text) if f.blocks] == []


def test_an_ellipsis_after_a_token_does_not_lower_it() -> None:
    findings = lint_text("notes/free.md", "export TOKEN=A7fK9mQ2xVbZ8cRt4YwPl6NhE3sDgU1oZq5J...")
    assert {f.code for f in findings if f.blocks} >= {"GM_LINT_HIGH_ENTROPY"}


def test_public_key_armor_is_not_entropy() -> None:
    items = json.loads((FIXTURES / "lint-gitleaks-fps.json").read_text(encoding="utf-8"))["items"]
    block = next(i["text"] for i in items if i["text"].startswith("-----BEGIN PGP PUBLIC KEY"))
    assert [f for f in lint_text("notes/free.md", block) if f.blocks] == []
    cut = block[: block.index("\n", 200)] + "\n"  # the BEGIN line and some body, no END
    assert "GM_LINT_HIGH_ENTROPY" in [f.code for f in lint_text("notes/free.md", cut)]


def test_private_key_with_material_blocks() -> None:
    material = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj" * 2
    text = f"-----BEGIN PRIVATE KEY-----\n{material}\n-----END PRIVATE KEY-----"
    assert "GM_LINT_PRIVATE_KEY_BLOCK" in [f.code for f in lint_text("n.md", text) if f.blocks]


def test_precision_filters_keep_random_keys() -> None:
    """Random keys the floor rule blocks are still blocked (filters cost < 0.1 % recall)."""
    import base64
    import random
    import string

    from git_memory.lint.entropy import shannon_bits

    rng = random.Random(11)
    alphabet = string.ascii_letters + string.digits
    floor_blocked = lost = 0
    for number in range(3000):
        length = rng.randint(20, 64)
        if number % 3 == 0:
            token = base64.b64encode(rng.randbytes(length * 3 // 4)).decode()
        elif number % 3 == 1:
            token = "".join(rng.choice(alphabet) for _ in range(length))
        else:
            token = base64.urlsafe_b64encode(rng.randbytes(length * 3 // 4)).decode().rstrip("=")
        if shannon_bits(token) < 4.0:
            continue
        floor_blocked += 1
        if not any(f.blocks for f in lint_text("n.md", f"key {token} here")):
            lost += 1
    assert floor_blocked > 2500
    assert lost / floor_blocked < 0.002
