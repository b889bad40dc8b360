"""A hypothesis strategy shared by the property and differential tests: a table to simulate.

Loaded by path (pytest runs with --import-mode=importlib, so test folders are not packages).
"""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.simulate import STRATEGIES
from scorekeeper.variants import VARIANTS, Options


@st.composite
def seating(draw, max_players: int = 8):
    """(variant, number of players, options, one strategy per seat): any preset, ace high or not,
    `domino` with 2-4 players and any hand size that fits the deck."""
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    if variant == "domino":
        n = draw(st.integers(2, 4))
        options = Options(hand_size=draw(st.integers(1, 52 // n)), ace_high=draw(st.booleans()))
    else:
        n = draw(st.integers(2, max_players))
        options = Options(ace_high=draw(st.booleans()))
    strategy = draw(st.lists(st.sampled_from(STRATEGIES), min_size=n, max_size=n))
    return variant, n, options, strategy
