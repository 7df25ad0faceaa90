"""A rule a person shouts in a comment of the code they paste (issue 39): `"phone": "", //
ALWAYS try to get this!` is a rule about that field, quoted with its line; a quiet comment, a
heading or a shouted sentence with no code before it is not."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin.rules import rule_facts
from tests.extract.records import turn_record

_PASTED = """Fill the lead from the call notes into this shape:
```json
{
  "name": "",
  "phone": "", // ALWAYS try to get this!
  "email": "" // optional
}
```"""


def test_a_shouted_comment_in_pasted_code_is_a_rule_about_its_line() -> None:
    facts = rule_facts([turn_record("t1", user=_PASTED)])
    assert [fact.content for fact in facts] == ['Always try to get this (`"phone": ""`)!']
    assert facts[0].quotes[0].text == '"phone": "", // ALWAYS try to get this!'
    assert facts[0].quotes[0].part == "user"


def test_quiet_comments_headings_and_bare_shouts_are_no_rules() -> None:
    for typed in (
        "x = 1  # never mind the value",
        "# ALWAYS",
        "Fix it -- NEVER MIND",
        '"email": "" // optional',
        # a comment on a line of its own in a pasted guide (Phoenix's AGENTS.md): no code
        "      <%!-- THIS IS INVALID NEVER EVER DO THIS --%>",
    ):
        assert rule_facts([turn_record("t1", user=typed)]) == [], typed


def test_a_program_written_prompt_with_shouted_comments_gives_none() -> None:
    record = turn_record("t1", user=_PASTED)
    assert rule_facts([record], program=True) == []


# An agent's log the person pasted after their request (a real session did so): a tool call
# whose arguments hold a whole file as one JSON string, its comments shouting.
_PASTED_LOG = (
    "Create the docker setup for the app. Write all files.\n"
    '[Tool: Write] {"file_path":"docker/.env.example","content":"# =======\\n'
    "# Copy this file to .env and fill in your values\\n"
    "# NEVER commit .env to version control!\\n# =======\\n\\nNODE_ENV=production\\n"
    'PORT=3000\\n"}\n'
    "Always keep the compose file at the root of the repository."
)


def test_a_file_dumped_as_one_escaped_string_is_no_ones_rule() -> None:
    facts = rule_facts([turn_record("t1", user=_PASTED_LOG)])
    assert [fact.content for fact in facts] == [
        "Always keep the compose file at the root of the repository."
    ]


@pytest.mark.parametrize(
    "typed",
    [
        # a program's repr of a file, a value after its key
        "the tool failed with content='# Copy this file to .env\\n# NEVER commit .env\\n\\n"
        "PORT=3000' why",
        # settings lines, each starting with a letter
        'it wrote "PORT=3000\\nDB_URL=postgres://x\\nSECRET=abc // NEVER commit this\\nDEBUG=1"'
        " to .env",
    ],
)
def test_a_dumped_file_in_any_quotes_is_no_ones_rule(typed: str) -> None:
    assert rule_facts([turn_record("t1", user=typed)]) == []


def test_a_line_naming_the_escape_once_is_still_read() -> None:
    typed = "Never leave a literal \\n in the page titles."
    assert [fact.content for fact in rule_facts([turn_record("t1", user=typed)])] == [typed]


def test_a_line_copied_after_a_programs_prompt_is_no_rule() -> None:
    # a real session: the person pasted what they had typed at another agent's prompt
    typed = (
        "claude> 常に --dangerous (bypassPermissions) モードで起動するように、ユーザー設定"
        '（~/.claude/settings.json）の permissions.defaultMode を "bypassPermissions" に'
        "設定してください。"
    )
    assert rule_facts([turn_record("t1", user=typed)]) == []
    assert rule_facts([turn_record("t1", user=typed.removeprefix("claude> "))]) != []


def test_a_pasted_error_whose_message_reads_like_a_norm_is_no_rule() -> None:
    # a real session: the browser's console error, pasted as the person's whole message
    typed = (
        'Uncaught TypeError: Failed to resolve module specifier "firebase/firestore". '
        'Relative references must start with either "/", "./", or "../".'
    )
    assert rule_facts([turn_record("t1", user=typed)]) == []
