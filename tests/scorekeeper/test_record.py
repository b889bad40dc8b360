"""Reading and writing records: what is unreadable (exit 2) and what is merely flagged."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorekeeper.events import Draw, End, MatchStart, Pass, Play, RoundStart, Show
from scorekeeper.match import replay
from scorekeeper.record import RecordError, read_record, write_record
from scorekeeper.variants import Options

MATCH = {"event": "match", "variant": "fan-tan", "players": ["Anna", "Ben", "Cleo"], "stakes": "points"}
ROUND = {"event": "round", "dealer": "Anna"}


def text(*objs) -> str:
    return "".join((o if isinstance(o, str) else json.dumps(o, ensure_ascii=False)) + "\n" for o in objs)


def unreadable_at(data) -> int:
    with pytest.raises(RecordError) as info:
        replay(read_record(data))
    assert str(info.value).startswith(f"line {info.value.line}: ")
    assert "\n" not in str(info.value)
    return info.value.line


def test_a_small_record_reads_into_events():
    events = read_record(text(MATCH, ROUND, {"event": "play", "player": "Ben", "card": "♦️7"},
                              {"event": "pass", "player": "Cleo"}, {"event": "show", "player": "Anna", "cards": ["Kh"]},
                              {"event": "end"}))
    assert events == [MatchStart("fan-tan", ("Anna", "Ben", "Cleo"), "points"), RoundStart("Anna"),
                      Play("Ben", "♦️7"), Pass("Cleo"), Show("Anna", ("Kh",)), End()]


def test_writers_write_canonical_codes_and_keep_bad_ones_as_written():
    events = [MatchStart("domino", ("Anna", "Ben"), "chips", rounds=2, options=Options(hand_size=7)),
              RoundStart("Ben", {"Anna": ("10♦️", "♣a")}), Play("Anna", "7♦"), Draw("Ben"), Draw("Ben", "kh"),
              Play("Ben", "1h"), Show("Ben", ("qs",)), End()]
    lines = [json.loads(line) for line in write_record(events).splitlines()]
    assert lines[0] == {"event": "match", "variant": "domino", "players": ["Anna", "Ben"], "stakes": "chips",
                        "rounds": 2, "options": {"hand_size": 7}}
    assert lines[1]["hands"] == {"Anna": ["Td", "Ac"]}
    assert lines[2]["card"] == "7d" and "card" not in lines[3] and lines[4]["card"] == "Kh"
    assert lines[5]["card"] == "1h" and lines[6]["cards"] == ["Qs"]
    assert list(lines[0]) == ["event", "variant", "players", "stakes", "rounds", "options"]


def test_line_ends_crlf_and_a_missing_final_newline_are_fine():
    data = text(MATCH, ROUND).replace("\n", "\r\n")
    assert len(read_record(data)) == 2
    assert len(read_record(text(MATCH, ROUND).rstrip("\n"))) == 2


def test_unknown_extra_fields_are_ignored():
    assert len(read_record(text(dict(MATCH, note="Friday"), dict(ROUND, camera=1)))) == 2


@pytest.mark.parametrize("data, line", [
    (b"", 1),
    (text(MATCH, ROUND).encode() + b'{"event": "pass", "player": "\xff"}\n', 3),  # not UTF-8
    (text(MATCH, "", ROUND), 2),  # a blank line
    (text(MATCH, ROUND) + "\n", 3),  # a blank line at the end (two newlines)
    (text(MATCH, ROUND, "   "), 3),
    (text(MATCH, "[1, 2]"), 2),  # not an object
    (text(MATCH, '"round"'), 2),
    (text(MATCH, '{"event": "round", "dealer": "Anna"'), 2),  # not JSON
    (text(MATCH, '{"event": "round", "dealer": NaN}'), 2),
    (text(MATCH, {"dealer": "Anna"}), 2),  # no event
    (text(MATCH, {"event": "deal", "dealer": "Anna"}), 2),  # unknown event
    (text(MATCH, {"event": 3}), 2),
    (text(ROUND), 1),  # the first line is not the match line
    (text(MATCH, MATCH), 2),  # a second match line
    (text(MATCH, ROUND, MATCH), 3),
    (text(dict(MATCH, variant="spades")), 1),
    (text(dict(MATCH, variant=None)), 1),
    (text(dict(MATCH, stakes="money")), 1),
    (text({k: v for k, v in MATCH.items() if k != "stakes"}), 1),
    (text(dict(MATCH, players=["Anna"])), 1),  # 2 to 8 players
    (text(dict(MATCH, players=[f"P{i}" for i in range(9)])), 1),
    (text(dict(MATCH, players=["Anna", "Anna", "Ben"])), 1),
    (text(dict(MATCH, players=["Anna", ""])), 1),
    (text(dict(MATCH, players=["Anna", 2])), 1),
    (text(dict(MATCH, players="Anna,Ben")), 1),
    (text(dict(MATCH, rounds=0)), 1),
    (text(dict(MATCH, rounds="3")), 1),
    (text(dict(MATCH, rounds=1.5)), 1),
    (text(dict(MATCH, rounds=True)), 1),
    (text(dict(MATCH, target=-100)), 1),
    (text(dict(MATCH, options=[])), 1),
    (text(dict(MATCH, options={"ace_high": "yes"})), 1),
    (text(dict(MATCH, variant="domino", players=["A", "B", "C", "D", "E"], options={"hand_size": 11})), 1),
    (text(dict(MATCH, variant="domino", options={"hand_size": 0})), 1),
    (text(MATCH, {"event": "round"}), 2),  # a required field missing
    (text(MATCH, {"event": "round", "dealer": "Zed"}), 2),  # a dealer who is not a player
    (text(MATCH, {"event": "round", "dealer": "Anna", "hands": ["7d"]}), 2),
    (text(MATCH, {"event": "round", "dealer": "Anna", "hands": {"Ben": "7d"}}), 2),
    (text(MATCH, ROUND, {"event": "play", "player": "Ben"}), 3),
    (text(MATCH, ROUND, {"event": "play", "player": "Ben", "card": 7}), 3),  # wrong JSON type
    (text(MATCH, ROUND, {"event": "play", "card": "7d"}), 3),
    (text(MATCH, ROUND, {"event": "pass", "player": ["Ben"]}), 3),
    (text(MATCH, ROUND, {"event": "show", "player": "Ben"}), 3),
    (text(MATCH, ROUND, {"event": "show", "player": "Ben", "cards": "Kh"}), 3),
    (text(MATCH, {"event": "play", "player": "Ben", "card": "7d"}), 2),  # before the first round
    (text(MATCH, {"event": "end"}), 2),
    (text(MATCH, ROUND, {"event": "draw", "player": "Ben"}), 3),  # a draw outside domino
    (text(dict(MATCH, variant="domino", players=["A", "B"]), {"event": "round", "dealer": "A"},
          {"event": "draw", "player": "B", "card": 5}), 3),
])
def test_unreadable_records_name_their_line(data, line):
    assert unreadable_at(data) == line


@pytest.mark.parametrize("line", [
    {"event": "play", "player": "Zed", "card": "7d"},  # a stranger: flagged
    {"event": "play", "player": "", "card": "7d"},
    {"event": "play", "player": "Ben", "card": "1h"},  # no such card: flagged
    {"event": "play", "player": "Ben", "card": ""},
    {"event": "show", "player": "Ben", "cards": ["Kh", "zz"]},
    {"event": "end"},
    {"event": "end"},
])
def test_what_is_wrong_but_readable_becomes_a_flag_or_nothing(line):
    m = replay(read_record(text(MATCH, ROUND, line)))
    assert len(m.round.flags) <= 1


def test_optional_fields_may_be_null():
    events = read_record(text(dict(MATCH, rounds=None, target=None, options=None),
                              dict(ROUND, hands=None)))
    assert events[0].rounds is None and events[1].hands is None


def test_check_command_one_stderr_line_for_each_kind_of_unreadable(tmp_path):
    for i, data in enumerate([b"\xff\xfe", b"[]\n", text(MATCH, MATCH).encode()]):
        path = tmp_path / f"bad{i}.jsonl"
        path.write_bytes(data)
        done = subprocess.run([sys.executable, "-m", "fantan", "check", str(path), "--json"],
                              capture_output=True, text=True)
        assert (done.returncode, done.stdout) == (2, "")
        assert len(done.stderr.splitlines()) == 1 and "line " in done.stderr


def test_check_command_missing_file_exits_2(tmp_path):
    done = subprocess.run([sys.executable, "-m", "fantan", "check", str(tmp_path / "nope.jsonl")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
