"""Slugs abbreviate commit hashes the way git does."""

from __future__ import annotations

from git_memory.formats.slug import slugify


def test_a_commit_hash_is_abbreviated_to_seven_characters() -> None:
    text = "Commit 2ff943adc0d57f68b31833a55008ed56057dc46b changed `src/app.py`."
    assert slugify(text) == "commit-2ff943a-changed-src-app-py"


def test_words_and_short_hex_are_left_alone() -> None:
    assert slugify("deadbeefcafe is a word") == "deadbeefcafe-is-a-word"
    assert slugify("Use sha 1a2b3c4 here") == "use-sha-1a2b3c4-here"
