"""Chips and the settle-up: balances, the pot, every transfer with its reason, and the fewest
payments that square the night (`scorekeeper.settle`).

Chip amounts are the engine's (`RoundResult.transfers`, `.chips`); this module only sums them per
player and per pot, and converts chips to money at the night's chip value for the settle-up.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template

from scorekeeper.ledger import net_chips, pot_after
from scorekeeper.settle import settle

from .db import get_db
from .nights import get_night, load_match, lock

bp = Blueprint("chips", __name__)


def money(chips: int, cents: int, currency: str) -> str:
    """Chips in money at the night's chip value ('' when chips are just chips)."""
    if not cents:
        return ""
    total = chips * cents
    sign = "-" if total < 0 else ""
    whole, part = divmod(abs(total), 100)
    return f"{sign}{currency}{whole}.{part:02d}".strip()


def chips_data(night_id: int) -> dict[str, Any]:
    db = get_db()
    with lock():
        night = get_night(db, night_id)
        match = load_match(db, night_id)
        start = match.events[0]
        players = list(start.players)
        is_chips = start.stakes == "chips"
        transfers = []
        balances = {p: 0 for p in players}
        pot = 0  # chips lying in pots not (yet) taken: the current round's, or a round without a winner
        for number, result in enumerate(match.rounds, start=1):
            moved = list(result.transfers or [])
            transfers += [{"round": number, "line": t.line, "from": t.src, "to": t.dst, "chips": t.chips,
                           "reason": t.reason} for t in moved]
            for p, chips in net_chips(players, moved).items():
                balances[p] += chips
            pot += pot_after(moved)
        totals = dict(match.totals)
        round_over = match.round is None or match.round.is_over
        payments: list[dict[str, Any]] = []
        settle_note = ""
        proven = False
        if not is_chips:
            settle_note = "This night is played for points: there are no chips to settle."
        elif pot:
            settle_note = (f"{pot} chips are still in the pot: settle up once the round is won.")
        else:
            try:
                result = settle({p: int(totals.get(p, 0)) for p in players})
                payments = [{**p.to_json(), "money": money(p.chips, night.chip_cents, night.currency)}
                            for p in result.payments]
                proven = result.proven_minimal
            except ValueError as exc:
                settle_note = f"The balances cannot be settled: {exc}"
    return {
        "night": night, "stakes": start.stakes, "players": players, "balances": balances,
        "totals": totals, "pot": pot, "round_over": round_over, "transfers": transfers,
        "payments": payments, "proven_minimal": proven, "settle_note": settle_note,
        "money": {p: money(balances[p], night.chip_cents, night.currency) for p in players},
        "match_over": match.is_over, "match_winner": match.match_winner,
    }


@bp.get("/nights/<int:night_id>/chips")
def page(night_id: int):
    return render_template("chips.html", d=chips_data(night_id))


@bp.get("/nights/<int:night_id>/settle")
def settle_page(night_id: int):
    return render_template("settle.html", d=chips_data(night_id))


def _api(d: dict[str, Any]) -> dict[str, Any]:
    out = dict(d)
    out["night"] = {"id": d["night"].id, "name": d["night"].name, "chip_cents": d["night"].chip_cents,
                    "currency": d["night"].currency}
    return out


@bp.get("/api/nights/<int:night_id>/chips")
def api_chips(night_id: int):
    d = _api(chips_data(night_id))
    return jsonify({k: d[k] for k in ("night", "stakes", "balances", "totals", "pot", "transfers")})


@bp.get("/api/nights/<int:night_id>/settle")
def api_settle(night_id: int):
    d = _api(chips_data(night_id))
    return jsonify({k: d[k] for k in ("night", "totals", "payments", "proven_minimal", "settle_note",
                                      "match_over")})
