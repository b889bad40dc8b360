"""The table seen from above: where the rows lie, which seat a card lies in front of.

Why: a camera at an angle makes the far side of the table look small and squeezed. Cards are
rectangles of one known size lying flat on the table, so their outlines tell the plane of the table:
`fit_plane` finds the homography from the picture to table millimetres that makes every detected card
a 63 x 88 mm upright rectangle (cards lie with their long side across the rows, rows running across
the picture). In table coordinates the rows are straight, the seats are at their true angles, and
"in front of Ben" means the same thing near and far.

Seats follow the players' clockwise order (the match line) with the first player on the camera's side,
the bottom of the picture; seat k lies at angle 90 + k * 360 / n degrees (y downwards, so increasing
angles go clockwise as seen from above).

    >>> plane = fit_plane([d.corners for d in detections])        # doctest: +SKIP
    >>> plane.to_table([(640, 360)])                              # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

CARD_MM = (63.0, 88.0)
_CANON = np.float32([[0, 0], [CARD_MM[0], 0], [CARD_MM[0], CARD_MM[1]], [0, CARD_MM[1]]])


def order_corners(points: Sequence[Sequence[float]]) -> np.ndarray:
    """Four corners in picture order: top-left, top-right, bottom-right, bottom-left."""
    p = np.asarray(points, np.float32).reshape(4, 2)
    c = p.mean(axis=0)
    ang = np.arctan2(p[:, 1] - c[1], p[:, 0] - c[0])
    p = p[np.argsort(ang)]  # from about -180 degrees: top-left first for an upright card
    # start at the corner nearest the top-left of the bounding box
    start = int(np.argmin(p[:, 0] + p[:, 1]))
    return np.roll(p, -start, axis=0)


def box_corners(box: Sequence[float]) -> np.ndarray:
    x1, y1, x2, y2 = box
    return np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])


@dataclass(frozen=True)
class TablePlane:
    """Picture <-> table millimetres."""

    H: np.ndarray  # picture -> table
    cards_used: int

    def to_table(self, points) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)

    def to_picture(self, points) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.H)).reshape(-1, 2)


def _rms(H: np.ndarray, cards: list[np.ndarray]) -> float:
    """How far the cards are from 63 x 88 mm rectangles under H (mm, root mean square)."""
    err = []
    for c in cards:
        mapped = cv2.perspectiveTransform(c.reshape(-1, 1, 2), H).reshape(-1, 2)
        offset = (mapped - _CANON).mean(axis=0)
        err.append(((mapped - _CANON - offset) ** 2).sum(axis=1))
    return float(np.sqrt(np.mean(np.concatenate(err))))


def fit_plane(outlines: Sequence[Sequence[Sequence[float]]], rounds: int = 25) -> TablePlane | None:
    """Homography that makes every card outline a 63 x 88 mm rectangle (None without any card).

    First an affine map, which is linear in the unknowns once each card's own position is taken out
    (subtract each card's mean corner): robust even with small, jittered outlines. Then, with enough
    cards, the perspective part is refined by alternating "place each card where its corners say" and
    "refit one homography to all corners"; it is kept only if it fits the cards better and stays sane.
    """
    cards = [order_corners(o) for o in outlines if o is not None and len(o) == 4]
    if not cards:
        return None
    src = np.concatenate([c - c.mean(axis=0) for c in cards])
    dst = np.concatenate([_CANON - _CANON.mean(axis=0) for _ in cards])
    X = np.hstack([src, np.zeros((len(src), 0))])
    A, *_ = np.linalg.lstsq(X, dst, rcond=None)  # 2x2 linear part: dst = src @ A
    all_pts = np.concatenate(cards)
    t = _CANON.mean(axis=0) - all_pts.mean(axis=0) @ A
    H = np.eye(3)
    H[:2, :2] = A.T
    H[:2, 2] = t
    if len(cards) < 8:
        return TablePlane(H, len(cards))
    best, best_err = H, _rms(H, cards)
    Hp = H
    for _ in range(rounds):
        dst_all = []
        for c in cards:
            mapped = cv2.perspectiveTransform(c.reshape(-1, 1, 2), Hp).reshape(-1, 2)
            dst_all.append(_CANON + (mapped - _CANON).mean(axis=0))
        H_new, _ = cv2.findHomography(all_pts, np.concatenate(dst_all).astype(np.float32), 0)
        if H_new is None:
            break
        Hp = H_new
        err = _rms(Hp, cards)
        if err < best_err and _sane(Hp, all_pts):
            best, best_err = Hp, err
    return TablePlane(best, len(cards))


def _sane(H: np.ndarray, pts: np.ndarray) -> bool:
    """The perspective part must not flip or blow up over the cards' own area."""
    w = pts @ H[2, :2] + H[2, 2]
    return bool(np.all(w > 0) and w.max() / w.min() < 3.0)


def seat_angle(seat: int, n_players: int) -> float:
    """Direction from the table's centre to seat `seat` (radians, y downwards; seat 0 is the camera's side)."""
    return math.pi / 2 + seat * 2 * math.pi / n_players


def nearest_seat(angle: float, n_players: int, allowed: Sequence[int] | None = None) -> int:
    """The seat whose direction is closest to `angle` (among `allowed` seats, if given)."""
    seats = list(range(n_players)) if allowed is None else list(allowed)

    def gap(s: int) -> float:
        d = (angle - seat_angle(s, n_players)) % (2 * math.pi)
        return min(d, 2 * math.pi - d)

    return min(seats, key=gap)


def enclosing(boxes: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    """The box that takes in all of `boxes` (x1, y1, x2, y2 each)."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over the smaller box: near 1 when one card lies on (a pile over) the other."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return inter / small if small > 0 else 0.0


class TableModel:
    """What lies where: the rows' region in table coordinates and the seats around it.

    It learns from the cards the rules engine accepted as played (they lie in the rows): their
    outlines give the plane, their centres the rows' centre and extent. A card far outside the rows is
    in front of a seat: a hand laid down at the end of the round.
    """

    def __init__(self, n_players: int):
        self.n_players = n_players
        self.row_outlines: dict[str, np.ndarray] = {}  # card -> picture outline, for cards in the rows
        self._plane: TablePlane | None = None
        self._dirty = False

    def add_row_card(self, card: str, outline) -> None:
        self.row_outlines[card] = np.asarray(outline, np.float32).reshape(4, 2)
        self._dirty = True

    def remove_row_card(self, card: str) -> None:
        """A card taken for played was not (a hand card): its outline no longer tells where the rows are."""
        if self.row_outlines.pop(card, None) is not None:
            self._dirty = True

    @property
    def plane(self) -> TablePlane | None:
        """The table plane from the row cards' outlines, refitted when a card was added."""
        if self._dirty:
            self._plane = fit_plane(list(self.row_outlines.values()))
            self._dirty = False
        return self._plane

    def rows_centre_and_extent(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Centre of the rows and their half-extent (x, y) in table millimetres."""
        if self.plane is None:
            return None
        centres = self.plane.to_table([o.mean(axis=0) for o in self.row_outlines.values()])
        sevens = [i for i, c in enumerate(self.row_outlines) if c[0] == "7"]
        centre = centres[sevens].mean(axis=0) if sevens else centres.mean(axis=0)
        half = np.maximum(np.abs(centres - centre).max(axis=0), [60.0, 60.0])
        return centre, half

    def in_rows(self, outline, margin_cards: float = 1.6) -> bool:
        """Does a card lie within the rows (with a margin of about one and a half cards)?"""
        return self.point_in_rows(np.asarray(outline, np.float32).reshape(4, 2).mean(axis=0), margin_cards)

    def point_in_rows(self, point, margin_cards: float = 1.6) -> bool:
        """Does a point of the picture lie within the rows (`in_rows`, for a card's middle)?"""
        ce = self.rows_centre_and_extent()
        if ce is None:
            return True
        centre, half = ce
        p = self.plane.to_table([np.asarray(point, np.float32)])[0]
        d = np.abs(p - centre)
        return bool(d[0] <= half[0] + margin_cards * CARD_MM[0] and d[1] <= half[1] + margin_cards * CARD_MM[1] * 0.6)

    def seat_of(self, outline, allowed: Sequence[int] | None = None) -> int:
        """The seat a card lies in front of (by its direction from the rows' centre on the table)."""
        ce = self.rows_centre_and_extent()
        p_img = np.asarray(outline, np.float32).reshape(4, 2).mean(axis=0)
        if ce is None:
            raise ValueError("no rows on the table yet")
        centre, _ = ce
        p = self.plane.to_table([p_img])[0]
        angle = math.atan2(p[1] - centre[1], p[0] - centre[0])
        return nearest_seat(angle, self.n_players, allowed)
