"""The high cut for the first bank: every player cuts a card, the highest banks, ties cut again.

Our reading (the rules text only says "by high cut"): ranks only, ace high (A K Q ... 2), suits do
not break ties; the players who tie for highest cut again, the others are out.
"""

from __future__ import annotations

from typing import Mapping

from scorekeeper.cards import BadCard, parse_card


def read_cut_card(code: str) -> str | None:
    """The canonical code ('Kh', 'Td') of a card written as record-format.md allows, or None."""
    try:
        return parse_card(code).code
    except (BadCard, TypeError):
        return None


def cut_rank(code: str) -> int:
    """The value of a cut card for the high cut: 2 lowest, ace highest (14)."""
    rank = parse_card(code).rank
    return 14 if rank == 1 else rank


def high_cut(cuts: Mapping[str, str]) -> tuple[str, ...]:
    """The players holding the highest card among `cuts` (player -> card); one name means a banker."""
    ranks = {player: cut_rank(card) for player, card in cuts.items()}
    top = max(ranks.values())
    return tuple(p for p, r in ranks.items() if r == top)
