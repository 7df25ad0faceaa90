"""Helpers for tests (and the demo): throw-away git repositories and hermetic environments."""
