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


def test_a_folder_of_card_photographs_is_a_deck_and_a_missing_card_is_named(tmp_path):
    import numpy as np
    import pytest

    from datasets.game_video import CODES, load_deck

    for code in CODES:
        name = ("10" + code[1]) if code[0] == "T" else code  # either spelling of the ten
        cv2.imwrite(str(tmp_path / f"{name}.png"), np.full((88, 63, 3), 200, np.uint8))
    deck = load_deck(str(tmp_path))
    assert sorted(deck) == sorted(CODES) and deck["Tc"].shape == (88, 63, 3)
    (tmp_path / "Qh.png").unlink()
    with pytest.raises(FileNotFoundError, match="Qh"):
        load_deck(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="no folder"):
        load_deck(str(tmp_path / "absent"))
