"""Perft for Fan Tan: count the distinct legal play sequences from a deal, as python-chess counts moves.

A line of play is legal when the player to move plays a card that fits (any of them: the choice is
free), passes only with nothing to play, and in `domino` draws the stock's next card while nothing
fits and the stock is not empty.  A sequence ends at ``depth`` lines or when a hand is empty.
Used by tests/scorekeeper/test_perft.py and to write data/perft/*.json (run this file).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from scorekeeper.cards import DECK
from scorekeeper.events import Draw, MatchStart, Pass, Play, RoundStart
from scorekeeper.match import Match
from scorekeeper.variants import Options, find_variant

DATA = Path(__file__).parent / "data" / "perft"


def start_match(deal: dict) -> Match:
    options = Options(**deal.get("options", {}))
    m = Match(MatchStart(deal["variant"], tuple(deal["players"]), "points", rounds=1, options=options))
    m.push(RoundStart(deal["dealer"], {p: tuple(h) for p, h in deal["hands"].items()}))
    return m


def perft(m: Match, depth: int, stock: list[str] | None = None) -> int:
    rnd = m.round
    if depth == 0 or rnd.is_over:
        return 1
    player = rnd.to_move
    cards = [c.code for c in rnd.legal_plays]
    if cards:
        lines = [Play(player, code) for code in cards]
    elif stock and rnd.stock:
        lines = [Draw(player, stock[len(stock) - rnd.stock])]
    else:
        lines = [Pass(player)]
    total = 0
    for line in lines:
        flag = m.push(line)
        assert flag is None, flag
        total += perft(m, depth - 1, stock)
        m.pop()
    return total


def make_deal(variant: str, players: list[str], dealer: str, seed: int, **options) -> dict:
    """A shuffled deal dealt one card at a time from the dealer's left (the rest is the stock)."""
    rng = random.Random(seed)
    deck = [c.code for c in DECK]
    rng.shuffle(deck)
    sizes = find_variant(variant)(Options(**options)).deal_sizes(len(players))
    first = (players.index(dealer) + 1) % len(players)
    hands: dict[str, list[str]] = {p: [] for p in players}
    i = 0
    for turn in range(max(sizes)):
        for k, size in enumerate(sizes):
            if turn < size:
                hands[players[(first + k) % len(players)]].append(deck[i])
                i += 1
    deal = {"variant": variant, "players": players, "dealer": dealer, "hands": hands}
    if options:
        deal["options"] = options
    if find_variant(variant).has_stock:
        deal["stock"] = deck[i:]
    return deal


DEALS = {
    "fan-tan_4p_seed1": (make_deal("fan-tan", ["Anna", "Ben", "Cleo", "Dan"], "Dan", 1), 16),
    "sjuan_5p_seed2": (make_deal("sjuan", ["Anna", "Ben", "Cleo", "Dan", "Eve"], "Anna", 2), 16),
    "parliament_3p_seed3": (make_deal("parliament", ["Anna", "Ben", "Cleo"], "Ben", 3), 11),
    "parliament_ace_high_4p_seed4": (make_deal("parliament", ["Anna", "Ben", "Cleo", "Dan"], "Cleo", 4,
                                                ace_high=True), 11),
    "free_4p_seed5": (make_deal("free", ["Anna", "Ben", "Cleo", "Dan"], "Ben", 5), 7),
    "domino_2p_hand5_seed7": (make_deal("domino", ["Anna", "Ben"], "Ben", 7, hand_size=5), 60),
}


def write_all() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, (deal, depth) in DEALS.items():
        m = start_match(deal)
        counts = {str(d): perft(m, d, deal.get("stock")) for d in range(1, depth + 1)}
        (DATA / f"{name}.json").write_text(json.dumps(dict(deal, perft=counts), indent=1) + "\n")
        print(name, counts, file=sys.stderr)


if __name__ == "__main__":
    write_all()
