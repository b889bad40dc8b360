"""Which cards are really there: presence with hysteresis over the uncovered frames.

Why: a detector flickers (a card missed in one frame, a 6 read as an 8 in another). A card counts as
on the table once it has been seen in `on_hits` of the recent uncovered frames with enough confidence,
and as gone once it has been missing from `off_misses` uncovered frames in a row. Covered frames
(a hand over the table) change nothing: a card hidden by an arm has not left. Whether a steady card
is *believed* (legal next, or a flagged illegal card really lying there) is the watcher's business,
because that needs the rules engine.

    >>> stab = Stabiliser()
    >>> stab.update(12, detections)          # doctest: +SKIP
    >>> stab.steady()                        # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence


class DetectionLike(Protocol):
    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: Sequence[Sequence[float]] | None


@dataclass
class Track:
    """One card identity's recent history."""

    card: str
    first_frame: int  # first frame of the current sighting streak
    hits: int = 0
    misses: int = 0  # uncovered frames in a row without it
    confidence: float = 0.0  # running mean over the streak
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    corners: tuple[tuple[float, float], ...] | None = None
    present: bool = False
    last_seen: int = -1
    since: int = -1  # frame at which it became steady


@dataclass
class Stabiliser:
    """Per-card presence with hysteresis. `min_confidence` per frame, `steady_confidence` on average."""

    on_hits: int = 3
    off_misses: int = 4
    gap_allowed: int = 1  # missed frames tolerated inside a sighting streak
    memory: int = 20  # frames a broken-off sighting is remembered: when it was first seen stays known
    min_confidence: float = 0.35
    steady_confidence: float = 0.5
    tracks: dict[str, Track] = field(default_factory=dict)

    def update(self, frame: int, detections: Iterable[DetectionLike]) -> list[Track]:
        """Take one uncovered frame's detections; returns the tracks that became steady in it."""
        seen: dict[str, DetectionLike] = {}
        for d in detections:
            if d.confidence < self.min_confidence:
                continue
            if d.card not in seen or d.confidence > seen[d.card].confidence:
                seen[d.card] = d
        newly = []
        near: set[str] = set()
        for card, d in seen.items():
            t = self.tracks.get(card)
            box = tuple(float(v) for v in d.box)
            if t is not None and t.hits > 0 and _far(t.box, box):
                # Seen somewhere else than where it lies: most likely another card misread as this one.
                if t.present:
                    continue  # counts as not seen here; a card really moved goes, then comes back there
                t = None  # a sighting streak must stay in one place: start afresh here
            if t is None or (not t.present and t.misses > self.gap_allowed):
                first = frame
                if (t is not None and t.hits >= 2 and not _far(t.box, box)
                        and frame - t.last_seen <= self.memory):
                    first = t.first_frame  # the same card in the same place, lost for a moment: it was here then
                t = self.tracks[card] = Track(card, first)
            near.add(card)
            t.hits += 1
            t.misses = 0
            t.confidence += (d.confidence - t.confidence) / t.hits
            t.box = box
            t.corners = tuple((float(x), float(y)) for x, y in d.corners) if d.corners is not None else None
            t.last_seen = frame
            if not t.present and t.hits >= self.on_hits and t.confidence >= self.steady_confidence:
                t.present = True
                t.since = frame
                newly.append(t)
        for card, t in self.tracks.items():
            if card in near:
                continue
            t.misses += 1
            if t.present and t.misses >= self.off_misses:
                t.present = False
                t.hits = 0
        return newly

    def steady(self) -> list[Track]:
        """Cards steadily on the table now, in the order their sightings began."""
        return sorted((t for t in self.tracks.values() if t.present), key=lambda t: (t.first_frame, t.card))

    def pending(self) -> list[Track]:
        """Cards being seen but not yet steady (they may still become steady)."""
        return [t for t in self.tracks.values() if not t.present and t.hits > 0 and t.misses <= self.gap_allowed]

    def is_gone(self, card: str) -> bool:
        t = self.tracks.get(card)
        return t is None or not t.present

    def outline(self, card: str) -> tuple[tuple[float, float], ...] | None:
        t = self.tracks.get(card)
        if t is None:
            return None
        if t.corners is not None:
            return t.corners
        x1, y1, x2, y2 = t.box
        return ((x1, y1), (x2, y1), (x2, y2), (x1, y2))


def _far(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Are two boxes farther apart than the size of the card?"""
    size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1], 1.0)
    return abs((a[0] + a[2]) - (b[0] + b[2])) / 2 > size or abs((a[1] + a[3]) - (b[1] + b[3])) / 2 > size
