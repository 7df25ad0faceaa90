"""The one SQLite access module: our two databases, and other programs' databases read-only.

`memory-state.sqlite3` (store/) and the session index `sessions.sqlite3` (sessions/) are both
a `Database`: a 0600 file in the private state home, in WAL mode with `foreign_keys` on,
brought up to date by named migrations recorded in the file itself (`Schema`). Writers take a
filelock beside the file first (cross-process serialization; lock order: the sessions index
lock, then the memory-state one) and then `BEGIN IMMEDIATE`, so two writers never interleave
and a reader always sees a committed snapshot. `write()` nests: an inner `write()` is a
SAVEPOINT of the outer transaction, so flows compose several calls into one atomic one.

Each migration is applied in its own writer transaction together with its row in
`schema_migrations`, so a crash leaves the file at a known earlier version. A file that
records a migration this code does not know was written by a newer version and is refused.
The session index once recorded integer versions (`schema_migrations(version, applied)`);
such a table is read as naming the schema's migrations in order, and rewritten to names only
when a migration has to be added to it.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.paths import PRIVATE_FILE_MODE, ensure_private_dir
from git_memory.safefs import write_new_file

if TYPE_CHECKING:
    import tempfile
    from pathlib import Path

    from filelock import FileLock

Row = sqlite3.Row
Connection = sqlite3.Connection
DatabaseError = sqlite3.DatabaseError
LOCK_SUFFIX = ".lock"
BUSY_TIMEOUT_MS = 30_000
# SQLite's words for a file another connection holds locked.
_BUSY = re.compile(r"(?i)database (?:is|table is) locked|database is busy")
WRITER_LOCK_TIMEOUT_S = 60.0
# Reading another program's database: seconds per connection, VM steps between clock checks,
# and the longest value (a message or part row is far smaller).
FOREIGN_BUDGET_SECONDS = 20.0
PROGRESS_STEPS = 10_000
FOREIGN_MAX_VALUE = 64 * 1024 * 1024

_BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
  name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL
)
"""


@dataclass(frozen=True)
class Trouble:
    """One way a database can fail a command: its stable code, message and hint (the message
    may name `{detail}`)."""

    code: str
    message: str
    hint: str

    def error(self, detail: object = "") -> GitMemoryError:
        """The error, with `detail` put into the message."""
        return GitMemoryError(self.code, self.message.format(detail=detail), hint=self.hint)


@dataclass(frozen=True)
class Schema:
    """What one kind of database file holds and how its troubles are reported.

    `migrations` are (name, DDL) in order: never edit a released one, append. `seed` runs in
    the transaction of the first migration; `boundary` names the migration transactions for
    crash tests (see `Database.write`)."""

    migrations: tuple[tuple[str, str], ...]
    unusable: Trouble  # SQLite cannot read the file (`detail`: SQLite's words)
    too_new: Trouble  # it records migrations this code does not know (`detail`: which)
    busy: Trouble  # another process holds the writer lock too long
    boundary: str = ""
    secure_delete: bool = False
    seed: Callable[[Database], None] | None = None

    @property
    def names(self) -> list[str]:
        """The migration names, in order."""
        return [name for name, _ in self.migrations]


