"""Game records: JSON Lines text <-> events (spec: record-format.md).

`read_record` is strict about what makes a record *unreadable* (it raises `RecordError` naming the
line and the problem) and lenient about everything else: a wrong card, a stranger's name, a play out
of turn are findings for the replay to flag, so they are read as written.

>>> events = read_record('{"event": "match", "variant": "fan-tan", "players": ["A", "B", "C"],'
...                      ' "stakes": "points"}\\n{"event": "round", "dealer": "A"}\\n')
>>> [type(e).__name__ for e in events]
['MatchStart', 'RoundStart']
>>> read_record('{"event": "round", "dealer": "A"}')
Traceback (most recent call last):
...
scorekeeper.record.RecordError: line 1: the first line must be the match line, not a round line
"""

from __future__ import annotations

import json
from typing import Iterable, Optional, Union

from .cards import BadCard, parse_card
from .events import EVENT_NAMES, Draw, End, MatchStart, Pass, Play, RoundStart, Show
from .variants import VARIANTS, Options

STAKES = ("points", "chips")
MIN_PLAYERS, MAX_PLAYERS = 2, 8


class RecordError(ValueError):
    """An unreadable record: ``line`` (from 1) and what is wrong there."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message

    def __reduce__(self):
        return (RecordError, (self.line, self.message))


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(obj: dict, key: str, line: int, what: str) -> str:
    if key not in obj:
        raise RecordError(line, f"the {what} line has no {key!r} field")
    value = obj[key]
    if not isinstance(value, str):
        raise RecordError(line, f"the {what} line's {key!r} must be a string, not {_json_type(value)}")
    return value


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def check_match_start(start: MatchStart, line: int = 1) -> None:
    """Raise `RecordError` if a match line (read or built in code) breaks the contract."""
    if not isinstance(start.variant, str) or start.variant not in VARIANTS:
        raise RecordError(line, f"unknown variant {start.variant!r} (known: {', '.join(VARIANTS)})")
    if start.stakes not in STAKES:
        raise RecordError(line, f"unknown stakes {start.stakes!r} (known: points, chips)")
    players = start.players
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise RecordError(line, "players must be a list of names")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RecordError(line, f"a match needs 2 to 8 players, not {len(players)}")
    if any(p == "" for p in players):
        raise RecordError(line, "a player's name is empty")
    if len(set(players)) != len(players):
        dup = next(p for p in players if list(players).count(p) > 1)
        raise RecordError(line, f"the player {dup!r} is named twice")
    for key in ("rounds", "target"):
        value = getattr(start, key)
        if value is not None and (not _is_int(value) or value < 1):
            raise RecordError(line, f"{key} must be an integer of at least 1, not {value!r}")
    options = start.options
    if not isinstance(options.ace_high, bool):
        raise RecordError(line, f"options.ace_high must be true or false, not {options.ace_high!r}")
    size = options.hand_size
    if size is not None:
        if not _is_int(size) or size < 1:
            raise RecordError(line, f"options.hand_size must be an integer of at least 1, not {size!r}")
        if size * len(players) > 52:
            raise RecordError(line, f"options.hand_size {size} x {len(players)} players is more than 52 cards")
    sizes = VARIANTS[start.variant](options).deal_sizes(len(players))
    if sum(sizes) > 52:  # `domino` with its default hand size and too many players
        raise RecordError(line, f"{start.variant} deals {sizes[0]} cards each: too many for {len(players)} "
                                "players (give a smaller options.hand_size)")


def _read_match(obj: dict, line: int) -> MatchStart:
    variant = obj.get("variant")
    if "variant" not in obj:
        raise RecordError(line, "the match line has no 'variant' field")
    if not isinstance(variant, str):
        raise RecordError(line, f"the match line's 'variant' must be a string, not {_json_type(variant)}")
    stakes = obj.get("stakes")
    if "stakes" not in obj:
        raise RecordError(line, "the match line has no 'stakes' field")
    if not isinstance(stakes, str):
        raise RecordError(line, f"the match line's 'stakes' must be a string, not {_json_type(stakes)}")
    if "players" not in obj:
        raise RecordError(line, "the match line has no 'players' field")
    players = obj["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(line, "the match line's 'players' must be a list of names (strings)")
    raw_options = obj.get("options")
    if raw_options is None:
        options = Options()
    elif not isinstance(raw_options, dict):
        raise RecordError(line, f"the match line's 'options' must be an object, not {_json_type(raw_options)}")
    else:
        ace_high = raw_options.get("ace_high", False)
        if ace_high is None:
            ace_high = False
        options = Options(ace_high=ace_high, hand_size=raw_options.get("hand_size"))
    start = MatchStart(variant=variant, players=tuple(players), stakes=stakes,
                       rounds=obj.get("rounds"), target=obj.get("target"), options=options)
    check_match_start(start, line)
    return start


def _read_event(obj: dict, line: int, start: Optional[MatchStart], in_round: bool):
    kind = obj.get("event")
    if "event" not in obj:
        raise RecordError(line, "the line has no 'event' field")
    if not isinstance(kind, str):
        raise RecordError(line, f"'event' must be a string, not {_json_type(kind)}")
    if kind not in EVENT_NAMES.values():
        raise RecordError(line, f"unknown event {kind!r} (known: {', '.join(EVENT_NAMES.values())})")
    if start is None:
        if kind != "match":
            raise RecordError(line, f"the first line must be the match line, not a {kind} line")
        return _read_match(obj, line)
    if kind == "match":
        raise RecordError(line, "a second match line")
    if kind == "round":
        dealer = _text(obj, "dealer", line, "round")
        if dealer not in start.players:
            raise RecordError(line, f"the dealer {dealer!r} is not a player")
        hands = obj.get("hands")
        if hands is not None:
            if not isinstance(hands, dict):
                raise RecordError(line, f"the round line's 'hands' must be an object, not {_json_type(hands)}")
            for name, cards in hands.items():
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise RecordError(line, f"the round line's hand of {name!r} must be a list of card codes")
            hands = {name: tuple(cards) for name, cards in hands.items()}
        return RoundStart(dealer=dealer, hands=hands)
    if not in_round:
        raise RecordError(line, f"a {kind} line before the first round line")
    if kind == "end":
        return End()
    player = _text(obj, "player", line, kind)
    if kind == "play":
        return Play(player=player, card=_text(obj, "card", line, kind))
    if kind == "pass":
        return Pass(player=player)
    if kind == "draw":
        if not VARIANTS[start.variant].has_stock:
            raise RecordError(line, f"a draw line in {start.variant} (only domino has a stock)")
        card = obj.get("card")
        if card is not None and not isinstance(card, str):
            raise RecordError(line, f"the draw line's 'card' must be a string, not {_json_type(card)}")
        return Draw(player=player, card=card)
    # show
    if "cards" not in obj:
        raise RecordError(line, "the show line has no 'cards' field")
    cards = obj["cards"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise RecordError(line, "the show line's 'cards' must be a list of card codes (strings)")
    return Show(player=player, cards=tuple(cards))


def iter_lines(text: Union[str, bytes]) -> list[str]:
    """The record's lines without their line ends (one final newline allowed, ``\\r\\n`` accepted).

    Bytes are decoded line by line, so that an unreadable record is reported at its *first* bad line,
    whatever is wrong there (``RecordError`` names the line of a byte that is not UTF-8).
    """
    sep = b"\n" if isinstance(text, (bytes, bytearray)) else "\n"
    pieces = bytes(text).split(sep) if isinstance(text, bytearray) else text.split(sep)
    if pieces and not pieces[-1]:
        pieces.pop()  # one final newline is allowed
    lines: list[str] = []
    for number, piece in enumerate(pieces, start=1):
        if isinstance(piece, bytes):
            try:
                piece = piece.decode("utf-8")
            except UnicodeDecodeError as exc:
                lines.append(_NotUtf8(f"not UTF-8 text (byte {exc.start + 1} of the line)"))
                continue
        lines.append(piece[:-1] if piece.endswith("\r") else piece)
    return lines


class _NotUtf8(str):
    """A line whose bytes are not UTF-8 (kept in place so that earlier lines are judged first)."""


def parse_line(raw: str, line: int) -> dict:
    """One line as a JSON object; ``RecordError`` if it is blank or not an object."""
    if isinstance(raw, _NotUtf8):
        raise RecordError(line, str(raw))
    if raw.strip() == "":
        raise RecordError(line, "a blank line")
    try:
        obj = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        msg = getattr(exc, "msg", None) or str(exc)
        raise RecordError(line, f"not valid JSON ({msg})") from None
    if not isinstance(obj, dict):
        raise RecordError(line, f"not a JSON object but {_json_type(obj)}")
    return obj


def read_record(text: Union[str, bytes]) -> list:
    """Events of a record, in order; ``RecordError`` on the first unreadable line."""
    lines = iter_lines(text)
    if not lines:
        raise RecordError(1, "the record is empty (the first line must be the match line)")
    events: list = []
    start: Optional[MatchStart] = None
    in_round = False
    for number, raw in enumerate(lines, start=1):
        obj = parse_line(raw, number)
        event = _read_event(obj, number, start, in_round)
        if start is None:
            start = event
        elif type(event) is RoundStart:
            in_round = True
        events.append(event)
    return events


def _card_out(code: str) -> str:
    try:
        return parse_card(code).code
    except BadCard:
        return code  # an unreadable code is kept as written, so its flag survives the round trip


def event_to_json(event) -> dict:
    """One event as its record line's object, card codes canonical (the writers' rule)."""
    kind = type(event)
    if kind is MatchStart:
        obj: dict = {"event": "match", "variant": event.variant, "players": list(event.players),
                     "stakes": event.stakes}
        if event.rounds is not None:
            obj["rounds"] = event.rounds
        if event.target is not None:
            obj["target"] = event.target
        options = {}
        if event.options.ace_high:
            options["ace_high"] = True
        if event.options.hand_size is not None:
            options["hand_size"] = event.options.hand_size
        if options:
            obj["options"] = options
        return obj
    if kind is RoundStart:
        obj = {"event": "round", "dealer": event.dealer}
        if event.hands is not None:
            obj["hands"] = {name: [_card_out(c) for c in cards] for name, cards in event.hands.items()}
        return obj
    if kind is Play:
        return {"event": "play", "player": event.player, "card": _card_out(event.card)}
    if kind is Pass:
        return {"event": "pass", "player": event.player}
    if kind is Draw:
        obj = {"event": "draw", "player": event.player}
        if event.card is not None:
            obj["card"] = _card_out(event.card)
        return obj
    if kind is Show:
        return {"event": "show", "player": event.player, "cards": [_card_out(c) for c in event.cards]}
    if kind is End:
        return {"event": "end"}
    raise TypeError(f"not a record event: {event!r}")


def write_record(events: Iterable) -> str:
    """The record as JSON Lines text, one event per line, each line ending in a newline."""
    return "".join(json.dumps(event_to_json(e), ensure_ascii=False) + "\n" for e in events)
