"""Feeding the dashboard from `fantan watch`: a night of its own, every line as it is seen, the picture.

Why here and not in the web package: the dashboard only offers doors (`web.table_feed.submit`,
`web.camera.publish_frame`); the pipeline decides what goes through them. Lines go in with source
"camera"; passes that players tap on the dashboard (source "manual") come back out to the watcher,
which needs them to know whose turn it is. A pass that came from the dashboard is not sent back in.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Any

import cv2


class DashboardFeed:
    """One running dashboard and the night the camera writes into."""

    def __init__(self, app, night_id: int, publish_every_s: float = 0.5):
        self.app, self.night_id = app, night_id
        self.publish_every_s = publish_every_s
        self._seen_lines = 0
        self._from_dashboard: Counter[str] = Counter()  # passes tapped there, not yet pushed by the watcher
        self._note = ""
        self._last_publish = 0.0
        self._last_poll = 0.0

    @classmethod
    def start(cls, start, dealer: str, host: str = "127.0.0.1", port: int = 5000) -> "DashboardFeed":
        from web import create_app
        from web.db import get_db
        from web.nights import create_night, stored_lines

        app = create_app({"CAMERA": "fantan watch"})
        with app.app_context():
            db = get_db()
            night_id = create_night(db, start, name=time.strftime("Camera %Y-%m-%d %H:%M"),
                                    first_dealer=dealer, source="camera")
            seen = len(stored_lines(db, night_id))
        server = threading.Thread(target=lambda: app.run(host=host, port=port, use_reloader=False, threaded=True),
                                  daemon=True, name="dashboard")
        server.start()
        feed = cls(app, night_id)
        feed._seen_lines = seen
        return feed

    def news(self, news) -> None:
        """Send a line the watcher pushed (plays, passes, illegal plays, shows, round starts, ends)."""
        from web.table_feed import submit

        event = news.event
        if event is None:
            if news.kind == "removed":
                self._note = news.message
            return
        if news.kind == "pass" and self._from_dashboard[event.player] > 0:
            self._from_dashboard[event.player] -= 1  # already in the night: the player tapped it there
            return
        if news.kind == "illegal":
            self._note = news.message
        submit(self.app, self.night_id, event)
        self._seen_lines += 1

    def sync(self, events: list) -> None:
        """Make the night say what the watcher's record says, after the watcher re-ordered lines it had
        already sent (a card made out late goes in where it was put down, and the plays after it may
        change hands). Lines from the first that differs are rewritten; passes tapped on the
        dashboard that the watcher has not taken yet stay at the end."""
        from scorekeeper.record import write_record
        from web.db import get_db
        from web.nights import load_match, rewrite_from, stored_lines

        want = write_record(events).splitlines()
        with self.app.app_context():
            db = get_db()
            rows = stored_lines(db, self.night_id)
            have = [r["body"] for r in rows[: self._seen_lines]]
            first = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
            if first == len(have) == len(want):
                return
            stored = load_match(db, self.night_id).events  # one event per stored line
            waiting = [(ev, r["source"]) for ev, r in zip(stored[self._seen_lines:], rows[self._seen_lines:])
                       if r["source"] != "camera"]
            tail = list(events[first:])
            rewrite_from(db, self.night_id, first + 1, tail + [ev for ev, _ in waiting],
                         sources=["camera"] * len(tail) + [src for _, src in waiting])
        self._seen_lines = len(want)

    def new_passes(self, frame: int, every_s: float = 0.2) -> list[tuple[int, str]]:
        """Passes tapped on the dashboard since last asked, as (frame, player) for the watcher."""
        now = time.monotonic()
        if now - self._last_poll < every_s:
            return []
        self._last_poll = now
        from web.db import get_db
        from web.nights import stored_lines

        with self.app.app_context():
            rows = stored_lines(get_db(), self.night_id)
        out = []
        for row in rows[self._seen_lines:]:
            self._seen_lines += 1
            if row["source"] == "camera":
                continue
            body = json.loads(row["body"])
            if body.get("event") == "pass":
                self._from_dashboard[body["player"]] += 1
                out.append((frame, body["player"]))
        return out

    def status(self, status) -> None:
        self._note = status.message

    def frame(self, frame, watcher) -> None:
        """Publish the picture (a few times a second) with what was recognised in it."""
        from web.camera import publish_frame

        now = time.monotonic()
        if now - self._last_publish < self.publish_every_s:
            return
        self._last_publish = now
        ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if not ok:
            return
        cards: list[dict[str, Any]] = []
        for d in watcher.last_detections:
            entry: dict[str, Any] = {"card": d.card, "confidence": round(float(d.confidence), 3),
                                     "box": [round(float(v), 1) for v in d.box]}
            if d.corners is not None:
                entry["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in d.corners]
            cards.append(entry)
        note = "hand over the table" if watcher.covered else self._note
        h, w = frame.image.shape[:2]
        publish_frame(self.app, jpeg.tobytes(), w, h, cards, note)
