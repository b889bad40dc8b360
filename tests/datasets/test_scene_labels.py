"""The generator's labels match its geometry: what the camera cannot see is not labelled.

All scenes here look straight down (a flat camera), so a card of height 150 at scale 1 covers exactly
its pixels: card centre (200, 200) spans x 150..250, y 125..275, and its top-left index x 155..175,
y 130..170.
"""

from __future__ import annotations

import numpy as np
import pytest

from datasets.layouts import CardPose, layout_rows
from datasets.scene import MIN_VISIBLE, Camera, Occluder, render


def _table(w: int = 400, h: int = 400) -> np.ndarray:
    return np.full((h, w, 3), (40, 110, 30), np.uint8)


def _render(deck, poses, occluders=None, size=(400, 400)):
    return render(_table(*size), Camera.flat(*size), poses, {deck.name: deck}, deck.name, occluders, shadow=0.0)


def _card(scene, code):
    return next(c for c in scene.cards if c.code == code)


def test_a_lone_card_shows_both_indices(tiny_deck):
    scene = _render(tiny_deck, [CardPose("7h", 200, 200, 0, 150, 0)])
    card = _card(scene, "7h")
    assert [round(i.visibility, 2) for i in card.indices] == [1.0, 1.0]
    assert len(scene.visible_indices()) == 2
    x0, y0, x1, y1 = card.indices[0].box
    assert (x0, y0, x1, y1) == pytest.approx((155, 130, 175, 170), abs=1)
    # the bottom-right index is the same box turned about the card centre
    assert card.indices[1].box == pytest.approx((225, 230, 245, 270), abs=1)


def test_a_card_hidden_under_another_gets_no_label(tiny_deck):
    poses = [CardPose("5s", 200, 200, 0, 150, 0), CardPose("Kd", 201, 199, 0, 150, 1)]
    scene = _render(tiny_deck, poses)
    assert all(i.visibility < 0.05 for i in _card(scene, "5s").indices)
    assert [code for code, _ in scene.visible_indices()] == ["Kd", "Kd"]


def test_z_order_not_list_order_decides_who_is_on_top(tiny_deck):
    poses = [CardPose("Kd", 201, 199, 0, 150, 1), CardPose("5s", 200, 200, 0, 150, 0)]
    scene = _render(tiny_deck, poses)
    assert {code for code, _ in scene.visible_indices()} == {"Kd"}


@pytest.mark.parametrize(
    "left_edge, covered, labelled",
    [
        (165, 0.5, False),  # half the index under the next card: not readable
        (171, 0.2, True),  # a fifth covered: still readable, labelled
        (159, 0.8, False),
    ],
)
def test_a_partly_covered_index_is_labelled_only_when_mostly_visible(tiny_deck, left_edge, covered, labelled):
    # the 6 lies on top of the 5, its left edge over the 5's top-left index (x 155..175)
    poses = [CardPose("5c", 200, 200, 0, 150, 0), CardPose("6c", left_edge + 50, 200, 0, 150, 1)]
    scene = _render(tiny_deck, poses)
    tl = _card(scene, "5c").indices[0]
    assert tl.visibility == pytest.approx(1 - covered, abs=0.06)
    assert (tl.visibility >= MIN_VISIBLE) is labelled
    assert ("5c" in [c for c, _ in scene.visible_indices()]) is labelled


@pytest.mark.parametrize("cx, labelled", [(31, False), (39, True), (60, True)])
def test_an_index_cut_by_the_frame_edge(tiny_deck, cx, labelled):
    # card centre cx: its top-left index runs from cx - 45 to cx - 25; the frame starts at x = 0,
    # so cx = 31 leaves 30% of it in the picture, cx = 39 leaves 70%
    scene = _render(tiny_deck, [CardPose("9d", cx, 200, 0, 150, 0)])
    tl = _card(scene, "9d").indices[0]
    inside = (cx - 25) / 20
    assert tl.visibility == pytest.approx(min(inside, 1.0), abs=0.07)
    assert (tl.visibility >= MIN_VISIBLE) is labelled
    assert tl.box[0] >= 0  # the box never leaves the picture


def test_a_card_off_the_picture_has_no_labels(tiny_deck):
    scene = _render(tiny_deck, [CardPose("2h", -200, 200, 0, 150, 0)])
    assert scene.visible_indices() == []


def test_a_hand_over_an_index_hides_it(tiny_deck):
    hand = Occluder(np.array([[150, 120], [185, 120], [185, 180], [150, 180]], np.float32), (80, 120, 180), softness=0)
    scene = _render(tiny_deck, [CardPose("Qs", 200, 200, 0, 150, 0)], [hand])
    tl, br = _card(scene, "Qs").indices
    assert tl.visibility < 0.05
    assert br.visibility == pytest.approx(1.0)
    assert len(scene.visible_indices()) == 1