class Database:
    """An open database of ours (one connection, used from one thread)."""

    def __init__(
        self,
        path: Path,
        schema: Schema,
        *,
        migrate: bool = True,
        upto: str | None = None,
        lock_timeout: float = WRITER_LOCK_TIMEOUT_S,
    ) -> None:
        self.path = path
        self.schema = schema
        self.lock_timeout = lock_timeout
        self._lock: FileLock | None = None
        self._holding = 0
        self._depth = 0
        self._savepoints = 0
        create_private(path)
        try:
            self.conn = self._connect()
        except sqlite3.Error as exc:
            raise schema.unusable.error(exc) from exc
        try:
            self._pragmas()
            if migrate:
                run_migrations(self, upto=upto)
        except sqlite3.OperationalError as exc:
            self.conn.close()
            if _BUSY.search(str(exc)):
                # Another process held the file past the busy timeout: the file is sound, and
                # no rebuild is called for.
                raise schema.busy.error() from exc
            raise schema.unusable.error(exc) from exc
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise schema.unusable.error(exc) from exc
        except BaseException:
            self.conn.close()
            raise
        for suffix in ("-wal", "-shm"):
            side = str(path) + suffix
            if os.path.exists(side) and os.stat(side).st_mode & 0o777 != PRIVATE_FILE_MODE:
                os.chmod(side, PRIVATE_FILE_MODE)

    def _pragmas(self) -> None:
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if str(self.scalar("PRAGMA journal_mode")).lower() != "wal":
            self._switch_to_wal()
        self.conn.execute("PRAGMA foreign_keys = ON")
        if self.schema.secure_delete:
            self.conn.execute("PRAGMA secure_delete = ON")
        self.conn.execute("PRAGMA synchronous = NORMAL")

    def _switch_to_wal(self) -> None:
        """Put a new file in WAL mode, as a writer: under the filelock, on a fresh connection.

        Two processes opening a new file at once both read it before either switched it; the
        second one's switch then fails with "database is locked" as long as the first holds
        any transaction (a whole sync). Under the lock, a fresh connection sees what the
        first one did and has nothing left to switch."""
        if self._reconnected_in_wal():
            return  # switched meanwhile: a reader need not wait for the writer's whole hold
        with self.locked():
            if self._reconnected_in_wal():
                return
            mode = self.scalar("PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise self.schema.unusable.error("it cannot use WAL mode")

    def _reconnected_in_wal(self) -> bool:
        """Open a fresh connection (an earlier one keeps the mode it first read) and say
        whether the file is in WAL mode now."""
        self.conn.close()
        self.conn = self._connect()
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return str(self.scalar("PRAGMA journal_mode")).lower() == "wal"

    def _connect(self) -> Connection:
        """A connection to the file, in autocommit (transactions are ours), rows by name."""
        conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.row_factory = sqlite3.Row
        return conn

    # -- transactions -------------------------------------------------------------------

    @contextlib.contextmanager
    def write(self, boundary: str | None = None) -> Iterator[Self]:
        """A writer transaction: filelock, then `BEGIN IMMEDIATE`; nested calls are savepoints.

        Commits when the block ends, rolls back (and re-raises) on any exception. `boundary`
        names the transaction for crash tests: failpoints `<boundary>.before-commit` and
        `<boundary>.after-commit` fire around the COMMIT of an outermost transaction.
        """
        if self._depth > 0:
            with self._savepoint():
                yield self
            return
        with self.locked():
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self
                if boundary:
                    failpoint(f"{boundary}.before-commit")
            except BaseException:
                self._depth = 0
                self.conn.execute("ROLLBACK")
                raise
            self._depth = 0
            self.conn.execute("COMMIT")
            if boundary:
                failpoint(f"{boundary}.after-commit")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the writer filelock (re-entrant: a `write()` inside it takes nothing more).

        A writer that must be alone for longer than one transaction (a sync) holds it around
        them all; waiting longer than `lock_timeout` seconds is `schema.busy()`."""
        if self._holding:
            # Already ours: filelock's own re-entry checks cost more than a small commit.
            self._holding += 1
            try:
                yield
            finally:
                self._holding -= 1
            return
        lock = self._file_lock()
        try:
            lock.acquire(timeout=self.lock_timeout)
        except TimeoutError as exc:  # filelock's Timeout is a TimeoutError
            raise self.schema.busy.error() from exc
        except OSError as exc:  # a read-only or foreign state directory: no lock file
            raise GitMemoryError(
                "GM_STATE_HOME_INVALID",
                f"cannot create the lock file {lock.lock_file!r} ({exc.strerror or exc})",
                hint="make the state directory writable, or point GIT_MEMORY_HOME elsewhere",
            ) from exc
        self._holding = 1
        try:
            yield
        finally:
            self._holding = 0
            lock.release()

    def _file_lock(self) -> FileLock:
        if self._lock is None:
            # Start-up seam (docs/architecture.md): filelock imports asyncio; readers never lock.
            from filelock import FileLock  # noqa: PLC0415

            self._lock = FileLock(str(self.path) + LOCK_SUFFIX, mode=PRIVATE_FILE_MODE)
        return self._lock

    @contextlib.contextmanager
    def _savepoint(self) -> Iterator[None]:
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            raise
        self.conn.execute(f"RELEASE {name}")

    @contextlib.contextmanager
    def read(self) -> Iterator[Self]:
        """A read snapshot (deferred transaction); inside `write()` it is a no-op."""
        if self._depth > 0:
            yield self
            return
        self.conn.execute("BEGIN")
        self._depth = 1
        try:
            yield self
        finally:
            self._depth = 0
            self.conn.execute("COMMIT")

    # -- statements ---------------------------------------------------------------------

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one statement; returns the number of rows changed."""
        cursor = self.conn.execute(sql, params)
        return cursor.rowcount

    def insert(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one INSERT; returns the new rowid."""
        cursor = self.conn.execute(sql, params)
        return int(cursor.lastrowid or 0)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        self.conn.executemany(sql, rows)

    def script(self, sql: str) -> None:
        """Run several statements (DDL only; never with user data)."""
        for statement in statements(sql):
            self.conn.execute(statement)

    def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Row]:
        """All result rows."""
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Row | None:
        """The first result row, or None."""
        row: Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.one(sql, params)
        return None if row is None else row[0]

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_private(path: Path) -> None:
    """Create the database file 0600 before SQLite does (SQLite would use the umask); an
    existing one is tightened to 0600, a symbolic link in its place refused."""
    ensure_private_dir(path.parent)
    try:
        write_new_file(str(path), b"", PRIVATE_FILE_MODE)
    except FileExistsError:
        if path.is_symlink():
            raise GitMemoryError(
                "GM_SYMLINK_REFUSED", f"state file {path.name!r} is a symbolic link"
            ) from None
        if path.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
            os.chmod(path, PRIVATE_FILE_MODE)


def statements(sql: str) -> list[str]:
    """Split DDL into statements, keeping trigger bodies (`BEGIN … END;`) whole."""
    out: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        out.append(buffer.strip())
    return out


# -- migrations ---------------------------------------------------------------------------


def applied_migrations(db: Database) -> list[str]:
    """Names of the migrations recorded in the file, in application order (integer versions
    of the older session-index table read as the schema's migrations in order)."""
    columns = {str(row[1]) for row in db.rows("PRAGMA table_info(schema_migrations)")}
    if "name" in columns:
        return [str(row[0]) for row in db.rows("SELECT name FROM schema_migrations ORDER BY rowid")]
    if "version" in columns:
        known = db.schema.names
        versions = [int(row[0]) for row in db.rows("SELECT version FROM schema_migrations")]
        return [
            known[version - 1] if 0 < version <= len(known) else f"version {version}"
            for version in sorted(versions)
        ]
    return []


def run_migrations(db: Database, *, upto: str | None = None) -> list[str]:
    """Apply every missing migration (up to and including `upto`); returns those applied.

    Each migration commits on its own with its `schema_migrations` row."""
    known = db.schema.names
    wanted = known[: known.index(upto) + 1] if upto is not None else known
    done = applied_migrations(db)
    _check_known(db, done)
    if done[: len(wanted)] == wanted:
        return []  # fast path: nothing to do, no writer lock taken
    applied: list[str] = []
    for name, ddl in db.schema.migrations[: len(wanted)]:
        with db.write(boundary=db.schema.boundary or None):
            done = applied_migrations(db)  # under the lock: another process may have won
            _check_known(db, done)
            if name in done:
                continue
            _named_bookkeeping(db, done)
            db.script(ddl)
            db.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%s'))",
                (name,),
            )
            if name == known[0] and db.schema.seed is not None:
                db.schema.seed(db)
        applied.append(name)
    return applied


def _named_bookkeeping(db: Database, done: list[str]) -> None:
    """Make `schema_migrations` the named table, carrying over integer-version rows."""
    columns = {str(row[1]) for row in db.rows("PRAGMA table_info(schema_migrations)")}
    if "version" in columns:
        db.execute("DROP TABLE schema_migrations")
        db.execute(_BOOKKEEPING)
        db.executemany(
            "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%s'))",
            [(name,) for name in done],
        )
    else:
        db.execute(_BOOKKEEPING)


def _check_known(db: Database, done: list[str]) -> None:
    known = db.schema.names
    unknown = [name for name in done if name not in known]
    if unknown or done != known[: len(done)]:
        raise db.schema.too_new.error(
            f"unknown migrations: {', '.join(unknown)}" if unknown else "out of order"
        )


# -- files we do not own ------------------------------------------------------------------


def _uri_path(path: str) -> str:
    """`path` for a `file:` URI: SQLite decodes `%HH` and ends the path at `?` or `#`."""
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


@contextlib.contextmanager
def existing_reader(path: str) -> Iterator[Connection]:
    """A connection to the database file at `path` that creates, migrates and writes nothing
    (the pre-commit hook reads the session index through it; pathlib is not needed)."""
    # `mode=rw` never creates a missing file.
    conn = sqlite3.connect(f"file:{_uri_path(path)}?mode=rw", uri=True, timeout=30.0)
    try:
        yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def foreign_database(path: str, budget: float = FOREIGN_BUDGET_SECONDS) -> Iterator[Connection]:
    """Another program's SQLite database, read without writing anything next to it.

    Even a read-only open of a WAL database creates `-wal`/`-shm` files beside it, so a
    database without a pending WAL is opened `immutable`; one whose WAL holds rows not yet
    checkpointed is copied with its WAL into a private temporary directory and read there.
    Every statement of the connection shares `budget` seconds (a progress handler interrupts
    the statement that goes past it, raising `DatabaseError`), and no value may be longer
    than `FOREIGN_MAX_VALUE` bytes.
    """
    wal = path + "-wal"
    if not (os.path.isfile(wal) and os.path.getsize(wal) > 0):
        uri = f"file:{_uri_path(path)}?mode=ro&immutable=1"
    else:
        uri = f"file:{_uri_path(_private_copy(path, wal))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    deadline = time.monotonic() + budget
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), PROGRESS_STEPS)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, FOREIGN_MAX_VALUE)
    try:
        yield conn
    finally:
        conn.close()


