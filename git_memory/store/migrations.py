"""Named schema migrations of `memory-state.sqlite3`, recorded in the DB itself.

Applied by the one migration mechanism of `git_memory/database.py` (each in its own writer
transaction with its `schema_migrations` row). Migrations are never edited once released; a
change is a new migration appended to `MIGRATIONS`. A DB that records a migration this code
does not know was written by a newer version and is refused.

FTS5 tables are external-content (`content=` the row table, `content_rowid='seq'`) and kept in
step by triggers, so the index changes in the same transaction as its rows; candidate FTS only
holds entry candidates that the similar-entry search may see (draft, quarantined).
"""

from __future__ import annotations

import uuid

from git_memory.database import Database, Schema, Trouble

CORE = """
CREATE TABLE memory_state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE repository_bindings (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  public_repository_identity TEXT, root_realpath TEXT NOT NULL,
  root_realpath_digest TEXT NOT NULL,
  common_dir_device TEXT NOT NULL, common_dir_inode TEXT NOT NULL,
  memory_root TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
  bound_at INTEGER NOT NULL,
  PRIMARY KEY (repository_key, worktree_key)
);
CREATE TABLE tasks (
  task_id TEXT PRIMARY KEY, kind TEXT NOT NULL,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  chunk_ref TEXT, draft_batch_ref TEXT,
  binding_json TEXT NOT NULL, authorization_plan_digest TEXT,
  lease_holder TEXT, lease_epoch INTEGER NOT NULL DEFAULT 0,
  claim_token TEXT, lease_expires_at INTEGER,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'claimed', 'submitted', 'stale')),
  stale_reason TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX tasks_owner ON tasks (repository_key, worktree_key, kind, status);
CREATE TABLE submissions (
  task_id TEXT PRIMARY KEY REFERENCES tasks (task_id),
  response_digest TEXT NOT NULL, outcome_json TEXT NOT NULL, received_at INTEGER NOT NULL
);
CREATE TABLE submission_conflicts (
  id INTEGER PRIMARY KEY, task_id TEXT NOT NULL,
  response_digest TEXT NOT NULL, received_at INTEGER NOT NULL
);
CREATE TABLE chunks (
  chunk_ref TEXT PRIMARY KEY,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  session_key TEXT NOT NULL, turn_range TEXT NOT NULL, chunk_digest TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'drafted', 'extracted', 'stale')),
  provenance_json TEXT NOT NULL DEFAULT '{}', updated_at INTEGER NOT NULL
);
CREATE INDEX chunks_owner ON chunks (repository_key, worktree_key, status);
CREATE TABLE candidates (
  seq INTEGER PRIMARY KEY,
  candidate_id TEXT NOT NULL UNIQUE,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  chunk_ref TEXT, task_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('entry', 'skill', 'consolidation-patch')),
  revision INTEGER NOT NULL DEFAULT 1,
  content_digest TEXT NOT NULL, payload_json TEXT NOT NULL,
  searchable_text TEXT NOT NULL, summary TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'quarantined', 'promoted', 'discarded')),
  adjudication TEXT NOT NULL DEFAULT 'pending',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX candidates_owner ON candidates (repository_key, worktree_key, status);
CREATE VIRTUAL TABLE candidate_fts USING fts5(
  searchable_text, content='candidates', content_rowid='seq'
);
CREATE TRIGGER candidates_fts_insert AFTER INSERT ON candidates
WHEN new.kind = 'entry' AND new.status IN ('draft', 'quarantined') BEGIN
  INSERT INTO candidate_fts (rowid, searchable_text) VALUES (new.seq, new.searchable_text);
END;
CREATE TRIGGER candidates_fts_delete AFTER DELETE ON candidates
WHEN old.kind = 'entry' AND old.status IN ('draft', 'quarantined') BEGIN
  INSERT INTO candidate_fts (candidate_fts, rowid, searchable_text)
  VALUES ('delete', old.seq, old.searchable_text);
END;
CREATE TRIGGER candidates_fts_update AFTER UPDATE OF kind, status, searchable_text
ON candidates BEGIN
  INSERT INTO candidate_fts (candidate_fts, rowid, searchable_text)
  SELECT 'delete', old.seq, old.searchable_text
  WHERE old.kind = 'entry' AND old.status IN ('draft', 'quarantined');
  INSERT INTO candidate_fts (rowid, searchable_text)
  SELECT new.seq, new.searchable_text
  WHERE new.kind = 'entry' AND new.status IN ('draft', 'quarantined');
END;
CREATE TABLE candidate_projection (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  generation INTEGER NOT NULL, analyzer_version TEXT NOT NULL,
  recall_algorithm_version TEXT NOT NULL,
  PRIMARY KEY (repository_key, worktree_key)
);
CREATE TABLE evidence_refs (
  candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id) ON DELETE CASCADE,
  statement_id TEXT NOT NULL, evidence_id TEXT NOT NULL,
  pointer_digest TEXT NOT NULL, session_key TEXT, turn_key TEXT, revision TEXT,
  payload_sha256 TEXT, relation TEXT, strength TEXT, limitations_json TEXT,
  detail_json TEXT NOT NULL DEFAULT '{}', task_id TEXT,
  PRIMARY KEY (candidate_id, statement_id, evidence_id)
);
CREATE TABLE assessments (
  candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id) ON DELETE CASCADE,
  statement_id TEXT NOT NULL,
  citations_digest TEXT NOT NULL, provenance_strength TEXT NOT NULL,
  limitations_json TEXT NOT NULL,
  claim_support TEXT NOT NULL
    CHECK (claim_support IN ('unverified', 'typed-fact', 'human-confirmed', 'drifted')),
  assessed_by TEXT NOT NULL CHECK (assessed_by IN ('deterministic', 'human')),
  statement_text_digest TEXT NOT NULL, revision INTEGER NOT NULL,
  PRIMARY KEY (candidate_id, statement_id)
);
"""

