"""A round watched once is watched again from its recorded looks, with the same record."""

from __future__ import annotations

import gzip
import json

import pytest

from datasets.game_video import OracleDetector
from scorekeeper.events import MatchStart
from scorekeeper.record import write_record
from vision.capture import Frame
from vision.looks import Recorder, Replay, RecordingError
from vision.occlusion import CoverWatch
from vision.watcher import Watcher


def _start(record: list[dict]) -> MatchStart:
    m = record[0]
    return MatchStart(m["variant"], tuple(m["players"]), m["stakes"], rounds=m.get("rounds"))


def test_a_recorded_round_replayed_gives_the_same_record(short_round, tmp_path):
    record, video = short_round(seed=7, layout="hoyle")
    oracle = OracleDetector(seed=7)
    recorder = Recorder(oracle, CoverWatch(), header={"dealer": record[1]["dealer"]})
    watcher = Watcher(_start(record), record[1]["dealer"], recorder.detector, cover=recorder.cover)
    for vf in video.frames:
        for p in video.passes:
            if p["frame"] == vf.index:
                watcher.declare_pass(p["frame"], p["player"])
                recorder.declared(p["frame"], p["player"])
        oracle.learn(vf)
        watcher.see(Frame(vf.index, vf.image, vf.index / 10))
        oracle.forget(vf)
    watcher.finish()
    watched = write_record(watcher.events)
    recorder.save(tmp_path / "round.jsonl.gz")

    replay = Replay.load(tmp_path / "round.jsonl.gz")
    assert replay.header["size"] == [640, 360]
    assert sum(len(passes) for _, passes in replay.frames()) == len(video.passes) > 0
    again = replay.watch(_start(record), replay.header["dealer"])
    assert write_record(again.events) == watched
    assert json.loads(watched.splitlines()[-1]) == {"event": "end"}  # a whole round, not an empty one


def test_a_file_that_is_no_recording_is_refused_clearly(tmp_path):
    plain = tmp_path / "notes.txt"
    plain.write_text("hello")
    with pytest.raises(RecordingError, match="not a recording of looks"):
        Replay.load(plain)
    odd = tmp_path / "odd.jsonl.gz"
    with gzip.open(odd, "wt") as f:
        f.write('{"dealer": "Anna"}\n{"usual": []}\n')
    with pytest.raises(RecordingError, match="hand check"):
        Replay.load(odd)
