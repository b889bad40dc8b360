"""A hand or an arm over the table is recognised, and frames it covers produce no event."""

from __future__ import annotations

import math

import numpy as np

from datasets.game_video import Arm, OracleDetector, TableRenderer, drawn_deck
from scorekeeper.events import MatchStart, Play
from vision.capture import Frame
from vision.occlusion import CoverWatch
from vision.watcher import Watcher

PLAYERS = ("Anna", "Ben", "Cleo", "Dan")


def test_an_arm_from_the_edge_is_covered_and_a_card_is_not():
    table = np.full((360, 640, 3), (40, 110, 40), np.uint8)
    watch = CoverWatch()
    assert not watch.update(table).covered
    with_card = table.copy()
    with_card[150:190, 300:328] = 245  # a card put down in the middle
    assert not watch.update(with_card).covered
    arm = with_card.copy()
    arm[200:360, 280:340] = (120, 160, 210)  # an arm reaching in from the bottom edge
    cover = watch.update(arm)
    assert cover.covered
    angle = cover.entry_angle((320, 180))
    assert abs(angle - math.pi / 2) < 0.6  # it comes in from below: the camera-side seat


def test_a_card_that_stays_becomes_part_of_the_table():
    table = np.full((360, 640, 3), (40, 110, 40), np.uint8)
    watch = CoverWatch()
    watch.update(table)
    with_cards = table.copy()
    with_cards[0:60, 300:400] = 245  # a hand of cards laid down at the far edge: still, so learnt in time
    verdicts = [watch.update(with_cards).covered for _ in range(25)]
    assert verdicts[-1] is False


class PhantomCards(OracleDetector):
    """Reads the renderer's truth, but would also 'see' a legal 8d whenever an arm is in the picture,
    like a recognizer fooled by a hand. Covered frames must never reach it."""

    def __init__(self, covered_keys: set, **kw):
        super().__init__(**kw)
        self.covered_keys = covered_keys
        self.calls_on_covered = 0

    def detect(self, image):
        from datasets.game_video import OracleDetection, frame_key

        found = super().detect(image)
        if frame_key(image) in self.covered_keys:
            self.calls_on_covered += 1
            found.append(OracleDetection("8d", 0.95, (300.0, 150.0, 330.0, 190.0)))
        return found


def test_a_hand_covering_the_table_produces_no_event():
    rng = np.random.default_rng(4)
    r = TableRenderer(drawn_deck(), PLAYERS, "spread", rng, size=(640, 360))
    for card in ("7d", "7c", "6d"):
        r.put_in_row(card)
    target = r.put_in_row("8c")
    frames = [r.film(i) for i in range(6)]
    # Dan's arm comes in, hovers over the rows for a second and a half, moving a little, and leaves
    reach = [0.3, 0.6, 0.9] + [0.95 + 0.05 * math.sin(k) for k in range(15)] + [0.6, 0.3]
    frames += [r.film(6 + k, Arm(3, target, v, r.skin, r.sleeve)) for k, v in enumerate(reach)]
    frames += [r.film(6 + len(reach) + k) for k in range(8)]
    from datasets.game_video import frame_key

    covered = {frame_key(f.image) for f in frames if f.covered}
    detector = PhantomCards(covered, seed=1, drop=0.0, misread=0.0)
    news = []
    w = Watcher(MatchStart("parliament", PLAYERS), "Dan", detector, on_news=news.append)
    before = None
    for f in frames:
        detector.learn(f)
        w.see(Frame(f.index, f.image, f.index / 10))
        if f.index == 5:
            before = list(w.events)
    w.finish()
    assert before is not None and [e for e in before if isinstance(e, Play)]  # the rows were taken in
    assert w.events == before  # nothing happened while the arm was over the table
    assert not any(n.kind in ("illegal", "removed") for n in news)
    arm_frames = [f for f in frames if f.covered]
    assert w.frames_covered >= len(arm_frames) - 3  # at most the frames where the arm is just at the edge
    assert detector.calls_on_covered <= 3
