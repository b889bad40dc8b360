"""Starting a night: who sits where, which game, points or chips, and when it ends.

The form becomes the record's `match` line (and the first `round` line, so the table can start at
once). Bad settings are sent back with the form as it was typed and a message saying what to fix.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from scorekeeper.events import MatchStart
from scorekeeper.variants import VARIANTS, Options

from .db import get_db
from .nights import InputError, create_night, list_nights
from .safety import wants_json

bp = Blueprint("nights", __name__)

MAX_NAME = 30


def _form_data() -> dict[str, Any]:
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise InputError("Send the night's settings as a JSON object.")
        return data
    return request.form.to_dict()


def _int_or_none(data: dict, key: str, what: str, low: int = 1, high: int = 10_000) -> int | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InputError(f"{what} must be a whole number.")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise InputError(f"{what} must be a whole number (got “{str(value)[:20]}”).") from None
    if not low <= number <= high:
        raise InputError(f"{what} must be between {low} and {high} (got {number}).")
    return number


def _players(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        names = [n.strip() for n in re.split(r"[,\n]", value)]
        names = [n for n in names if n]
    elif isinstance(value, list) and all(isinstance(n, str) for n in value):
        names = [n.strip() for n in value]
    else:
        raise InputError("List the players in seating order (clockwise), one per line or separated by commas.")
    if any(not n for n in names):
        raise InputError("A player's name cannot be empty.")
    if len(names) < 2 or len(names) > 8:
        raise InputError(f"A table has 2 to 8 players (got {len(names)}).")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise InputError(f"Two players are called “{dup}”: give everyone a different name.")
    if any(len(n) > MAX_NAME for n in names):
        raise InputError(f"Keep names to {MAX_NAME} characters.")
    return tuple(names)


def _chip_cents(value: Any) -> int:
    """The money one chip is worth, in cents (0: chips are just chips)."""
    if value is None or value == "":
        return 0
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        raise InputError(f"The value of a chip must be an amount like 0.10 (got “{str(value)[:20]}”).") from None
    if not amount.is_finite() or amount < 0:
        raise InputError("The value of a chip cannot be negative: a bet is zero or more.")
    if amount > 1000:
        raise InputError("The value of a chip is at most 1000.")
    return int((amount * 100).to_integral_value())


def settings_from(data: dict[str, Any]) -> tuple[MatchStart, str, str | None, int, str]:
    """(match line, night name, first dealer or None, chip value in cents, currency) from a form."""
    players = _players(data.get("players"))
    variant = data.get("variant", "fan-tan")
    if variant not in VARIANTS:
        raise InputError(f"Unknown game “{str(variant)[:20]}”: choose one of {', '.join(VARIANTS)}.")
    stakes = data.get("stakes", "points")
    if stakes not in ("points", "chips"):
        raise InputError("Play for points or for chips.")
    rounds = _int_or_none(data, "rounds", "The number of rounds", 1, 1000)
    target = _int_or_none(data, "target", "The target", 1, 100_000)
    hand_size = _int_or_none(data, "hand_size", "The hand size", 1, 26)
    if hand_size is not None and variant != "domino":
        hand_size = None  # the form shows the field for every game; only domino uses it
    if hand_size is not None and hand_size * len(players) > 52:
        raise InputError(f"{len(players)} hands of {hand_size} need more than 52 cards.")
    ace_high = data.get("ace_high") in (True, "on", "1", "true", "yes")
    name = str(data.get("name") or "").strip()[:60] or f"{VARIANTS[variant].title} night"
    dealer = str(data.get("dealer") or "").strip()
    if data.get("start_now", True) in (False, "0", "false", "no", ""):
        first_dealer = None
    else:
        first_dealer = dealer or players[-1]
        if first_dealer not in players:
            raise InputError(f"The dealer “{first_dealer[:40]}” is not one of the players.")
    currency = str(data.get("currency") or "").strip()[:3]
    start = MatchStart(variant=variant, players=players, stakes=stakes, rounds=rounds, target=target,
                       options=Options(ace_high=ace_high, hand_size=hand_size))
    return start, name, first_dealer, _chip_cents(data.get("chip_value")), currency


@bp.get("/")
def home():
    """The latest night's table (a real night before the demo), or the new-night form for a first visit."""
    nights = list_nights(get_db())
    if nights:
        best = next((n for n in nights if not n.is_demo), nights[0])
        return redirect(url_for("table.page", night_id=best.id))
    return redirect(url_for("nights.new"))


@bp.get("/nights/new")
def new():
    return render_template("new_night.html", form={}, variants=VARIANTS)


@bp.post("/api/nights")
def create():
    data = _form_data()
    try:
        start, name, dealer, cents, currency = settings_from(data)
        night_id = create_night(get_db(), start, name=name, chip_cents=cents, currency=currency,
                                first_dealer=dealer)
    except InputError as exc:
        if wants_json():
            raise
        return render_template("new_night.html", form=data, variants=VARIANTS, error=exc.message), exc.status
    if wants_json():
        return jsonify({"id": night_id, "url": url_for("table.page", night_id=night_id)}), 201
    return redirect(url_for("table.page", night_id=night_id))
