"""Durability, for real: a `fantan serve` process killed with SIGKILL in the middle of a round comes
back, on the same database, with exactly the state it had shown."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path


FANTAN = [sys.executable, "-m", "fantan"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(FANTAN + ["serve", "--db", str(db), "--port", str(port), "--no-demo"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     cwd=Path(__file__).resolve().parents[2])
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/session", timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {self.proc.stdout.read().decode()}")
                time.sleep(0.1)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


class Phone:
    def __init__(self, base: str, jar: http.cookiejar.CookieJar | None = None) -> None:
        self.base = base
        self.jar = jar or http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = self.get("/api/session")["csrf_token"]

    def get(self, path: str):
        with self.opener.open(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body) -> tuple[int, dict]:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.token,
                                              "Accept": "application/json"})
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


# A round in progress: plays, a pass later proven illegal, a card that does not fit, an undo, a fix.
MOVES = [("play", "Ben", "7d"), ("pass", "Cleo", None), ("play", "Dan", "8d"), ("play", "Anna", "7h"),
         ("play", "Ben", "9d"), ("play", "Cleo", "6d"), ("play", "Dan", "2s"), ("play", "Dan", "8h"),
         ("play", "Anna", "7c"), ("play", "Ben", "6h")]


def _play(phone: Phone, night: int) -> None:
    for kind, player, card in MOVES:
        body = {"event": kind, "player": player}
        if card:
            body["card"] = card
        status, _ = phone.post(f"/api/nights/{night}/events", body)
        assert status == 201
    status, _ = phone.post(f"/api/nights/{night}/undo", {"line": 2 + len(MOVES)})
    assert status == 200
    status, _ = phone.post(f"/api/nights/{night}/lines/11", {"event": "play", "player": "Anna", "card": "6c"})
    assert status == 200


def test_a_killed_server_comes_back_with_the_same_night(tmp_path):
    db, port = tmp_path / "nights.sqlite", free_port()
    server = Server(db, port)
    try:
        phone = Phone(server.base)
        status, made = phone.post("/api/nights", {"players": ["Anna", "Ben", "Cleo", "Dan"], "dealer": "Dan",
                                                  "stakes": "chips", "rounds": 3})
        night = made["id"]
        _play(phone, night)
        before = phone.get(f"/api/nights/{night}/state")
        assert before["round"]["to_move"] and not before["round"]["is_over"]  # mid-round
        assert any(e["flag"] for e in before["log"])
        chips_before = phone.get(f"/api/nights/{night}/chips")
    finally:
        server.kill()
    server = Server(db, port)
    try:
        again = Phone(server.base, phone.jar)  # the same phone, its session cookie kept
        assert again.get(f"/api/nights/{night}/state") == before
        assert again.get(f"/api/nights/{night}/chips") == chips_before
        # and it carries on: the old form token still works after the restart
        status, _ = phone.post(f"/api/nights/{night}/events", {"event": "pass", "player": before["round"]["to_move"]})
        assert status == 201
    finally:
        server.kill()


def test_every_acknowledged_event_survives_a_kill_during_a_burst(tmp_path):
    db, port = tmp_path / "nights.sqlite", free_port()
    server = Server(db, port)
    acked: list[int] = []
    try:
        phone = Phone(server.base)
        night = phone.post("/api/nights", {"players": ["Anna", "Ben"], "variant": "parliament",
                                           "dealer": "Ben", "rounds": 1})[1]["id"]
        players = ["Anna", "Ben"]

        def burst() -> None:
            i = 0
            while True:
                try:
                    status, body = phone.post(f"/api/nights/{night}/events", {"event": "pass", "player": players[i % 2]})
                except OSError:
                    return
                if status != 201:
                    return
                acked.append(body["line"])
                i += 1

        worker = threading.Thread(target=burst, daemon=True)
        worker.start()
        while len(acked) < 15:
            time.sleep(0.01)
        server.kill()  # while passes are still coming in
        worker.join(timeout=15)
    finally:
        if server.proc.poll() is None:
            server.kill()
    server = Server(db, port)
    try:
        state = Phone(server.base).get(f"/api/nights/{night}/state")
        assert state["lines"] >= acked[-1]        # nothing acknowledged was lost
        assert state["lines"] <= acked[-1] + 1    # at most the one in flight made it too
        assert [e["line"] for e in state["log"]] == list(range(1, state["lines"] + 1))
    finally:
        server.kill()
