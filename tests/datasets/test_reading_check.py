"""The recipe of the recognizer's reading check picture (datasets/reading_check.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import reading_check
from vision.detector import READING_CHECK, READING_CHECK_CARDS


def test_the_eight_cards_lie_left_to_right_on_the_cloth(tmp_path: Path) -> None:
    colours = {}
    for k, code in enumerate(READING_CHECK_CARDS):  # a stand-in deck: each card one colour, opaque
        colours[code] = (10 * k, 255 - 10 * k, 100)
        card = np.zeros((140, 100, 4), np.uint8)
        card[..., :3], card[..., 3] = colours[code], 255
        cv2.imwrite(str(tmp_path / f"{code}.png"), card)
    picture = reading_check.reading_check(tmp_path)
    assert picture.shape == cv2.imread(str(READING_CHECK)).shape  # the shipped picture's size
    assert tuple(picture[5, 5]) == reading_check.CLOTH
    for k, code in enumerate(READING_CHECK_CARDS):
        assert tuple(picture[20 + 70, 20 + k * 120 + 50]) == colours[code]


def test_without_artwork_it_says_what_to_run(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        reading_check.main(["--artwork", str(tmp_path), "--out", str(tmp_path / "x.png")])
    assert "fantan dataset artwork" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