APPROVED = """
CREATE TABLE approved_entries (
  seq INTEGER PRIMARY KEY,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  entry_id TEXT NOT NULL, path TEXT NOT NULL,
  type TEXT NOT NULL, scene TEXT NOT NULL, status TEXT NOT NULL, priority INTEGER,
  revision INTEGER NOT NULL, content_digest TEXT NOT NULL,
  frontmatter_json TEXT NOT NULL, body_text TEXT NOT NULL,
  summary TEXT NOT NULL, searchable_text TEXT NOT NULL,
  UNIQUE (repository_key, worktree_key, entry_id)
);
CREATE VIRTUAL TABLE approved_fts USING fts5(
  searchable_text, content='approved_entries', content_rowid='seq'
);
CREATE TRIGGER approved_fts_insert AFTER INSERT ON approved_entries BEGIN
  INSERT INTO approved_fts (rowid, searchable_text) VALUES (new.seq, new.searchable_text);
END;
CREATE TRIGGER approved_fts_delete AFTER DELETE ON approved_entries BEGIN
  INSERT INTO approved_fts (approved_fts, rowid, searchable_text)
  VALUES ('delete', old.seq, old.searchable_text);
END;
CREATE TRIGGER approved_fts_update AFTER UPDATE OF searchable_text ON approved_entries BEGIN
  INSERT INTO approved_fts (approved_fts, rowid, searchable_text)
  VALUES ('delete', old.seq, old.searchable_text);
  INSERT INTO approved_fts (rowid, searchable_text) VALUES (new.seq, new.searchable_text);
END;
CREATE TABLE approved_projection (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  generation INTEGER NOT NULL, source_tree_digest TEXT NOT NULL,
  coverage TEXT NOT NULL DEFAULT 'complete' CHECK (coverage IN ('complete', 'partial')),
  analyzer_version TEXT NOT NULL, recall_algorithm_version TEXT NOT NULL,
  memory_root TEXT NOT NULL, scanned_at_ns INTEGER NOT NULL, synced_at INTEGER NOT NULL,
  PRIMARY KEY (repository_key, worktree_key)
);
CREATE TABLE approved_sources (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL, path TEXT NOT NULL,
  device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, content_digest TEXT,
  PRIMARY KEY (repository_key, worktree_key, path)
);
"""

JOURNAL = """
CREATE TABLE promotion_journal (
  plan_id TEXT PRIMARY KEY,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'entry',
  plan_canonical_json TEXT NOT NULL, plan_digest TEXT NOT NULL UNIQUE,
  candidate_ids_json TEXT NOT NULL, assessment_digest TEXT NOT NULL,
  policy_version TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'generated'
    CHECK (status IN ('generated', 'approved', 'applying', 'applied', 'voided')),
  mutation_phase TEXT NOT NULL DEFAULT 'precheck'
    CHECK (mutation_phase IN ('precheck', 'mutating', 'rolling_back', 'done')),
  void_reason TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX promotion_journal_owner ON promotion_journal (repository_key, worktree_key, status);
CREATE TABLE promotion_files (
  plan_id TEXT NOT NULL REFERENCES promotion_journal (plan_id) ON DELETE CASCADE,
  target_path TEXT NOT NULL,
  operation TEXT NOT NULL DEFAULT 'write' CHECK (operation IN ('write', 'delete')),
  target_blob_hash TEXT,
  sanitized_content BLOB NOT NULL, sanitized_digest TEXT NOT NULL,
  intent_state TEXT NOT NULL DEFAULT 'pending'
    CHECK (intent_state IN ('pending', 'intent', 'applied', 'rolled_back')),
  originally_present INTEGER, rollback_content BLOB, rollback_digest TEXT,
  PRIMARY KEY (plan_id, target_path)
);
CREATE TABLE consolidation_runs (
  run_id TEXT PRIMARY KEY,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL, task_id TEXT,
  state TEXT NOT NULL DEFAULT 'pending_review'
    CHECK (state IN ('pending_review', 'no_op', 'applied', 'stale')),
  entry_count INTEGER NOT NULL DEFAULT 0, patch_json TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE runner_conformance (
  profile TEXT PRIMARY KEY, cli_version_fingerprint TEXT NOT NULL,
  test_version TEXT NOT NULL, passed_at INTEGER NOT NULL,
  record_json TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE extraction_cursors (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL, source TEXT NOT NULL,
  cursor_json TEXT NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (repository_key, worktree_key, source)
);
"""

