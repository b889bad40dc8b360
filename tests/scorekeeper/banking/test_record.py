"""Banking records: the example files give their verdicts, round-trip, and bad ones name their line."""

import json
from pathlib import Path

import pytest

from scorekeeper.banking import RecordError, check_record, format_verdict, read_record, replay, write_record
from scorekeeper.banking.simulate import simulate_session

DATA = Path(__file__).parent / "data"
GOOD = sorted(p for p in DATA.glob("*.jsonl") if not p.name.startswith("malformed_"))
BAD = sorted(DATA.glob("malformed_*.jsonl"))


def expected(path):
    return json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_example_records_give_their_verdicts(path):
    assert check_record(path.read_text(encoding="utf-8")) == expected(path)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_unreadable_records_name_the_line(path):
    with pytest.raises(RecordError) as err:
        check_record(path.read_bytes())
    line = expected(path)["line"]
    assert str(err.value).startswith(f"line {line}: ")
    assert "\n" not in str(err.value)


def test_the_worked_example_in_words():
    v = check_record((DATA / "worked_example.jsonl").read_text())
    hand = v["hands"][0]
    assert (hand["count"], hand["winning_number"]) == (19, 3)
    assert [(p["player"], p["spot"], p["reason"], p["chips"]) for p in hand["payments"]] == [
        ("Dan", "4-1", "lost", 5), ("Ben", "3", "won", 6), ("Cleo", "3-4", "won", 4)]


def test_the_emptied_banks_in_words():
    v = check_record((DATA / "bank_emptied.jsonl").read_text())
    first, second, third = v["hands"]
    assert [(p["player"], p["reason"], p["chips"], p["owed"]) for p in first["payments"]] == [
        ("Ben", "lost", 4, 4), ("Ben", "won", 9, 9), ("Cleo", "short", 5, 6)]
    assert [(r["player"], r["chips"], r["owed"]) for r in first["returned"]] == [("Dan", 1, 3)]
    assert first["bank_passed"] == second["bank_passed"] == "emptied"
    assert [b["banker"] for b in v["banks"]] == ["Anna", "Ben", "Cleo"]
    assert third["bank_passed"] is None
    assert v["balances"] == {"Anna": 0, "Ben": -10, "Cleo": 11, "Dan": -1}


def test_every_flag_kind_appears_in_the_flags_example():
    from scorekeeper.banking.flags import FIELDS

    v = check_record((DATA / "flags.jsonl").read_text())
    assert {f["kind"] for f in v["flags"]} == set(FIELDS)
    assert [f["line"] for f in v["flags"]] == sorted(f["line"] for f in v["flags"])
    assert v["first_banker"]["banker"] == "Anna" and v["banks"][0]["banker"] == "Ben"


@pytest.mark.parametrize("seed", range(5))
def test_a_record_round_trips(seed):
    events = simulate_session(seed=seed, hands=15, mischief=0.2)
    text = write_record(events)
    again = read_record(text)
    assert [type(e) for e in again] == [type(e) for e in events]
    assert write_record(again) == text  # written once, the record is in canonical form
    assert replay(text).events == again
    assert check_record(text) == check_record(write_record(again))


def test_writers_write_the_canonical_spellings():
    text = (DATA / "flags.jsonl").read_text()
    again = write_record(read_record(text))
    assert '"spot": "1-2"' in again and '"card": "Qh"' in again
    assert check_record(again) == check_record(text)


def test_readers_accept_crlf_a_final_newline_and_unknown_fields():
    text = (DATA / "worked_example.jsonl").read_text()
    crlf = text.replace("\n", "\r\n")
    extra = text.replace('"chips": 20,', '"chips": 20, "note": "Anna banks",')
    assert check_record(crlf) == check_record(text.rstrip("\n")) == check_record(extra)


@pytest.mark.parametrize("text, line", [
    (b"\xff\xfe", 1),
    ("", 1),
    ('{"event": "match", "variant": "fan-tan", "players": ["A", "B"], "stakes": "points"}\n', 1),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 0}\n', 1),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "bank"], "hands_per_bank": 1}\n', 1),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 1}\n[1]\n', 2),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 1}\n'
     '{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 1}\n', 2),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 1}\n'
     '{"event": "cut"}\n', 2),
    ('{"event": "match", "variant": "chinese-fan-tan", "players": ["A", "B"], "hands_per_bank": 1}\n'
     '{"event": "bank", "banker": "A", "chips": 5, "reserve": -1}\n', 2),
])
def test_more_unreadable_records(text, line):
    with pytest.raises(RecordError, match=f"^line {line}: "):
        check_record(text)


def test_the_readable_verdict_shows_the_payments_in_pay_order():
    text = format_verdict(check_record((DATA / "bank_emptied.jsonl").read_text()))
    assert text.index("Ben is paid 9") < text.index("Cleo gets the bank's last 5 of 6 owed") < text.index(
        "Dan's bet of 1 on 1 is returned unpaid")
    assert "Settle up: Ben pays Cleo 10; Dan pays Cleo 1" in text


def test_the_example_files_are_all_there():
    # guards against a checkout that lost them (an empty parametrize would pass silently)
    assert {p.stem for p in GOOD} == {"worked_example", "bank_emptied", "flags"}
    assert len(BAD) == 10
