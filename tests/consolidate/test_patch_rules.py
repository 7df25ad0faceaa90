"""Every ConsolidationPatch rule, each with a patch that breaks it."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.consolidate.heat import HEAT_MAX
from git_memory.contracts.canonical import digest
from git_memory.errors import GitMemoryError
from tests.consolidate.conftest_helpers import RawOp, context, op, scene_text, validate


def _rule(operations: list[Any], ctx: Any = None, code: str = "GM_PATCH_INVALID") -> str:
    with pytest.raises(GitMemoryError) as caught:
        validate(operations, ctx)
    assert caught.value.code == code
    return str(caught.value.details["rule"])


def test_update_gets_host_heat_and_canonical_meta() -> None:
    patch = validate([op(newContent=scene_text(heat=99) + "  \r\n")])
    [materialized] = patch.operations
    assert materialized.heat == 3
    assert materialized.new_content == scene_text(heat=3) + "\n"
    assert "heat: 99" not in materialized.new_content
    assert [(f.path, f.kind) for f in patch.files] == [("scenes/alpha.md", "write")]
    assert patch.scene_count_after == 3
    assert not patch.no_op


def test_statement_digest_covers_the_materialized_operation() -> None:
    first = validate([op()]).operations[0]
    again = validate([op(newContent=scene_text(heat=7))]).operations[0]
    assert digest(first.to_json()) == digest(again.to_json())
    other = validate([op(rationale="another reason")]).operations[0]
    assert digest(first.to_json()) != digest(other.to_json())


def test_create_starts_at_heat_one() -> None:
    patch = validate([op(op="create", name="delta")])
    assert patch.operations[0].heat == 1
    assert patch.scene_count_after == 4


def test_merge_heat_is_one_plus_the_sources_and_non_target_sources_are_deleted() -> None:
    patch = validate([op(op="merge", mergeSources=["alpha", "beta"])])
    assert patch.operations[0].heat == 1 + 2 + 5
    assert [(f.path, f.kind) for f in patch.files] == [
        ("scenes/alpha.md", "write"),
        ("scenes/beta.md", "delete"),
    ]
    assert patch.scene_count_after == 2


def test_merge_into_a_new_scene_deletes_every_source() -> None:
    patch = validate([op(op="merge", name="delta", mergeSources=["alpha", "gamma"])])
    assert patch.operations[0].heat == 4
    assert [f.path for f in patch.files if f.kind == "delete"] == [
        "scenes/alpha.md",
        "scenes/gamma.md",
    ]


def test_writes_come_before_deletes_each_sorted_by_path() -> None:
    patch = validate(
        [
            op(operationId="d", op="delete", name="gamma", newContent=None, basedOnEntryIds=[]),
            op(operationId="u", name="beta"),
            op(operationId="t", target="doctrine", name="doctrine", newContent="- Be brief.\n"),
        ]
    )
    assert [(f.path, f.kind) for f in patch.files] == [
        ("doctrine.md", "write"),
        ("scenes/beta.md", "write"),
        ("scenes/gamma.md", "delete"),
    ]


def test_empty_patch_is_a_no_op() -> None:
    patch = validate([])
    assert patch.no_op
    assert patch.files == []


def test_doctrine_is_normalized() -> None:
    patch = validate([op(target="doctrine", name="doctrine", newContent="- One \r\n- Two\t\n")])
    assert patch.operations[0].new_content == "- One\n- Two\n"
    assert patch.operations[0].heat is None


@pytest.mark.parametrize(
    ("operations", "rule"),
    [
        ([op(), op(name="beta")], "operation-id-duplicate"),
        ([op(operationId="a"), op(operationId="b")], "one-writer-per-file"),
        (
            [
                op(operationId="a", target="doctrine", name="doctrine", newContent="x"),
                op(
                    operationId="b",
                    target="doctrine",
                    name="doctrine",
                    op="delete",
                    newContent=None,
                ),
            ],
            "doctrine-op-limit",
        ),
        (
            [
                op(operationId="a", op="create", name="d1"),
                op(operationId="b", op="create", name="d2"),
            ],
            "scene-create-limit",
        ),
        (
            [
                op(operationId="a", op="merge", mergeSources=["alpha", "beta"]),
                op(operationId="b", op="merge", name="gamma", mergeSources=["gamma", "beta"]),
            ],
            "merge-source-reused",
        ),
        (
            [
                op(operationId="a", op="merge", mergeSources=["alpha", "beta"]),
                op(operationId="b", name="beta"),
            ],
            "merge-source-written",
        ),
        ([RawOp(op="rename")], "op"),
        ([RawOp(target="index")], "target"),
        ([RawOp(name="Not A Slug")], "name"),
        ([op(rationale="   ")], "rationale-required"),
        ([op(op="delete")], "delete-content"),
        ([op(newContent=None)], "content-required"),
        ([op(newContent=" \n ")], "content-required"),
        ([op(basedOnEntryIds=[])], "entries-required"),
        ([RawOp(based_on_entry_ids=("e1", "e1"))], "entry-ref-duplicate"),
        ([op(basedOnEntryIds=["e1", "e9"])], "entry-ref-unknown"),
        ([op(mergeSources=["alpha", "beta"])], "merge-sources-misplaced"),
        ([op(op="merge", mergeSources=["alpha"])], "merge-sources"),
        ([op(op="merge", mergeSources=["alpha", "nope"])], "merge-sources"),
        ([op(op="merge", name="beta", mergeSources=["alpha", "gamma"])], "merge-target"),
        ([op(target="doctrine", name="rules", newContent="x")], "doctrine-name"),
        ([op(target="doctrine", name="doctrine", op="merge", newContent="x")], "doctrine-merge"),
        ([op(target="doctrine", name="doctrine", op="create", newContent="x")], "target-exists"),
        ([op(op="create")], "target-exists"),
        ([op(name="missing")], "target-missing"),
        ([op(op="delete", name="missing", newContent=None)], "target-missing"),
        ([op(newContent="## no meta\n- x")], "scene-meta"),
        (
            [op(newContent=scene_text().replace("summary", "heat: 1\nheat: 2\nsummary"))],
            "scene-heat",
        ),
        ([op(newContent="\ufeff" + scene_text())], "content-format"),
        ([op(newContent=scene_text().replace("tag it", "tag\rit"))], "content-format"),
        ([op(newContent=scene_text(summary="a" * 41))], "content-format"),
        ([op(newContent=scene_text(body="b" * 1501))], "content-format"),
        ([op(target="doctrine", name="doctrine", newContent="d" * 1201)], "content-format"),
    ],
)
def test_each_rule_rejects_the_whole_patch(operations: list[Any], rule: str) -> None:
    assert _rule(operations) == rule


def test_doctrine_preconditions_when_absent() -> None:
    absent = context(doctrine=False)
    doctrine = {"target": "doctrine", "name": "doctrine", "newContent": "- x"}
    assert _rule([op(**doctrine)], absent) == "target-missing"
    assert _rule([op(op="delete", **{**doctrine, "newContent": None})], absent) == "target-missing"
    assert validate([op(op="create", **doctrine)], absent).operations[0].new_content == "- x"


def test_format_code_is_reported() -> None:
    with pytest.raises(GitMemoryError) as caught:
        validate([op(newContent=scene_text(body="b" * 1501))])
    assert caught.value.details["formatCode"] == "GM_FORMAT_SCENE_BODY_TOO_LONG"
    assert caught.value.details["operationId"] == "op-1"


def test_heat_overflow_is_refused() -> None:
    hot = context(scenes={"alpha": HEAT_MAX, "beta": 1})
    with pytest.raises(GitMemoryError) as caught:
        validate([op()], hot)
    assert caught.value.code == "GM_HEAT_OVERFLOW"
    with pytest.raises(GitMemoryError) as merged:
        validate(
            [op(op="merge", mergeSources=["alpha", "beta"])],
            context({"alpha": HEAT_MAX - 1, "beta": 1}),
        )
    assert merged.value.code == "GM_HEAT_OVERFLOW"
    assert validate([op()], context({"alpha": HEAT_MAX - 1})).operations[0].heat == HEAT_MAX


def test_meta_is_re_emitted_in_canonical_form() -> None:
    content = (
        "-----META-START-----\nheat: 4\nsummary: Release flow\nupdated: 2026-01-03\n"
        "created: 2026-01-02\n-----META-END-----\n## Release\n- tag it"
    )
    assert validate([op(newContent=content)]).operations[0].new_content == scene_text(heat=3)