def tables_only(conn: Connection, names: tuple[str, ...]) -> list[str]:
    """Those of `names` that are not plain tables of the database (a view, a virtual table,
    or missing): a view can run any query, an endless recursive one included."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        " AND upper(substr(ltrim(sql), 1, 14)) != 'CREATE VIRTUAL'"
    ).fetchall()
    tables = {row[0] for row in rows}
    return [name for name in names if name not in tables]


# The private copies of foreign databases with a pending WAL, kept while their files stay
# unchanged (a sync reads many sessions of one database); removed when the process ends.
_COPIES: dict[str, tuple[tuple[int, ...], tempfile.TemporaryDirectory[str]]] = {}


def _private_copy(path: str, wal: str) -> str:
    """A copy of the database and its WAL in a private temporary directory."""
    # Start-up seam (docs/architecture.md): the pre-commit hook imports this module to read
    # the session index and never copies a database.
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    key = tuple(value for name in (path, wal) for value in _stat_key(os.stat(name)))
    known = _COPIES.get(path)
    if known is None or known[0] != key:
        scratch = tempfile.TemporaryDirectory(prefix="git-memory-")
        copy = os.path.join(scratch.name, "copy.db")
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, copy + "-wal")
        _COPIES[path] = (key, scratch)  # the previous copy is removed with its object
    return os.path.join(_COPIES[path][1].name, "copy.db")


def _stat_key(stat: os.stat_result) -> tuple[int, ...]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
