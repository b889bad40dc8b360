"""Every chip accounted for: over long random nights, after every line, and back again with pop."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.banking import BankGame, Limits, read_record, write_record
from scorekeeper.banking.simulate import simulate_session

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal")


def snapshot(g: BankGame):
    return (g.net, g.bank, g.banker, g.bets, g.flags, g.hands, g.banks, g.phase, g.next_banker, g.cuts)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_players=st.integers(2, 8),
    hands_per_bank=st.integers(1, 6),
    lo=st.integers(1, 5),
    span=st.integers(0, 30),
    mischief=st.sampled_from([0.0, 0.05, 0.3]),
)
def test_chips_are_conserved_over_a_long_random_night(seed, n_players, hands_per_bank, lo, span, mischief):
    events = simulate_session(NAMES[:n_players], seed, hands=120, limits=Limits(lo, lo + span),
                              hands_per_bank=hands_per_bank, mischief=mischief, max_bank=40)
    g = BankGame(events[0])
    for event in events[1:]:
        bank_before, net_before, banker = g.bank, g.net, g.banker
        g.push(event)
        # the invariant of the night: nothing created, nothing lost
        assert sum(g.net.values()) + g.bank == 0
        assert sum(g.balances.values()) == 0
        assert g.bank >= 0
        # a bank only opens with at least a chip, and an emptied bank never stays open
        assert (g.banker is None) == (g.bank == 0 and g.phase != "bets")
        if len(g.hands) and g.hands[-1].line == len(g.events):
            h = g.hands[-1]
            p = h.payout
            assert p.bank_before == bank_before
            collected = sum(s.chips for s in p.steps if s.reason == "lost")
            paid = sum(s.chips for s in p.steps if s.reason != "lost")
            assert p.bank_after == bank_before + collected - paid
            # every bet of the hand is collected, paid or returned, exactly once
            assert sorted(b.line for b in h.bets) == sorted([s.bet.line for s in p.steps] + [b.line for b in p.returned])
            # a bet is returned or paid short only when the bank ran dry
            if p.returned or any(s.reason == "short" for s in p.steps):
                assert p.bank_after == 0 and h.passed == "emptied"
            # the banker's own chips move only when he takes the bank back
            taken = g.banks[-1].taken if h.passed == "hands" else 0
            assert taken == (p.bank_after if h.passed == "hands" else 0)
            assert g.net[banker] == net_before[banker] + taken
    assert len(g.hands) == 120
    # the whole night undone line by line returns to the start
    while len(g.events) > 1:
        g.pop()
    assert g.net == {p: 0 for p in g.players} and g.bank == 0 and not g.flags and not g.hands


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 200))
def test_pop_then_push_again_gives_the_same_state(seed, cut):
    events = simulate_session(NAMES[:4], seed, hands=30, mischief=0.2)
    k = 1 + cut % (len(events) - 1)
    g = BankGame(events[0])
    for event in events[1:k]:
        g.push(event)
    mark = snapshot(g)
    for event in events[k:]:
        g.push(event)
    end = snapshot(g)
    for _ in events[k:]:
        g.pop()
    assert snapshot(g) == mark
    for event in events[k:]:
        g.push(event)
    assert snapshot(g) == end


def test_the_same_seed_gives_the_same_night():
    a = write_record(simulate_session(seed=7, hands=50))
    assert a == write_record(simulate_session(seed=7, hands=50))
    assert read_record(a)[0].players == ("Anna", "Ben", "Cleo", "Dan")


def test_a_night_of_three_thousand_hands_loses_no_chip():
    events = simulate_session(NAMES[:6], seed=2026, hands=3000, limits=Limits(1, 25),
                              hands_per_bank=4, mischief=0.05, max_bank=80)
    g = BankGame(events[0])
    for event in events[1:]:
        g.push(event)
        assert sum(g.net.values()) + g.bank == 0 and g.bank >= 0
    emptied = sum(1 for t in g.banks if t.end == "emptied")
    assert len(g.hands) == 3000 and emptied > 10  # the night did run banks dry, not only full terms
    assert any(h.payout.returned for h in g.hands) and any(
        s.reason == "short" for h in g.hands for s in h.payout.steps)
    assert sum(g.balances.values()) == 0
