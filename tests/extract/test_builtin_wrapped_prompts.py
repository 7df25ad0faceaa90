"""Rules a person typed inside a prompt a program wrapped (issue 39): a slash-command
template's "User Input" block, the files an `@path` reference appended, a file an IDE
attached; a pasted list of principles stays a document; a sentence typed in a hurry ends at
"…" or "!" before a lower-case word."""

from __future__ import annotations

from git_memory.extract.builtin.rules import rule_facts
from git_memory.extract.builtin.statements import sentences
from git_memory.extract.builtin.wrapped import WRAPPERS, typed_within
from git_memory.sessions.origin import typed_origin
from tests.extract.records import turn_record

TEMPLATE = """## User Input

```text
{typed}
```

You **MUST** consider the user input before proceeding (if not empty).

## Outline

1. Run the set-up script and parse its JSON output.
"""


def _rules(text: str) -> list[tuple[str, str]]:
    facts = rule_facts([turn_record("t1", user=text)])
    return [(fact.content, fact.quotes[0].text) for fact in facts]


def test_the_input_a_person_typed_into_a_slash_command_template_is_read() -> None:
    text = TEMPLATE.format(typed="Always use pnpm, never npm, in this repository.")
    assert typed_origin(text) == "document"
    rules = _rules(text)
    assert [content for content, _ in rules] == ["Always use pnpm, never npm, in this repository."]
    assert rules[0][1] == "Always use pnpm, never npm, in this repository."


def test_a_template_with_no_input_gives_no_rule() -> None:
    text = TEMPLATE.format(typed="")
    assert typed_within(text) is None
    assert _rules(text) == []


def test_a_pasted_list_of_principles_in_a_template_stays_a_document() -> None:
    pasted = (
        "Prefer explicit code. - Always write tests first. - Never mock the database. "
        "- Keep functions small."
    )
    assert typed_within(TEMPLATE.format(typed=pasted)) is None
    listed = "- Always write tests first.\n- Never mock the database.\n- Keep functions small."
    assert _rules(TEMPLATE.format(typed=listed)) == []


def test_the_message_before_referenced_files_is_the_persons() -> None:
    text = (
        "@notes/plan.md recuerda siempre responder en español. "
        "--- Content from referenced files --- Content from @notes/plan.md:\n"
        + "# Plan\n\n```\nstep one\n```\n"
        * 40
    )
    assert typed_origin(text) == "document"
    assert typed_within(text) == "@notes/plan.md recuerda siempre responder en español."
    quoted = [quote for _, quote in _rules(text)]
    assert quoted == ["@notes/plan.md recuerda siempre responder en español."]


def test_the_message_before_an_attached_file_is_the_persons() -> None:
    text = (
        "From now on, always run the linter before you commit.\n"
        "Current File Path: ```python\nsrc/app.py\n```\n" + "x = 1\n" * 400
    )
    assert typed_within(text) == "From now on, always run the linter before you commit."
    assert [content for content, _ in _rules(text)] == ["Always run the linter before you commit."]


def test_a_program_driven_session_stays_a_programs() -> None:
    text = TEMPLATE.format(typed="Always use pnpm, never npm, in this repository.")
    assert rule_facts([turn_record("t1", user=text)], program=True) == []


def test_every_wrapper_is_named() -> None:
    assert all(wrapper.name and wrapper.pattern for wrapper in WRAPPERS)


def test_a_sentence_typed_in_a_hurry_ends_before_a_lower_case_word() -> None:
    typed = "recuerda siempre explicarme en español.... describeme que es este espacio?"
    assert sentences(typed) == [
        "recuerda siempre explicarme en español....",
        "describeme que es este espacio?",
    ]
    assert sentences("it works! now always run `make lint` first") == [
        "it works!",
        "now always run `make lint` first",
    ]
    # A version or an abbreviation is no end of a sentence.
    assert sentences("Use v1.2 of it, e.g. the wheel") == ["Use v1.2 of it, e.g. the wheel"]
    assert [q for _, q in _rules(typed)] == ["recuerda siempre explicarme en español...."]


def test_a_sentence_typed_in_lower_case_ends_at_its_full_stop() -> None:
    # Typed as the argument of /speckit.constitution, every sentence a standing rule.
    typed = (
        "benimle türkçe konuşacaksın. kod hataları düzeltirken kesinlikle yapı bozulmayacak."
        " her görev bitiminde git commit edilecek."
    )
    assert sentences(typed) == [
        "benimle türkçe konuşacaksın.",
        "kod hataları düzeltirken kesinlikle yapı bozulmayacak.",
        "her görev bitiminde git commit edilecek.",
    ]
    assert [q for _, q in _rules(typed)] == sentences(typed)
    assert sentences("한글로 답변해줘. 그리고 커밋 메시지는 영어로 써줘") == [
        "한글로 답변해줘.",
        "그리고 커밋 메시지는 영어로 써줘",
    ]
    # An abbreviation, a reason that follows, a lone word after a stray full stop: one sentence.
    for whole in (
        "use pnpm, etc. and never npm",
        "run it from the root, cf. the docs",
        "never push to main directly, esp. on fridays",
        "always lint first, resp. format, vgl. the guide",
        "Acme Inc. team uses pnpm",
        "всегда пиши тесты, т.е. для каждой новой функции, см. выше",
        "use `foo.bar. baz` always",
        "the pc wipes git files for security reasons. that is why I push with backup.bat",
    ):
        assert sentences(whole) == [whole]
    assert sentences("and restore it using. restore.bat. I saw it work") == [
        "and restore it using. restore.bat.",
        "I saw it work",
    ]
