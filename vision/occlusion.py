"""Is a hand or an arm over the table right now?

Why: while a player reaches over the table the cards under the arm vanish from view and the one in the
hand is half put down. Such frames must produce no events, and a card hidden by an arm has not left.
The test is cheap and needs no model: a small copy of the frame is compared with a running picture of
the bare table; a large changed blob, or any blob that reaches in from the edge of the picture, is an
arm (a card put down is small and lies inside). A change over most of the picture (a light switched
on, the camera knocked) also counts as covered. Whatever changed and then stands still for a few
frames (a card put down, the new light) is learnt into the bare-table picture; a moving arm is not.

    >>> watch = CoverWatch()
    >>> watch.update(frame_bgr).covered        # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SMALL = (160, 90)


@dataclass(frozen=True)
class Cover:
    """The verdict on one frame: covered or not, and where the arm enters the picture (pixels), if it does."""

    covered: bool
    changed: float  # share of the picture that differs from the bare table
    entry: tuple[float, float] | None = None  # mean point where the blob touches the picture's edge
    changes: tuple[tuple[float, float], ...] = ()  # centres (pixels) of small changes inside: cards put down

    def entry_angle(self, centre: tuple[float, float]) -> float | None:
        """Direction (radians, y downwards) from `centre` to where the arm comes in."""
        if self.entry is None:
            return None
        return math.atan2(self.entry[1] - centre[1], self.entry[0] - centre[0])


class CoverWatch:
    """Keeps the bare-table picture and judges each frame against it.

    `threshold`: grey-level change that counts (0-255); `blob`: share of the picture above which an
    inside blob is an arm (a card is about 0.5% of a 720p frame); `edge_blob`: the same for blobs that
    touch the edge; `global_change`: share above which the whole scene changed; `relearn_after`:
    frames of a steady changed scene after which it is taken as the new bare table.
    """

    def __init__(self, threshold: int = 28, blob: float = 0.02, edge_blob: float = 0.004,
                 global_change: float = 0.45, absorb_after: int = 5, absorb_edge_after: int = 20,
                 adapt: float = 0.5):
        self.threshold, self.blob, self.edge_blob = threshold, blob, edge_blob
        self.global_change, self.absorb_after, self.adapt = global_change, absorb_after, adapt
        self.absorb_edge_after = absorb_edge_after
        self.background: np.ndarray | None = None
        self._previous: np.ndarray | None = None
        self._still: np.ndarray | None = None  # per pixel: frames in a row it has not changed
        self._kernel = np.ones((3, 3), np.uint8)

    def _small(self, image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)

    def update(self, image: np.ndarray) -> Cover:
        small = self._small(image)
        if self.background is None or self._previous is None or self._still is None:
            self.background, self._previous = small, small
            self._still = np.zeros(small.shape[:2], np.int32)
            return Cover(False, 0.0)
        diff = np.abs(small - self.background).max(axis=2)
        raw = diff > self.threshold
        mask = cv2.morphologyEx(raw.astype(np.uint8), cv2.MORPH_OPEN, self._kernel)
        changed = float(mask.mean())
        covered, entry, from_edge, changes = self._arm(mask, image.shape)
        covered = covered or changed > self.global_change
        self._learn(small, diff > self.threshold / 2, from_edge)
        return Cover(covered, changed, entry, changes)

    def _arm(self, mask: np.ndarray, shape: tuple[int, ...]):
        """A large blob, or one reaching in from the edge, is an arm; where does the largest enter?
        Also returns the blobs that touch the edge (they are learnt only slowly) and the centres of
        the small ones inside (something put down there since the table was last learnt)."""
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        h, w = mask.shape
        total = float(h * w)
        covered, entry, best = False, None, 0
        edge_labels = []
        changes = []
        for k in range(1, n):
            x, y, bw, bh, area = stats[k]
            touches = x == 0 or y == 0 or x + bw == w or y + bh == h
            if touches:
                edge_labels.append(k)
            share = area / total
            if not touches and share <= self.blob:
                changes.append((float((centroids[k][0] + 0.5) * shape[1] / w), float((centroids[k][1] + 0.5) * shape[0] / h)))
            if share > self.blob or (touches and share > self.edge_blob):
                covered = True
                if touches and area > best:
                    best = area
                    edge = np.zeros_like(mask, dtype=bool)
                    edge[0, :] = edge[-1, :] = True
                    edge[:, 0] = edge[:, -1] = True
                    ys, xs = np.nonzero((labels == k) & edge)
                    entry = (float(xs.mean() * shape[1] / w), float(ys.mean() * shape[0] / h))
        from_edge = np.isin(labels, edge_labels) if edge_labels else np.zeros(mask.shape, bool)
        return covered, entry, from_edge, tuple(changes)

    def _learn(self, small: np.ndarray, changed: np.ndarray, from_edge: np.ndarray) -> None:
        """Blend the unchanged table into the picture of the bare table; a change that has stood still
        for `absorb_after` frames (a card put down, a light switched on) becomes part of it at once.
        A change reaching in from the edge may be an arm resting there: it must stand still for
        `absorb_edge_after` frames (a hand of cards laid down at the table's edge does, in time)."""
        assert self.background is not None and self._previous is not None and self._still is not None
        moved = np.abs(small - self._previous).max(axis=2) > self.threshold / 2
        self._still = np.where(moved, 0, self._still + 1)
        blend = ~changed
        self.background[blend] = self.background[blend] * (1 - self.adapt) + small[blend] * self.adapt
        absorb = changed & (self._still >= np.where(from_edge, self.absorb_edge_after, self.absorb_after))
        self.background[absorb] = small[absorb]
        self._previous = small
