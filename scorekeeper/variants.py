"""The presets: one class per variant, found by name (as `chess.variant.find_variant` does).

What differs between presets lives here and nowhere else: how the deck is dealt, who opens and with
what, how a row grows, and when a match ends by default.  The round (`scorekeeper.round`) asks its
variant; it never tests a variant's name.

>>> v = find_variant("sjuan")(Options())
>>> v.opening_card, v.default_target
(Card('7h'), 100)
>>> find_variant("free").upward_only
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from .cards import Card, parse_card


@dataclass(frozen=True, slots=True)
class Options:
    """Table options from the match line.

    ``ace_high``: the ace sits above the king (the row runs 2 .. K A).
    ``hand_size``: `domino` only, cards dealt to each player (default 13); the rest is the stock.
    """

    ace_high: bool = False
    hand_size: Optional[int] = None


class Variant:
    """Fan Tan family rules shared by every preset (rows from the sevens, ace low)."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    opening_card: ClassVar[Optional[Card]] = None  # the one card that may open the round
    has_stock: ClassVar[bool] = False  # `domino`: undealt cards form a stock to draw from
    upward_only: ClassVar[bool] = False  # `free`: rows grow upwards only, wrapping K-A-2
    base_from_first_card: ClassVar[bool] = False  # `free`: the first card's rank is every row's base
    default_target: ClassVar[Optional[int]] = None
    default_players: ClassVar[int] = 4  # what `fantan simulate` seats when not told

    def __init__(self, options: Options = Options()) -> None:
        self.options = options

    # -- dealing ---------------------------------------------------------------------------
    def deal_sizes(self, n_players: int) -> list[int]:
        """Cards dealt to each seat, starting with the player left of the dealer."""
        base, extra = divmod(52, n_players)
        return [base + (1 if i < extra else 0) for i in range(n_players)]

    def stock_size(self, n_players: int) -> int:
        return 52 - sum(self.deal_sizes(n_players))

    # -- rows --------------------------------------------------------------------------------
    def positions(self, base_rank: int = 7) -> tuple[tuple[int, ...], int]:
        """(position of each rank 1..13 along a row, position of the card that opens a row).

        Index 0 of the tuple is unused so that ``positions[rank]`` reads naturally.
        """
        if self.options.ace_high:  # 2 3 ... K A
            return (0,) + tuple((rank - 2) % 13 for rank in range(1, 14)), 5
        return (0,) + tuple(rank - 1 for rank in range(1, 14)), 6

    @property
    def opener_known_from_deal(self) -> bool:
        """True if the player left of the dealer moves first (no opening card to wait for)."""
        return self.opening_card is None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


class FanTan(Variant):
    """English Fan Tan / Sevens: the holder of the seven of diamonds opens with it."""

    name = "fan-tan"
    title = "Fan Tan (Sevens)"
    opening_card = parse_card("7d")


class Sjuan(Variant):
    """Swedish Sjuan: the holder of the seven of hearts opens with it; game to 100 points."""

    name = "sjuan"
    title = "Sjuan"
    opening_card = parse_card("7h")
    default_target = 100


class Parliament(Variant):
    """Parliament: the player left of the dealer starts; any seven opens a row; anyone may pass."""

    name = "parliament"
    title = "Parliament"


class Free(Variant):
    """Free Fan Tan ("fri fan tan"): any first card; its rank is every row's base; rows grow up,
    wrapping K to A to 2, so that every card can be played.  The ace_high option changes nothing
    here: with the wrap, the card after the king is the ace either way."""

    name = "free"
    title = "Free Fan Tan"
    upward_only = True
    base_from_first_card = True

    def positions(self, base_rank: int = 7) -> tuple[tuple[int, ...], int]:
        return (0,) + tuple((rank - base_rank) % 13 for rank in range(1, 14)), 0


class Domino(Variant):
    """Domino Fan Tan: ``hand_size`` cards each (default 13), the rest is a stock; a player with no
    legal card draws until one fits or the stock is empty, and passes only then."""

    name = "domino"
    title = "Domino Fan Tan"
    has_stock = True
    default_players = 2

    def deal_sizes(self, n_players: int) -> list[int]:
        size = self.options.hand_size or DEFAULT_HAND_SIZE
        return [size] * n_players


DEFAULT_HAND_SIZE = 13


VARIANTS: dict[str, type[Variant]] = {cls.name: cls for cls in (FanTan, Sjuan, Parliament, Free, Domino)}


def find_variant(name: str) -> type[Variant]:
    """The variant class called ``name``; ``ValueError`` names the known ones otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None
