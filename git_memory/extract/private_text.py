"""A staged draft as a reviewer may read it: no home directory, no user name.

Whoever wrote the draft (the builtin extractor, a model runner, the agent over MCP, an
agent's own memory store), its words pass through `formats.homes` before they are stored:
`/Users/alice/Work/cli/x.go` becomes `~/Work/cli/x.go`, `ssh alice@build` becomes
`ssh <user>@build`. The names a draft's homes reveal are rewritten in all of its parts
(content, statements, quotes) alike, so a quote still matches the turn it was taken from,
which the host reads through the same rewrite (`select.path_scrubber`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from git_memory.contracts.extraction import DraftCandidate, DraftQuote, DraftStatement
from git_memory.formats.homes import home_names, rewrite_homes

Clean = Callable[[str], str]


def without_homes(draft: DraftCandidate, local_home: str | None = None) -> DraftCandidate:
    """The draft with every home directory as `~` and every user name as `<user>`."""
    home = str(Path.home()) if local_home is None else local_home
    texts = [draft.content] + [s.text for s in draft.statements]
    texts += [q.text for s in draft.statements for q in s.quotes or []]
    names = set().union(*(home_names(text) for text in texts))

    def clean(text: str) -> str:
        return rewrite_homes(text, home, names).text

    statements = [_statement(statement, clean) for statement in draft.statements]
    return draft.model_copy(update={"content": clean(draft.content), "statements": statements})


def _statement(statement: DraftStatement, clean: Clean) -> DraftStatement:
    quotes = None
    if statement.quotes is not None:
        quotes = [_quote(quote, clean) for quote in statement.quotes]
    return statement.model_copy(update={"text": clean(statement.text), "quotes": quotes})


def _quote(quote: DraftQuote, clean: Clean) -> DraftQuote:
    return quote.model_copy(update={"text": clean(quote.text)})
