"""Properties over random simulated matches (hypothesis picks variant, table, players, strategy, seed).

- the 52 cards are conserved after every line: cards in hands + on the table + in the stock = 52, and
  where hands are known, no card is in two places;
- a won round's chips sum to zero (and an unwon round's to minus the pot left on the table);
- `pop` gives back exactly the state before the last `push`;
- a record written and read back gives the same verdict.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import FULL_MASK
from scorekeeper.ledger import pot_after
from scorekeeper.match import Match, replay
from scorekeeper.record import read_record, write_record
from scorekeeper.simulate import simulate_match


_seating_spec = importlib.util.spec_from_file_location("fantan_test_seating", Path(__file__).parent / "seating.py")
_seating = importlib.util.module_from_spec(_seating_spec)
_seating_spec.loader.exec_module(_seating)
seating = _seating.seating


@st.composite
def matches(draw):
    variant, n, options, strategy = draw(seating(max_players=8))
    return simulate_match(variant, n, seed=draw(st.integers(0, 2**32)), stakes=draw(st.sampled_from(["points", "chips"])),
                          rounds=draw(st.integers(1, 2)), options=options, strategy=strategy,
                          known_hands=draw(st.booleans()))


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def state(m: Match) -> tuple:
    """Everything a caller can see of a match (and the round's undo stack depth)."""
    r = m.round
    rounds = []
    for rnd in m.round_states:
        rounds.append((rnd.to_move, tuple(rnd.legal_plays), rnd.cards_left, tuple(rnd.flags), rnd.table.rows,
                       rnd.stock, rnd.is_over, rnd.winner, rnd.passes,
                       tuple(rnd.known_cards(p) for p in rnd.players), len(rnd._stack)))
    return (len(m.events), m.verdict(), tuple(rounds), m.is_over, m.match_winner,
            [res.transfers for res in m.rounds], r is None)


def assert_cards_conserved(m: Match) -> None:
    rnd = m.round
    if rnd is None:
        return
    assert sum(rnd.cards_left.values()) + len(rnd.table) + rnd.stock == 52
    if all(rnd.hand_known) and not any(i < 0 for _, _, i in rnd._draws):
        seen = rnd._on_table
        for p in rnd.players:
            for card in rnd.known_cards(p):
                assert not seen & card.bit, f"{card} is in two places"
                seen |= card.bit
        assert bin(seen).count("1") == 52 - rnd.stock and seen & ~FULL_MASK == 0


@SETTINGS
@given(matches())
def test_cards_are_conserved_after_every_line(events):
    m = Match(events[0])
    for event in events[1:]:
        m.push(event)
        assert_cards_conserved(m)


@SETTINGS
@given(matches())
def test_chips_sum_to_zero_after_every_won_round(events):
    m = replay(events)
    if m.stakes != "chips":
        return
    for res in m.rounds:
        total = sum(res.chips.values())
        if res.winner is not None:
            assert total == 0
        else:
            assert total == -pot_after(res.transfers)
        for t in res.transfers:
            assert t.chips > 0 and t.src != t.dst


@SETTINGS
@given(matches())
def test_pop_returns_the_exact_previous_state(events):
    m = Match(events[0])
    for event in events[1:]:
        before = state(m)
        m.push(event)
        after = state(m)
        assert m.pop() == event
        assert state(m) == before
        m.push(event)
        assert state(m) == after
    while len(m.events) > 1:  # and all the way back
        m.pop()
    assert m.round is None and m.verdict()["rounds"] == []


@SETTINGS
@given(matches())
def test_a_record_written_and_read_back_gives_the_same_verdict(events):
    text = write_record(events)
    assert replay(read_record(text)).verdict() == replay(events).verdict()
    assert replay(read_record(text.encode("utf-8"))).verdict() == replay(events).verdict()
