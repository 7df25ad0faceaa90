"""Normalization and code-point budgets against the shared Unicode vectors."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.formats.normalize import code_points, normalize_text
from tests.consolidate.conftest_helpers import op, scene_text, validate

VECTORS = json.loads((Path(__file__).parent / "unicode_vectors.v1.json").read_text())["vectors"]


def _text(part: dict[str, Any]) -> str:
    return str(part["unit"]) * int(part["repeat"])


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["name"])
def test_normalization_count_and_digest(vector: dict[str, Any]) -> None:
    normalized = normalize_text(_text(vector["input"]))
    assert normalized == _text(vector["normalized"])
    assert code_points(normalized) == vector["codePointCount"]
    assert hashlib.sha256(normalized.encode("utf-8")).hexdigest() == vector["sha256"]
    assert (code_points(normalized) <= vector["maxCodePoints"]) is vector["accepted"]


def _accepted(content: str) -> bool:
    try:
        validate([op(newContent=content)])
    except GitMemoryError:
        return False
    return True


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS if v["name"].startswith("summary-")], ids=lambda v: v["name"]
)
def test_summary_budget_through_a_patch(vector: dict[str, Any]) -> None:
    assert _accepted(scene_text(summary=_text(vector["input"]))) is vector["accepted"]


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS if v["name"].startswith("scene-body-")], ids=lambda v: v["name"]
)
def test_body_budget_through_a_patch(vector: dict[str, Any]) -> None:
    assert _accepted(scene_text(body=_text(vector["input"]))) is vector["accepted"]


def test_trailing_blanks_do_not_count_against_the_body_budget() -> None:
    assert _accepted(scene_text(body="b" * 1500 + " \t"))
    assert _accepted(scene_text(body="b" * 1499 + "\r\n"))


def test_zwj_sequences_count_every_code_point() -> None:
    woman_technologist = "\U0001f469\u200d\U0001f4bb"
    assert _accepted(scene_text(summary=woman_technologist * 13 + "a"))
    assert not _accepted(scene_text(summary=woman_technologist * 13 + "ab"))
