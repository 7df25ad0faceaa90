"""Agents' own memory stores, read only: Claude Code's auto memory and subagent memory,
personal instruction files, Gemini CLI's saved memories and skill inbox, Serena's memories
and Codex's memory handbook.

Each store is located the way its agent locates it (`stores.py`), its files are read with a
size cap and without following links out of the store (`read.py`), and each file is cut into
items, one bullet or one section each (`items.py`). Nothing here ever writes to a store;
docs/agent-memory.md says what is read and what never is.
"""
