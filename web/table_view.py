"""What the pages show of a night: the engine's state put into plain dicts for templates and JSON.

Nothing here judges a play: turns, legal cards, flags, points and chips are read from the engine
(`Match`, its `Round`, `RoundResult`s and `Flag`s). This module only picks words and card faces.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.cards import BadCard, parse_card
from scorekeeper.events import Draw, End, MatchStart, Pass, Play, RoundStart, Show
from scorekeeper.match import Match
from scorekeeper.variants import find_variant

SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_ORDER = "cdhs"
RANK_LABEL = {1: "A", 11: "J", 12: "Q", 13: "K"}


def card_face(code: Any) -> dict[str, Any]:
    """How a card is drawn: rank label, suit symbol, red or black (an unreadable code as written)."""
    try:
        card = parse_card(str(code))
    except BadCard:
        return {"code": str(code), "rank": str(code), "suit": "", "symbol": "?", "red": False,
                "label": str(code)}
    rank = RANK_LABEL.get(card.rank, str(card.rank))
    return {"code": card.code, "rank": rank, "suit": card.suit, "symbol": SUIT_SYMBOL[card.suit],
            "red": card.suit in "dh", "label": rank + SUIT_SYMBOL[card.suit]}


def _label(code: Any) -> str:
    return card_face(code)["label"]


def describe(event: Any) -> str:
    """One line of the event log in words."""
    if isinstance(event, MatchStart):
        return f"{event.variant} night: {', '.join(event.players)} ({event.stakes})"
    if isinstance(event, RoundStart):
        known = f", hands known for {len(event.hands)}" if event.hands else ""
        return f"{event.dealer} deals{known}"
    if isinstance(event, Play):
        return f"{event.player} plays {_label(event.card)}"
    if isinstance(event, Pass):
        return f"{event.player} passes"
    if isinstance(event, Draw):
        return f"{event.player} draws {_label(event.card) if event.card else 'from the stock'}"
    if isinstance(event, Show):
        return f"{event.player} shows {' '.join(_label(c) for c in event.cards)}"
    if isinstance(event, End):
        return "round ended without a winner"
    return type(event).__name__


def kind_of(event: Any) -> str:
    return {MatchStart: "match", RoundStart: "round", Play: "play", Pass: "pass", Draw: "draw",
            Show: "show", End: "end"}.get(type(event), "?")


def flag_json(flag: Any) -> dict[str, Any]:
    data = dict(flag.to_json())
    data["explain"] = flag.explain()
    return data


def flags_by_line(match: Match) -> dict[int, Any]:
    """Every flag of the night, at the line it sits on (retroactive illegal passes included)."""
    found: dict[int, Any] = {}
    for result in match.rounds:
        for flag in result.flags:
            found[flag.line] = flag
    if match.round is not None:
        for flag in match.round.flags:
            found[flag.line] = flag
    return found


def row_slots(match: Match, suit: str) -> list[dict[str, Any]]:
    """The 13 places of a suit's row, left to right, each empty, filled or open for a legal play.

    The order of places is only how the row is drawn (ace at the left, or at the right when aces are
    high; from the base rank in `free`); which cards are on the table and which may be played next is
    the engine's."""
    start = match.events[0]
    table = match.round.table if match.round is not None else None
    rows = table.rows if table is not None else {}
    variant = find_variant(start.variant)(start.options)
    base = 7
    if variant.base_from_first_card:
        base = next((r.low.rank for r in rows.values() if r is not None), 7)
    positions, _ = variant.positions(base)
    ranks = sorted(range(1, 14), key=lambda rank: positions[rank])
    row = rows.get(suit) if rows else None
    on_table = {c.code for c in row.cards} if row is not None else set()
    legal = set()
    if match.round is not None and not match.round.is_over:
        legal = {c.code for c in match.round.legal_plays}
    slots = []
    for rank in ranks:
        code = parse_card(f"{'A23456789TJQK'[rank - 1]}{suit}").code
        state = "played" if code in on_table else ("legal" if code in legal else "empty")
        slots.append({**card_face(code), "state": state})
    return slots


