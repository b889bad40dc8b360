"""Live updates: a server-sent event stream per night that says "the log changed" (with the new
revision), so every phone watching reloads the table within a moment of a play.

A page listens with ``EventSource('/api/nights/<id>/stream')`` and then fetches the table; a client
that cannot stream polls ``GET /api/nights/<id>/state`` with If-None-Match (304 while nothing changed).
Changes made in this process wake the streams at once; the database is also looked at every few
seconds, so a change made by another process shows too.
"""

from __future__ import annotations

import json
from typing import Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from .db import connect, get_db
from .nights import get_night, revision

bp = Blueprint("live", __name__)


def state_response(tag: str, revision: int, build: Callable[[], dict]) -> Response:
    """A polled state: 304 while the client holds `tag` at `revision` (the night's log is unchanged),
    else `build()` as JSON, tagged with the revision it was built at."""
    if request.if_none_match.contains(f"{tag}-r{revision}"):
        return Response(status=304, headers={"ETag": f'"{tag}-r{revision}"'})
    data = build()
    response = jsonify(data)
    response.set_etag(f"{tag}-r{data['revision']}")
    return response


@bp.get("/api/nights/<int:night_id>/stream")
def stream(night_id: int):
    get_night(get_db(), night_id)  # 404 for an unknown night, before the stream starts
    app = current_app._get_current_object()
    path = app.config["DATABASE"]
    wait = float(app.config["LIVE_HEARTBEAT_SECONDS"])
    last_seen = request.headers.get("Last-Event-ID") or request.args.get("since")

    def events() -> Iterator[str]:
        db = connect(path)
        cond = app.extensions["fantan_changed"]
        try:
            sent: int | None = int(last_seen) if last_seen and last_seen.isdigit() else None
            yield "retry: 2000\n\n"
            while True:
                with cond:
                    seen = app.extensions["fantan_change_count"]
                rev = revision(db, night_id)
                if rev is None:
                    yield "event: gone\ndata: {}\n\n"
                    return
                if rev != sent:
                    sent = rev
                    yield f"id: {rev}\ndata: {json.dumps({'revision': rev})}\n\n"
                with cond:
                    changed = cond.wait_for(lambda: app.extensions["fantan_change_count"] != seen,
                                            timeout=wait)
                if not changed:
                    yield ": still here\n\n"
        finally:
            db.close()

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
