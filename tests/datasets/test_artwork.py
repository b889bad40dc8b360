"""Deck artwork: where the corner index lies on a card is found from the ink itself."""

from __future__ import annotations

import struct

import cv2
import numpy as np
import pytest

from datasets.artwork import CODES, corner_boxes, find_index_box, install_hint, regularise_boxes, trim_alpha
from datasets.tables import read_pat


def _card(rank: str, with_frame: bool = False, pip_near: bool = False) -> np.ndarray:
    """A 300x450 card, border line, rank 'rank' over a suit blob in the top-left corner."""
    card = np.zeros((450, 300, 4), np.uint8)
    card[:] = (250, 250, 250, 255)
    cv2.rectangle(card, (2, 2), (297, 447), (0, 0, 0, 255), 2)  # the printed border
    cv2.putText(card, rank, (14, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (0, 0, 0, 255), 3)
    cv2.circle(card, (14 + 14, 78), 12, (0, 0, 0, 255), -1)  # the suit under the rank
    if with_frame:  # a court card's picture frame, right of the index
        cv2.rectangle(card, (70, 30), (230, 420), (0, 0, 0, 255), 3)
    if pip_near:  # a big pip beside the index
        cv2.circle(card, (95, 60), 25, (0, 0, 0, 255), -1)
    card[:, :, 3] = 255
    return card


def _ink_box(card: np.ndarray, region) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = region
    ys, xs = np.nonzero(card[y0:y1, x0:x1, 0] < 128)
    return (x0 + xs.min(), y0 + ys.min(), x0 + xs.max(), y0 + ys.max())


@pytest.mark.parametrize("rank", ["A", "7", "10", "K"])
@pytest.mark.parametrize("frame, pip", [(False, False), (True, False), (False, True)])
def test_index_box_holds_rank_and_suit_and_nothing_else(rank, frame, pip):
    card = _card(rank, frame, pip)
    box = find_index_box(card)
    assert box is not None
    truth = _ink_box(_card(rank), (8, 8, 60 if rank != "10" else 80, 100))
    assert box == pytest.approx(truth, abs=2)


def test_blank_card_has_no_index():
    card = np.zeros((450, 300, 4), np.uint8)
    card[:] = (250, 250, 250, 255)
    assert find_index_box(card) is None


def test_outliers_are_pulled_to_the_decks_usual_index():
    boxes = {c: (10, 10, 40, 90) for c in CODES}
    boxes["Kh"] = (10, 10, 200, 90)  # swallowed the picture frame
    boxes["Ac"] = None  # found nothing
    fixed = regularise_boxes(boxes)
    assert fixed["Kh"][2] <= 10 + 1.3 * 30 + 1
    assert fixed["Ac"] == [10, 10, 40, 90]
    assert fixed["7d"] == [10, 10, 40, 90]


def test_bottom_index_is_the_top_one_turned_about_the_centre():
    tl, br = corner_boxes((5, 6, 24, 44), 100, 150, 2)
    assert br == (100 - 1 - 24, 150 - 1 - 44, 100 - 1 - 5, 150 - 1 - 6)
    assert len(corner_boxes((5, 6, 24, 44), 100, 150, 4)) == 4
    assert len(corner_boxes((5, 6, 24, 44), 100, 150, 1)) == 1


def test_trim_alpha_cuts_to_the_card():
    im = np.zeros((50, 40, 4), np.uint8)
    im[10:30, 5:25, 3] = 255
    assert trim_alpha(im).shape[:2] == (20, 20)
    with pytest.raises(ValueError):
        trim_alpha(np.zeros((5, 5, 4), np.uint8))


def test_install_hint_names_the_commands():
    text = install_hint(["gnome-cards-data"], ["svg-cards"], pip=["PySide6-Essentials"])
    assert "apt-get install" in text and "gnome-cards-data" in text
    assert "npm install --prefix data/npm svg-cards" in text
    assert "pip install PySide6-Essentials" in text


def test_gimp_pattern_files_are_read(tmp_path):
    w, h = 3, 2
    name = b"test\x00"
    header = struct.pack(">5I", 24 + len(name), 1, w, h, 3) + b"GPAT" + name
    pixels = bytes(range(w * h * 3))
    p = tmp_path / "t.pat"
    p.write_bytes(header + pixels)
    im = read_pat(p)
    assert im.shape == (2, 3, 3)
    assert tuple(im[0, 0]) == (2, 1, 0)  # RGB in the file, BGR for OpenCV
    bad = tmp_path / "bad.pat"
    bad.write_bytes(b"\x00" * 40)
    with pytest.raises(ValueError):
        read_pat(bad)


def test_the_ink_finder_agrees_with_a_printed_deck_whose_boxes_are_known():
    pytest.importorskip("PySide6")
    from datasets.artwork import FONTS, deck_by_name, rasterise_font_deck

    deck = deck_by_name("print_dejavu_serif")
    if not (FONTS / "dejavu/DejaVuSerif.ttf").exists():
        pytest.skip("Debian fonts-dejavu-core not installed")
    cards, known = rasterise_font_deck(deck)
    found = {c: find_index_box(cards[c]) for c in CODES}
    fixed = regularise_boxes(found)
    far = [c for c in CODES if max(abs(a - b) for a, b in zip(fixed[c], known[c])) > 3]
    assert far == [], f"index boxes off by more than 3 px on {far}"
