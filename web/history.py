"""Past nights: the list, export (the game record and CSV) and import of a game record.

A night leaves as exactly the record `fantan check` reads (record-format.md), and an imported record
becomes a night that can be looked at and continued like any other.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request, url_for

from .chips import chips_data
from .db import get_db
from .nights import InputError, delete_night, get_night, import_record, list_nights, load_match, lock, record_text, sources
from .safety import wants_json
from .table_view import table_state

bp = Blueprint("history", __name__)


def _filename(name: str, night_id: int, ext: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name).strip("-")[:40] or "night"
    return f"{safe}-{night_id}.{ext}"


@bp.get("/history")
def index():
    nights = list_nights(get_db())
    return render_template("history.html", nights=nights)


@bp.get("/api/nights")
def api_list():
    return jsonify([{"id": n.id, "name": n.name, "created_at": n.created_at, "lines": n.lines,
                     "is_demo": n.is_demo} for n in list_nights(get_db())])


@bp.get("/nights/<int:night_id>/record.jsonl")
def export_record(night_id: int):
    db = get_db()
    with lock():
        night = get_night(db, night_id)
        text = record_text(load_match(db, night_id))
    return Response(text, mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="{_filename(night.name, night_id, "jsonl")}"'})


def _csv(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@bp.get("/nights/<int:night_id>/events.csv")
def export_csv(night_id: int):
    """The event log as a spreadsheet: one row per line, with its flag in words."""
    db = get_db()
    with lock():
        night = get_night(db, night_id)
        state = table_state(night, load_match(db, night_id), sources(db, night_id))
    rows: list[list[Any]] = [["line", "round", "event", "player", "card", "what happened", "flag",
                              "flag explained", "source"]]
    for e in state["log"]:
        flag = e["flag"] or {}
        rows.append([e["line"], e["round"], e["event"], e["player"] or "", e["card"] or "", e["text"],
                     flag.get("kind", ""), flag.get("explain", ""), e["source"]])
    return Response(_csv(rows), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{_filename(night.name, night_id, "csv")}"'})


@bp.get("/nights/<int:night_id>/transfers.csv")
def export_transfers(night_id: int):
    """Every chip that moved, with its reason (chip stakes)."""
    d = chips_data(night_id)
    rows: list[list[Any]] = [["round", "line", "from", "to", "chips", "reason"]]
    rows += [[t["round"], t["line"], t["from"], t["to"], t["chips"], t["reason"]] for t in d["transfers"]]
    name = _filename(d["night"].name + "-chips", night_id, "csv")
    return Response(_csv(rows), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/import")
def import_page():
    return render_template("import.html")


@bp.post("/api/import")
def import_night():
    """Import a game record: a file upload (``record``), a form field, JSON {"name", "record"}, or the
    record itself as the body (``Content-Type: application/x-ndjson``)."""
    name = ""
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict) or not isinstance(data.get("record"), str):
            raise InputError("Send {\"record\": \"...the game record's lines...\", \"name\": \"...\"}.")
        text: str | bytes = data["record"]
        name = str(data.get("name") or "")
    elif request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        upload = request.files.get("record")
        if upload is not None and upload.filename:
            text = upload.read()
            name = request.form.get("name") or upload.filename.rsplit(".", 1)[0]
        else:
            text = request.form.get("record_text", "")
            name = request.form.get("name", "")
    else:
        text = request.get_data()
        name = request.args.get("name", "")
    if not text or (isinstance(text, (str, bytes)) and not text.strip()):
        raise InputError("The game record is empty: choose a .jsonl file.")
    night_id = import_record(get_db(), text, name=(name.strip()[:60] or "Imported night"))
    if wants_json():
        return jsonify({"id": night_id, "url": url_for("table.page", night_id=night_id)}), 201
    flash("Game record imported.", "ok")
    return redirect(url_for("table.page", night_id=night_id))


@bp.post("/api/nights/<int:night_id>/delete")
def delete(night_id: int):
    """Delete a whole night (the form asks to type its name, so a slip of the finger cannot)."""
    db = get_db()
    night = get_night(db, night_id)
    data = request.get_json(silent=True) if request.is_json else request.form
    confirm = (data or {}).get("confirm") if isinstance(data, (dict,)) or hasattr(data, "get") else None
    if confirm != night.name:
        raise InputError("To delete a night, type its name exactly in the box.")
    delete_night(db, night_id)
    if wants_json():
        return jsonify({"deleted": night_id})
    flash(f"Night “{night.name}” deleted.", "ok")
    return redirect(url_for("history.index"))


@bp.post("/api/demo")
def start_demo_night():
    """Replay the bundled demo into a fresh demo night (older demo nights are replaced)."""
    from flask import current_app

    from .demo import start_demo

    # The page's button sends only its form token; a script sends {}. Anything else is a mistake.
    if request.is_json:
        ok = request.get_json(silent=True) == {}
    else:
        ok = (request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")
              and set(request.form) == {"csrf_token"})
    if not ok:
        raise InputError("Starting the demo takes no input: send {} (or press the page's button).")
    night_id, _thread = start_demo(current_app._get_current_object(),
                                   step_s=float(current_app.config.get("DEMO_STEP_SECONDS", 2.0)))
    if wants_json():
        return jsonify({"id": night_id, "url": url_for("table.page", night_id=night_id)}), 201
    return redirect(url_for("table.page", night_id=night_id))
