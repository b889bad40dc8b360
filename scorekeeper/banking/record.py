"""The banking game's record: JSON Lines like record-format.md, with `variant: chinese-fan-tan`.

`read_record` turns text into events or raises RecordError(line, message) for a record that cannot be
read; `write_record` writes events back in canonical form (spots as "3-4", cards as "Kh").
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from scorekeeper.banking.cut import read_cut_card
from scorekeeper.banking.events import VARIANT, BankMatch, Cut, CutForBank, Event, OpenBank, PlaceBet, Result
from scorekeeper.banking.layout import BadSpot, Limits, Spot

from scorekeeper.record import RecordError  # one error type for every record: `fantan check` catches one


def _field(obj: dict, name: str, kind: type | tuple, line: int, what: str, optional: bool = False) -> Any:
    if name not in obj:
        if optional:
            return None
        raise RecordError(line, f"{obj.get('event')} line without its `{name}`")
    value = obj[name]
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, (int,)))
    if not ok:
        raise RecordError(line, f"`{name}` must be {what}, not {json.dumps(value)}")
    return value


def _match(obj: dict, line: int) -> BankMatch:
    variant = obj.get("variant")
    if variant != VARIANT:
        raise RecordError(line, f"the variant is {json.dumps(variant)}, not {json.dumps(VARIANT)}")
    players = obj.get("players")
    if not isinstance(players, list):
        raise RecordError(line, "`players` must be a list of names in clockwise order")
    hands = _field(obj, "hands_per_bank", int, line, "a whole number >= 1")
    limits = obj.get("limits", {})
    if not isinstance(limits, dict):
        raise RecordError(line, '`limits` must be an object like {"min": 1, "max": 10}')
    try:
        lo = _field(limits, "min", int, line, "a whole number", optional=True)
        hi = _field(limits, "max", int, line, "a whole number", optional=True)
        return BankMatch(tuple(players), hands, Limits(1 if lo is None else lo, hi))
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(line, str(exc)) from None


def _event(obj: dict, line: int, players: tuple[str, ...]) -> Event:
    kind = obj.get("event")
    if kind == "cut_for_bank":
        return CutForBank(_field(obj, "player", str, line, "a name"), _field(obj, "card", str, line, "a card code"))
    if kind == "bank":
        banker = _field(obj, "banker", str, line, "a name")
        if banker not in players:
            raise RecordError(line, f"the banker {json.dumps(banker)} is not a player")
        chips = _field(obj, "chips", int, line, "a whole number of chips")
        reserve = _field(obj, "reserve", int, line, "a whole number of chips", optional=True)
        if reserve is not None and reserve < 0:
            raise RecordError(line, f"`reserve` cannot be negative ({reserve})")
        return OpenBank(banker, chips, reserve)
    if kind == "bet":
        return PlaceBet(
            _field(obj, "player", str, line, "a name"),
            _field(obj, "spot", str, line, 'a spot such as "3" or "3-4"'),
            _field(obj, "chips", int, line, "a whole number of chips"),
        )
    if kind == "cut":
        return Cut(_field(obj, "count", int, line, "a whole number of cards"))
    if kind == "result":
        return Result(_field(obj, "number", int, line, "a whole number"))
    if kind == "match":
        raise RecordError(line, "a second match line")
    if kind is None:
        raise RecordError(line, "a line without `event`")
    raise RecordError(line, f"unknown event {json.dumps(kind)}")


def read_record(text: str | bytes) -> list[Event]:
    """The events of a banking record, match line first. Raises RecordError naming the bad line."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = text[: exc.start].count(b"\n") + 1
            raise RecordError(line, "not UTF-8 text") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # one final newline
    if not lines:
        raise RecordError(1, "an empty record: the first line must be the match line")
    events: list[Event] = []
    players: tuple[str, ...] = ()
    for number, raw in enumerate(lines, start=1):
        raw = raw[:-1] if raw.endswith("\r") else raw
        if not raw.strip():
            raise RecordError(number, "a blank line")
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise RecordError(number, "not a JSON object")
        if number == 1:
            if obj.get("event") != "match":
                raise RecordError(1, "the first line must be the match line")
            match = _match(obj, 1)
            players = match.players
            events.append(match)
        else:
            events.append(_event(obj, number, players))
    return events


def event_to_json(event: Event) -> dict:
    """One record line as a JSON object, in canonical form."""
    if isinstance(event, BankMatch):
        limits: dict = {"min": event.limits.min}
        if event.limits.max is not None:
            limits["max"] = event.limits.max
        return {"event": "match", "variant": VARIANT, "players": list(event.players),
                "limits": limits, "hands_per_bank": event.hands_per_bank}
    if isinstance(event, CutForBank):
        return {"event": "cut_for_bank", "player": event.player, "card": read_cut_card(event.card) or event.card}
    if isinstance(event, OpenBank):
        out = {"event": "bank", "banker": event.banker, "chips": event.chips}
        if event.reserve is not None:
            out["reserve"] = event.reserve
        return out
    if isinstance(event, PlaceBet):
        try:
            spot = Spot.parse(event.spot).code
        except BadSpot:
            spot = event.spot
        return {"event": "bet", "player": event.player, "spot": spot, "chips": event.chips}
    if isinstance(event, Cut):
        return {"event": "cut", "count": event.count}
    if isinstance(event, Result):
        return {"event": "result", "number": event.number}
    raise TypeError(f"not an event of the banking game: {event!r}")


def write_record(events: Iterable[Event]) -> str:
    """The record text of `events` (match line first), one JSON object per line."""
    return "".join(json.dumps(event_to_json(e), ensure_ascii=False) + "\n" for e in events)
