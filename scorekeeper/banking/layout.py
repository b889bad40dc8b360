"""The joker layout of Chinese Fan-Tan: the eight places a bet can sit, and the winning number.

Seen from the banker, the joker's corners are 1 (lower left), 2 (upper left), 3 (upper right) and
4 (lower right). A bet on a corner backs one number and is paid 3 to 1; a bet along a side backs the
two numbers of its corners and is paid evens. The banker cuts at least a third of the pack and counts
it out in fours: what is left over is the winning number, nothing left over means 4.
"""

from __future__ import annotations

from dataclasses import dataclass

PACK_SIZE = 52
#: "At least one third of the cards": 52 / 3 = 17.33, so the shortest fair cut holds 18 cards.
MIN_CUT = -(-PACK_SIZE // 3)
#: The sides in the order they run round the joker; 4-1 closes the circle.
_SIDES = ((1, 2), (2, 3), (3, 4), (4, 1))


class BadSpot(ValueError):
    """Raised for a place on the layout that does not exist, such as "5" or "1-3"."""


def is_fair_cut(count: int) -> bool:
    """True when a cut of `count` cards is between a third of the pack and the whole pack."""
    return MIN_CUT <= count <= PACK_SIZE


def winning_number(count: int) -> int:
    """The winning number of a cut of `count` cards: the remainder after fours, none means 4.

    >>> winning_number(19)
    3
    >>> winning_number(20)
    4
    """
    if not is_fair_cut(count):
        raise ValueError(f"a cut of {count} cards is not between {MIN_CUT} and {PACK_SIZE}")
    return count % 4 or 4


@dataclass(frozen=True, order=True)
class Spot:
    """A place on the layout: one corner (one number) or one side (two adjacent numbers).

    >>> Spot.parse("4-3")
    Spot('3-4')
    >>> Spot.parse("1-4").code, Spot.parse("3").odds
    ('4-1', 3)
    """

    numbers: tuple[int, ...]

    def __post_init__(self) -> None:
        ok = (len(self.numbers) == 1 and self.numbers[0] in (1, 2, 3, 4)) or self.numbers in _SIDES
        if not ok:
            raise BadSpot(f"no such place on the layout: {self.numbers!r}")

    @classmethod
    def parse(cls, text: str) -> "Spot":
        """Reads "3", "3-4" or "4-3" (sides in either order; "1-4" is the side 4-1)."""
        if not isinstance(text, str):
            raise BadSpot(f"a spot is written as text, not {text!r}")
        parts = [p.strip() for p in text.strip().split("-")]
        if not all(p.isdigit() and len(p) == 1 for p in parts) or len(parts) not in (1, 2):
            raise BadSpot(f"no such place on the layout: {text!r}")
        numbers = tuple(int(p) for p in parts)
        if len(numbers) == 2:
            for side in _SIDES:
                if sorted(side) == sorted(numbers):
                    numbers = side
                    break
            else:
                raise BadSpot(f"{text!r}: a side joins two neighbouring corners (1-2, 2-3, 3-4, 4-1)")
        return cls(numbers)

    @property
    def code(self) -> str:
        """The canonical way to write it: "3", "3-4", "4-1"."""
        return "-".join(str(n) for n in self.numbers)

    @property
    def is_corner(self) -> bool:
        return len(self.numbers) == 1

    @property
    def odds(self) -> int:
        """Chips won per chip staked: 3 to 1 on a corner, evens on a side."""
        return 3 if self.is_corner else 1

    def wins(self, number: int) -> bool:
        return number in self.numbers

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Spot({self.code!r})"


CORNERS: tuple[Spot, ...] = tuple(Spot((n,)) for n in (1, 2, 3, 4))
SIDES: tuple[Spot, ...] = tuple(Spot(s) for s in _SIDES)
SPOTS: tuple[Spot, ...] = CORNERS + SIDES


@dataclass(frozen=True)
class Limits:
    """The betting limits agreed before the night: every single bet between `min` and `max` chips.

    `max` None means no upper limit. The limits bound each bet, not a player's total, which is why
    the banker sets a reserve aside (the bank alone is at risk).
    """

    min: int = 1
    max: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.min, bool) or not isinstance(self.min, int) or self.min < 1:
            raise ValueError(f"the minimum bet must be a whole number of chips >= 1, not {self.min!r}")
        if self.max is not None and (
            isinstance(self.max, bool) or not isinstance(self.max, int) or self.max < self.min
        ):
            raise ValueError(f"the maximum bet must be a whole number >= the minimum, not {self.max!r}")

    def breach(self, chips: int) -> str | None:
        """'under_limit' or 'over_limit' for a stake outside the limits, else None."""
        if chips < self.min:
            return "under_limit"
        if self.max is not None and chips > self.max:
            return "over_limit"
        return None


@dataclass(frozen=True)
class Bet:
    """Chips put on one spot by one player; `line` is the record line that placed it (0 if none).

    A winning bet keeps its stake and is paid `chips * odds` from the bank; a losing bet goes to
    the bank.
    """

    player: str
    spot: Spot
    chips: int
    line: int = 0

    def winnings(self, number: int) -> int:
        """Chips the bank owes on this bet when `number` wins (0 for a losing bet)."""
        return self.chips * self.spot.odds if self.spot.wins(number) else 0

    def to_json(self) -> dict:
        return {"line": self.line, "player": self.player, "spot": self.spot.code, "chips": self.chips}
