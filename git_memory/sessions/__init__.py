"""The session index: transcript readers, turns, the SQLite index and its sync."""
