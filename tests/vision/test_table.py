"""The table plane from the cards themselves: a camera at an angle still gives straight rows and true seats."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.game_video import CARD_H, CARD_W, Camera, hand_positions, row_position
from vision.table import TableModel, fit_plane, nearest_seat, order_corners, seat_angle


def outline(camera: Camera, x: float, y: float) -> np.ndarray:
    return camera.project(np.float32([[x, y], [x + CARD_W, y], [x + CARD_W, y + CARD_H], [x, y + CARD_H]]))


@pytest.mark.parametrize("tilt", [0.0, 0.15, 0.3])
def test_rows_come_out_straight_and_cards_the_right_size_under_a_tilted_camera(tilt):
    rng = np.random.default_rng(2)
    camera = Camera.tilted(rng, tilt=tilt)
    cards = {}
    for row, suit in enumerate("hcds"):
        for rank in "3456789TJ":
            x, y, _ = row_position(rank + suit, row, "spread", (850, 550))
            cards[rank + suit] = outline(camera, x, y) + rng.normal(0, 0.8, (4, 2))  # a detector's jitter
    plane = fit_plane(list(cards.values()))
    assert plane is not None
    centres = {c: plane.to_table([o.mean(axis=0)])[0] for c, o in cards.items()}
    for suit in "hcds":  # each row is a horizontal line in table coordinates
        ys = [centres[r + suit][1] for r in "3456789TJ"]
        assert np.ptp(ys) < 6.0  # millimetres, over nine cards
    for rank in "3456789TJ":  # ranks line up across the rows
        xs = [centres[rank + s][0] for s in "hcds"]
        assert np.ptp(xs) < 6.0
    size = plane.to_table(cards["7h"])
    w, h = np.linalg.norm(size[1] - size[0]), np.linalg.norm(size[3] - size[0])
    assert w == pytest.approx(63, abs=4) and h == pytest.approx(88, abs=4)


def test_corners_in_any_order_are_read_clockwise_from_top_left():
    square = np.float32([[10, 10], [50, 12], [52, 70], [8, 68]])
    for k in range(4):
        assert np.allclose(order_corners(np.roll(square, k, axis=0)), square)


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_hands_laid_down_are_found_in_front_of_their_seats(n_players):
    rng = np.random.default_rng(n_players)
    camera = Camera.tilted(rng, tilt=0.25)
    model = TableModel(n_players)
    for row, suit in enumerate("cdhs"):
        for rank in "6789":
            x, y, _ = row_position(rank + suit, row, "spread", (850, 550))
            model.add_row_card(rank + suit, outline(camera, x, y))
    for seat in range(n_players):
        for x, y in hand_positions(["Ac", "2c", "3c", "4c", "5c"], seat, n_players):
            assert model.seat_of(outline(camera, x, y)) == seat
            assert not model.in_rows(outline(camera, x, y))


def test_seats_go_clockwise_from_the_camera_side():
    assert nearest_seat(seat_angle(0, 4), 4) == 0
    assert nearest_seat(np.pi, 4) == 1  # the left of the picture, seen from above: next clockwise
    assert nearest_seat(-np.pi / 2, 4) == 2
    assert nearest_seat(0.0, 4, allowed=[1, 2]) in (1, 2)
