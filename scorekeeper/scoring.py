"""Penalty points, the paper score of a round (the English text; record-format.md).

Each pass costs 1 point, each proven illegal pass 3 more, and at the end each player scores 1 point
per card left in hand - except the winner, whose hand is empty anyway and who scores nothing for cards
(their passes still count).

The English text's example: three losers left with 2, 5 and 9 cards after one pass each.

>>> [penalty_points(passes=1, illegal_passes=0, cards_left=n, won=False) for n in (2, 5, 9)]
[3, 6, 10]
>>> penalty_points(passes=2, illegal_passes=0, cards_left=0, won=True)
2
"""

from __future__ import annotations

PASS_POINTS = 1
ILLEGAL_PASS_POINTS = 3  # on top of the pass's own point
CARD_POINTS = 1


def penalty_points(passes: int, illegal_passes: int, cards_left: int, won: bool) -> int:
    """A player's points for one round."""
    points = PASS_POINTS * passes + ILLEGAL_PASS_POINTS * illegal_passes
    if not won:
        points += CARD_POINTS * cards_left
    return points
