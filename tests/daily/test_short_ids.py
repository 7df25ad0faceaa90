"""Short ids: shown abbreviated, typed back as any unique abbreviation (issue 20)."""

from __future__ import annotations

import pytest

from git_memory.errors import EXIT_USAGE, UsageError
from git_memory.ids import abbreviate_within, abbreviations, matches, resolve

TASK_A = "extract-8961e3185d638738ac20560ca71f09fb243fc3eddb487abee056f84e0e349005"
TASK_B = "extract-8961e31aaaaaaaaaac20560ca71f09fb243fc3eddb487abee056f84e0e349005"
PLAN = "plan-c89d87c3a34440d4bdd17bdff71ce611"


def test_seven_digest_characters_unless_two_ids_would_read_the_same() -> None:
    ids = [f"{TASK_A}-c1", f"{TASK_A}-c2", f"{TASK_B}-c1", PLAN]
    shown = abbreviations(ids)
    assert shown[PLAN] == "plan-c89d87c"
    assert shown[f"{TASK_A}-c2"] == "extract-8961e31-c2", "no other c2 shares 8961e31"
    assert shown[f"{TASK_A}-c1"] == "extract-8961e318-c1", "one more character than the clash"
    assert shown[f"{TASK_B}-c1"] == "extract-8961e31a-c1"
    assert len(set(shown.values())) == len(ids)
    for identifier, abbreviated in shown.items():
        assert (
            resolve(abbreviated, ids, what="id", code="GM_X_NOT_FOUND", listed_by="x") == identifier
        )
    assert abbreviations(["cache-rule"]) == {"cache-rule": "cache-rule"}, "no digest: whole"


def test_cut_against_the_whole_namespace_not_only_the_ids_shown() -> None:
    twin = PLAN[: len("plan-") + 9] + "0" * 23
    alone = abbreviations([PLAN])[PLAN]
    within = abbreviate_within([PLAN], [PLAN, twin, f"{TASK_A}-c1"])[PLAN]
    assert alone == "plan-c89d87c"
    assert within == "plan-c89d87c3a3", "one past the nine characters the twin shares"
    assert resolve(within, [PLAN, twin], what="plan", code="GM_X", listed_by="x") == PLAN
    with pytest.raises(UsageError) as clash:
        resolve(alone, [PLAN, twin], what="plan", code="GM_X", listed_by="x")
    assert clash.value.code == "GM_ID_AMBIGUOUS"


def test_a_name_is_shown_whole_and_typed_back_as_any_unique_prefix() -> None:
    stem = "when-the-integration-suite-fails-on-ci-"
    names = [stem + "check-the-database", stem + "check-the-cache", "storybook", "storybook-2"]
    shown = abbreviate_within([names[0], "storybook"], names)
    assert shown == {names[0]: names[0], "storybook": "storybook"}, "never cut (issue 45)"
    assert abbreviations(names) == {name: name for name in names}
    # The mark older versions printed after a cut name, or three dots, is still understood.
    for typed in (stem + "check-the-d", stem + "check-the-d…", stem + "check-the-d..."):
        assert resolve(typed, names, what="entry", code="GM_X", listed_by="x") == names[0]
    assert resolve("storybook", names, what="entry", code="GM_X", listed_by="x") == "storybook"
    assert resolve("make-b", [*names, "make-build"], what="e", code="X", listed_by="x") == (
        "make-build"
    ), "a plain unique prefix names its entry too"
    assert not matches("sto", "storybook"), "at least 4 characters, as for a digest"
    with pytest.raises(UsageError) as several:
        resolve("story", names, what="entry", code="GM_X", listed_by="x")
    assert several.value.details["matches"] == ["storybook", "storybook-2"]
    assert "it matches storybook, storybook-2" in several.value.message, "whole names"


@pytest.mark.parametrize(
    "typed",
    [
        f"{TASK_A}-c2",  # whole
        "extract-8961e318-c2",  # digest shortened
        "8961e318-c2",  # without the kind word
        "extract-8961e3185d6",  # a plain prefix (of c1 too: ambiguous when both exist)
    ],
)
def test_forms_people_type(typed: str) -> None:
    assert matches(typed, f"{TASK_A}-c2")


def test_unknown_and_ambiguous_are_usage_errors_that_list_the_matches() -> None:
    ids = [f"{TASK_A}-c1", f"{TASK_A}-c2", PLAN]
    with pytest.raises(UsageError) as unknown:
        resolve(
            "plan-ffff", ids, what="plan", code="GM_PLAN_NOT_FOUND", listed_by="git memory status"
        )
    assert unknown.value.code == "GM_PLAN_NOT_FOUND"
    assert unknown.value.exit_code == EXIT_USAGE
    assert unknown.value.hint == "`git memory status` lists them"
    with pytest.raises(UsageError) as ambiguous:
        resolve("extract-8961", ids, what="candidate", code="GM_X", listed_by="git memory review")
    assert ambiguous.value.code == "GM_ID_AMBIGUOUS"
    assert "extract-8961e31-c1, extract-8961e31-c2" in ambiguous.value.message
    assert ambiguous.value.details["matches"] == [f"{TASK_A}-c1", f"{TASK_A}-c2"]


def test_too_few_digest_characters_match_nothing() -> None:
    assert not matches("plan-c89", PLAN), "git asks for at least 4 hex characters"
    assert matches("plan-c89d", PLAN)
    assert not matches("extract-896-c1", f"{TASK_A}-c1")
    assert not matches("8961e318-c3", f"{TASK_A}-c2"), "other words must be equal"
