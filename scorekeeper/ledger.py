"""The chip ledger: every chip moves from somewhere to somewhere, for a reason.

A round's chips are not a column of numbers but a list of `Transfer`s (antes, the short-hand ante,
pass chips, illegal-pass fines, the seven rule, cards left, the pot to the winner).  A player's chips
for the round are what came in minus what went out; the pot is the place ``'pot'``.  Because every
transfer has a source and a destination, a won round sums to zero by construction, and the dashboard
can show where each chip went.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

class _Place(str):
    """The pot's name: equal to the string 'pot', yet told apart from a player who is called that."""


POT = _Place("pot")

# amounts (record-format.md; the Russian text's chip rules)
ANTE_CHIPS = 1
SHORT_HAND_CHIPS = 1
PASS_CHIPS = 1
ILLEGAL_PASS_CHIPS = 3
SEVEN_RULE_CHIPS = 5  # to each of the holders of the withheld seven's six and eight
CARD_CHIPS = 1  # per card left in hand at the end

# reasons, in words a player uses
ANTE = "ante"
SHORT_HAND = "short hand"
PASS = "pass"
ILLEGAL_PASS_FINE = "illegal pass"
SEVEN_RULE = "seven rule"
CARDS_LEFT = "cards left"
POT_TAKEN = "pot"


@dataclass(frozen=True, slots=True)
class Transfer:
    """``chips`` chips from ``src`` to ``dst`` (player names or ``'pot'``), caused at ``line``."""

    src: str
    dst: str
    chips: int
    reason: str
    line: int

    def explain(self) -> str:
        return f"line {self.line}: {self.src} pays {self.chips} to {self.dst} ({self.reason})"


def net_chips(players: Iterable[str], transfers: Iterable[Transfer]) -> dict[str, int]:
    """Each player's chips after the transfers: what came in minus what went out."""
    net = {name: 0 for name in players}
    for t in transfers:
        if not _is_pot(t.src, net):
            net[t.src] -= t.chips
        if not _is_pot(t.dst, net):
            net[t.dst] += t.chips
    return net


def _is_pot(place: str, players: dict[str, int]) -> bool:
    return place is POT or (place == POT and place not in players)


def pot_after(transfers: Iterable[Transfer]) -> int:
    """Chips lying in the pot after the transfers (0 once a winner took it)."""
    transfers = list(transfers)
    # Our transfers name the pot by `POT` itself; a list built by hand may use the plain string.
    by_identity = any(t.src is POT or t.dst is POT for t in transfers)
    pot = 0
    for t in transfers:
        if t.dst is POT or (not by_identity and t.dst == POT):
            pot += t.chips
        if t.src is POT or (not by_identity and t.src == POT):
            pot -= t.chips
    return pot
