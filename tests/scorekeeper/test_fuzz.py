"""Any text at all: a verdict or a `RecordError` naming a line - never another exception.

This is what keeps `fantan check` to its contract (exit 0 or exit 2 with one line) on records
written by hand, by a camera having a bad day, or by another program.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.match import replay
from scorekeeper.record import RecordError, read_record

NAMES = st.sampled_from(["Anna", "Ben", "Cleo", "Zed", "", "pot"])
CODES = st.one_of(st.sampled_from(["7d", "7c", "7h", "7s", "8d", "6d", "10♦️", "♠a", "1h", "d7", "", "Kc"]),
                  st.text(max_size=4))
ANY = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.floats(allow_nan=False), st.text(max_size=5),
                st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def field(strategy):
    """A field's value: usually sensible, sometimes anything at all."""
    return st.one_of(strategy, strategy, strategy, ANY)


match_line = st.fixed_dictionaries({
    "event": st.just("match"),
    "variant": field(st.sampled_from(["fan-tan", "sjuan", "parliament", "free", "domino", "spades"])),
    "players": field(st.lists(NAMES, min_size=1, max_size=9)),
    "stakes": field(st.sampled_from(["points", "chips"])),
}, optional={
    "rounds": field(st.integers(0, 3)),
    "target": field(st.integers(0, 20)),
    "options": field(st.fixed_dictionaries({}, optional={"ace_high": field(st.booleans()),
                                                          "hand_size": field(st.integers(0, 30))})),
})

event_line = st.one_of(
    st.fixed_dictionaries({"event": st.just("round"), "dealer": field(NAMES)},
                          optional={"hands": field(st.dictionaries(NAMES, field(st.lists(CODES, max_size=14)),
                                                                   max_size=3))}),
    st.fixed_dictionaries({"event": st.just("play"), "player": field(NAMES), "card": field(CODES)}),
    st.fixed_dictionaries({"event": st.just("pass"), "player": field(NAMES)}),
    st.fixed_dictionaries({"event": st.just("draw"), "player": field(NAMES)}, optional={"card": field(CODES)}),
    st.fixed_dictionaries({"event": st.just("show"), "player": field(NAMES), "cards": field(st.lists(CODES, max_size=4))}),
    st.fixed_dictionaries({"event": field(st.sampled_from(["end", "deal", "End"]))}),
)


@st.composite
def records(draw) -> bytes:
    lines = [json.dumps(draw(match_line), ensure_ascii=False)]
    lines += [json.dumps(draw(event_line), ensure_ascii=False) for _ in range(draw(st.integers(0, 40)))]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\r\n"]))
    data = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:  # now and then, damage the bytes
        i = draw(st.integers(0, max(0, len(data) - 1)))
        data = data[:i] + draw(st.binary(min_size=1, max_size=3)) + data[i + 1:]
    return data


@settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", 300)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_any_record_gives_a_verdict_or_names_an_unreadable_line(data):
    try:
        verdict = replay(read_record(data)).verdict()
    except RecordError as exc:
        assert exc.line >= 1 and "\n" not in str(exc)
        assert exc.line <= data.count(b"\n") + 1
    else:
        json.dumps(verdict)
        assert set(verdict) == {"rounds", "totals", "match_winner"}
