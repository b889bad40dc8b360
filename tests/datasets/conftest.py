"""A tiny deck drawn with OpenCV, so the generator's tests need no Debian or npm artwork."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.artwork import CODES, Deck

CARD_W, CARD_H = 100, 150
INDEX = (5, 5, 24, 44)  # top-left index box in card pixels (x0, y0, x1, y1), inclusive


def draw_card(code: str, colour=(255, 255, 255)) -> np.ndarray:
    """A white card with a black border and its index (rank over suit letter) in two corners."""
    card = np.zeros((CARD_H, CARD_W, 4), np.uint8)
    card[:, :, :3] = colour
    card[:, :, 3] = 255
    cv2.rectangle(card, (0, 0), (CARD_W - 1, CARD_H - 1), (0, 0, 0, 255), 1)
    ink = (0, 0, 200, 255) if code[1] in "dh" else (0, 0, 0, 255)
    for _ in range(2):
        x0, y0, x1, y1 = INDEX
        cv2.putText(card, code[0], (x0, y0 + 17), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 2)
        cv2.putText(card, code[1], (x0, y1 - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 2)
        card = np.ascontiguousarray(card[::-1, ::-1])
    cv2.circle(card, (CARD_W // 2, CARD_H // 2), 18, ink, -1)  # a pip
    card[:, :, 3] = 255  # card stock is opaque (OpenCV's antialiased text blends the alpha too)
    return card


def make_deck(name: str = "tiny", split: str = "train", tint=(255, 255, 255)) -> Deck:
    images = {c: draw_card(c, tint) for c in CODES}
    back = np.zeros((CARD_H, CARD_W, 4), np.uint8)
    back[:, :] = (150, 40, 40, 255)
    return Deck(name=name, split=split, corners=2, images=images, index={c: INDEX for c in CODES}, _back=back)


@pytest.fixture
def tiny_deck() -> Deck:
    return make_deck()


@pytest.fixture
def artwork_dir(tmp_path: Path) -> Path:
    """A cache like `fantan dataset artwork` writes, with one train and one val deck."""
    root = tmp_path / "artwork"
    for name, split, tint in (("tiny_a", "train", (255, 255, 255)), ("tiny_b", "val", (200, 240, 255))):
        d = root / name
        d.mkdir(parents=True)
        deck = make_deck(name, split, tint)
        for code, im in deck.images.items():
            cv2.imwrite(str(d / f"{code}.png"), im)
        cv2.imwrite(str(d / "back.png"), deck.back)
        info = {
            "name": name,
            "split": split,
            "corners": 2,
            "licence": "test",
            "index": {c: list(INDEX) for c in CODES},
        }
        (d / "deck.json").write_text(json.dumps(info))
    return root
