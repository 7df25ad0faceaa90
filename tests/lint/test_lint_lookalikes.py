"""Look-alikes and their secrets, judged by the same rules: what visibly is not a secret
passes, and the nearest real shape still blocks. Values are generated here (seeded), not
taken from the look-alike corpus the benchmark measures."""

from __future__ import annotations

import base64
import random

import pytest

from git_memory.lint.engine import lint_text

RNG = random.Random(16_2026)
FRAGMENT = base64.b64encode(RNG.randbytes(72)).decode()[3:-3]  # 90 chars of key material
HEX40 = RNG.randbytes(20).hex()
HEX64 = RNG.randbytes(32).hex()
HEX32 = RNG.randbytes(16).hex()
CONTROL = "GM_LINT_CONTROL_CHARACTER"


def blocking(text: str) -> set[str]:
    return {f.code for f in lint_text("notes/free.md", text) if f.blocks}


@pytest.mark.parametrize("text", [f"...{FRAGMENT}...", f"…{FRAGMENT}…", f"**...{FRAGMENT}...**"])
def test_ellipses_around_a_fragment_of_key_material_do_not_lower_it(text: str) -> None:
    # Cut on both sides, the 90 characters shown are still key material.
    assert "GM_LINT_HIGH_ENTROPY" in blocking(text)


@pytest.mark.parametrize(
    "text",
    [
        "api_key: ...",
        "deploy_token = …",
        "webhook_secret: <redacted>",
        "DB_PASSWORD=XXXX",
        "client_secret: ...redacted...",
    ],
)
def test_an_ellipsis_standing_for_the_secret_is_not_one(text: str) -> None:
    assert blocking(text) == set()


@pytest.mark.parametrize(
    "text",
    [
        f"vendor-api-key: {HEX40[:4]}{HEX40[4].upper()}{HEX40[5:]}",  # one letter upper-cased
        f"vendor_token = {HEX64}R7",  # a hex key with a tail
        f"Client.initialize(token: {HEX32}-us7)",  # a key with its region suffix
    ],
)
def test_hex_assigned_to_a_key_or_token_name_blocks_whatever_its_case_or_tail(text: str) -> None:
    assert "GM_LINT_ASSIGNED_SECRET" in blocking(text)


@pytest.mark.parametrize(
    "value",
    [
        "aaaaaaaaaa1111111111bbbbbbbbbb2222222222",
        "000111222333444555666777888999aaabbbcccddd",
        "ffff0000ffff1111eeee2222dddd3333",
    ],
)
def test_a_value_built_of_repeated_runs_is_a_fake(value: str) -> None:
    assert blocking(f"api_token: {value}") == set()
    assert blocking(f"webhook_secret = {value}") == set()


def test_a_random_value_of_the_same_length_still_blocks() -> None:
    for value in (HEX40, HEX64[:42], HEX32):
        # A random hex value holds a run of three only by chance, never for half its length.
        assert "GM_LINT_ASSIGNED_SECRET" in blocking(f"api_token: {value}")


def test_repeated_runs_of_many_characters_do_not_pass_as_high_entropy() -> None:
    fake = "".join(ch * 3 for ch in "ABCDEFGHJKLMNPQRSTUVWXYZ")  # 4.58 bits per char
    random_key = base64.b64encode(RNG.randbytes(54)).decode()
    assert blocking(f"The build id is {fake} here.") == set()
    assert "GM_LINT_HIGH_ENTROPY" in blocking(f"The build id is {random_key} here.")


def test_control_characters_are_their_own_finding_not_a_secret() -> None:
    binary_looking = "y{}x|~|}\x7f\x7f{~}}~|\x1a;  <\x1f\x1f;\x1f :\x1e?!!;IACa_ecghbfbaebej"
    assert blocking(binary_looking) == {CONTROL}
    assert blocking(binary_looking.replace("\x7f", "").replace("\x1a", "")) == {CONTROL}
    cleaned = "".join(ch for ch in binary_looking if ch.isprintable())
    assert blocking(cleaned) == set()
    secret = f"vendor_token = {HEX64}"
    assert blocking(f"{secret}\x1b[8m") == {CONTROL, "GM_LINT_ASSIGNED_SECRET", "GM_LINT_HEX_TOKEN"}
