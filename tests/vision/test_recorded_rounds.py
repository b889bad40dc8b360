"""Benchmark rounds the shipped recognizer once watched, told again from their recorded looks
(`bench_watch.py --record-looks`, vision/looks.py): what it read, misreadings and all, and what the
hand check saw. Each was a round the watcher got wrong before a rule of docs/CAMERA.md; its record
must come out as the truth."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.record import read_record, write_record
from vision.looks import Replay

LOOKS = sorted((Path(__file__).parent / "data" / "looks").glob("*.jsonl.gz"))


def watch_again(path: Path) -> tuple[list[dict], list[dict]]:
    replay = Replay.load(path)
    truth = replay.header["truth"]
    start = read_record(json.dumps(truth[0]) + "\n")[0]
    watcher = replay.watch(start, replay.header["dealer"])
    return truth, [json.loads(line) for line in write_record(watcher.events).splitlines()]


@pytest.mark.parametrize("path", LOOKS, ids=[p.name.split(".")[0] for p in LOOKS])
def test_a_recorded_round_comes_out_as_the_truth(path):
    truth, got = watch_again(path)
    assert got == truth


#: Rounds a rule mended only in part (what is still wrong is in docs/CAMERA.md, Known limits): the
#: record must come out as the truth up to the line given, where it still goes wrong.
PARTLY = {
    # the four of spades, read first by a closer look four looks after its arm left, dated to that
    # arm: the five of spades, never read (fanned under the six, read as the six), goes in at the
    # arm before; every play after was written for the wrong player (31 edits). Session 34 (a known
    # misreading ignored only while the card is still seen elsewhere): the ace of spades, ignored
    # before, is written; left: Cleo's hand and Dan's queen of hearts never read (2 edits)
    "photo_166": 53,
    # the king of spades at the far row's end, never read steadily, found from its arm's landing
    # (session 29); left: Ben's ace of hearts, at the far edge, read as the two (2 edits)
    "kennard_4color_576": 52,
    # the eight of diamonds' near index read as the six and the five, the six known there for the
    # eight misread (session 29); left: the ace and two of diamonds swapped between two hands
    "kennard_4color_602": 51,
    # the five of hearts, read by the closer looks where the arm that put it down left something new
    # within its card but not within two index sizes of the index read, taken for the six's index
    # misread (session 41); left: the ten of hearts' far index at the far side read as the king,
    # the ten two plays late, and two hands short of cards never read (5 edits)
    "kennard_4color_1429": 49,
    # the ten of clubs put on the nine's pile, read whole as the queen as surely as an illegal play
    # must be: the jack and queen went in with it; then the king of diamonds, read by the closer
    # looks only, dated to the next arm (session 42, four mendings); left: the ten and queen of
    # hearts, at the far edge in two hands laid down, the ten read as the queen (2 edits)
    "kennard_4color_1523": 54,
}


@pytest.mark.parametrize("name", sorted(PARTLY))
def test_a_round_mended_in_part_comes_out_as_the_truth_up_to_where_it_still_goes_wrong(name):
    truth, got = watch_again(Path(__file__).parent / "data" / "looks" / "partly" / f"{name}.jsonl.gz")
    upto = PARTLY[name]
    assert got[:upto] == truth[:upto]
    assert got != truth  # (once it comes out whole, it belongs with the rounds above)


_WATCH_IN_A_FRESH_PROCESS = """
import json, sys
from scorekeeper.record import read_record, write_record
from vision.looks import Replay
replay = Replay.load(sys.argv[1])
truth = replay.header["truth"]
watcher = replay.watch(read_record(json.dumps(truth[0]) + "\\n")[0], replay.header["dealer"])
print(write_record(watcher.events))
"""


def test_the_same_looks_give_the_same_record_whatever_the_string_hashing():
    # photo deck round 382: which card of the record a reading lay over was picked from a set, whose
    # order follows Python's string hashing, different in each process (docs/CAMERA.md, "The same
    # looks give the same record, run after run"); seeds 0 and 3 picked differently for a watcher
    # of session 30 before the cards were taken in a fixed order
    path = Path(__file__).parent / "data" / "looks" / "photo_382.jsonl.gz"
    root = Path(__file__).resolve().parents[2]
    records = set()
    for seed in ("0", "3"):
        run = subprocess.run([sys.executable, "-c", _WATCH_IN_A_FRESH_PROCESS, str(path)], cwd=root,
                             env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, check=True)
        records.add(run.stdout)
    assert len(records) == 1
