"""A night at the table, line by line: who banks, what a bet may be, when the bank passes."""

import pytest

from scorekeeper.banking import BankGame, BankMatch, Cut, CutForBank, Limits, OpenBank, PlaceBet, Result

TABLE = ("Anna", "Ben", "Cleo", "Dan")


def night(hands_per_bank=3, limits=Limits(1, 10), players=TABLE):
    return BankGame(BankMatch(players, hands_per_bank, limits))


def kinds(game):
    return [(f.line, f.kind) for f in game.flags]


def conserved(game):
    return sum(game.net.values()) + game.bank == 0 and sum(game.balances.values()) == 0


# ---- the first banker -------------------------------------------------------------------------

def test_the_high_cut_banks_and_the_ace_is_high():
    g = night()
    for player, card in zip(TABLE, ["Kh", "As", "2c", "Qd"]):
        assert g.push(CutForBank(player, card)) is None
    assert g.phase == "bank" and g.next_banker == "Ben"


def test_players_who_tie_for_highest_cut_again():
    g = night()
    for player, card in zip(TABLE, ["Kh", "3s", "Kc", "Qd"]):
        g.push(CutForBank(player, card))
    assert g.phase == "cut_for_bank" and g.cutters == ("Anna", "Cleo")
    assert g.push(CutForBank("Ben", "As")) is not None  # Ben is out of the re-cut
    g.push(CutForBank("Cleo", "5h"))
    g.push(CutForBank("Anna", "4h"))
    assert g.next_banker == "Cleo"
    assert [(c.player, c.round) for c in g.cuts][-2:] == [("Cleo", 2), ("Anna", 2)]
    assert kinds(g) == [(6, "out_of_turn")]


def test_a_cut_card_that_cannot_be_read_or_a_stranger_cutting_is_ignored():
    g = night()
    assert g.push(CutForBank("Zed", "Kh")).kind == "unknown_player"
    assert g.push(CutForBank("Anna", "1h")).kind == "bad_card"
    assert g.push(CutForBank("Anna", "10♦️")) is None  # written as record-format.md allows
    assert g.push(CutForBank("Anna", "Kh")).kind == "out_of_turn"  # once per round
    assert g.cuts[0].card == "Td"


def test_the_wrong_player_taking_the_bank_is_noted_but_stands():
    g = night()
    for player, card in zip(TABLE, ["Kh", "3s", "2c", "Qd"]):
        g.push(CutForBank(player, card))
    flag = g.push(OpenBank("Dan", 30))
    assert (flag.kind, flag.expected) == ("wrong_banker", "Anna")
    assert g.banker == "Dan" and g.bank == 30


def test_a_record_may_skip_the_cut_and_simply_name_the_first_banker():
    g = night()
    assert g.push(OpenBank("Cleo", 25)) is None and g.banker == "Cleo"


# ---- the bank -----------------------------------------------------------------------------------

def test_opening_a_bank_moves_the_chips_at_risk_from_the_banker_to_the_bank():
    g = night()
    g.push(OpenBank("Anna", 40, reserve=60))
    assert g.bank == 40 and g.net["Anna"] == -40 and g.balances["Anna"] == 0
    assert g.banks[0].reserve == 60
    assert conserved(g)


def test_an_empty_bank_or_a_second_bank_is_refused():
    g = night()
    assert g.push(OpenBank("Anna", 0)).kind == "bad_bank"
    g.push(OpenBank("Anna", 10))
    assert g.push(OpenBank("Anna", 50)).kind == "bank_open"  # winnings stay at risk; no topping up
    assert g.bank == 10


def test_bank_passes_left_after_the_agreed_hands_and_the_banker_takes_it():
    g = night(hands_per_bank=2)
    g.push(OpenBank("Dan", 20))
    g.push(PlaceBet("Anna", "1", 4))
    g.push(Cut(19))  # 3 wins: Anna's 4 into the bank
    assert g.banker == "Dan" and g.bank == 24 and g.hands_left == 1
    g.push(Cut(18))  # second hand, no bets
    assert g.banker is None and g.phase == "bank"
    assert g.next_banker == "Anna"  # Dan's left, round the table
    assert g.banks[0].end == "hands" and g.banks[0].taken == 24
    assert g.net == {"Anna": -4, "Ben": 0, "Cleo": 0, "Dan": 4} == g.balances
    assert g.hands[-1].passed == "hands"
    assert g.push(PlaceBet("Ben", "2", 1)).kind == "no_bank"


def test_an_emptied_bank_passes_at_once():
    g = night(hands_per_bank=5)
    g.push(OpenBank("Anna", 10))
    for line_player, chips in (("Ben", 3), ("Cleo", 2), ("Dan", 1)):
        g.push(PlaceBet(line_player, "1", chips))
    g.push(Cut(21))  # 1 wins: Ben is owed 9, Cleo 6, Dan 3
    hand = g.hands[0]
    assert [(s.dst, s.chips, s.reason) for s in hand.payout.steps] == [("Ben", 9, "won"), ("Cleo", 1, "short")]
    assert [b.player for b in hand.payout.returned] == ["Dan"]
    assert hand.passed == "emptied" and g.banks[0].end == "emptied" and g.banks[0].taken == 0
    assert g.phase == "bank" and g.next_banker == "Ben"  # after one hand of five
    assert g.balances == {"Anna": -10, "Ben": 9, "Cleo": 1, "Dan": 0}


