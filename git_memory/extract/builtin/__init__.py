"""The `builtin` runner: a deterministic extractor that needs no model and sends nothing.

It reads the session index's turns (the common turn model, any agent) and proposes what a
team keeps: commands that work (`command-exit@1`), traps with their fix (`command-fix@1`) and
rules the user stated (`user-rule@1`). Typed facts come only from the fixed renderers in
`renderers`, whose text the host re-renders before granting `typed-fact`; rules keep the
user's words as an `unverified` statement. Command lines are read through the one command
model (`git_memory/command_line/`); `shell` holds what is particular to agents' shell calls.
The package imports none of its modules, so importing one never loads the others.
"""
