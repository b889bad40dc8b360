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


def test_several_rounds_are_filmed_one_after_another_with_the_table_cleared_between(tmp_path):
    from scorekeeper.record import write_record
    from scorekeeper.simulate import simulate_match

    events = simulate_match("fan-tan", ("Anna", "Ben", "Cleo"), seed=3, known_hands=True, rounds=2)
    (tmp_path / "r.jsonl").write_text(write_record(events))
    rc = main(["--record", str(tmp_path / "r.jsonl"), "--out", str(tmp_path / "v"), "--seed", "3",
               "--size", "160x90", "--rounds", "0"])
    assert rc == 0
    record = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    truth = [json.loads(line) for line in (tmp_path / "v" / "truth.jsonl").read_text().splitlines()]
    assert [e for e in truth if e["event"] == "round"] == [
        {"event": "round", "dealer": e["dealer"]} for e in record if e["event"] == "round"]
    assert sum(e["event"] == "end" for e in truth) == 2
    assert [e for e in truth if e["event"] in ("play", "pass")] == [e for e in record if e["event"] in ("play", "pass")]
    cards = [json.loads(line) for line in (tmp_path / "v" / "cards.jsonl").read_text().splitlines()]
    empty = [c["frame"] for c in cards if not c["cards"] and not c["covered"]]
    runs = [f for f, g in zip(empty, empty[1:]) if g != f + 1]  # where runs of empty frames break off
    assert len(empty) >= 30 and runs  # the table stands clear between the rounds
    passes = [json.loads(line)["frame"] for line in (tmp_path / "v" / "passes.jsonl").read_text().splitlines()]
    assert passes == sorted(passes) and len(passes) == sum(e["event"] == "pass" for e in record)