def test_bank_passing_wraps_round_the_table():
    g = night(hands_per_bank=1)
    seen = []
    for _ in range(5):
        banker = g.next_banker or "Cleo"
        g.push(OpenBank(banker, 5))
        seen.append(g.banker)
        g.push(Result(2))
    assert seen == ["Cleo", "Dan", "Anna", "Ben", "Cleo"]


def test_winnings_stay_in_the_bank_while_he_banks():
    g = night()
    g.push(OpenBank("Anna", 10))
    g.push(PlaceBet("Ben", "4", 10))
    g.push(Cut(19))
    assert g.bank == 20 and g.net["Anna"] == -10 and g.balances["Anna"] == 10


# ---- bets ---------------------------------------------------------------------------------------

def test_betting_limits_and_who_may_bet():
    g = night(limits=Limits(2, 10))
    assert g.push(PlaceBet("Ben", "3", 2)).kind == "no_bank"  # no bank open yet
    g.push(OpenBank("Anna", 50))
    assert g.push(PlaceBet("Anna", "3", 2)).kind == "banker_bet"
    assert g.push(PlaceBet("Zed", "3", 2)).kind == "unknown_player"
    assert g.push(PlaceBet("Ben", "1-3", 2)).kind == "bad_spot"
    under = g.push(PlaceBet("Ben", "3", 1))
    over = g.push(PlaceBet("Ben", "3-2", 11))
    assert (under.kind, under.limit, over.kind, over.limit, over.spot) == ("under_limit", 2, "over_limit", 10, "2-3")
    assert g.push(PlaceBet("Ben", "3", 10)) is None and g.push(PlaceBet("Ben", "4-3", 10)) is None
    assert [b.spot.code for b in g.bets] == ["3", "3-4"]  # many bets each within the limits


def test_a_short_cut_is_flagged_and_the_banker_cuts_again():
    g = night()
    g.push(OpenBank("Anna", 50))
    g.push(PlaceBet("Ben", "2", 3))
    assert g.push(Cut(17)).kind == "bad_cut"
    assert g.push(Result(5)).kind == "bad_result"
    assert g.bets and not g.hands  # the bets still stand
    g.push(Cut(22))
    assert g.hands[0].winning_number == 2 and g.net["Ben"] == 9
    assert [f.kind for f in g.hands[0].flags] == ["bad_cut", "bad_result"]


def test_a_cut_with_no_bank_open_is_ignored():
    assert night().push(Cut(19)).kind == "no_bank"


# ---- push and pop -------------------------------------------------------------------------------

def test_pop_restores_exactly_the_previous_state():
    g = night(hands_per_bank=1)
    g.push(OpenBank("Anna", 5))
    g.push(PlaceBet("Ben", "1", 3))
    before = (g.net, g.bank, g.banker, g.bets, g.flags, g.hands, g.banks, g.phase, g.next_banker)
    g.push(Cut(21))  # the bank is emptied and passes
    g.push(PlaceBet("Cleo", "9", 1))
    g.pop()
    g.pop()
    assert (g.net, g.bank, g.banker, g.bets, g.flags, g.hands, g.banks, g.phase, g.next_banker) == before
    g.push(Cut(22))
    assert g.hands[0].winning_number == 2 and len(g.hands) == 1
    assert g.banks[0].taken == 8 and g.banks[0].end == "hands" and g.balances["Anna"] == 3


def test_check_tells_the_flag_without_placing_the_bet():
    g = night()
    g.push(OpenBank("Anna", 5))
    assert g.check(PlaceBet("Ben", "3", 11)).kind == "over_limit"
    assert g.check(PlaceBet("Ben", "3", 1)) is None
    assert g.bets == () and len(g.events) == 2


def test_preview_shows_the_payments_before_the_cut():
    g = night()
    g.push(OpenBank("Anna", 5))
    g.push(PlaceBet("Ben", "3", 2))
    assert [s.chips for s in g.preview(3).steps] == [5]  # would empty the bank: 5 of 6 owed
    assert g.bank == 5


def test_after_a_bank_passes_only_the_player_to_the_left_should_take_it():
    g = night(hands_per_bank=1)
    g.push(OpenBank("Ben", 10))
    g.push(Result(4))
    flag = g.push(OpenBank("Dan", 10))
    assert (flag.kind, flag.expected) == ("wrong_banker", "Cleo")
    g.push(Result(4))
    assert g.next_banker == "Anna"  # the bank moves on from whoever really held it


def test_refused_cuts_do_not_count_as_hands():
    g = night(hands_per_bank=2)
    g.push(OpenBank("Anna", 10))
    g.push(Cut(5))
    g.push(Cut(60))
    g.push(Cut(30))
    assert g.banker == "Anna" and g.hands_left == 1


def test_a_bank_emptied_on_its_last_hand_passes_as_emptied():
    g = night(hands_per_bank=1)
    g.push(OpenBank("Anna", 3))
    g.push(PlaceBet("Ben", "2", 1))
    g.push(Result(2))
    assert g.banks[0].end == "emptied" and g.banks[0].taken == 0 and g.net["Ben"] == 3


def test_a_bank_for_someone_not_at_the_table_cannot_be_recorded():
    with pytest.raises(ValueError):
        night().push(OpenBank("Zed", 10))
