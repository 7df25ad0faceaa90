"""`git memory search`: SearchRequest@v1 and the `git-memory-search@v1` response."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Model


class SearchRequest(Model):
    """A free-text query over approved memory."""

    format: Literal["git-memory-search-request@v1"] = "git-memory-search-request@v1"
    query: str = Field(min_length=1, max_length=1024)
    limit: int = Field(default=10, ge=1, le=100)


class SearchResult(Model):
    """One approved entry; `score` is the BM25 relevance (higher is better), `freshness`
    whether what it relies on still holds (a stale entry may no longer be true)."""

    id: str
    type: str
    scene: str | None
    score: float
    summary: str = Field(max_length=240)
    path: str
    # As `git memory verify` decides it now; a retired entry is `deprecated`.
    freshness: Literal["fresh", "stale", "unverifiable", "deprecated"]


class SearchResponse(Model):
    """Approved entries ranked by BM25 (ties by id), with the projection they came from."""

    format: Literal["git-memory-search@v1"] = "git-memory-search@v1"
    generation: int = Field(ge=0)
    coverage: Literal["complete", "partial"]
    results: list[SearchResult]
