"""Versioned prompt texts, shipped as package data (`memory-prompts@…`).

A prompt's version is part of every task digest: changing a text without bumping its version
would let a stale task pass as current, so `tests/extract/test_prompts.py` pins the digests.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

EXTRACTION_PROMPT_VERSION = "memory-prompts@2"
ADJUDICATION_PROMPT_VERSION = "memory-adjudication@2"

_FILES = {
    EXTRACTION_PROMPT_VERSION: "extraction.md",
    ADJUDICATION_PROMPT_VERSION: "adjudication.md",
}


@cache
def prompt_text(version: str) -> str:
    """The prompt text of `version`."""
    return resources.files(__name__).joinpath(_FILES[version]).read_text(encoding="utf-8")
