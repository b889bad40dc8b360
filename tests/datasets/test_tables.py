"""Table tops and the things lying on them."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.layouts import CardPose
from datasets.scene import Camera, chip, render
from datasets.tables import PROCEDURAL, score_sheet, table_texture


@pytest.mark.parametrize("make", PROCEDURAL, ids=lambda f: f.__name__)
def test_every_table_top_fills_the_picture(make):
    im = make(np.random.default_rng(0), 90, 160)
    assert im.shape == (90, 160, 3) and im.dtype == np.uint8
    assert im.std() > 0.5  # a texture, not a flat fill


def test_same_seed_same_table():
    a = table_texture(np.random.default_rng(5), 72, 128, [])
    b = table_texture(np.random.default_rng(5), 72, 128, [])
    assert np.array_equal(a, b)


def test_a_score_sheet_is_paper_on_the_table_not_a_card():
    table = np.zeros((300, 400, 3), np.uint8)
    score_sheet(np.random.default_rng(1), table, 100)
    assert (table.mean(axis=2) > 180).sum() > 2000  # white paper landed on the dark table


def test_a_chip_on_an_index_hides_it(tiny_deck):
    table = np.full((400, 400, 3), (40, 110, 30), np.uint8)
    pot = chip(np.random.default_rng(0), (165, 150), 30)  # over the top-left index (x 155-175, y 130-170)
    scene = render(table, Camera.flat(400, 400), [CardPose("8h", 200, 200, 0, 150, 0)], {tiny_deck.name: tiny_deck}, tiny_deck.name, pot, shadow=0.0)
    tl, br = scene.cards[0].indices
    assert tl.visibility < 0.1 and br.visibility == pytest.approx(1.0)
