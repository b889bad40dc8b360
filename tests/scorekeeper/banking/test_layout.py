"""The layout, the cut and the limits: the numbers a bet is judged by."""

import pytest

from scorekeeper.banking import CORNERS, MIN_CUT, SIDES, SPOTS, BadSpot, Bet, Limits, Spot, is_fair_cut, winning_number


def test_the_rules_example_nineteen_cards_leave_three():
    # "if the section comprises 19 cards, there will be four groups of cards and a remainder of three"
    assert winning_number(19) == 3


def test_no_cards_left_over_means_four():
    assert winning_number(20) == 4
    assert winning_number(52) == 4
    assert [winning_number(n) for n in (21, 22, 23, 24)] == [1, 2, 3, 4]


def test_a_cut_must_hold_at_least_a_third_of_the_pack():
    # 52 / 3 = 17.33: seventeen cards are less than a third, eighteen are not
    assert MIN_CUT == 18
    assert not is_fair_cut(17) and is_fair_cut(18)
    assert is_fair_cut(52) and not is_fair_cut(53)
    for bad in (0, -4, 17, 53):
        with pytest.raises(ValueError):
            winning_number(bad)


def test_corners_and_sides_as_the_banker_sees_the_joker():
    assert [s.code for s in CORNERS] == ["1", "2", "3", "4"]
    assert [s.code for s in SIDES] == ["1-2", "2-3", "3-4", "4-1"]
    assert len(set(SPOTS)) == 8


def test_a_side_may_be_written_either_way_round():
    assert Spot.parse("4-3") == Spot.parse("3-4") == Spot((3, 4))
    assert Spot.parse("1-4").code == "4-1"
    assert Spot.parse(" 2 - 1 ").code == "1-2"


@pytest.mark.parametrize("text", ["0", "5", "1-3", "2-4", "3-3", "1-2-3", "", "x", "-", "12", 3])
def test_no_such_place_on_the_layout(text):
    with pytest.raises(BadSpot):
        Spot.parse(text)


def test_each_spot_wins_on_its_own_numbers_only():
    for spot in SPOTS:
        assert [n for n in (1, 2, 3, 4) if spot.wins(n)] == list(sorted(spot.numbers))


def test_a_corner_pays_three_to_one_a_side_evens():
    assert Bet("Ben", Spot.parse("3"), 5).winnings(3) == 15
    assert Bet("Ben", Spot.parse("3-4"), 5).winnings(3) == 5
    assert Bet("Ben", Spot.parse("4-1"), 5).winnings(3) == 0


def test_limits_bound_every_single_bet():
    limits = Limits(2, 10)
    assert limits.breach(1) == "under_limit"
    assert limits.breach(2) is None and limits.breach(10) is None
    assert limits.breach(11) == "over_limit"
    assert Limits(1, None).breach(10_000) is None


@pytest.mark.parametrize("lo, hi", [(0, 5), (5, 4), (True, 5), (1, 2.5)])
def test_limits_that_make_no_sense(lo, hi):
    with pytest.raises(ValueError):
        Limits(lo, hi)
