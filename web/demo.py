"""The bundled demo: a short recorded night replayed step by step, so a new user sees the table
move at once without a camera.

`web/demo/demo.jsonl` is a game record made with `fantan simulate` (and checked with
`fantan check`). Each start of the demo makes a fresh night marked as a demo (older demo nights are
removed: they hold nothing of the user's) and feeds the record's lines in one at a time through
`web.table_feed.submit`, the same door the camera pipeline uses. The camera panel shows a picture
drawn from the table's state, clearly labelled as a demo, with the cards outlined as a recogniser
would report them.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper.record import read_record

from .camera import publish_frame
from .db import get_db
from .nights import create_night, delete_night, list_nights, load_match, lock
from .table_feed import submit

DEMO_RECORD = Path(__file__).with_name("demo") / "demo.jsonl"
log = logging.getLogger(__name__)


def start_demo(app: Flask, *, step_s: float = 2.0, record: Path = DEMO_RECORD) -> tuple[int, threading.Thread]:
    """Create the demo night and replay the record into it in a background thread."""
    events = read_record(record.read_bytes())
    with app.app_context():
        db = get_db()
        for old in list_nights(db):
            if old.is_demo:
                delete_night(db, old.id)
        night_id = create_night(db, events[0], name="Demo night (recorded)", is_demo=True, source="demo")
    draw_frame(app, night_id)

    def replay() -> None:
        for event in events[1:]:
            time.sleep(step_s)
            try:
                submit(app, night_id, event, source="demo")
                draw_frame(app, night_id)
            except Exception:  # the demo night was deleted or the app is closing
                log.info("demo replay stopped", exc_info=True)
                return

    thread = threading.Thread(target=replay, name="demo", daemon=True)
    thread.start()
    return night_id, thread


_CLOTH: dict[tuple[int, int], Any] = {}


def _cloth(width: int, height: int):
    """Green cloth with a little grain (made once)."""
    if (width, height) not in _CLOTH:
        import cv2
        import numpy as np

        img = np.zeros((height, width, 3), np.uint8)
        img[:] = (60, 110, 40)  # BGR
        noise = np.random.default_rng(7).integers(0, 12, (height, width, 1), dtype=np.uint8)
        _CLOTH[(width, height)] = cv2.add(img, np.repeat(noise, 3, axis=2))
    return _CLOTH[(width, height)]


def draw_frame(app: Flask, night_id: int) -> None:
    """Draw the demo's "camera" picture: the four rows on green cloth, each card outlined."""
    try:
        import cv2
    except ImportError:
        return
    with app.app_context(), lock():
        match = load_match(get_db(), night_id)
        rows: dict[str, list[Any]] = {}
        if match.round is not None:
            rows = {s: list(r.cards) if r is not None else [] for s, r in match.round.table.rows.items()}
    width, height, cw, ch = 960, 540, 58, 82
    img = _cloth(width, height).copy()
    cards: list[dict[str, Any]] = []
    for k, suit in enumerate("cdhs"):
        y = 30 + k * (ch + 38)
        for card in rows.get(suit, []):
            x = 480 + (card.rank - 7) * (cw + 10) - cw // 2
            colour = (30, 30, 200) if suit in "dh" else (20, 20, 20)
            cv2.rectangle(img, (x + 3, y + 3), (x + cw + 3, y + ch + 3), (30, 60, 20), -1)
            cv2.rectangle(img, (x, y), (x + cw, y + ch), (245, 245, 245), -1)
            cv2.rectangle(img, (x, y), (x + cw, y + ch), (150, 150, 150), 1)
            rank = "A23456789TJQK"[card.rank - 1]
            cv2.putText(img, rank, (x + 6, y + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.85, colour, 2)
            cv2.putText(img, suit, (x + 8, y + 52), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2)
            cards.append({"card": card.code, "confidence": 1.0, "box": [x, y, x + cw, y + ch]})
    cv2.putText(img, "DEMO - drawn from the record, not a camera", (16, height - 16),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if ok:
        publish_frame(app, buf.tobytes(), width, height, cards, note="Demo: a drawn table, not a camera.")
