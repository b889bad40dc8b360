"""The synthetic game video generator: frames, passes at their frames, and the record the video shows."""

from __future__ import annotations

import json

import cv2

from datasets.game_video import main

from .conftest import simulated


def test_the_generator_writes_frames_passes_and_truth(tmp_path):
    record = simulated(seed=2)
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(e) + "\n" for e in record))
    rc = main(["--record", str(tmp_path / "r.jsonl"), "--out", str(tmp_path / "v"), "--layout", "fanned",
               "--seed", "2", "--size", "320x180"])
    assert rc == 0
    frames = sorted((tmp_path / "v" / "frames").iterdir())
    assert cv2.imread(str(frames[0])).shape == (180, 320, 3)
    truth = [json.loads(line) for line in (tmp_path / "v" / "truth.jsonl").read_text().splitlines()]
    assert truth[0] == record[0] and truth[1] == {"event": "round", "dealer": record[1]["dealer"]}
    passes = [json.loads(line) for line in (tmp_path / "v" / "passes.jsonl").read_text().splitlines()]
    assert [p["player"] for p in passes] == [e["player"] for e in record if e["event"] == "pass"]
    assert all(0 <= p["frame"] < len(frames) for p in passes)
    cards = [json.loads(line) for line in (tmp_path / "v" / "cards.jsonl").read_text().splitlines()]
    assert len(cards) == len(frames) and any(c["covered"] for c in cards)
    shown = {c for e in truth if e["event"] == "show" for c in e["cards"]}
    played = {e["card"] for e in truth if e["event"] == "play"}
    assert len(shown | played) == 52 and not shown & played  # every card ends on the table or in a shown hand


def test_a_record_without_hands_is_refused(tmp_path, capsys):
    record = simulated(seed=2)
    del record[1]["hands"]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(e) + "\n" for e in record))
    assert main(["--record", str(tmp_path / "r.jsonl"), "--out", str(tmp_path / "v")]) == 2
    assert "hands" in capsys.readouterr().err
