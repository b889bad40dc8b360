"""Fixtures in the style of Flask's tutorial (flaskr): an app on a temporary SQLite file per test,
a test client, and a `table` helper that knows the session's form token."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from web import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "nights.sqlite"), "TESTING": True,
                      "LIVE_HEARTBEAT_SECONDS": 0.2})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """A phone at the table: gets its form token once, then posts JSON like the page's script."""

    def __init__(self, client, remote_addr: str = "127.0.0.1") -> None:
        self.client = client
        self.env = {"REMOTE_ADDR": remote_addr}
        self.token = client.get("/api/session", environ_base=self.env).get_json()["csrf_token"]

    def post(self, url: str, json: Any = None, headers: dict | None = None, **kw):
        h = {"X-CSRF-Token": self.token, "Accept": "application/json", **(headers or {})}
        return self.client.post(url, json=json, headers=h, environ_base=self.env, **kw)

    def get(self, url: str, **kw):
        return self.client.get(url, environ_base=self.env, **kw)

    def new_night(self, players=("Anna", "Ben", "Cleo", "Dan"), **settings) -> int:
        body = {"players": list(players), "variant": "fan-tan", "stakes": "points", "rounds": 1,
                "dealer": players[-1], **settings}
        r = self.post("/api/nights", body)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"]

    def play(self, night: int, player: str, card: str):
        return self.post(f"/api/nights/{night}/events", {"event": "play", "player": player, "card": card})

    def pass_(self, night: int, player: str):
        return self.post(f"/api/nights/{night}/events", {"event": "pass", "player": player})

    def state(self, night: int) -> dict:
        r = self.get(f"/api/nights/{night}/state")
        assert r.status_code == 200
        return r.get_json()


@pytest.fixture
def table(client):
    return Table(client)


def _stored_rows(app) -> list[tuple]:
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        return (db.execute("SELECT id, name, revision FROM nights ORDER BY id").fetchall()
                + db.execute("SELECT night_id, line, body FROM events ORDER BY night_id, line").fetchall())
    finally:
        db.close()


@pytest.fixture
def stored(app):
    """Everything kept in the database (nights and event lines), to prove a refusal stored nothing."""
    return lambda: _stored_rows(app)