AUTHORIZATION = """
CREATE TABLE authorization_log (id INTEGER PRIMARY KEY, at TEXT NOT NULL, repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL, subject_kind TEXT NOT NULL, subject_digest TEXT NOT NULL, via TEXT NOT NULL, detail TEXT NOT NULL);
CREATE INDEX authorization_log_owner ON authorization_log (repository_key, worktree_key);
CREATE TABLE runner_deliveries (plan_digest TEXT PRIMARY KEY, task_id TEXT NOT NULL, state TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT);
"""  # noqa: E501 - the two tables' DDL is shared verbatim with other subsystems

# A plan the human declined in the approval form: it is voided with this row, and no path
# (an agent's digest, `promote --approve`, another server) may approve it afterwards.
PLAN_DECLINES = """
CREATE TABLE plan_declines (
  plan_id TEXT PRIMARY KEY REFERENCES promotion_journal (plan_id) ON DELETE CASCADE,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  plan_digest TEXT NOT NULL, via TEXT NOT NULL, declined_at INTEGER NOT NULL
);
"""

AGENT_MEMORY = """
CREATE TABLE agent_memory_items (
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL, store TEXT NOT NULL,
  item_key TEXT NOT NULL, content_digest TEXT NOT NULL, candidate_id TEXT,
  harvested_at INTEGER NOT NULL,
  PRIMARY KEY (repository_key, worktree_key, store, item_key)
);
"""

# What corroborates each candidate the builtin extractor proposed, and whether an extract run
# has offered it to review yet (`extract` offers at most `memory.extractLimit` per run, the
# highest rank first; the rest wait here for a later run or a higher limit).
CANDIDATE_OFFERS = """
CREATE TABLE candidate_offers (
  candidate_id TEXT PRIMARY KEY REFERENCES candidates (candidate_id) ON DELETE CASCADE,
  repository_key TEXT NOT NULL, worktree_key TEXT NOT NULL,
  fact_key TEXT NOT NULL, sessions_json TEXT NOT NULL, people_json TEXT NOT NULL,
  rank INTEGER NOT NULL, weight INTEGER NOT NULL, offered_at INTEGER
);
CREATE INDEX candidate_offers_owner ON candidate_offers (repository_key, worktree_key, offered_at);
"""

# (name, DDL) in order. Never edit a released one; append.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("0001-core-tasks-candidates", CORE),
    ("0002-approved-projection", APPROVED),
    ("0003-promotion-journal-runs-conformance", JOURNAL),
    ("0004-authorization-log-deliveries", AUTHORIZATION),
    ("0005-plan-declines", PLAN_DECLINES),
    ("0006-agent-memory-items", AGENT_MEMORY),
    ("0008-candidate-offers", CANDIDATE_OFFERS),
)


def _seed_meta(db: Database) -> None:
    db.execute(
        "INSERT OR IGNORE INTO memory_state_meta (key, value) VALUES ('memoryStateUuid', ?)",
        (str(uuid.uuid4()),),
    )


STATE_SCHEMA = Schema(
    migrations=MIGRATIONS,
    unusable=Trouble(
        "GM_STATE_DB_UNUSABLE",
        "cannot use memory-state.sqlite3: {detail}",
        "move the file aside; memory state (tasks, candidates) will start empty",
    ),
    too_new=Trouble(
        "GM_STATE_TOO_NEW",
        "memory-state.sqlite3 was written by a newer or different version ({detail})",
        "upgrade git-team-memory, or point GIT_MEMORY_HOME at another state home",
    ),
    busy=Trouble(
        "GM_STATE_BUSY",
        "another git memory process is writing the memory state",
        "wait for it to finish and run the command again",
    ),
    boundary="store.migrate",
    secure_delete=True,
    seed=_seed_meta,
)
