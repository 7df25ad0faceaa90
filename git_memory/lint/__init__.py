"""Lint: secret, privacy and format rules over memory files (pure)."""