def table_state(night: Any, match: Match, sources: dict[int, tuple[str, str]] | None = None) -> dict[str, Any]:
    """Everything the table page shows, as JSON-ready data (also `GET /api/nights/<id>/state`)."""
    start = match.events[0]
    flags = flags_by_line(match)
    sources = sources or {}
    log = []
    round_number = 0
    for line, event in enumerate(match.events, start=1):
        if isinstance(event, RoundStart):
            round_number += 1
        flag = flags.get(line)
        log.append({
            "line": line, "event": kind_of(event), "text": describe(event), "round": round_number,
            "player": getattr(event, "player", None),
            "card": getattr(event, "card", None) if isinstance(event, (Play, Draw)) else None,
            "cards": list(event.cards) if isinstance(event, Show) else None,
            "dealer": event.dealer if isinstance(event, RoundStart) else None,
            "flag": flag_json(flag) if flag is not None else None,
            "source": sources.get(line, ("", ""))[0],
        })
    rnd = match.round
    round_info = None
    if rnd is not None:
        round_info = {
            "number": round_number,
            "dealer": next(e.dealer for e in reversed(match.events) if isinstance(e, RoundStart)),
            "to_move": rnd.to_move,
            "is_over": rnd.is_over,
            "winner": rnd.winner,
            "cards_left": dict(rnd.cards_left),
            "legal": sorted((c.code for c in rnd.legal_plays), key=lambda c: parse_card(c).index)
            if not rnd.is_over else [],
            "rows": {s: [c.code for c in r.cards] if r is not None else []
                     for s, r in ((s, rnd.table.rows.get(s)) for s in SUIT_ORDER)},
        }
    return {
        "night": {
            "id": night.id, "name": night.name, "variant": start.variant, "players": list(start.players),
            "stakes": start.stakes, "rounds": start.rounds, "target": start.target,
            "ace_high": bool(getattr(start.options, "ace_high", False)),
            "hand_size": getattr(start.options, "hand_size", None),
            "chip_cents": night.chip_cents, "currency": night.currency, "is_demo": night.is_demo,
        },
        "revision": night.revision,
        "lines": len(match.events),
        "round": round_info,
        "log": log,
        "totals": dict(match.totals),
        "match_over": match.is_over,
        "match_winner": match.match_winner,
        "next_dealer": match.dealer_for_next_round,
    }


def standings(match: Match) -> dict[str, Any]:
    """Points (and chips) per round and in total, and the running totals for the chart."""
    start = match.events[0]
    players = list(start.players)
    chips = start.stakes == "chips"
    rounds = []
    running = {p: 0 for p in players}
    series: list[dict[str, int]] = [dict(running)]
    for number, result in enumerate(match.rounds, start=1):
        values = result.chips if chips and result.chips is not None else result.points
        for p in players:
            running[p] += int(values.get(p, 0))
        series.append(dict(running))
        in_play = number == len(match.rounds) and match.round is not None and not match.round.is_over
        rounds.append({
            "number": number, "winner": result.winner, "in_play": in_play, "points": dict(result.points),
            "chips": dict(result.chips) if result.chips is not None else None,
            "flags": [flag_json(f) for f in result.flags],
        })
    return {"players": players, "stakes": start.stakes, "rounds": rounds, "totals": dict(match.totals),
            "series": series, "match_over": match.is_over, "match_winner": match.match_winner,
            "verdict": match.verdict()}


def chart_svg(players: list[str], series: list[dict[str, int]], unit: str) -> str:
    """A line chart of totals after each round, as inline SVG (drawn here: nothing to download)."""
    width, height, pad_l, pad_b, pad_t, pad_r = 480, 300, 44, 44, 14, 120
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
    values = [v for point in series for v in point.values()] or [0]
    lo, hi = min(values + [0]), max(values + [1])
    if hi == lo:
        hi = lo + 1
    n = max(len(series) - 1, 1)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + plot_w * i / n

    def y(v: float) -> float:
        return pad_t + plot_h * (hi - v) / (hi - lo)

    parts = [f'<svg viewBox="0 0 {width} {height}" class="chart" role="img" '
             f'aria-label="{unit} totals after each round">']
    for tick in sorted({lo, 0, hi, (lo + hi) // 2}):
        parts.append(f'<line x1="{pad_l}" x2="{pad_l + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                     f'class="grid"/><text x="{pad_l - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    for i in range(len(series)):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 24}" text-anchor="middle">{i}</text>')
    parts.append(f'<text x="{pad_l + plot_w / 2:.0f}" y="{height - 0}" text-anchor="middle" class="axis">'
                 f'after round</text>')
    from markupsafe import escape

    ends = []
    for k, player in enumerate(players):
        colour = colours[k % len(colours)]
        points = " ".join(f"{x(i):.1f},{y(p.get(player, 0)):.1f}" for i, p in enumerate(series))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" points="{points}"/>')
        for i, p in enumerate(series):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(p.get(player, 0)):.1f}" r="4" fill="{colour}"/>')
        ends.append((y(series[-1].get(player, 0)), player, colour, series[-1].get(player, 0)))
    # Name labels at the right, nudged apart so they do not overlap.
    ends.sort()
    last_y = -1e9
    for ypos, player, colour, value in ends:
        ypos = max(ypos, last_y + 20)
        last_y = ypos
        parts.append(f'<text x="{pad_l + plot_w + 8}" y="{ypos + 6:.1f}" fill="{colour}" class="name">'
                     f'{escape(player)} {value}</text>')
    parts.append("</svg>")
    return "".join(parts)
