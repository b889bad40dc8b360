"""A night stored as its event log: the durability logic shared by Fan Tan and banking nights.

Both games keep a night as one record line per row and nothing else; every change is one
``BEGIN IMMEDIATE`` transaction under the app's lock that writes the line(s) and bumps the night's
``revision``, rolled back whole on any error. The replayed game is cached per night, keyed by
revision, so many phones watching do not replay it again; it is replayed from the database whenever
the revision moved on (another process, a restart). `EventLog` holds this once, parameterised by its
two tables and by how a game is replayed from the stored text.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Generic, Iterator, TypeVar

from flask import Flask, current_app

Game = TypeVar("Game")


class InputError(Exception):
    """Input the table must fix: shown as a message, with a 4xx status; nothing is stored."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def lock() -> threading.RLock:
    """The one lock for all game access (set up by `web.nights.init_app`)."""
    return current_app.extensions["fantan_lock"]


def notify_change(app: Flask | None = None) -> None:
    """Wake the live-update streams (web/live.py)."""
    ext = (app or current_app).extensions
    cond = ext["fantan_changed"]
    with cond:
        ext["fantan_change_count"] += 1
        cond.notify_all()


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One durable write: committed when the block ends, rolled back whole if it raises.
    The caller holds `lock()`."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


class EventLog(Generic[Game]):
    """The nights of one game: table `nights` (with a ``revision``), table `events` (one record
    line per row), and `replay` that makes the game from the stored record text."""

    def __init__(self, *, nights: str, events: str, cache_key: str, replay: Callable[[str], Game],
                 to_json: Callable[[Any], dict], missing: str, moved_on: str) -> None:
        self.nights = nights
        self.events = events
        self.cache_key = cache_key
        self.replay = replay
        self.to_json = to_json
        self.missing = missing  # "There is no night number {night_id}."
        self.moved_on = moved_on  # the undo refusal, with {last} and {expect}

    # --- reading ---------------------------------------------------------------------------------

    def _cache(self) -> dict[int, tuple[int, Game]]:
        return current_app.extensions.setdefault(self.cache_key, {})

    def revision(self, db: sqlite3.Connection, night_id: int) -> int | None:
        row = db.execute(f"SELECT revision FROM {self.nights} WHERE id = ?", (night_id,)).fetchone()
        return None if row is None else int(row["revision"])

    def load(self, db: sqlite3.Connection, night_id: int) -> Game:
        """The night's game at its current revision (cached; replayed when the revision moved on).
        Callers must hold `lock()` while they use the returned object."""
        rev = self.revision(db, night_id)
        if rev is None:
            raise InputError(self.missing.format(night_id=night_id), 404)
        hit = self._cache().get(night_id)
        if hit is not None and hit[0] == rev:
            return hit[1]
        rows = db.execute(f"SELECT body FROM {self.events} WHERE night_id = ? ORDER BY line",
                          (night_id,)).fetchall()
        game = self.replay("".join(r["body"] + "\n" for r in rows))
        self._cache()[night_id] = (rev, game)
        return game

    def remember(self, db: sqlite3.Connection, night_id: int, game: Game) -> None:
        rev = self.revision(db, night_id)
        if rev is not None:
            self._cache()[night_id] = (rev, game)

    def forget(self, night_id: int) -> None:
        self._cache().pop(night_id, None)

    # --- writing ---------------------------------------------------------------------------------

    def insert(self, db: sqlite3.Connection, night_id: int, line: int, body: str, source: str) -> None:
        db.execute(
            f"INSERT INTO {self.events} (night_id, line, body, source, created_at) VALUES (?, ?, ?, ?, ?)",
            (night_id, line, body, source, now()),
        )

    def bump(self, db: sqlite3.Connection, night_id: int) -> None:
        db.execute(f"UPDATE {self.nights} SET revision = revision + 1 WHERE id = ?", (night_id,))

    def append(self, db: sqlite3.Connection, night_id: int, event: Any, source: str,
               push: Callable[[Game, Any], Any], refuse: Callable[[Any], str | None]) -> tuple[int, Any]:
        """Add one event at the end of the log; (line, flag or None), on disk before it returns.

        `push` adds the event to the game (raising InputError when it cannot); `refuse` says why the
        flag it raised keeps the line out (None: the line is stored)."""
        with lock():
            db.execute("BEGIN IMMEDIATE")
            try:
                game = self.load(db, night_id)
                flag = push(game, event)
                try:
                    why = refuse(flag)
                    if why is not None:
                        raise InputError(why, 409)
                    line = len(game.events)  # type: ignore[attr-defined]
                    body = json.dumps(self.to_json(event), ensure_ascii=False)
                    self.insert(db, night_id, line, body, source)
                    self.bump(db, night_id)
                    db.execute("COMMIT")
                except BaseException:
                    game.pop()  # type: ignore[attr-defined]
                    raise
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            self.remember(db, night_id, game)
        notify_change()
        return line, flag

    def undo(self, db: sqlite3.Connection, night_id: int, expect_line: int | None) -> int:
        """Take back the last line (never the `match` line) if it is still `expect_line`, so two
        people undoing at once never take back two lines; return the line removed."""
        with lock():
            db.execute("BEGIN IMMEDIATE")
            try:
                game = self.load(db, night_id)
                last = len(game.events)  # type: ignore[attr-defined]
                if last <= 1:
                    raise InputError("There is nothing to undo.", 409)
                if expect_line is not None and expect_line != last:
                    raise InputError(self.moved_on.format(last=last, expect=expect_line), 409)
                db.execute(f"DELETE FROM {self.events} WHERE night_id = ? AND line = ?", (night_id, last))
                self.bump(db, night_id)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            game.pop()  # type: ignore[attr-defined]
            self.remember(db, night_id, game)
        notify_change()
        return last
