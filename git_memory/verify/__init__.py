"""Keeping approved memory true: check what entries, scenes and skills rely on.

`check.verify_memory` reads the memory root and the worktree (never writes) and gives each
item a freshness state; `check.stale_entry_ids` is what assemble, context, search and status
call to leave stale entries out or mark them. The command grammar is in `commands`, the
manifest readers (Makefile, justfile, package.json, compose files) in `manifests`.
"""
