"""Extraction: select sealed turns, cut them into chunks, build tasks, assess drafts."""
