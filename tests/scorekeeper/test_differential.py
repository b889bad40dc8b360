"""The engine against a naive second judge (naive_judge.py) on simulated and scrambled records.

Simulated records exercise the ordinary paths; scrambling them (lines dropped, repeated, swapped,
players renamed, cards garbled, rounds ended early or restarted) exercises the odd ones: plays after
an `end`, rounds left without a winner, round lines after the match is over, proofs that never come.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.events import Draw, End, Pass, Play, RoundStart, Show
from scorekeeper.match import replay
from scorekeeper.record import read_record
from scorekeeper.simulate import simulate_match

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("fantan_naive_judge", HERE / "naive_judge.py")
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)


def test_the_naive_judge_agrees_with_the_spec_examples():
    """Before it judges the engine, the naive judge passes the reference's examples itself."""
    for path in sorted((HERE / "data" / "examples").glob("[0-9]*.jsonl")):
        expected = json.loads(path.with_name(path.name.replace(".jsonl", ".expected.json")).read_text())
        assert naive.naive_verdict(read_record(path.read_bytes())) == expected, path.name


_seating_spec = importlib.util.spec_from_file_location("fantan_test_seating", Path(__file__).parent / "seating.py")
_seating = importlib.util.module_from_spec(_seating_spec)
_seating_spec.loader.exec_module(_seating)
seating = _seating.seating


@st.composite
def simulated(draw):
    variant, n, options, strategy = draw(seating(max_players=6))
    rounds = draw(st.sampled_from([1, 2, None]))
    target = draw(st.sampled_from([None, 10, 25])) if rounds != 1 else None
    if rounds is None and target is None and variant != "sjuan":
        rounds = 1
    return simulate_match(variant, n, seed=draw(st.integers(0, 2**32)),
                          stakes=draw(st.sampled_from(["points", "chips"])), rounds=rounds, target=target,
                          options=options, strategy=strategy, known_hands=draw(st.booleans()))


@st.composite
def scrambled(draw):
    events = list(draw(simulated()))
    start, body = events[0], events[1:]
    players = list(start.players)
    for _ in range(draw(st.integers(1, 8))):
        if len(body) < 3:
            break
        i = draw(st.integers(1, len(body) - 1))  # body[0] stays the first round line
        kind = draw(st.sampled_from(["drop", "repeat", "swap", "stranger", "garble", "end", "redeal",
                                     "reveal", "steal"]))
        ev = body[i]
        if kind == "drop":
            del body[i]
        elif kind == "repeat":
            body.insert(i, ev)
        elif kind == "swap" and i + 1 < len(body):
            body[i], body[i + 1] = body[i + 1], body[i]
        elif kind == "stranger" and hasattr(ev, "player"):
            body[i] = type(ev)(**{**_fields(ev), "player": "Zed"})
        elif kind == "garble" and type(ev) is Play:
            body[i] = Play(ev.player, draw(st.sampled_from(["1h", "xx", "♦", "10♦️", "qs", "7D"])))
        elif kind == "end":
            body.insert(i, End())
        elif kind == "redeal":
            body.insert(i, RoundStart(draw(st.sampled_from(players))))
        elif kind == "reveal" and hasattr(ev, "player"):
            body.insert(i, Show(ev.player, tuple(draw(st.lists(st.sampled_from(
                ["7s", "6d", "8h", "Kc", "Ac", "7d", "9c"]), max_size=3)))))
        elif kind == "steal" and type(ev) is Play:
            body.insert(i, Play(draw(st.sampled_from(players)), ev.card))
    if start.variant != "domino":
        body = [e for e in body if type(e) is not Draw]
    return [start] + body


def _fields(ev) -> dict:
    return {name: getattr(ev, name) for name in ev.__dataclass_fields__}


SETTINGS = settings(max_examples=int(__import__("os").environ.get("DIFF_EXAMPLES", 60)), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(simulated())
def test_engine_and_naive_judge_agree_on_simulated_records(events):
    assert replay(events).verdict() == naive.naive_verdict(events)


@SETTINGS
@given(scrambled())
def test_engine_and_naive_judge_agree_on_scrambled_records(events):
    assert replay(events).verdict() == naive.naive_verdict(events)


def test_a_pass_of_the_naive_kind_is_still_checked():
    """The comparison can fail: a verdict with one point changed is told apart."""
    events = simulate_match("parliament", 4, seed=1)
    verdict = naive.naive_verdict(events)
    verdict["rounds"][0]["points"]["Anna"] += 1
    assert replay(events).verdict() != verdict
    assert isinstance(events[2], (Play, Pass))
