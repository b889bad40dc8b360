"""The end-of-night settle-up: fewest payments, checked against brute force.

Two brute forces that share nothing with the engine:
  * over payment graphs (tables of up to 6): the smallest set of who-pays-whom pairs such that
    every connected circle of players sums to zero (then amounts along a spanning tree square it);
  * over every way to split the players into zero-sum groups (up to 8): n minus the most groups.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.settle import Payment, Settlement, _Budget, _Search, settle

ROOT = Path(__file__).resolve().parents[2]


# --- brute force ---------------------------------------------------------------------------------


def fewest_by_payment_graphs(balances: dict[str, int]) -> int:
    """Smallest number of payer/payee pairs with which everyone can be squared."""
    players = [p for p, c in balances.items() if c]
    pairs = list(itertools.combinations(range(len(players)), 2))
    for k in range(max(1, len(players))):
        for chosen in itertools.combinations(pairs, k):
            circle = list(range(len(players)))

            def find(i: int) -> int:
                while circle[i] != i:
                    i = circle[i]
                return i

            for a, b in chosen:
                circle[find(a)] = find(b)
            sums: dict[int, int] = {}
            for i, p in enumerate(players):
                sums[find(i)] = sums.get(find(i), 0) + balances[p]
            if all(s == 0 for s in sums.values()):
                return k
    raise AssertionError("unreachable: n - 1 pairs in a chain always square a zero sum")


def set_partitions(items: list):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first]] + partition
        for i in range(len(partition)):
            yield partition[:i] + [[first] + partition[i]] + partition[i + 1 :]


def fewest_by_partitions(balances: dict[str, int]) -> int:
    """Players with chips minus the most zero-sum groups they split into."""
    amounts = [c for c in balances.values() if c]
    most = max(
        (len(p) for p in set_partitions(amounts) if all(sum(g) == 0 for g in p)), default=0
    )
    return len(amounts) - most


def squares_everyone(balances: dict[str, int], payments: list[Payment]) -> bool:
    left = dict(balances)
    for p in payments:
        left[p.src] += p.chips
        left[p.dst] -= p.chips
    return all(c == 0 for c in left.values())


@st.composite
def tables(draw, most: int = 8, spread: int = 20, letters: str | None = None):
    """Net chips of 1..most players, summing to zero; small amounts so groups coincide often."""
    n = draw(st.integers(1, most))
    chips = draw(st.lists(st.integers(-spread, spread), min_size=n - 1, max_size=n - 1))
    chips.append(-sum(chips))
    names = draw(
        st.lists(
            st.text(letters, min_size=1, max_size=6).filter(str.strip) if letters
            else st.text(min_size=1, max_size=6).filter(str.strip),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    return dict(zip(names, chips))


@st.composite
def unmatched_tables(draw, fewest: int = 3, most: int = 8, spread: int = 12):
    """Tables where no +x faces a -x, so every group has three players or more: the hard case."""
    n = draw(st.integers(fewest, most))
    debt_sizes = draw(st.sets(st.integers(1, spread)))
    amounts = st.integers(1, spread).map(lambda a: -a if a in debt_sizes else a)
    chips = draw(st.lists(amounts, min_size=n - 1, max_size=n - 1))
    chips.append(-sum(chips))
    assume(0 not in chips and not any(-c in chips for c in chips))
    return {f"P{i}": c for i, c in enumerate(chips)}


# --- the brute forces agree with each other ------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(tables(most=6, spread=6))
def test_the_two_brute_forces_agree(balances):
    assert fewest_by_payment_graphs(balances) == fewest_by_partitions(balances)


# --- examples ------------------------------------------------------------------------------------


def test_one_winner_is_paid_by_each_loser():
    assert settle({"Anna": 12, "Ben": -5, "Cleo": -7}) == Settlement(
        payments=[Payment("Ben", "Anna", 5), Payment("Cleo", "Anna", 7)], proven_minimal=True
    )


def test_two_separate_circles_beat_paying_the_biggest_debt_first():
    # Biggest debtor to biggest creditor pays five times here; two circles of three need four.
    balances = {"Anna": 5, "Ben": -2, "Cleo": -3, "Dan": 4, "Eve": -1, "Fay": -3}
    settlement = settle(balances)
    assert len(settlement.payments) == 4
    assert settlement.proven_minimal
    assert squares_everyone(balances, settlement.payments)


def test_equal_and_opposite_players_pay_each_other():
    settlement = settle({"Anna": 7, "Ben": -7, "Cleo": 3, "Dan": -3})
    assert settlement.payments == [Payment("Ben", "Anna", 7), Payment("Dan", "Cleo", 3)]


def test_amounts_past_any_machine_integer_still_settle_exactly():
    big = 10**19
    balances = {"Anna": 5 * big, "Ben": -2 * big, "Cleo": -3 * big - 1, "Dan": 4 * big + 1,
                "Eve": -big, "Fay": -3 * big}
    settlement = settle(balances)
    assert squares_everyone(balances, settlement.payments)
    assert len(settlement.payments) == fewest_by_partitions(balances) == 4
    assert settlement.proven_minimal


def test_nobody_pays_when_everyone_is_square():
    assert settle({"Anna": 0, "Ben": 0}) == Settlement(payments=[], proven_minimal=True)
    assert settle({}) == Settlement(payments=[], proven_minimal=True)


def test_order_of_the_players_given_does_not_change_the_list():
    balances = {"Cleo": -7, "Anna": 12, "Dan": 4, "Ben": -5, "Eve": -4}
    reversed_order = dict(reversed(list(balances.items())))
    assert settle(balances) == settle(reversed_order)
    assert [p.src for p in settle(balances).payments] == sorted(p.src for p in settle(balances).payments)


def test_payment_json_matches_the_command_line_spec():
    assert Payment("Ben", "Anna", 5).to_json() == {"from": "Ben", "to": "Anna", "chips": 5}


@pytest.mark.parametrize(
    "balances, words",
    [
        ({"Anna": 12, "Ben": -5}, "sum to +7, not zero"),
        ({"": 0}, "empty"),
        ({"  ": 0}, "empty"),
        ({3: 0}, "not text"),
        ({"Anna": 1.5, "Ben": -1.5}, "not a whole number"),
        ({"Anna": True, "Ben": -1}, "not a whole number"),
        ([("Anna", 1)], "must map"),
    ],
)
def test_balances_that_cannot_be_settled_are_refused_clearly(balances, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        settle(balances)


# --- exact against brute force -------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(most=8, spread=20))
def test_fewest_payments_for_tables_of_up_to_eight(balances):
    settlement = settle(balances)
    assert all(p.chips > 0 and p.src != p.dst for p in settlement.payments)
    assert squares_everyone(balances, settlement.payments)
    assert len(settlement.payments) == fewest_by_partitions(balances)
    assert settlement.proven_minimal
    assert settlement.lower_bound == len(settlement.payments)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(most=8, spread=6))
def test_the_search_for_big_tables_is_exact_on_small_ones(balances):
    # Force the branch-and-bound path (used beyond the exhaustive programme's reach).
    settlement = settle(balances, exact_up_to=0)
    assert squares_everyone(balances, settlement.payments)
    assert len(settlement.payments) == fewest_by_partitions(balances)
    assert settlement.proven_minimal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(unmatched_tables(most=8))
def test_fewest_payments_when_no_two_players_cancel_out(balances):
    for settlement in (settle(balances), settle(balances, exact_up_to=0)):
        assert squares_everyone(balances, settlement.payments)
        assert len(settlement.payments) == fewest_by_partitions(balances)
        assert settlement.proven_minimal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(unmatched_tables(most=8))
def test_the_search_that_generates_groups_as_it_goes_is_exact_too(balances):
    # The path taken when amounts are so close together that listing every zero-sum group
    # up front would be too long: here forced, without the exhaustive programme at the leaves.
    values = list(balances.values())
    groups, proven, most = _Search(values, _Budget(10**6, math.inf, lambda: 0.0), leaf=0).run()
    assert sorted(i for g in groups for i in g) == list(range(len(values)))
    assert all(sum(values[i] for i in g) == 0 for g in groups)
    assert len(values) - len(groups) == fewest_by_partitions(balances)
    assert proven and most == len(groups)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(unmatched_tables(fewest=9, most=16, spread=30))
def test_search_and_exhaustive_programme_agree_beyond_brute_force(balances):
    exhaustive = settle(balances)
    searched = settle(balances, exact_up_to=0, max_steps=10**6, time_limit=60)
    assert exhaustive.proven_minimal
    assert squares_everyone(balances, searched.payments)
    assert searched.lower_bound <= len(exhaustive.payments) <= len(searched.payments)
    if searched.proven_minimal:
        assert len(searched.payments) == len(exhaustive.payments)


@settings(max_examples=60, deadline=None)
@given(tables(most=6, spread=4))
def test_fewest_payments_agree_with_every_payment_graph(balances):
    assert len(settle(balances).payments) == fewest_by_payment_graphs(balances)


@settings(max_examples=100, deadline=None)
@given(tables(most=8, spread=20), st.randoms(use_true_random=False))
def test_the_same_balances_give_the_same_list(balances, rnd):
    shuffled = list(balances.items())
    rnd.shuffle(shuffled)
    assert settle(dict(shuffled)) == settle(balances)


# --- big tables ----------------------------------------------------------------------------------


def random_night(players: int, spread: int, seed: int) -> dict[str, int]:
    rnd = random.Random(seed)
    chips = [rnd.randint(-spread, spread) for _ in range(players - 1)]
    chips.append(-sum(chips))
    return {f"P{i:02d}": c for i, c in enumerate(chips)}


def test_a_club_night_of_thirty_is_square_and_never_worse_than_n_minus_one():
    for seed in range(3):
        for spread in (100, 100_000):
            balances = random_night(30, spread, seed)
            settlement = settle(balances)
            nonzero = sum(1 for c in balances.values() if c)
            assert squares_everyone(balances, settlement.payments)
            assert settlement.lower_bound <= len(settlement.payments) <= nonzero - 1
            assert settlement.proven_minimal == (settlement.lower_bound == len(settlement.payments))


def test_a_search_cut_short_still_squares_everyone_and_says_so():
    balances = random_night(40, 100_000, seed=7)
    settlement = settle(balances, max_steps=50)
    assert squares_everyone(balances, settlement.payments)
    assert len(settlement.payments) <= len(balances) - 1
    assert not settlement.proven_minimal
    assert settlement.lower_bound < len(settlement.payments)


def test_the_search_budget_is_steps_not_seconds_so_answers_repeat():
    balances = random_night(36, 100_000, seed=11)
    first = settle(balances, time_limit=30, max_steps=20_000)
    again = settle(balances, time_limit=30, max_steps=20_000)
    assert first == again


def test_a_frozen_clock_runs_out_at_once_and_still_answers():
    ticks = iter(range(10**9))
    balances = random_night(40, 100_000, seed=3)
    settlement = settle(balances, clock=lambda: next(ticks), time_limit=0)
    assert squares_everyone(balances, settlement.payments)


# --- the command line, from outside --------------------------------------------------------------


def fantan(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fantan", *words], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


@settings(max_examples=8, deadline=None)
@given(tables(most=8, spread=30, letters="AaBbCcÅåØøÉéŁł 7-_"))
def test_fantan_settle_json_from_outside(balances):
    # `--` lets a name start with a dash, as for any command line.
    done = fantan("settle", "--json", "--", *(f"{n}={c:+d}" for n, c in balances.items()))
    assert done.returncode == 0, done.stderr
    payments = json.loads(done.stdout)
    left = dict(balances)
    for p in payments:
        assert set(p) == {"from", "to", "chips"}
        assert isinstance(p["chips"], int) and p["chips"] > 0
        left[p["from"]] += p["chips"]
        left[p["to"]] -= p["chips"]
    assert all(c == 0 for c in left.values())
    assert len(payments) == fewest_by_partitions(balances)


def test_fantan_settle_reads_signs_and_zero_and_says_proven():
    done = fantan("settle", "Anna=+12", "Ben=-5", "Cleo=-7", "Dan=0")
    assert done.returncode == 0
    assert "Ben" in done.stdout and "proven" in done.stdout


@pytest.mark.parametrize(
    "words, complaint",
    [
        (["Anna=12", "Ben=-5"], "sum to +7"),
        (["Anna=12", "Anna=-12"], "given twice"),
        (["Anna12"], "not NAME=CHIPS"),
        (["Anna=1.5", "Ben=-1.5"], "not NAME=CHIPS"),
        (["=3", "Ben=-3"], "not NAME=CHIPS"),
    ],
)
def test_fantan_settle_refuses_bad_balances_with_one_line(words, complaint):
    done = fantan("settle", *words, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert complaint in done.stderr and done.stderr.count("\n") == 1


def test_the_module_examples_run():
    import doctest

    import scorekeeper.settle as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
