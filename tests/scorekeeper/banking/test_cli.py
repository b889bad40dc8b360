"""`fantan bank simulate` and `fantan bank check` from the command line."""

import json
from pathlib import Path

from fantan.cli import main

DATA = Path(__file__).parent / "data"


def test_simulate_then_check(tmp_path, capsys):
    out = tmp_path / "night.jsonl"
    assert main(["bank", "simulate", "--seed", "4", "--hands", "12", "--players", "Anna,Ben,Cleo",
                 "--out", str(out)]) == 0
    assert main(["bank", "check", str(out), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert len(verdict["hands"]) == 12 and sum(verdict["balances"].values()) == 0


def test_check_prints_a_readable_verdict(capsys):
    assert main(["bank", "check", str(DATA / "worked_example.jsonl")]) == 0
    text = capsys.readouterr().out
    assert "19 cards cut, 3 wins" in text and "Dan loses 5" in text and "Ben is paid 6" in text


def test_an_unreadable_record_exits_2_with_one_line(capsys):
    assert main(["bank", "check", str(DATA / "malformed_bad_json.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3: not JSON" in err


def test_a_missing_file_or_bad_options_exit_2(tmp_path, capsys):
    assert main(["bank", "check", str(tmp_path / "nope.jsonl")]) == 2
    assert main(["bank", "simulate", "--players", "Anna"]) == 2
    assert main(["bank", "simulate", "--min", "5", "--max", "2"]) == 2
    assert main(["bank"]) == 2


def test_fantan_check_judges_a_banking_record_with_the_same_verdict(capsys):
    path = DATA / "worked_example.jsonl"
    assert main(["check", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((DATA / "worked_example.expected.json").read_text())
    assert main(["check", str(DATA / "malformed_spot_not_text.jsonl")]) == 2
    assert "line 3:" in capsys.readouterr().err
