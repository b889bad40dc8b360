"""The banking game (Chinese Fan-Tan) at the table: the joker layout, bets, the cut, the payments.

A banking night is stored like a Fan Tan night (web/nights.py): as its record, one line per row,
each accepted line one durable SQLite transaction, nothing else. Bank, bets, payments and balances
are what `scorekeeper.banking.BankGame` makes of the record when it replays it; this module never
re-derives a money rule. The tables are apart from the Fan Tan nights' (migration 2) because the
records are different games and every Fan Tan page replays its nights with the Fan Tan engine.

Manual entry is strict: a line the engine would flag (a bet over the limit, a bet by the banker, a
cut of 12 cards...) is refused with the engine's own words and nothing is stored. The one flag that
is recorded is `wrong_banker`: the bank changed hands at the table, so the chips really moved.

The camera proposes, the banker decides: ``/api/bank/<id>/count-cut`` counts the cut on the camera's
latest frame or an uploaded photo (vision/cut_count.py) and answers with the count and the winning
number it would make; only the banker's confirmation posts the `cut` line.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from scorekeeper.banking import (BankGame, BankMatch, Cut, CutForBank, Limits, OpenBank, PlaceBet, Result,
                                 SPOTS, is_fair_cut, winning_number, write_record)
from scorekeeper.banking.record import event_to_json
from scorekeeper.banking.verdict import replay, verdict

from .db import get_db
from .event_log import EventLog, InputError, lock, notify_change, transaction
from .event_log import now as _now
from .live import state_response
from .safety import form_or_json, wants_json

bp = Blueprint("banking", __name__)

#: The one flag a manual entry may raise and still be stored (see the module docstring).
STANDS = frozenset({"wrong_banker"})
MAX_NAME = 30
MAX_CHIPS = 1_000_000
PHOTO_LIMIT = 12 * 1024 * 1024  # a phone photo; the app's own limit is for records


# --- storage -------------------------------------------------------------------------------------


LOG: EventLog[BankGame] = EventLog(
    nights="bank_nights", events="bank_events", cache_key="fantan_bank_games",
    replay=replay, to_json=event_to_json,
    missing="There is no banking night number {night_id}.",
    moved_on="The record has moved on (the last line is now {last}, not {expect}): look again.",
)


def night_row(db: sqlite3.Connection, night_id: int) -> sqlite3.Row:
    row = db.execute("SELECT * FROM bank_nights WHERE id = ?", (night_id,)).fetchone()
    if row is None:
        raise InputError(f"There is no banking night number {night_id}.", 404)
    return row


def load_game(db: sqlite3.Connection, night_id: int) -> BankGame:
    """The night's game at its current revision (cached; replayed from the database when another
    process or a restart moved it on). Hold `lock()` while using it."""
    return LOG.load(db, night_id)


def line_sources(db: sqlite3.Connection, night_id: int) -> dict[int, str]:
    rows = db.execute("SELECT line, source FROM bank_events WHERE night_id = ?", (night_id,)).fetchall()
    return {r["line"]: r["source"] for r in rows}


def create_bank_night(db: sqlite3.Connection, match: BankMatch, name: str) -> int:
    body = json.dumps(event_to_json(match), ensure_ascii=False)
    with lock(), transaction(db):
        cur = db.execute("INSERT INTO bank_nights (name, created_at) VALUES (?, ?)", (name, _now()))
        night_id = int(cur.lastrowid)
        LOG.insert(db, night_id, 1, body, "manual")
    notify_change()
    return night_id


def refusal(flag: Any) -> str:
    return "Not recorded: " + flag.explain()


def append(db: sqlite3.Connection, night_id: int, event: Any, source: str = "manual") -> tuple[int, Any]:
    """Add one line at the end of the record; (line, flag or None). On disk before it returns.
    A line the engine flags is refused (InputError 409) unless its flag stands at the table."""
    return LOG.append(db, night_id, event, source, _push,
                      lambda flag: refusal(flag) if flag is not None and flag.kind not in STANDS else None)


def _push(game: BankGame, event: Any) -> Any:
    try:
        return game.push(event)
    except ValueError as exc:
        raise InputError(f"Not recorded: {exc}", 409) from None


def undo(db: sqlite3.Connection, night_id: int, expect_line: int) -> int:
    """Take back the last line if it is still `expect_line` (two phones never undo twice)."""
    return LOG.undo(db, night_id, expect_line)


# --- reading input -------------------------------------------------------------------------------


def _input() -> dict[str, Any]:
    return form_or_json('{"event": "bet", "player": "Ben", "spot": "3", "chips": 2}')
    data = request.form.to_dict()
    data.pop("csrf_token", None)
    return data


def _whole(data: dict, key: str, what: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None or value == "":
        if optional:
            return None
        raise InputError(f"Say {what}.")
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise InputError(f"{what[0].upper()}{what[1:]} must be a whole number.")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise InputError(f"{what[0].upper()}{what[1:]} must be a whole number (got “{str(value)[:20]}”).") from None
    if abs(number) > MAX_CHIPS:
        raise InputError(f"{what[0].upper()}{what[1:]} is out of range (got {number}).")
    return number


def _player(data: dict, key: str, players: tuple[str, ...]) -> str:
    name = data.get(key)
    if not isinstance(name, str) or not name.strip():
        raise InputError("Say which player.")
    name = name.strip()
    if name not in players:
        raise InputError(f"“{name[:40]}” is not at this table (players: {', '.join(players)}).")
    return name


def event_from_input(data: dict, game: BankGame) -> Any:
    """A record event from a JSON object or form shaped like a record line."""
    kind = data.get("event")
    players = game.players
    if kind == "bet":
        spot = data.get("spot")
        if not isinstance(spot, str) or not spot.strip():
            raise InputError("Tap a corner or a side of the joker to say where the bet goes.")
        return PlaceBet(_player(data, "player", players), spot.strip(), _whole(data, "chips", "how many chips"))
    if kind == "bank":
        return OpenBank(_player(data, "banker", players), _whole(data, "chips", "how many chips the bank holds"),
                        _whole(data, "reserve", "the reserve", optional=True))
    if kind == "cut":
        return Cut(_whole(data, "count", "how many cards were cut"))
    if kind == "result":
        return Result(_whole(data, "number", "the winning number"))
    if kind == "cut_for_bank":
        card = data.get("card")
        if not isinstance(card, str) or not card.strip():
            raise InputError("Say which card was cut (like Kh or 10s).")
        return CutForBank(_player(data, "player", players), card.strip()[:10])
    raise InputError(f"Unknown event: use bet, bank, cut, result or cut_for_bank (got {str(kind)[:20]!r}).")


def settings_from(data: dict) -> tuple[BankMatch, str]:
    """The match line and the night's name from the new-night form."""
    raw = data.get("players")
    if isinstance(raw, str):
        names = [n.strip() for n in re.split(r"[,\n]", raw) if n.strip()]
    elif isinstance(raw, list) and all(isinstance(n, str) for n in raw):
        names = [n.strip() for n in raw]
    else:
        raise InputError("List the players in seating order (clockwise), one per line or separated by commas.")
    if any(len(n) > MAX_NAME for n in names):
        raise InputError(f"Keep names to {MAX_NAME} characters.")
    hands = _whole(data, "hands_per_bank", "how many hands each bank lasts")
    low = _whole(data, "min", "the smallest bet", optional=True)
    high = _whole(data, "max", "the largest bet", optional=True)
    try:
        match = BankMatch(tuple(names), hands, Limits(1 if low is None else low, high))
    except ValueError as exc:
        raise InputError(f"These settings do not make a game: {exc}.") from None
    name = str(data.get("name") or "").strip()[:60] or "Fan-Tan bank night"
    return match, name


