"""Adding up a club night: every game's chips into one balance per player, ready to settle."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.banking.game import BankGame
from scorekeeper.banking.simulate import simulate_session
from scorekeeper.banking.verdict import verdict as bank_verdict
from scorekeeper.match import replay
from scorekeeper.night import night_balances
from scorekeeper.record import read_record
from scorekeeper.settle import settle
from scorekeeper.simulate import simulate_match

UNWON = """\
{"event": "match", "variant": "parliament", "players": ["Anna", "Ben", "Cleo"], "stakes": "chips"}
{"event": "round", "dealer": "Cleo"}
{"event": "pass", "player": "Anna"}
{"event": "end"}
"""


def fan_tan_night(variant: str, players: tuple[str, ...], seed: int) -> dict:
    return replay(simulate_match(variant, players, seed=seed, stakes="chips", rounds=2)).verdict()


def banking_night(players: tuple[str, ...], seed: int) -> dict:
    events = simulate_session(players, seed=seed, hands=6)
    game = BankGame(events[0])
    for event in events[1:]:
        game.push(event)
    return bank_verdict(game)


def test_a_night_of_three_games_adds_up_and_settles():
    games = [
        fan_tan_night("parliament", ("Anna", "Ben", "Cleo"), seed=1),
        fan_tan_night("sjuan", ("Ben", "Dan", "Eve", "Anna"), seed=2),
        banking_night(("Cleo", "Dan", "Fay"), seed=3),
    ]
    night = night_balances(games)
    assert list(night) == ["Anna", "Ben", "Cleo", "Dan", "Eve", "Fay"]
    assert sum(night.values()) == 0
    for player in night:
        expected = sum(g["totals"].get(player, 0) for g in games[:2]) + games[2]["balances"].get(player, 0)
        assert night[player] == expected
    payments = settle(night).payments
    left = dict(night)
    for p in payments:
        left[p.src] += p.chips
        left[p.dst] -= p.chips
    assert set(left.values()) == {0}


def test_rounds_kept_by_hand_are_plain_name_to_chips():
    assert night_balances([{"Anna": 3, "Ben": -3}, {"Ben": 5, "Cleo": -5}]) == {
        "Anna": 3, "Ben": 2, "Cleo": -5,
    }


def test_a_player_who_broke_even_still_appears():
    assert night_balances([{"Anna": 4, "Ben": -4}, {"Anna": -4, "Ben": 4}]) == {"Anna": 0, "Ben": 0}


def test_a_round_nobody_won_cannot_be_settled_unless_left_out():
    unwon = replay(read_record(UNWON)).verdict()
    with pytest.raises(ValueError, match=r"game 2, round 1 has no winner: 58 chips lie in a pot"):
        night_balances([{"Anna": 1, "Ben": -1}, unwon])
    assert night_balances([{"Anna": 1, "Ben": -1}, unwon], leave_out_unwon=True) == {"Anna": 1, "Ben": -1}


def test_a_match_played_for_points_has_no_chips_to_settle():
    points = replay(simulate_match("fan-tan", ("Anna", "Ben", "Cleo"), seed=4)).verdict()
    with pytest.raises(ValueError, match="played for points"):
        night_balances([points])


@pytest.mark.parametrize(
    "games, complaint",
    [
        ([{"Anna": 3, "Ben": -2}], "game 1: the chips sum to +1, not zero"),
        ([{"Anna": 1, "Ben": -1}, {"Anna": 1.5, "Ben": -1.5}], "game 2: Anna's chips: 1.5 is not a whole"),
        ([{"": 0}], "empty"),
        ([["Anna", 3]], "game 1 is not a result"),
        ([{"variant": "chinese-fan-tan", "balances": {"Anna": 2, "Ben": -1}}], "game 1 (chinese-fan-tan)"),
    ],
)
def test_results_that_do_not_square_are_refused_saying_which(games, complaint):
    with pytest.raises(ValueError, match=re.escape(complaint)):
        night_balances(games)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("ABCDEF"), st.integers(-50, 50), min_size=1), max_size=6))
def test_the_night_is_the_sum_of_its_rounds_and_squares(rounds):
    rounds = [dict(r, Zoe=-sum(r.values())) for r in rounds]  # Zoe squares each round
    night = night_balances(rounds)
    assert sum(night.values()) == 0
    for player in night:
        assert night[player] == sum(r.get(player, 0) for r in rounds)


def test_the_module_examples_run():
    import doctest

    import scorekeeper.night as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
