"""Perft: exact counts of legal play sequences from fixed deals (data/perft/*.json).

The counts were computed by the engine (tests/scorekeeper/perft.py) and are checked exactly, so any
change in what the engine allows shows up as a changed number.  Two of them are cross-checked by a
tiny brute force written here from the rules alone, sharing no code with the engine.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("fantan_perft", HERE / "perft.py")
perft_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(perft_mod)

FILES = sorted((HERE / "data" / "perft").glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_there_are_perft_files_for_every_variant():
    assert {load(p)["variant"] for p in FILES} == {"fan-tan", "sjuan", "parliament", "free", "domino"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_perft_counts(path: Path):
    deal = load(path)
    m = perft_mod.start_match(deal)
    for depth, expected in deal["perft"].items():
        assert perft_mod.perft(m, int(depth), deal.get("stock")) == expected, f"depth {depth}"
    assert len(m.events) == 2  # every push was popped


# -- an independent brute force (ace low or high, rows from the sevens, no stock) ------------------

def brute_force(deal: dict, depth: int) -> int:
    ace_high = deal.get("options", {}).get("ace_high", False)
    order = "23456789TJQKA" if ace_high else "A23456789TJQK"
    players = deal["players"]
    hands = [frozenset(deal["hands"][p]) for p in players]
    opening = {"fan-tan": "7d", "sjuan": "7h"}.get(deal["variant"])
    if opening:
        first = next(i for i, h in enumerate(hands) if opening in h)
    else:
        first = (players.index(deal["dealer"]) + 1) % len(players)

    def fits(card: str, rows: dict) -> bool:
        if opening and rows.get(opening[1]) is None:
            return card == opening
        row = rows.get(card[1])
        i = order.index(card[0])
        if row is None:
            return card[0] == "7"
        return i == row[0] - 1 or i == row[1] + 1

    def count(hands, rows, turn, depth) -> int:
        if depth == 0 or any(not h for h in hands):
            return 1
        playable = [c for c in hands[turn] if fits(c, rows)]
        nxt = (turn + 1) % len(hands)
        if not playable:
            return count(hands, rows, nxt, depth - 1)
        total = 0
        for card in playable:
            i = order.index(card[0])
            row = rows.get(card[1])
            new_rows = dict(rows)
            new_rows[card[1]] = (i, i) if row is None else (min(row[0], i), max(row[1], i))
            new_hands = list(hands)
            new_hands[turn] = hands[turn] - {card}
            total += count(new_hands, new_rows, nxt, depth - 1)
        return total

    return count(hands, {}, first, depth)


@pytest.mark.parametrize("name", ["fan-tan_4p_seed1", "parliament_ace_high_4p_seed4", "parliament_3p_seed3"])
def test_perft_agrees_with_an_independent_brute_force(name):
    deal = load(HERE / "data" / "perft" / f"{name}.json")
    for depth, expected in list(deal["perft"].items())[:10]:
        assert brute_force(deal, int(depth)) == expected, f"depth {depth}"
