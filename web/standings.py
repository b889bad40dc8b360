"""Standings: points (or chips) per round and in total, with a chart of the totals over rounds.

The numbers are the engine's verdict for the night (`Match.rounds`, `Match.totals`); this page adds
them up round by round for the chart and draws it as inline SVG.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template

from .db import get_db
from .nights import get_night, load_match, lock
from .table_view import chart_svg, standings

bp = Blueprint("standings", __name__)


def _standings(night_id: int) -> tuple[object, dict]:
    db = get_db()
    with lock():
        night = get_night(db, night_id)
        return night, standings(load_match(db, night_id))


@bp.get("/nights/<int:night_id>/standings")
def page(night_id: int):
    night, data = _standings(night_id)
    unit = "chips" if data["stakes"] == "chips" else "points"
    chart = chart_svg(data["players"], data["series"], unit)
    return render_template("standings.html", night=night, d=data, chart=chart, unit=unit)


@bp.get("/api/nights/<int:night_id>/standings")
def api(night_id: int):
    _night, data = _standings(night_id)
    return jsonify(data)
