"""Runner answers: exactly one JSON document, strict schema, echoed taskId and binding.

A single surrounding Markdown code fence is tolerated (models add one despite the prompt);
prose around the document, several documents, or anything that fails the schema is refused
with `GM_RUNNER_OUTPUT_INVALID`, and the caller stores nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from git_memory.contracts.canonical import canonical_json
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json

ModelT = TypeVar("ModelT", bound=BaseModel)
_FENCE = re.compile(r"\A```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*?)\n?```\Z", re.DOTALL)


def _invalid(message: str, **details: Any) -> GitMemoryError:
    return GitMemoryError(
        "GM_RUNNER_OUTPUT_INVALID",
        f"the runner's answer was refused: {message}",
        hint="nothing was stored; the task stays pending",
        details=details or None,
    )


def parse_document(stdout: bytes) -> Any:
    """The one JSON document in `stdout` (optionally inside one code fence)."""
    try:
        text = stdout.decode("utf-8", "strict").strip()
    except UnicodeDecodeError as exc:
        raise _invalid("the output is not UTF-8") from exc
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group("body").strip()
    try:
        return bounded_json.loads(text, max_depth=256)
    except json.JSONDecodeError as exc:
        raise _invalid(f"not one JSON document (line {exc.lineno}: {exc.msg})") from exc
    except ValueError as exc:  # bounded_json.JsonRefused
        raise _invalid(f"not a usable JSON document ({exc})") from exc


def validate_answer(stdout: bytes, model: type[ModelT], *, task_id: str, binding: Any) -> ModelT:
    """Parse and validate an answer for task `task_id` whose binding must echo `binding`."""
    document = parse_document(stdout)
    try:
        answer = model.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
        where = ".".join(str(part) for part in first.get("loc", ()))
        raise _invalid(f"{where or 'document'}: {first.get('msg')}") from exc
    if getattr(answer, "task_id", None) != task_id:
        raise _invalid("the answer names another task", expected=task_id)
    echoed = answer.model_dump(mode="json", by_alias=True).get("binding")
    if canonical_json(echoed) != canonical_json(binding):
        raise _invalid("the answer does not echo the task's binding")
    return answer
