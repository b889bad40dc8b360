"""Counting the banker's cut: face-down cards laid out in fours, the remainder in a last pile.

The pictures are drawn here from a tiny synthetic card back (no artwork, no Debian packages), laid out
and photographed by datasets/cut_scenes.py; the counts are known, so they must come out exact."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.cut_scenes import group_sizes, make_cut_scene
from scorekeeper.banking import winning_number
from vision.cut_count import count_cut, evenly_spread, read_as_fours


def drawn_back(height: int = 300) -> np.ndarray:
    """A card back: cream margin, a navy field with a light lattice, rounded corners (BGRA)."""
    w = int(height * 0.69)
    img = np.full((height, w, 3), (235, 245, 250), np.uint8)
    m = int(0.07 * w)
    cv2.rectangle(img, (m, m), (w - 1 - m, height - 1 - m), (90, 40, 20), cv2.FILLED)
    for k in range(-height, w + height, 18):
        cv2.line(img, (k, 0), (k + height, height), (160, 120, 90), 2)
    img[:m], img[-m:], img[:, :m], img[:, -m:] = 235, 235, 235, 235
    alpha = np.zeros((height, w), np.uint8)
    r = int(0.06 * w)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, height - 1), 255, cv2.FILLED)
    cv2.rectangle(alpha, (0, r), (w - 1, height - 1 - r), 255, cv2.FILLED)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, height - 1 - r), (w - 1 - r, height - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, cv2.FILLED)
    return np.dstack([img, alpha])


def felt(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = np.zeros((360, 640, 3), np.float32)
    table[:] = (40, 110, 30)
    table += rng.normal(0, 6, table.shape)
    return np.clip(table, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("count, stagger", [
    (18, "across"), (23, "along"), (25, "diagonal"), (32, "across"), (41, "diagonal"), (52, "along"),
])
def test_a_cut_laid_out_in_fours_is_counted_exactly(count, stagger):
    scene = make_cut_scene(np.random.default_rng(count), drawn_back(), table=felt(count), count=count,
                           stagger=stagger, effects=False, tilt=0.1)
    result = count_cut(scene.image)
    assert result.count == count, [g.cards for g in result.groups]
    assert sorted(g.cards for g in result.groups) == sorted(group_sizes(count))
    assert winning_number(result.count) == (count % 4 or 4)


def test_a_tilted_camera_with_light_noise_and_blur_still_counts_exactly():
    scene = make_cut_scene(np.random.default_rng(5), drawn_back(), table=felt(5), count=29, stagger="across",
                           effects=False, tilt=0.25)
    image = cv2.GaussianBlur(scene.image, (0, 0), 1.0)
    image = np.clip(image.astype(np.float32) * 0.8 + np.random.default_rng(0).normal(0, 4, image.shape), 0, 255)
    result = count_cut(image.astype(np.uint8))
    assert result.count == 29
    assert result.remainder_cards == 1


def test_no_cards_on_the_table_counts_nothing_and_says_so():
    result = count_cut(felt())
    assert result.count == 0 and result.groups == () and result.confidence == 0.0
    assert "No cards found" in result.note


def test_not_a_picture_is_refused_clearly():
    with pytest.raises(ValueError, match="colour picture"):
        count_cut(np.zeros((10, 10), np.uint8))


def test_the_overlay_marks_every_pile_and_the_json_carries_the_outlines():
    scene = make_cut_scene(np.random.default_rng(2), drawn_back(), table=felt(2), count=22, stagger="across",
                           effects=False, tilt=0.0)
    result = count_cut(scene.image)
    drawn = result.draw(scene.image)
    assert drawn.shape == scene.image.shape and (drawn != scene.image).any()
    data = result.to_json()
    assert data["count"] == sum(g["cards"] for g in data["groups"])
    assert all(len(g["outline"]) >= 4 for g in data["groups"])


def test_edges_in_even_steps_are_cards_and_a_stray_pattern_match_is_not():
    # the template's own edge, three edges about 20 px apart, and a weaker stray match in between
    found = [(10, 5, 1.0), (11, 25, 0.8), (9, 44, 0.75), (10, 66, 0.7), (40, 33, 0.5)]
    assert evenly_spread(found)[0] == 4
    assert evenly_spread([(10, 5, 1.0)])[0] == 1
    assert evenly_spread([(10, 5, 1.0), (10, 30, 0.2)])[0] == 1  # too weak to be an edge


def test_piles_are_read_as_fours_and_one_remainder():
    assert read_as_fours([4, 4, 4, 3]) == [4, 4, 4, 3]
    assert read_as_fours([4, 5, 4, 2]) == [4, 4, 4, 2]  # a four seen a step too wide
    assert read_as_fours([4, 3, 4, 1]) == [4, 4, 4, 1]  # two short piles: the shorter is the rest
    assert read_as_fours([8, 4, 2], lone=[False, True, True]) == [8, 4, 2]  # two fours touching (by area)
    assert read_as_fours([9, 4, 2]) == [4, 4, 2]  # one pile cannot hold more than four
