"""Consistency checks of the memory state: do the FTS indexes hold exactly their rows?

The external-content FTS tables are kept by triggers; this check rebuilds what each index
should contain in a temporary FTS5 table and compares the two token-by-token through
`fts5vocab` (term, document, offset). Used by crash tests and by `doctor`.
"""

from __future__ import annotations

from git_memory.store.db import StateDB

# FTS table -> the rows it must index: (rowid, text)
EXPECTED = {
    "candidate_fts": (
        "SELECT seq, searchable_text FROM candidates"
        " WHERE kind = 'entry' AND status IN ('draft', 'quarantined')"
    ),
    "approved_fts": "SELECT seq, searchable_text FROM approved_entries",
}


def _instances(db: StateDB, schema: str, table: str) -> list[tuple[str, int, int]]:
    vocab = f"gm_vocab_{schema}_{table}"
    db.execute(f"CREATE VIRTUAL TABLE temp.{vocab} USING fts5vocab({schema}, {table}, 'instance')")
    try:
        rows = db.rows(f"SELECT term, doc, offset FROM temp.{vocab} ORDER BY term, doc, offset")
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]
    finally:
        db.execute(f"DROP TABLE temp.{vocab}")


def fts_problems(db: StateDB) -> list[str]:
    """Differences between each FTS index and its rows (empty when consistent)."""
    problems: list[str] = []
    for table, expected_sql in EXPECTED.items():
        reference = f"gm_ref_{table}"
        db.execute(f"CREATE VIRTUAL TABLE temp.{reference} USING fts5(searchable_text)")
        try:
            db.executemany(
                f"INSERT INTO temp.{reference} (rowid, searchable_text) VALUES (?, ?)",
                [tuple(row) for row in db.rows(expected_sql)],
            )
            if _instances(db, "main", table) != _instances(db, "temp", reference):
                problems.append(f"{table} does not match its rows")
        finally:
            db.execute(f"DROP TABLE temp.{reference}")
    return problems


def submission_problems(db: StateDB) -> list[str]:
    """Half-applied submissions: a submitted task without its submission row, or vice versa."""
    rows = db.rows(
        "SELECT t.task_id FROM tasks t LEFT JOIN submissions s ON s.task_id = t.task_id"
        " WHERE (t.status = 'submitted') != (s.task_id IS NOT NULL)"
    )
    return [f"task {row[0]!r} and its submission disagree" for row in rows]


def problems(db: StateDB) -> list[str]:
    """Every consistency problem found (empty when the DB is consistent)."""
    quick = str(db.scalar("PRAGMA quick_check"))
    found = [] if quick == "ok" else [f"sqlite quick_check: {quick}"]
    return found + fts_problems(db) + submission_problems(db)