# --- what the page shows -------------------------------------------------------------------------

#: Where each spot sits on the joker as the banker sees it (SVG units, the card 0..200 x 0..280 at
#: 60, 40): corners at the card's corners, sides at the middle of each side.
SPOT_XY = {"1": (60, 320), "2": (60, 40), "3": (260, 40), "4": (260, 320),
           "1-2": (60, 180), "2-3": (160, 40), "3-4": (260, 180), "4-1": (160, 320)}


def _hand_view(hand: Any) -> dict:
    p = hand.payout
    return {
        "number": hand.number, "line": hand.line, "banker": hand.banker, "count": hand.count,
        "winning_number": hand.winning_number, "bank_before": p.bank_before, "bank_after": p.bank_after,
        "passed": hand.passed,
        "steps": [dict(s.to_json(), text=s.explain()) for s in p.steps],
        "returned": [dict(b.to_json(), owed=b.winnings(p.winning_number),
                          text=f"{b.player}'s {b.chips} on {b.spot.code} is returned unpaid: the bank is empty")
                     for b in p.returned],
    }


def bank_state(db: sqlite3.Connection, night_id: int) -> dict:
    """Everything the page shows, as JSON-able data (the page's template and /state both use it)."""
    with lock():
        row = night_row(db, night_id)
        game = load_game(db, night_id)
        v = verdict(game)
        sources = line_sources(db, night_id)
        match = game.match
        bets_by_spot: dict[str, list[dict]] = {s.code: [] for s in SPOTS}
        for b in game.bets:
            bets_by_spot[b.spot.code].append(b.to_json())
        log = []
        for number, event in enumerate(game.events, start=1):
            body = event_to_json(event)
            log.append({"line": number, "event": body, "source": sources.get(number, "manual"),
                        "text": _line_text(body)})
        flags = {f.line: {**f.to_json(), "explain": f.explain()} for f in game.flags}
        for entry in log:
            entry["flag"] = flags.get(entry["line"])
        return {
            "night": {"id": night_id, "name": row["name"], "created_at": row["created_at"],
                      "players": list(match.players), "hands_per_bank": match.hands_per_bank,
                      "limits": {"min": match.limits.min, "max": match.limits.max}},
            "revision": int(row["revision"]),
            "lines": len(game.events),
            "phase": game.phase,
            "banker": game.banker,
            "bank": game.bank,
            "hands_left": game.hands_left,
            "next_banker": game.next_banker,
            "cutters": list(game.cutters),
            "high_cut": game.high_cut,
            "bettors": [p for p in match.players if p != game.banker],
            "bets": [b.to_json() for b in game.bets],
            "bets_by_spot": bets_by_spot,
            "hands": [_hand_view(h) for h in game.hands],
            "last_hand": _hand_view(game.hands[-1]) if game.hands else None,
            "banks": v["banks"],
            "balances": v["balances"],
            "settle_up": v["settle_up"],
            "log": log[::-1],
        }


