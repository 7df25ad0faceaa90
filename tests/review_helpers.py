"""What a client does with a Review document: confirm every statement of its items."""

from __future__ import annotations

from typing import Any

from git_memory.contracts.review import ReviewItem
from git_memory.extract.review_flow import prepare_request


def prepare_document(items: list[dict[str, Any]], kind: str = "entry") -> dict[str, Any]:
    """The PrepareRequest document confirming review items as a client read them (the
    `items` of a Review document, as JSON)."""
    return prepare_request([ReviewItem.model_validate(item) for item in items], kind).to_json()
