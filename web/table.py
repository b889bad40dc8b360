"""The table: the rows, whose turn, the Pass button, manual entry, and the event log with its
flags, undo and corrections.

Every change goes through one route per action under ``/api/nights/<id>/...``. Each takes a JSON
object shaped like a record line (``{"event": "play", "player": "Ben", "card": "7d"}``) or the same
fields from an HTML form; JSON callers get JSON back, a plain form gets redirected to the table.
"""

from __future__ import annotations

from typing import Any

from flask import (Blueprint, Response, current_app, flash, jsonify, redirect, render_template, request,
                   url_for)

from .db import get_db
from .live import state_response
from .nights import (InputError, append, correct, event_from_input, get_night, load_match, lock,
                     revision, sources, undo)
from .safety import csrf_token, form_or_json, wants_json
from .table_view import SUIT_ORDER, row_slots, table_state

bp = Blueprint("table", __name__)


def night_state(night_id: int) -> dict[str, Any]:
    db = get_db()
    with lock():
        night = get_night(db, night_id)
        match = load_match(db, night_id)
        state = table_state(night, match, sources(db, night_id))
        state["slots"] = {suit: row_slots(match, suit) for suit in SUIT_ORDER}
    return state


def _input() -> dict[str, Any]:
    return form_or_json('{"event": "pass", "player": "Ben"}')
    data = request.form.to_dict()
    data.pop("csrf_token", None)
    return data


def _line_number(value: Any, what: str = "line") -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InputError(f"'{what}' must be a line number.")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(f"'{what}' must be a line number (got “{str(value)[:20]}”).") from None


def _done(night_id: int, payload: dict[str, Any], message: str, status: int = 200):
    payload["revision"] = get_night(get_db(), night_id).revision
    if wants_json():
        return jsonify(payload), status
    flash(message, "warn" if payload.get("flag") else "ok")
    return redirect(url_for("table.page", night_id=night_id))


@bp.get("/nights/<int:night_id>")
def page(night_id: int):
    # The forms carry the session's token, so the page works without JavaScript too.
    return render_template("table.html", s=night_state(night_id), form_token=csrf_token())


@bp.get("/nights/<int:night_id>/live")
def live_fragment(night_id: int):
    """The changing part of the table page, for the page's script to swap in on each update.

    It holds nothing of the session (the script sends the form token as a header), so it is drawn
    once per revision and the same HTML goes to every phone watching."""
    db = get_db()
    rev = revision(db, night_id)
    if rev is None:
        raise InputError(f"There is no night number {night_id}.", 404)
    cache: dict[int, tuple[int, str]] = current_app.extensions.setdefault("fantan_fragments", {})
    hit = cache.get(night_id)
    if hit is None or hit[0] != rev:
        s = night_state(night_id)
        hit = (s["revision"], render_template("table_live.html", s=s, form_token=None))
        cache[night_id] = hit
    return Response(hit[1], mimetype="text/html", headers={"Cache-Control": "no-cache"})


@bp.get("/nights/<int:night_id>/lines/<int:line>/fix")
def fix_page(night_id: int, line: int):
    """A form to correct or delete one line of the log."""
    s = night_state(night_id)
    if not 2 <= line <= s["lines"]:
        raise InputError(f"There is no line {line} to correct (lines 2 to {s['lines']}).", 404)
    return render_template("fix_line.html", s=s, e=s["log"][line - 1])


@bp.get("/api/nights/<int:night_id>/state")
def state(night_id: int):
    """The table as JSON; send If-None-Match with the last ETag to get 304 when nothing changed."""
    db = get_db()
    night = get_night(db, night_id)
    return state_response(f"n{night_id}", night.revision, lambda: night_state(night_id))


@bp.post("/api/nights/<int:night_id>/events")
def add_event(night_id: int):
    """Add one event at the end of the log (a play, pass, deal, draw, show or end)."""
    db = get_db()
    data = _input()
    with lock():
        get_night(db, night_id)
        match = load_match(db, night_id)
        if data.get("event") in ("play", "pass", "draw") and data.get("player", "") == "":
            # "whoever's turn it is": the engine knows whose turn it is
            to_move = match.round.to_move if match.round is not None else None
            if to_move is None:
                raise InputError("Nobody's turn is known yet: say who plays (choose a player).", 409)
            data["player"] = to_move
        event = event_from_input(data, match)
        line, flag = append(db, night_id, event, source="manual", strict=True)
    payload = {"line": line, "flag": None if flag is None else {**flag.to_json(), "explain": flag.explain()}}
    message = flag.explain() if flag is not None else f"Line {line} recorded."
    return _done(night_id, payload, message, 201)


@bp.post("/api/nights/<int:night_id>/undo")
def undo_last(night_id: int):
    """Take back the last line; send the line you saw as last ("line") so two undos never stack."""
    data = _input()
    expect = _line_number(data.get("line"))
    if expect is None:
        raise InputError("Say which line you are taking back ('line': the last line you saw).")
    removed = undo(get_db(), night_id, expect)
    return _done(night_id, {"undone": removed}, f"Line {removed} taken back.")


@bp.post("/api/nights/<int:night_id>/lines/<int:line>")
def correct_line(night_id: int, line: int):
    """Replace a line with a corrected event, or delete it (``{"delete": true}``); the rest of the log
    is replayed by the engine."""
    db = get_db()
    data = _input()
    expect = _line_number(data.pop("revision", None), "revision")
    if data.get("event") == "round" and not data.get("dealer"):
        data["dealer"] = data.get("player")  # the Fix form has one player box
    if data.get("event") == "show" and not data.get("cards"):
        data["cards"] = data.get("card")
    if data.get("delete") in (True, "1", "on", "true", "yes"):
        event = None
    else:
        with lock():
            event = event_from_input(data, load_match(db, night_id))
    flag = correct(db, night_id, line, event, expect)
    payload = {"corrected": line, "deleted": event is None,
               "flag": None if flag is None else {**flag.to_json(), "explain": flag.explain()}}
    message = (f"Line {line} deleted; the lines after it moved up." if event is None
               else flag.explain() if flag is not None else f"Line {line} corrected.")
    return _done(night_id, payload, message)


@bp.delete("/api/nights/<int:night_id>/lines/<int:line>")
def delete_line(night_id: int, line: int):
    flag = correct(get_db(), night_id, line, None, _line_number(request.args.get("revision"), "revision"))
    return jsonify({"corrected": line, "deleted": True, "flag": flag})
