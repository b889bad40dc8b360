"""The spec's example records (copied from shared/spec/examples) give exactly their expected verdicts.

They were produced and judged by an independent reference implementation: the ground truth for
every rule the record format leaves to interpretation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.match import replay
from scorekeeper.record import RecordError, read_record, write_record

EXAMPLES = Path(__file__).parent / "data" / "examples"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "examples"  # the live spec, when this checkout sits beside it
RECORDS = sorted(p for p in EXAMPLES.glob("*.jsonl") if not p.name.startswith("malformed"))
MALFORMED = sorted(EXAMPLES.glob("malformed_*.jsonl"))
FANTAN = [sys.executable, "-m", "fantan"]


def expected(path: Path) -> dict:
    return json.loads((path.parent / (path.name[: -len(".jsonl")] + ".expected.json")).read_text())


def test_the_examples_are_all_here():
    assert len(RECORDS) == 12 and len(MALFORMED) == 5
    if SHARED.is_dir():  # the copy is the spec's, byte for byte
        for path in EXAMPLES.iterdir():
            assert (SHARED / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_example_verdict(path: Path):
    match = replay(read_record(path.read_bytes()))
    assert match.verdict() == expected(path)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_example_written_and_read_back_gives_the_same_verdict(path: Path):
    events = read_record(path.read_bytes())
    again = read_record(write_record(events))
    assert replay(again).verdict() == expected(path)


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_malformed_example_is_unreadable(path: Path):
    assert expected(path) == {"exit": 2}
    with pytest.raises(RecordError):
        replay(read_record(path.read_bytes()))


def test_check_command_prints_the_expected_json_for_every_example():
    """The real console command, in a subprocess, byte for byte as the expected files are written."""
    for path in RECORDS:
        done = subprocess.run(FANTAN + ["check", str(path), "--json"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == expected(path)
        assert done.stderr == ""


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_check_command_on_a_malformed_record_exits_2_with_one_line(path: Path):
    done = subprocess.run(FANTAN + ["check", str(path), "--json"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "line " in lines[0]


def test_malformed_examples_name_their_line():
    lines = {}
    for path in MALFORMED:
        try:
            read_record(path.read_bytes())
        except RecordError as exc:
            lines[path.stem] = exc.line
    assert lines == {
        "malformed_bad_json": 3,
        "malformed_missing_field": 3,
        "malformed_no_match_line": 1,
        "malformed_play_before_round": 2,
        "malformed_unknown_variant": 1,
    }


def test_console_script_installed():
    """`fantan` itself (the console script) judges a record too."""
    exe = Path(sys.executable).parent / "fantan"
    if not exe.exists():
        pytest.skip("console script not installed in this environment")
    path = RECORDS[0]
    done = subprocess.run([str(exe), "check", str(path), "--json"], capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout) == expected(path)
    done = subprocess.run([str(exe), "check", str(MALFORMED[0])], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1


def test_check_without_json_prints_a_table_for_people(capsys):
    from fantan.cli import main

    assert main(["check", str(EXAMPLES / "06_seven_withheld_fine.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "Round 1 (line 2, dealer Dan): won by Anna" in out
    assert "Dan passed while holding 7s" in out and "proven by the hands of the round line at line 2" in out
    assert "seven rule: Dan pays 5 to Ben" in out and "pot 22 taken by Anna" in out
    assert "Totals (chips): Anna +26, Ben +2, Cleo -8, Dan -20" in out
    assert out.rstrip().endswith("Match winner: Anna")
    assert main(["check", str(EXAMPLES / "12_match_not_over.jsonl")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("The match is not over.")
