"""Memory state (`memory-state.sqlite3`): tasks, candidates, approved memory, dedupe, journal."""
