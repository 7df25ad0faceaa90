"""Asking the human through the MCP client (elicitation) on behalf of an operation.

An operation calls `ctx.form(summary, diff)` (the human's answer: approved, declined,
cancelled or failed) or `ctx.confirm(summary, diff)` (yes only on approval) before it changes
anything. Over MCP that question becomes an elicitation form of one enum field (plus an
optional note), which every client that renders forms can show. Two protocol eras carry it
differently:

- handshake era (<= 2025-11-25): the server sends `elicitation/create` in the middle of the
  tool call; the handler thread blocks until the human answers (`blocking_form`);
- 2026-07-28: a tool call cannot send requests to the client; it answers `input_required`
  with the form, and the client retries the same call with the answer. The handler is run
  again from the start; its question is answered from the retry (`RoundForm`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from git_memory.formats.controls import escape_controls
from git_memory.promote.approval import form_failed

if TYPE_CHECKING:
    from git_memory.promote.approval import FormAnswer, FormFn

APPROVE = "approve"
REJECT = "reject"
INPUT_KEY = "approval"
# A diff longer than this is cut in the form (clients render the message inline); the cut is
# stated in the message so the human knows to read the whole diff before approving.
MAX_MESSAGE_CHARS = 60_000
# Questions awaiting a retry; the oldest is forgotten beyond this (its retry is then refused).
MAX_PENDING = 32

APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decision": {
            "type": "string",
            "title": "Decision",
            "description": "approve applies exactly the change shown; reject changes nothing",
            "enum": [APPROVE, REJECT],
        },
        "note": {
            "type": "string",
            "title": "Note",
            "description": "optional remark kept with the decision",
        },
    },
    "required": ["decision"],
}


@dataclass(frozen=True)
class Question:
    """What an operation asks the human: a summary and the exact diff."""

    summary: str
    diff: str

    def message(self) -> str:
        """The elicitation message: summary, then the diff (cut with a notice when huge)."""
        diff = self.diff
        if len(diff) > MAX_MESSAGE_CHARS:
            shown = diff[:MAX_MESSAGE_CHARS]
            diff = f"{shown}\n… diff cut at {MAX_MESSAGE_CHARS} of {len(self.diff)} characters;"
            diff += " reject unless you have read it whole (memory_review shows it)"

        # What the human approves shows every control and invisible character as an escape.
        return escape_controls(f"{self.summary}\n\n{diff}" if diff else self.summary)

    def digest(self) -> str:
        """A digest of the question, binding an answer to exactly what was shown."""
        text = json.dumps([self.summary, self.diff], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ElicitationPending(BaseException):
    """The handler asked a question that must go back to the client (2026-07-28 rounds).

    A BaseException so that an operation's `except Exception` cannot swallow it: the handler
    stops before changing anything, and the tool call answers `input_required`.
    """

    def __init__(self, question: Question) -> None:
        super().__init__(question.summary)
        self.question = question


class FormFailed(Exception):
    """The client declared forms but could not show this one (no UI, timeout, refusal)."""


def answer_of(action: str, content: Mapping[str, Any] | None) -> FormAnswer:
    """The human's answer: the form accepted with `approve` approves, accepted with `reject`
    or declined is an explicit no, anything else (cancel, no decision) is no answer."""
    if action == "decline":
        return "declined"
    if action != "accept" or content is None:
        return "cancelled"
    decision = content.get("decision")
    if decision == APPROVE:
        return "approved"
    return "declined" if decision == REJECT else "cancelled"


def blocking_form(ask: Callable[[str, dict[str, Any]], tuple[str, Any]]) -> FormFn:
    """A `form` for a worker thread: `ask(message, schema)` blocks for the human's answer
    (or raises `FormFailed`)."""

    def form(summary: str, diff: str) -> FormAnswer:
        try:
            action, content = ask(Question(summary, diff).message(), APPROVAL_SCHEMA)
        except FormFailed:
            return "failed"
        return answer_of(action, content)

    return form


def confirm_by(form: FormFn) -> ConfirmFn:
    """A yes/no `confirm` over a form: only an approval is yes; a form the client could not
    show is `GM_MCP_ELICITATION_FAILED`, so the agent knows to ask the human itself."""

    def confirm(summary: str, diff: str) -> bool:
        answer = form(summary, diff)
        if answer == "failed":
            raise form_failed()
        return answer == "approved"

    return confirm


@dataclass
class RoundForm:
    """A `form` answered from an earlier round; a new question ends the round."""

    answers: dict[str, FormAnswer] = field(default_factory=dict)

    def __call__(self, summary: str, diff: str) -> FormAnswer:
        question = Question(summary, diff)
        answer = self.answers.get(question.digest())
        if answer is None:
            raise ElicitationPending(question)
        return answer


@dataclass
class PendingQuestions:
    """Questions sent back as `input_required`, keyed by the opaque `requestState` token.

    The token is random and kept here, so a client can only answer a question this server
    asked, for the same tool and arguments, once.
    """

    pending: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    def ask(self, tool: str, arguments_digest: str, question: Question) -> str:
        """Remember a question; returns the token to send as `requestState`."""
        token = secrets.token_urlsafe(24)
        self.pending[token] = (tool, arguments_digest, question.digest())
        while len(self.pending) > MAX_PENDING:  # a client that never retries cannot grow this
            del self.pending[next(iter(self.pending))]
        return token

    def answer(self, token: str, tool: str, arguments_digest: str) -> str | None:
        """The question digest a token stands for (consumed), or None when it is unknown."""
        entry = self.pending.pop(token, None)
        if entry is None or entry[:2] != (tool, arguments_digest):
            return None
        return entry[2]


ConfirmFn = Callable[[str, str], bool]
