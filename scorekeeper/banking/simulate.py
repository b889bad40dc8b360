"""Random nights of the banking game, for tests and demos (seeded: the same seed, the same night).

`mischief` is the chance that a line is one a careful table would not write (a bet over the limit,
a bet by the banker, a cut under a third of the pack...), so that the flags get exercised too.
"""

from __future__ import annotations

import random
from typing import Sequence

from scorekeeper.banking.events import BankMatch, Cut, CutForBank, Event, OpenBank, PlaceBet, Result
from scorekeeper.banking.game import BETS, CUT_FOR_BANK, BankGame
from scorekeeper.banking.layout import MIN_CUT, PACK_SIZE, SPOTS, Limits

_RANKS = "A23456789TJQK"
_PACK = [r + s for s in "cdhs" for r in _RANKS]


def _spot_text(rng: random.Random) -> str:
    spot = rng.choice(SPOTS)
    numbers = list(spot.numbers)
    if len(numbers) == 2 and rng.random() < 0.3:
        numbers.reverse()  # "4-3" is the same side as "3-4"
    return "-".join(map(str, numbers))


def simulate_session(
    players: Sequence[str] = ("Anna", "Ben", "Cleo", "Dan"),
    seed: int = 0,
    hands: int = 20,
    limits: Limits = Limits(1, 10),
    hands_per_bank: int = 3,
    mischief: float = 0.05,
    max_bank: int = 60,
) -> list[Event]:
    """The events of a random night with `hands` settled hands, match line first."""
    rng = random.Random(seed)
    game = BankGame(BankMatch(tuple(players), hands_per_bank, limits))
    top = limits.max if limits.max is not None else limits.min + 20

    def odd() -> bool:
        return rng.random() < mischief

    while len(game.hands) < hands:
        if game.phase == CUT_FOR_BANK:
            pack = rng.sample(_PACK, len(game.cutters))
            for player, card in zip(game.cutters, pack):
                game.push(CutForBank(player, card))
        elif game.phase != BETS:
            banker = game.next_banker
            if odd():
                banker = rng.choice(players)  # the table gets the turn wrong
            if odd():
                game.push(OpenBank(banker, 0))  # flagged: a bank must hold something
            game.push(OpenBank(banker, rng.randint(1, max_bank), rng.choice([None, rng.randint(0, 50)])))
        else:
            bettors = [p for p in players if p != game.banker]
            for _ in range(rng.randint(0, 2 * len(players))):
                player = rng.choice(bettors)
                chips = rng.randint(limits.min, top)
                spot = _spot_text(rng)
                if odd():
                    player, chips, spot = rng.choice([
                        ("Zed", chips, spot), (game.banker, chips, spot), (player, top + 1, spot),
                        (player, limits.min - 1, spot), (player, chips, "1-3"),
                    ])
                game.push(PlaceBet(player, spot, chips))
            if odd():
                game.push(Cut(rng.randint(1, MIN_CUT - 1)))  # flagged: under a third, cut again
            if rng.random() < 0.2:
                game.push(Result(rng.randint(1, 4)))
            else:
                game.push(Cut(rng.randint(MIN_CUT, PACK_SIZE)))
    return list(game.events)
