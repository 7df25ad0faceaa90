"""Contracts: strict, frozen pydantic models and canonical JSON digests."""
