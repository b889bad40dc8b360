"""The record's lines as values: what happened at the table, one event per line.

Events keep card codes *as written* (a camera or a person may write ``10♦️``); the round reads them
when they are pushed, so that an unreadable code can be flagged (`bad_card`) instead of lost.
`scorekeeper.record` turns JSON Lines into these values and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from .variants import Options


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Line 1: the variant, the players in clockwise seating order, the stakes and when it ends."""

    variant: str
    players: tuple[str, ...]
    stakes: str = "points"  # 'points' | 'chips'
    rounds: Optional[int] = None
    target: Optional[int] = None
    options: Options = field(default_factory=Options)


@dataclass(frozen=True, slots=True)
class RoundStart:
    """A new deal. ``hands`` (player -> card codes) are the hands known from the start, if any."""

    dealer: str
    hands: Optional[dict[str, tuple[str, ...]]] = None


@dataclass(frozen=True, slots=True)
class Play:
    """A card put on the table."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    """A player says they cannot play (a penalty point and a chip, and illegal if they could)."""

    player: str


@dataclass(frozen=True, slots=True)
class Draw:
    """`domino` only: a card taken from the stock; ``card`` is None when the camera could not see it."""

    player: str
    card: Optional[str] = None


@dataclass(frozen=True, slots=True)
class Show:
    """Cards a player lays down at the end of the round to be counted: evidence, never a move."""

    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class End:
    """Closes the round (optional: the round also closes at the last card)."""


Event = Union[MatchStart, RoundStart, Play, Pass, Draw, Show, End]

EVENT_NAMES: dict[type, str] = {
    MatchStart: "match",
    RoundStart: "round",
    Play: "play",
    Pass: "pass",
    Draw: "draw",
    Show: "show",
    End: "end",
}
