"""Counting the banker's cut: face-down cards laid out in fours, the remainder in a last pile.

The pictures are drawn here from a tiny synthetic card back (no artwork, no Debian packages), laid out
and photographed by datasets/cut_scenes.py; the counts are known, so they must come out exact."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.cut_scenes import group_sizes, make_cut_scene
from scorekeeper.banking import winning_number
from vision.cut_count import card_odds, count_cut, evenly_spread, read_cut, sharp_only, size_ratios


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


def with_glare(image: np.ndarray, centre: tuple[float, float], radius: float, strength: float) -> np.ndarray:
    """A lamp's soft reflection added over the picture (table and cards alike)."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = strength * np.exp(-(((xx - centre[0] * w) / (radius * w)) ** 2 + ((yy - centre[1] * h) / (radius * h)) ** 2) / 2)
    return np.clip(image.astype(np.float32) + spot[..., None], 0, 255).astype(np.uint8)


def test_a_lamps_glare_on_the_table_is_not_taken_for_a_pile():
    scene = make_cut_scene(np.random.default_rng(9), drawn_back(), table=felt(9), count=27, stagger="across",
                           effects=False, tilt=0.1)
    image = with_glare(scene.image, (0.5, 0.85), 0.12, 120.0)
    result = count_cut(image)
    assert result.count == 27, [g.cards for g in result.groups]
    assert len(result.groups) == 7


def test_the_piles_are_sized_against_a_four_at_the_same_place_in_the_picture():
    # a tilted camera: piles lower in the picture look larger; the one small pile is the remainder
    contours = []
    for row, scale in ((0, 0.8), (1, 1.0), (2, 1.2)):
        for col in range(4):
            side = 60 * scale * (0.72 if (row, col) == (2, 3) else 1.0)
            x, y = 100 + 200 * col, 100 + 200 * row
            contours.append(np.array([[x, y], [x + side, y], [x + side, y + 60 * scale], [x, y + 60 * scale]], np.int32))
    ratios = size_ratios(contours, 1000, 700)
    assert abs(ratios[-1] - 0.72) < 0.05
    assert np.all(np.abs(ratios[:-1] - 1.0) < 0.05)


def test_the_cut_is_read_as_fours_and_at_most_one_remainder():
    fours = [1] * 6
    # all six piles look like fours: 24 cards, no remainder
    assert read_cut([4] * 6, [4] * 6, np.ones(6), fours, 0.12).cards == [4] * 6
    # the last pile is small and shows two edges: the remainder is two
    reading = read_cut([4, 4, 4, 4, 4, 2], [4, 4, 4, 4, 4, 2], np.array([1, 1, 1, 1, 1, 0.76]), fours, 0.12)
    assert reading.cards == [4, 4, 4, 4, 4, 2] and reading.posterior > 0.9
    # a four whose edges were missed is a four's size; the small pile is the remainder
    reading = read_cut([4, 2, 4, 4, 4, 3], [4, 3, 4, 4, 4, 3], np.array([1, 1, 1, 1, 1, 0.88]), fours, 0.12)
    assert reading.cards == [4, 4, 4, 4, 4, 3]
    # two piles run together (twice a four's size) are eight
    assert read_cut([4, 4, 4, 1], [4, 4, 4, 1], np.array([1, 2.1, 1, 0.64]), [1, 2, 1, 1], 0.12).cards == [4, 8, 4, 1]


def test_colours_found_inside_but_not_on_the_tables_border_are_card():
    table = felt(3)
    table = cv2.resize(table, (640, 360))
    frame = table.copy()
    cv2.rectangle(frame, (250, 120), (330, 230), (150, 60, 30), cv2.FILLED)
    odds = card_odds(frame)
    assert odds[150:200, 270:310].mean() > 0.9
    assert odds[:40].mean() < 0.1 and odds[300:, 400:].mean() < 0.1


def test_a_blob_with_a_soft_rim_is_glare_not_a_pile():
    gray = np.full((300, 600), 60, np.uint8)
    for x in (40, 160, 280):
        cv2.rectangle(gray, (x, 60), (x + 80, 180), 200, cv2.FILLED)  # piles: a sharp step at the rim
    yy, xx = np.mgrid[0:300, 0:600].astype(np.float32)
    glare = 150 * np.exp(-(((xx - 500) / 40) ** 2 + ((yy - 150) / 50) ** 2) / 2)
    gray = np.clip(gray + glare, 0, 255).astype(np.uint8)
    contours, _ = cv2.findContours((gray > 120).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(contours) == 4
    kept = sharp_only(list(contours), gray)
    assert len(kept) == 3 and all(c[:, 0, 0].max() < 400 for c in kept)
