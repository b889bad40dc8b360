"""How the camera pipeline (or any program in the same process) puts events into a night.

    >>> from scorekeeper.events import Play
    >>> line, flag = submit(app, night_id, Play("Ben", "7d"))   # doctest: +SKIP

The event is judged by the rules engine and stored (durably, one transaction) exactly like a manual
entry, with source "camera". Unlike manual entry nothing is refused for being out of turn or by an
unknown player: the camera reports what it saw, and the engine's flag says what was wrong with it.
Events the record format cannot hold at that point (a play before any deal, a second deal while a
round is on) raise `web.nights.InputError`.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from .db import get_db
from .nights import append, list_nights


def submit(app: Flask, night_id: int, event: Any, source: str = "camera") -> tuple[int, Any]:
    """Add `event` (a scorekeeper.events value) at the end of the night's log; return (line, flag)."""
    with app.app_context():
        return append(get_db(), night_id, event, source=source, strict=False)


def latest_night(app: Flask) -> int | None:
    """The night most recently started (what a camera at the table is watching), or None."""
    with app.app_context():
        nights = [n for n in list_nights(get_db()) if not n.is_demo]
        return nights[0].id if nights else None
