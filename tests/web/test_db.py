"""The database file: numbered migrations, durable settings, and a newer file refused clearly."""

import sqlite3

import pytest

from web.db import MIGRATIONS, connect, init_db, migrate, schema_version


def test_a_new_file_gets_every_migration(tmp_path):
    path = str(tmp_path / "n.sqlite")
    init_db(path)
    db = connect(path)
    assert schema_version(db) == len(MIGRATIONS)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"nights", "events", "settings", "schema_version"} <= tables


def test_migrating_twice_changes_nothing(tmp_path):
    path = str(tmp_path / "n.sqlite")
    init_db(path)
    init_db(path)
    assert schema_version(connect(path)) == len(MIGRATIONS)


def test_a_later_step_is_applied_to_an_old_file(tmp_path):
    path = str(tmp_path / "n.sqlite")
    db = connect(path)
    migrate(db, MIGRATIONS[:1])
    assert migrate(db, MIGRATIONS[:1] + ["ALTER TABLE nights ADD COLUMN place TEXT"]) == 2
    assert "place" in [r[1] for r in db.execute("PRAGMA table_info(nights)")]


def test_a_failing_step_leaves_the_file_as_it_was(tmp_path):
    db = connect(str(tmp_path / "n.sqlite"))
    migrate(db, MIGRATIONS[:1])
    with pytest.raises(sqlite3.OperationalError):
        migrate(db, MIGRATIONS[:1] + ["ALTER TABLE nights ADD COLUMN a TEXT; THIS IS NOT SQL"])
    assert schema_version(db) == 1
    assert "a" not in [r[1] for r in db.execute("PRAGMA table_info(nights)")]


def test_a_file_from_a_newer_program_is_refused(tmp_path):
    db = connect(str(tmp_path / "n.sqlite"))
    migrate(db, MIGRATIONS + ["CREATE TABLE future (x)"])
    with pytest.raises(RuntimeError, match="newer"):
        migrate(db)


def test_every_commit_is_synced_to_disk(tmp_path):
    db = connect(str(tmp_path / "n.sqlite"))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_without_a_path_nights_go_to_the_users_data_folder(tmp_path, monkeypatch):
    from web import create_app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = create_app()
    assert app.config["DATABASE"] == str(tmp_path / "fantan" / "nights.sqlite")
    assert (tmp_path / "fantan" / "nights.sqlite").exists()
