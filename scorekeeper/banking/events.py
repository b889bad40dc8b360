"""The lines of a banking-game record, as small frozen values (what was written, not yet judged).

Values keep what the table said (a spot as written, a card code as written) so that the game can
flag what is wrong instead of losing the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.banking.layout import Limits

VARIANT = "chinese-fan-tan"
MAX_PLAYERS = 8


@dataclass(frozen=True)
class BankMatch:
    """Line 1: who sits where (clockwise), the betting limits and how many hands a bank lasts."""

    players: tuple[str, ...]
    hands_per_bank: int
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if isinstance(self.players, list):
            object.__setattr__(self, "players", tuple(self.players))  # keep the value hashable
        players = self.players
        if not isinstance(players, tuple) or not 2 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"players: 2 to {MAX_PLAYERS} names in clockwise order")
        if any(not isinstance(p, str) or not p for p in players) or len(set(players)) != len(players):
            raise ValueError("players: unique, non-empty names")
        if players and "bank" in players:
            raise ValueError("players: 'bank' is the bank's name in payments, not a player's")
        h = self.hands_per_bank
        if isinstance(h, bool) or not isinstance(h, int) or h < 1:
            raise ValueError(f"hands_per_bank: a whole number >= 1, not {h!r}")
        if not isinstance(self.limits, Limits):
            raise ValueError("limits: a Limits value")


@dataclass(frozen=True)
class CutForBank:
    """A player's card in the high cut for the first bank (ace high; ties cut again)."""

    player: str
    card: str


@dataclass(frozen=True)
class OpenBank:
    """A banker puts `chips` at risk as the bank; `reserve` (optional) is what he sets aside."""

    banker: str
    chips: int
    reserve: int | None = None


@dataclass(frozen=True)
class PlaceBet:
    """A player puts `chips` on a spot ("3", "3-4", ...) for the coming cut."""

    player: str
    spot: str
    chips: int


@dataclass(frozen=True)
class Cut:
    """The banker cut `count` cards and counted them out in fours: this settles the hand."""

    count: int


@dataclass(frozen=True)
class Result:
    """The winning number (1..4) entered directly instead of a count: this settles the hand."""

    number: int


Event = BankMatch | CutForBank | OpenBank | PlaceBet | Cut | Result
