"""A round watched once is watched again from its recorded looks, with the same record."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from datasets.game_video import OracleDetector
from scorekeeper.events import MatchStart
from scorekeeper.record import write_record
from vision.capture import Frame
from vision.detector import Detection
from vision.looks import Recorder, Replay, RecordingError
from vision.occlusion import Cover, CoverWatch
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


def test_the_watcher_is_handed_what_the_recording_keeps(tmp_path):
    # kennard_4color round 602 (session 29): the recording keeps figures rounded (confidences to four
    # places, pixels to one); a watcher told the unrounded ones decided otherwise where two nearly
    # tied, and the round replayed was not the round as watched
    class Saying:
        def detect(self, image):
            return [Detection("7d", 0.123456789, (10.04, 20.06, 30.01, 40.09), None,
                              ((10.04, 20.06, 14.02, 26.03),), (("7d", 0.987654321), ("7h", 0.0123456)))]

        def detect_closely(self, image):
            return [Detection("8d", 0.55555555, (1.01, 2.02, 3.03, 4.04), ((1.01, 2.02), (3.03, 2.02), (3.03, 4.04), (1.01, 4.04)))]

    class Hands:
        def update(self, image):
            return Cover(False, 0.012345678, None, ((100.04, 200.06),))

    recorder = Recorder(Saying(), Hands())
    image = np.zeros((36, 64, 3), np.uint8)
    told_cover = recorder.cover.update(image)
    told = recorder.detector.detect(image)
    told_closely = recorder.detector.detect_closely(image)
    recorder.save(tmp_path / "r.jsonl.gz")

    replay = Replay.load(tmp_path / "r.jsonl.gz")
    assert replay.cover.update(image) == told_cover
    assert told_cover.changed == 0.0123 and told_cover.changes == ((100.0, 200.1),)
    assert replay.detector.detect(image) == told
    assert told[0].confidence == 0.1235 and told[0].box == (10.0, 20.1, 30.0, 40.1)
    assert replay.detector.detect_closely(image) == told_closely
    assert told_closely[0].corners == ((1.0, 2.0), (3.0, 2.0), (3.0, 4.0), (1.0, 4.0))  # an outline is kept too