def _line_text(body: dict) -> str:
    kind = body["event"]
    if kind == "match":
        lim = body["limits"]
        limits = f"bets {lim['min']} to {lim['max']}" if "max" in lim else f"bets from {lim['min']}"
        return f"{', '.join(body['players'])}; {body['hands_per_bank']} hands a bank; {limits}"
    if kind == "cut_for_bank":
        return f"{body['player']} cuts {body['card']} for the bank"
    if kind == "bank":
        reserve = f" ({body['reserve']} set aside)" if "reserve" in body else ""
        return f"{body['banker']} opens a bank of {body['chips']}{reserve}"
    if kind == "bet":
        return f"{body['player']} bets {body['chips']} on {body['spot']}"
    if kind == "cut":
        n = body["count"]
        return f"{n} cards cut: {winning_number(n)} wins" if is_fair_cut(n) else f"{n} cards cut"
    return f"{body['number']} wins"


# --- pages ---------------------------------------------------------------------------------------


@bp.get("/bank")
def index():
    rows = get_db().execute(
        "SELECT n.*, (SELECT COUNT(*) FROM bank_events e WHERE e.night_id = n.id) AS lines "
        "FROM bank_nights n ORDER BY n.id DESC").fetchall()
    return render_template("banking/index.html", nights=rows, form={})


@bp.post("/api/bank")
def create():
    data = _input()
    try:
        match, name = settings_from(data)
    except InputError as exc:
        if wants_json():
            raise
        return render_template("banking/index.html", nights=[], form=data, error=exc.message), exc.status
    night_id = create_bank_night(get_db(), match, name)
    url = url_for("banking.page", night_id=night_id)
    if wants_json():
        return jsonify({"id": night_id, "url": url}), 201
    return redirect(url)


