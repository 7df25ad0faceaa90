"""The session index: transcript readers, turns, the SQLite index, its sync (docs/sessions.md)."""