def test_face_down_cards_show_no_index(tiny_deck):
    scene = _render(tiny_deck, [CardPose("Ah", 200, 200, 0, 150, 0, face_up=False)])
    assert scene.visible_indices() == []
    assert _card(scene, "Ah").visible_fraction > 0.95


def test_turned_cards_keep_their_index_on_the_card(tiny_deck):
    for angle in (0, 30, 90, 180, 250):
        scene = _render(tiny_deck, [CardPose("Tc", 200, 200, angle, 150, 0)])
        card = _card(scene, "Tc")
        qx0, qy0 = card.quad.min(axis=0)
        qx1, qy1 = card.quad.max(axis=0)
        for it in card.indices:
            assert it.visibility > 0.95
            x0, y0, x1, y1 = it.box
            assert qx0 - 1 <= x0 and x1 <= qx1 + 1 and qy0 - 1 <= y0 and y1 <= qy1 + 1


def test_the_picture_shows_the_index_where_the_label_says(tiny_deck):
    def red(im):  # the red ink of hearts
        return im[:, :, 2].astype(int) - im[:, :, 1].astype(int) > 100

    x0, y0, x1, y1 = tiny_deck.index["Kh"]
    ink_on_card = red(tiny_deck.images["Kh"])[y0 : y1 + 1, x0 : x1 + 1].sum()
    scene = _render(tiny_deck, [CardPose("Kh", 200, 200, 35, 150, 0)])
    bx0, by0, bx1, by1 = (int(round(v)) for v in _card(scene, "Kh").indices[0].box)
    inside = red(scene.image)[by0:by1, bx0:bx1].sum()
    # turned by 35 degrees the index's ink is all inside its box (a little more: the box is upright
    # and so also catches a bit of the other index, never of the pip at the centre)
    assert 0.8 * ink_on_card <= inside <= 1.3 * ink_on_card


def test_tilted_camera_makes_far_cards_smaller(tiny_deck):
    cam = Camera.tilted(400, 400, tilt=0.3)
    poses = [CardPose("3d", 200, 100, 0, 100, 0), CardPose("4d", 200, 300, 0, 100, 1)]
    scene = render(_table(), cam, poses, {tiny_deck.name: tiny_deck}, tiny_deck.name, shadow=0.0)
    far, near = _card(scene, "3d"), _card(scene, "4d")

    def width(c):
        return np.ptp(c.quad[:, 0])

    assert width(far) < width(near)


def test_fanned_rows_show_every_corner_index(tiny_deck):
    rows = {"h": [f"{r}h" for r in "A23456789TJQK"], "s": ["6s", "7s", "8s"]}
    poses = layout_rows(rows, "fanned", (500, 300), 110, overlap=0.28)
    scene = render(_table(1000, 600), Camera.flat(1000, 600), poses, {tiny_deck.name: tiny_deck}, tiny_deck.name, shadow=0.0)
    seen = {c for c, _ in scene.visible_indices()}
    assert seen == set(rows["h"]) | set(rows["s"])


def test_hoyle_piles_show_only_the_tops_and_the_seven(tiny_deck):
    rows = {"c": [f"{r}c" for r in "3456789T"]}
    poses = layout_rows(rows, "hoyle", (300, 200), 110)
    scene = render(_table(600, 400), Camera.flat(600, 400), poses, {tiny_deck.name: tiny_deck}, tiny_deck.name, shadow=0.0)
    assert {c for c, _ in scene.visible_indices()} == {"3c", "7c", "Tc"}


def test_hands_laid_down_show_every_card_of_every_seat(tiny_deck):
    from datasets.layouts import layout_hands

    hands = {0: ["2c", "5d", "9h", "Ks"], 1: ["3c", "4c"], 2: ["Ah", "Qh", "Jd"], 3: ["8s"]}
    poses = layout_hands(hands, 4, centre=(500, 400), radius=(330, 260), card_h=100, step=0.25)
    scene = render(_table(1000, 800), Camera.flat(1000, 800), poses, {tiny_deck.name: tiny_deck}, tiny_deck.name, shadow=0.0)
    seen = {c for c, _ in scene.visible_indices()}
    assert seen == {c for cards in hands.values() for c in cards}


def test_each_seat_reads_its_own_cards_upright():
    from datasets.layouts import layout_hands

    poses = layout_hands({0: ["2c"], 1: ["3c"], 2: ["4c"], 3: ["5c"]}, 4, centre=(500, 400), radius=(300, 250))
    by = {p.code: p for p in poses}
    assert by["2c"].cy > 600 and by["2c"].angle % 360 == pytest.approx(0)  # the seat nearest the camera
    assert by["4c"].cy < 200 and by["4c"].angle % 360 == pytest.approx(180)  # the seat across the table
    assert by["3c"].cx < 300 and by["3c"].angle % 360 == pytest.approx(270)  # left: card top towards the centre
    assert by["5c"].cx > 700 and by["5c"].angle % 360 == pytest.approx(90)
