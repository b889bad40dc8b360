"""Paying a hand: losers first, then winners from the banker's left, until the bank runs dry."""

import pytest

from scorekeeper.banking import BANK, Bet, Spot, pay_hand, pay_order

TABLE = ("Anna", "Ben", "Cleo", "Dan")


def bet(player, spot, chips, line=0):
    return Bet(player, Spot.parse(spot), chips, line)


def moves(payout):
    return [(s.src, s.dst, s.chips, s.reason) for s in payout.steps]


def test_the_worked_example_of_the_rules_text():
    # Figure 1: bet (a) on 3, bet (b) on 3 and 4, bet (c) on 4 and 1; 19 cards cut, so 3 wins.
    bets = [bet("Ben", "3", 2, 3), bet("Cleo", "3-4", 4, 4), bet("Dan", "4-1", 5, 5)]
    payout = pay_hand(bets, 3, bank=20, banker="Anna", players=TABLE)
    assert moves(payout) == [
        ("Dan", BANK, 5, "lost"),  # (c) loses and is collected first
        (BANK, "Ben", 6, "won"),  # (a) is paid 3 to 1, and keeps his 2
        (BANK, "Cleo", 4, "won"),  # (b) is paid evens, and keeps her 4
    ]
    assert payout.bank_after == 20 + 5 - 6 - 4 == 15
    assert payout.changes() == {"Ben": 6, "Cleo": 4, "Dan": -5}
    assert not payout.returned and not payout.emptied


def test_pay_order_starts_at_the_bankers_left_and_goes_round():
    assert pay_order(TABLE, "Cleo") == ["Dan", "Anna", "Ben"]
    assert pay_order(TABLE, "Dan") == ["Anna", "Ben", "Cleo"]


def test_winners_are_paid_seat_by_seat_from_the_bankers_left():
    # Placed in the order Ben, Anna, Dan; Cleo banks, so Dan (her left) is paid first, then Anna, Ben.
    bets = [bet("Ben", "2", 1, 2), bet("Anna", "2", 1, 3), bet("Dan", "1-2", 1, 4), bet("Ben", "2-3", 1, 5)]
    payout = pay_hand(bets, 2, bank=50, banker="Cleo", players=TABLE)
    assert [(s.dst, s.bet.line) for s in payout.steps] == [("Dan", 4), ("Anna", 3), ("Ben", 2), ("Ben", 5)]


def test_losers_are_collected_before_any_winner_is_paid():
    # The bank holds 1; Dan's lost 9 arrives first, so Ben's 3-to-1 win of 6 is paid in full.
    bets = [bet("Ben", "4", 2, 2), bet("Dan", "1", 9, 3)]
    payout = pay_hand(bets, 4, bank=1, banker="Anna", players=TABLE)
    assert moves(payout) == [("Dan", BANK, 9, "lost"), (BANK, "Ben", 6, "won")]
    assert payout.bank_after == 4


def test_a_bank_emptied_mid_payment_returns_the_unpaid_winning_bets():
    # Bank of 10. 1 wins. Ben (Anna's left) is owed 9, Cleo 6, Dan 3.
    bets = [bet("Dan", "1", 1, 4), bet("Cleo", "1", 2, 3), bet("Ben", "1", 3, 2)]
    payout = pay_hand(bets, 1, bank=10, banker="Anna", players=TABLE)
    assert moves(payout) == [
        (BANK, "Ben", 9, "won"),
        (BANK, "Cleo", 1, "short"),  # the bank's last chip, of 6 owed
    ]
    assert [s.owed for s in payout.steps] == [9, 6]
    assert [(b.player, b.chips) for b in payout.returned] == [("Dan", 1)]  # stake back, unpaid
    assert payout.bank_after == 0 and payout.emptied
    assert payout.changes() == {"Ben": 9, "Cleo": 1, "Dan": 0}


def test_a_bank_paid_down_to_exactly_nothing_is_emptied_too():
    payout = pay_hand([bet("Ben", "3-4", 5), bet("Cleo", "4", 1)], 4, bank=5, banker="Anna", players=TABLE)
    assert moves(payout) == [(BANK, "Ben", 5, "won")]
    assert [b.player for b in payout.returned] == ["Cleo"]
    assert payout.emptied


def test_a_hand_without_winners_only_fills_the_bank():
    payout = pay_hand([bet("Ben", "1", 3), bet("Cleo", "1-2", 2)], 3, bank=7, banker="Dan", players=TABLE)
    assert payout.bank_after == 12 and not payout.emptied


def test_the_banker_cannot_be_paid_against_his_own_bank():
    with pytest.raises(ValueError):
        pay_hand([bet("Anna", "3", 1)], 3, bank=10, banker="Anna", players=TABLE)
    with pytest.raises(ValueError):
        pay_hand([], 5, bank=10, banker="Anna", players=TABLE)


def test_the_steps_in_words_for_the_dashboard():
    bets = [bet("Dan", "1", 1, 4), bet("Cleo", "1", 2, 3), bet("Ben", "1", 3, 2), bet("Ben", "2-3", 4, 5)]
    assert pay_hand(bets, 1, bank=10, banker="Anna", players=TABLE).explain() == [
        "Ben loses 4 on 2-3 to the bank",
        "Ben is paid 9 for 3 on 1 (3 to 1)",
        "Cleo gets the bank's last 5 of 6 owed for 2 on 1",
        "Dan's 1 on 1 is returned unpaid: the bank is empty",
    ]


def test_the_docstring_examples_hold():
    import doctest

    import scorekeeper.banking.game as game
    import scorekeeper.banking.layout as layout

    for module in (layout, game):
        assert doctest.testmod(module).failed == 0
