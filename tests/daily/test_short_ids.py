"""Short ids: shown abbreviated, typed back as any unique abbreviation (issue 20)."""

from __future__ import annotations

import pytest

from git_memory.errors import EXIT_USAGE, UsageError
from git_memory.ids import abbreviations, matches, resolve, short

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
    assert short(PLAN) == "plan-c89d87c"
    assert short("cache-rule") == "cache-rule", "ids without a digest are shown whole"


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
