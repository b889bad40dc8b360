"""Benchmark rounds the shipped recognizer once watched, told again from their recorded looks
(`bench_watch.py --record-looks`, vision/looks.py): what it read, misreadings and all, and what the
hand check saw. Each was a round the watcher got wrong before a rule of docs/CAMERA.md; its record
must come out as the truth."""

from __future__ import annotations

import json
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
