"""`skillContext` and `memoryContext`: ranking, caps, truncation and the binding digest."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from git_memory.skills.recall_context import (
    CONTEXT_MAX_BYTES,
    DoctrineSource,
    EntrySource,
    SceneSource,
    SkillSource,
    build_memory_context,
    build_skill_context,
    item_bytes,
    memory_binding,
    query_terms,
    skill_score,
)

HEX = "a" * 64


def skill(name: str, description: str = "A skill.", document: str = "body") -> SkillSource:
    return SkillSource(name, description, document, hashlib.sha256(name.encode()).hexdigest())


def scene(name: str, heat: int = 1, summary: str = "sum", document: str = "doc") -> SceneSource:
    return SceneSource(name, heat, summary, hashlib.sha256(document.encode()).hexdigest(), document)


def entry(entry_id: str, priority: int = 50, body: str = "text", revision: int = 1) -> EntrySource:
    return EntrySource(entry_id, revision, HEX, "work_fact", None, priority, "medium", (), body)


def _plain_digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def test_query_terms_fold_and_tokenize() -> None:
    assert query_terms("  Ｒｅｌｅａｓｅ Flow, a x-y ") == [
        "release flow, a x-y",
        "release",
        "flow",
        "x-y",
    ]
    assert query_terms(None) == []
    assert query_terms("   ") == []
    assert query_terms("deploy deploy") == ["deploy deploy", "deploy"]


def test_skill_score_weights() -> None:
    terms = ["release"]
    assert skill_score(skill("release"), terms) == 16
    assert skill_score(skill("release-notes"), terms) == 8
    assert skill_score(skill("x", "Cut a Release."), terms) == 4
    assert skill_score(skill("x", document="then release"), terms) == 1


def test_all_skills_fit_unranked_by_name() -> None:
    window = build_skill_context([skill("b"), skill("a")], "b")
    assert window.selection == "all"
    assert not window.truncated
    assert [i["name"] for i in window.items] == ["a", "b"]
    assert window.returned_bytes == sum(item_bytes(i) for i in window.items)
    assert window.to_json()["total"] == 2


def test_more_than_20_skills_are_ranked_and_truncated() -> None:
    skills = [skill(f"s{n:02d}") for n in range(25)] + [skill("deploy"), skill("zz", "deploy it")]
    window = build_skill_context(skills, "deploy")
    assert window.selection == "query-ranked"
    assert window.truncated
    assert window.total == 27
    assert window.returned == 20
    names = [i["name"] for i in window.items]
    assert names[:2] == ["deploy", "zz"]
    assert names[2:] == [f"s{n:02d}" for n in range(18)]


def test_skill_filling_stops_at_the_first_misfit() -> None:
    big = "x" * (CONTEXT_MAX_BYTES // 2)
    skills = [skill("a", document=big), skill("b", document=big), skill("c")]
    window = build_skill_context(skills, None)
    assert window.truncated
    assert [i["name"] for i in window.items] == ["a"]
    assert window.returned_bytes <= CONTEXT_MAX_BYTES


def test_memory_context_order() -> None:
    scenes = [scene("cold", 1), scene("hot", 9), scene("warm", 5), scene("deploy-flow", 1)]
    entries = [entry("b", 10), entry("a", 10), entry("c", 90), entry("d", 0, body="deploy now")]
    doctrine = DoctrineSource(HEX, "- Be brief.")
    context = build_memory_context(scenes, doctrine, entries, None).to_json()
    kinds = [(i["kind"], i.get("name") or i.get("entryId")) for i in context["items"]]
    assert kinds == [
        ("scene", "hot"),
        ("scene", "warm"),
        ("scene", "cold"),
        ("scene", "deploy-flow"),
        ("doctrine", "doctrine"),
        ("approved-entry", "c"),
        ("approved-entry", "a"),
        ("approved-entry", "b"),
        ("approved-entry", "d"),
    ]
    assert context["selection"] == "all"
    ranked = build_memory_context(scenes, doctrine, entries, "deploy").to_json()
    names = [i.get("name") or i.get("entryId") for i in ranked["items"]]
    assert names[0] == "deploy-flow"
    assert names[5] == "d"
    assert ranked["selection"] == "query-ranked"


def test_memory_context_caps_at_40_items() -> None:
    context = build_memory_context([], None, [entry(f"e{n:02d}") for n in range(45)], None)
    assert context.window.returned == 40
    assert context.window.total == 45
    assert context.window.truncated


def test_memory_context_skips_misfits_and_keeps_filling() -> None:
    huge = scene("huge", heat=9, document="x" * CONTEXT_MAX_BYTES)
    context = build_memory_context([huge, scene("small")], None, [entry("e1")], None).to_json()
    assert [i.get("name") or i.get("entryId") for i in context["items"]] == ["small", "e1"]
    assert context["truncated"] is True
    assert context["returnedBytes"] <= CONTEXT_MAX_BYTES


def test_entry_item_fields() -> None:
    item = build_memory_context([], None, [entry("e1")], None).to_json()["items"][0]
    assert item == {
        "kind": "approved-entry",
        "entryId": "e1",
        "revision": 1,
        "contentDigest": HEX,
        "type": "work_fact",
        "scene": None,
        "priority": 50,
        "confidence": "medium",
        "limitations": [],
        "body": "text",
    }


def test_binding_is_exactly_the_reference_formula() -> None:
    entries = [entry("zeta", revision=2), entry("alpha")]
    scenes = [scene("s2", 3, document="two"), scene("s1", 1, document="one")]
    doctrine = DoctrineSource("b" * 64, "- x")
    context = build_memory_context(scenes, doctrine, entries, "anything").to_json()
    expected = {
        "policyVersion": "skill-memory-first@1",
        "entrySetDigest": _plain_digest(
            [
                {"entryId": "alpha", "revision": 1, "contentDigest": HEX},
                {"entryId": "zeta", "revision": 2, "contentDigest": HEX},
            ]
        ),
        "sceneIndexDigest": _plain_digest(
            [
                {"name": "s1", "contentDigest": scenes[1].content_digest, "heat": 1},
                {"name": "s2", "contentDigest": scenes[0].content_digest, "heat": 3},
            ]
        ),
        "doctrineDigest": "b" * 64,
    }
    assert context["binding"] == expected
    assert context["bindingDigest"] == _plain_digest(expected)
    assert context["format"] == "git-memory-skill-context@v1"
    assert context["strategy"] == "memory-first"
    assert context["priority"][0] == "existing-skill"


def test_binding_covers_all_memory_not_only_returned_items() -> None:
    entries = [entry(f"e{n:02d}") for n in range(45)]
    full = build_memory_context([], None, entries, None)
    assert full.binding == memory_binding(entries, [], None)
    assert full.binding["doctrineDigest"] is None
    changed = [*entries[:-1], entry("e44", revision=2)]
    assert build_memory_context([], None, changed, None).binding_digest != full.binding_digest
    hotter = build_memory_context([scene("s", 2)], None, entries, None)
    assert (
        hotter.binding_digest
        != build_memory_context([scene("s", 1)], None, entries, None).binding_digest
    )


def test_documents_validate_against_the_recall_contract() -> None:
    from git_memory.contracts.recall import MemoryContext, SkillContext

    scenes = [scene("release-flow", 3)]
    entries = [entry("e1"), entry("e2", priority=90)]
    doctrine = DoctrineSource(HEX, "- x")
    memory = build_memory_context(scenes, doctrine, entries, "release").to_json()
    assert MemoryContext.model_validate(memory).to_json() == memory
    skills = build_skill_context([skill(f"s{n}") for n in range(25)], "s1").to_json()
    assert SkillContext.model_validate(skills).to_json() == skills
