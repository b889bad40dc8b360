"""The dashboard's SQLite file: connection per request, numbered migrations, durable writes.

Why SQLite in WAL mode with ``synchronous=FULL``: a night is its event log, and an event the table
has seen accepted on a screen must survive a pulled plug or a killed process. With FULL, SQLite
syncs the write-ahead log at every commit, so a response is only sent after the event is on disk.
Each accepted event is one transaction (see ``nights.py``).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path
from typing import Callable

from flask import Flask, current_app, g

# Numbered migrations: index i brings the schema from version i to i + 1. Never edit a released
# step; add a new one at the end. `schema_version` holds the number of steps applied.
MIGRATIONS: list[str] = [
    # 1: nights and their event logs
    """
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE nights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        chip_cents INTEGER NOT NULL DEFAULT 0,
        currency TEXT NOT NULL DEFAULT '',
        is_demo INTEGER NOT NULL DEFAULT 0,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE events (
        night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        body TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'manual',
        created_at TEXT NOT NULL,
        PRIMARY KEY (night_id, line)
    );
    """,
    # 2: banking-game (Chinese Fan-Tan) nights and their records, kept apart from Fan Tan nights
    """
    CREATE TABLE bank_nights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE bank_events (
        night_id INTEGER NOT NULL REFERENCES bank_nights(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        body TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'manual',
        created_at TEXT NOT NULL,
        PRIMARY KEY (night_id, line)
    );
    """,
]


def default_path() -> Path:
    """Where nights are kept unless told otherwise: the user's data folder, so that `fantan serve`
    and `fantan watch` started from any folder share the same nights."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "fantan" / "nights.sqlite"


def connect(path: str) -> sqlite3.Connection:
    """Open the database with the settings that make every commit durable."""
    db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def get_db() -> sqlite3.Connection:
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def schema_version(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row["version"])


def migrate(db: sqlite3.Connection, migrations: list[str] | None = None) -> int:
    """Apply the steps not yet applied, each in its own transaction; return the new version."""
    steps = MIGRATIONS if migrations is None else migrations
    version = schema_version(db)
    if version > len(steps):
        raise RuntimeError(
            f"the database is at schema version {version}, newer than this program "
            f"({len(steps)}): use a newer fantan or another --db"
        )
    for number in range(version, len(steps)):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in steps[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("DELETE FROM schema_version")
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (number + 1,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(steps)


def init_db(path: str) -> None:
    """Create or upgrade the database file at `path`."""
    db = connect(path)
    try:
        migrate(db)
    finally:
        db.close()


def setting(db: sqlite3.Connection, key: str, make: Callable[[], str]) -> str:
    """A value kept in the database (made once by `make`), e.g. the session secret."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    if row is not None:
        return str(row["value"])
    db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, make()))
    return str(db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()["value"])


def session_secret(path: str) -> str:
    """The secret that signs session cookies, kept in the database so that a restart keeps
    every phone's session (and its form tokens) valid."""
    db = connect(path)
    try:
        return setting(db, "secret_key", lambda: secrets.token_hex(32))
    finally:
        db.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