@bp.get("/bank/<int:night_id>")
def page(night_id: int):
    return render_template("banking/table.html", s=bank_state(get_db(), night_id), spot_xy=SPOT_XY)


@bp.get("/bank/<int:night_id>/live")
def live_fragment(night_id: int):
    """The changing part of the page, for its script to swap in after each change."""
    return render_template("banking/live.html", s=bank_state(get_db(), night_id), spot_xy=SPOT_XY)


@bp.get("/api/bank/<int:night_id>/state")
def state(night_id: int):
    db = get_db()
    return state_response(f"b{night_id}", night_row(db, night_id)["revision"], lambda: bank_state(db, night_id))


@bp.get("/bank/<int:night_id>/record.jsonl")
def record(night_id: int):
    """The night as a banking record: exactly what `fantan check` and `fantan bank check` read."""
    db = get_db()
    with lock():
        text = write_record(load_game(db, night_id).events)
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="bank-night-{night_id}.jsonl"'})


# --- changes -------------------------------------------------------------------------------------


def _done(night_id: int, payload: dict, status: int = 200):
    payload["revision"] = int(night_row(get_db(), night_id)["revision"])
    if wants_json():
        return jsonify(payload), status
    return redirect(url_for("banking.page", night_id=night_id))


@bp.post("/api/bank/<int:night_id>/events")
def add_event(night_id: int):
    """One record line: a bet, a bank opened, a cut (count), a result (number) or a cut for the bank."""
    db = get_db()
    data = _input()
    with lock():
        event = event_from_input(data, load_game(db, night_id))
        source = "camera" if data.get("source") == "camera" and isinstance(event, Cut) else "manual"
        line, flag = append(db, night_id, event, source)
        game = load_game(db, night_id)
        payload: dict[str, Any] = {"line": line,
                                   "flag": None if flag is None else {**flag.to_json(), "explain": flag.explain()}}
        if isinstance(event, (Cut, Result)) and game.hands and game.hands[-1].line == line:
            payload["hand"] = _hand_view(game.hands[-1])
    return _done(night_id, payload, 201)


@bp.post("/api/bank/<int:night_id>/undo")
def undo_last(night_id: int):
    data = _input()
    expect = _whole(data, "line", "which line you are taking back (the last line you saw)")
    removed = undo(get_db(), night_id, int(expect))  # type: ignore[arg-type]
    return _done(night_id, {"undone": removed})


@bp.post("/api/bank/<int:night_id>/count-cut")
def count_cut(night_id: int):
    """Count the cut on an uploaded photo (field `photo`) or the camera's latest frame; propose the
    winning number. Stores nothing: the banker confirms by posting the `cut` line."""
    import numpy as np

    night_row(get_db(), night_id)
    upload = request.files.get("photo")
    if upload is not None and upload.filename:
        data = upload.read(PHOTO_LIMIT + 1)
        if len(data) > PHOTO_LIMIT:
            raise InputError("That photo is too big (12 MB at most).", 413)
        source = "photo"
    else:
        from .camera import view

        cam = view()
        with cam.lock:
            data = cam.jpeg
        if not data:
            raise InputError("There is no camera picture: start the dashboard with a camera, or send a photo.", 409)
        source = "camera"
    import cv2

    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise InputError("That file is not a picture this dashboard can read (send a JPEG or PNG).", 400)
    from vision.cut_count import count_cut as count

    try:
        result = count(frame)
    except ValueError as exc:
        raise InputError(f"The cut cannot be counted on this picture: {exc}.", 400) from None
    out = result.to_json()
    out["source"] = source
    out["fair"] = is_fair_cut(result.count)
    out["winning_number"] = winning_number(result.count) if out["fair"] else None
    if not out["fair"] and result.groups:
        out["note"] = (out["note"] + " " if out["note"] else "") + (
            f"{result.count} cards is not a fair cut (18 to 52): count again or cut again.")
    return jsonify(out)
