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

import math
from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence

from .table import enclosing, overlap


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
    support: float = 0.0  # the confidences this card was read with over the streak, summed (`_read_share`)
    direct: int = 0  # sightings in the streak where it was the recognizer's first reading
    single: bool = False  # last seen as one corner index alone (its box is that index)
    recent: list[int] = field(default_factory=list)  # the latest frames it was seen in
    recent_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)  # and where
    recent_direct: list[int] = field(default_factory=list)  # the latest frames it was the first reading in
    #: where it was read as one lone index in its latest such sightings (frame, box): a neighbour's
    #: index misread as this card moves `box` there for a while, and the card's own place must stay known
    places: list[tuple[int, tuple[float, float, float, float]]] = field(default_factory=list)
    #: the last time it was read whole (its two corner indices alike), and that box
    whole_last: int = -1
    whole_box: tuple[float, float, float, float] | None = None
    first_whole: int = -1  # the first frame it was read whole in the streak (or one it went on from)
    #: frames between the card's sighting before this streak and the streak's start (0: never seen
    #: before): a card buried in a pile comes back after a long while, a flickering one at once
    unseen_before: int = 0
    #: the first frame this card was read at all, anywhere (-1: not yet): kept over all its streaks
    first_read: int = -1
    #: where that first reading was, and whether it was one lone index (a card first read somewhere
    #: else than where it lies was another card misread there)
    first_box: tuple[float, float, float, float] | None = None
    first_single: bool = False
    #: the first frame it became steady, over all its streaks (-1: not yet)
    first_steady: int = -1
    #: the first frame of the current streak where it was the recognizer's first reading (-1: not yet):
    #: a streak may begin with glimpses of it as another card's next reading
    first_direct: int = -1
    #: the boxes of all the corner indices read as this card in its latest sightings with several
    #: (on a design with four indices, the card, even when its pair is down one edge; but a recognizer
    #: may join two cards, one misread: the watcher, which knows the table, checks their size)
    card_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: the corners of its whole box where its own indices were read (0 top-left, 1 top-right,
    #: 2 bottom-left, 3 bottom-right), over all its whole readings: a design with two indices shows
    #: them at two opposite corners; the other two are empty, or a neighbour's index
    index_corners: set[int] = field(default_factory=set)
    #: its latest first readings somewhere else than where it lies, while it lies steadily (frame, box,
    #: confidence): not seen for the card there, but kept, for the watcher may learn that where it
    #: lies is another card misread (a hand card at the picture's far edge)
    elsewhere: list[tuple[int, tuple[float, float, float, float], float]] = field(default_factory=list)

    @property
    def counted_from(self) -> int:
        """The frame its streak counts from: its first reading as the recognizer's first choice, when
        it was mostly read so (glimpses as another card's next reading before that are not it), else
        the streak's first sighting."""
        if 2 * self.direct >= self.hits and self.first_direct >= self.first_frame:
            return self.first_direct
        return self.first_frame

    def keep_elsewhere(self, frame: int, box: tuple[float, float, float, float], conf: float) -> None:
        """Keep aside a first reading of it somewhere else than where it lies (`elsewhere`)."""
        self.elsewhere.append((frame, box, conf))
        del self.elsewhere[:-30]

    def seen_since(self, frame: int) -> int:
        """In how many of its latest frames (up to 30) it was seen at or after `frame`."""
        return sum(1 for f in self.recent if f >= frame)

    def read_first_since(self, frame: int) -> int:
        """In how many of its latest frames (up to 30) it was the recognizer's first reading, at or
        after `frame` (not a next reading of another card's index)."""
        return sum(1 for f in self.recent_direct if f >= frame)


def _read_share(d: DetectionLike) -> float:
    """How much of a reading's top probability its confidence is (the index's score: a card's
    confidence is that score times the reading's probability), to weigh its next readings alike: a
    next reading of probability p counts p times that, as a direct reading of it would. Summed as
    they were, unweighed, a far index scoring 0.4 and read as the six (0.71) or the eight (0.29)
    gave the eight more support than the six (kennard_4color round 440: the six of diamonds played
    as the eight, the eight as the six, by the wrong players)."""
    alternatives = tuple(getattr(d, "alternatives", ()) or ())
    if not alternatives or alternatives[0][0] != d.card or alternatives[0][1] <= 0:
        return 1.0
    return min(1.0, float(d.confidence) / float(alternatives[0][1]))


@dataclass
class Stabiliser:
    """Per-card presence with hysteresis. `min_confidence` per frame, `steady_confidence` on average."""

    on_hits: int = 3
    off_misses: int = 4
    gap_allowed: int = 1  # missed frames tolerated inside a sighting streak
    memory: int = 20  # frames a broken-off sighting is remembered: when it was first seen stays known
    min_confidence: float = 0.12
    steady_confidence: float = 0.2
    alternative_min: float = 0.1  # a next reading at least this likely counts as a sighting of that card
    tracks: dict[str, Track] = field(default_factory=dict)
    #: where a card's bottom-right index lies from its top-left one, in index heights (learnt from
    #: cards whose two indices were read alike; None until one was seen)
    corner_offset: tuple[float, float] | None = None
    #: places where the watcher knows a card's reading is another card misread (card -> box): a
    #: sighting elsewhere is then the card itself, not to be ignored
    misread_at: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    _offsets: list[tuple[float, float]] = field(default_factory=list)
    _offsets_at: list[tuple[float, float]] = field(default_factory=list)  # where each was learnt (middle)
    #: the corner offset learnt near a pair counts (`offset_near`): the watcher turns it off once the
    #: rows are done, when the hands laid down, turned and fanned, are what is read whole
    local_corners: bool = True
    #: a card's sighting streaks broken off by a reading of it far away (the last few, newest last)
    _left: dict[str, list[Track]] = field(default_factory=dict)

    def _learn_corners(self, d: DetectionLike) -> None:
        indices = tuple(getattr(d, "indices", ()) or ())
        if len(indices) != 2 or not _same_card(indices[0], indices[1]):
            return
        dx, dy = _corner_offset(*indices)
        if dx < 0.5 or dy < 0.8:
            return  # not a diagonal pair
        self._offsets.append((dx, dy))
        self._offsets_at.append(((indices[0][0] + indices[1][2]) / 2, (indices[0][1] + indices[1][3]) / 2)
                                if self.local_corners else (math.inf, math.inf))  # (never near anything)
        del self._offsets[:-50], self._offsets_at[:-50]
        xs, ys = sorted(o[0] for o in self._offsets), sorted(o[1] for o in self._offsets)
        self.corner_offset = (xs[len(xs) // 2], ys[len(ys) // 2])

    def offset_near(self, box: tuple[float, ...], most: int = 5) -> tuple[float, float] | None:
        """`corner_offset` as learnt from the cards read whole nearest `box` (the `most` nearest, their
        median): with the camera at an angle a card's corners lie differently apart, in index
        heights, at the picture's sides than in its middle (photo deck round 480: 1.4 index heights
        across at the left edge, 2.2 over the table)."""
        learnt = [i for i, at in enumerate(self._offsets_at) if math.isfinite(at[0])]
        if not self.local_corners or len(learnt) < most:
            return None
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        near = sorted(learnt, key=lambda i: (self._offsets_at[i][0] - x) ** 2 + (self._offsets_at[i][1] - y) ** 2)[:most]
        xs, ys = sorted(self._offsets[i][0] for i in near), sorted(self._offsets[i][1] for i in near)
        return xs[most // 2], ys[most // 2]

    def opposite(self, a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        """Are two lone index boxes the two corner indices of one card (`opposite_corners`), by the
        corner offset learnt over the table or, within half its slack, by the one learnt near them
        (`offset_near`; with the whole slack a fanned eight's near index and the seven's far index
        under it paired: kennard_4color round 655)?"""
        return (opposite_corners(a, b, self.corner_offset)
                or opposite_corners(a, b, self.offset_near(enclosing([a, b])), slack=0.5))

    def update(self, frame: int, detections: Iterable[DetectionLike]) -> list[Track]:
        """Take one uncovered frame's detections; returns the tracks that became steady in it.

        A recognizer's next readings of a card (`alternatives`, when it gives them) count as weaker
        sightings of those cards at the same place: a card read as the three of spades in one frame and
        as the three of clubs in the next is seen in both, and the watcher, which knows what can lie
        there, picks between them."""
        seen: dict[str, tuple[float, DetectionLike, bool]] = {}
        detections = list(detections)
        for d in detections:
            self._learn_corners(d)
        for d in detections:
            if d.confidence < self.min_confidence:
                continue
            if d.card not in seen or not seen[d.card][2] or d.confidence > seen[d.card][0]:
                seen[d.card] = (float(d.confidence), d, True)
        for d in detections:
            if d.confidence < self.min_confidence:
                continue
            for card, p in tuple(getattr(d, "alternatives", ()) or ())[1:]:
                if p >= self.alternative_min and (card not in seen or (not seen[card][2] and p > seen[card][0])):
                    seen[card] = (float(p), d, False)
        newly = []
        near: set[str] = set()
        for card, (conf, d, direct) in seen.items():
            t = self.tracks.get(card)
            resumed: Track | None = None
            misread = self.misread_at.get(card)
            box, single = _one_card(d, t.box if t is not None and t.hits > 0 else None, misread, self.corner_offset,
                                    lying=t is not None and t.present and t.single)
            tracked_at_misread = (t is not None and t.hits > 0 and misread is not None
                                  and _reads_at(t.box, t.single, misread))
            if (misread is not None and single and _same(box, misread) and t is not None and t.hits > 0
                    and not tracked_at_misread and (t.present or t.misses <= self.gap_allowed)):
                # the known misreading (a lone index) again, while the card itself is seen elsewhere:
                # steady there, or its sighting streak there still going on. Not a streak that broke
                # off (kennard_4color round 872: the five of hearts, misread on the six's pile long
                # before it came, glimpsed once as the jack's next reading at 0.1 as the arm the
                # hand check missed put it on the six; that glimpse, never seen again, kept every
                # reading of the five on the pile, at 0.65 look after look, ignored for sixty looks)
                continue
            if tracked_at_misread and not _reads_at(box, single, misread):
                t = None  # the card itself, away from where another card is misread as it
            elif (t is not None and t.present and single and not t.single and t.whole_box is not None
                  and frame - t.whole_last <= self.memory
                  and (box[3] <= t.whole_box[1] or box[1] >= t.whole_box[3])):
                # Read whole lately, it lies within that box: a lone index read above or below it is
                # another card's index misread (kennard_4color round 325: the eight of hearts' far
                # index, just above the eight of diamonds, read as it, which moved the eight of
                # diamonds' place there and left where it lies to a misreading of it as the five,
                # played). Not one beside it: there a card fanned on it shows its index, and that
                # index misread as this card has rules of its own (kennard_4color round 214 of the tests)
                if direct and far_apart(t.box, box):
                    t.keep_elsewhere(frame, box, conf)  # (one far off is kept aside, as below)
                continue
            elif (t is not None and t.hits > 0 and far_apart(t.box, box)
                  and not (single and t.single and self.opposite(t.box, box))):
                # (read at one corner index, then at the other: one card, in one place)
                # Seen somewhere else than where it lies: most likely another card misread as this one.
                if t.present:
                    if direct:
                        t.keep_elsewhere(frame, box, conf)
                    continue  # counts as not seen here; a card really moved goes, then comes back there
                left = self._left.setdefault(card, [])
                left.append(t)
                del left[:-3]
                t = None  # a sighting streak must stay in one place: start afresh here
                # (or go on with one it broke off here lately: a reading far away in between is
                # another card misread as this one, not this card moved; kennard_4color round 1045:
                # the five of clubs, read once where it lies by a closer look, then joined with two
                # other cards' indices far off, then read where it lies again: first read the first time)
                back = [s for s in left[:-1] if not far_apart(s.box, box) and frame - s.last_seen <= self.memory]
                resumed = back[-1] if back else None
            if t is None or (not t.present and t.misses > self.gap_allowed):
                if t is None:
                    t = resumed
                first, before, before_boxes, before_direct = frame, [], [], []
                whole: tuple[int, tuple[float, float, float, float] | None, int] = (-1, None, -1)
                if t is not None and not far_apart(t.box, box) and frame - t.last_seen <= self.memory:
                    # its sightings here go on counting
                    before, before_boxes, before_direct = t.recent, t.recent_boxes, t.recent_direct
                    # Seen here at least twice (in this streak, or in one before it that this streak
                    # went on from): the same card in the same place, lost for a moment: it was here then.
                    if t.hits >= 2 or t.first_frame < t.last_seen:
                        first = t.first_frame
                        # and where it was read whole there (kennard_4color round 374: the nine of
                        # clubs, a pile's top, lost while an arm put the ten on it: the ten, read at
                        # the nine's far corner, is told from a misreading by the nine's whole box)
                        whole = (t.whole_last, t.whole_box, t.first_whole)
                unseen = frame - t.last_seen if t is not None and t.last_seen >= 0 else 0
                read_before = t is not None and t.first_read >= 0
                t = self.tracks[card] = Track(card, first, unseen_before=unseen, recent=list(before),
                                              recent_boxes=list(before_boxes), recent_direct=list(before_direct),
                                              first_read=t.first_read if read_before else frame,
                                              first_box=t.first_box if read_before else box,
                                              first_single=t.first_single if read_before else single,
                                              first_steady=-1 if t is None else t.first_steady,
                                              first_direct=t.first_direct if t is not None and first == t.first_frame else -1,
                                              whole_last=whole[0], whole_box=whole[1], first_whole=whole[2])
            near.add(card)
            t.hits += 1
            t.misses = 0
            t.confidence += (conf - t.confidence) / t.hits
            t.support += conf if direct else conf * _read_share(d)  # a next reading weighed as a direct one
            t.direct += direct
            if direct and t.first_direct < 0:
                t.first_direct = frame
            t.box = box
            t.single = single
            t.corners = tuple((float(x), float(y)) for x, y in d.corners) if d.corners is not None else None
            t.last_seen = frame
            t.recent.append(frame)
            t.recent_boxes.append(box)
            del t.recent[:-30], t.recent_boxes[:-30]
            if direct:
                t.recent_direct.append(frame)
                del t.recent_direct[:-30]
            indices = tuple(getattr(d, "indices", ()) or ())
            if single:
                t.places.append((frame, box))
                del t.places[:-30]
            elif len(indices) >= 2:
                t.whole_last, t.whole_box = frame, box
                if t.first_whole < 0:
                    t.first_whole = frame
                t.index_corners |= _corners_read(box, indices)
            if direct and len(indices) >= 2:
                joined = (min(b[0] for b in indices), min(b[1] for b in indices), max(b[2] for b in indices),
                          max(b[3] for b in indices))
                if joined not in t.card_boxes:
                    t.card_boxes.append(joined)
                    del t.card_boxes[:-8]
            held = t.hits >= 2 * self.on_hits  # read so, if unsurely, again and again
            spotty = False
            if not t.present and t.confidence >= self.steady_confidence:
                # read at one place in broken spells, never three looks running, but again and again
                # (there: a neighbour's index a little way off misread as this card is not it)
                lately = [f for f, b in zip(t.recent, t.recent_boxes) if frame - f <= 3 * self.memory and _same(b, box)]
                spotty = len(lately) >= 2 * self.on_hits and frame - lately[0] >= self.memory
                if spotty:
                    t.first_frame = min(t.first_frame, lately[0])  # it lay here from the first of them
            if not t.present and (spotty or (t.hits >= self.on_hits
                                             and (t.confidence >= self.steady_confidence or held))):
                t.present = True
                t.since = frame
                if t.first_steady < 0:
                    t.first_steady = frame
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

    def read_afresh(self, card: str) -> None:
        """End a steady card's sighting streak: from its next sighting on it is a new streak, steady only
        after `on_hits` more (an arm left something new where it was read, so what lies there now may
        be another thing than what was read there before). Its first reading ever is kept."""
        t = self.tracks.get(card)
        if t is None or not t.present:
            return  # (a sighting not steady yet goes on: kept from its start, photo deck round 53's nine of hearts)
        t.present, t.hits, t.misses = False, 0, self.gap_allowed + 1
        t.first_frame = t.last_seen  # (so the next sighting does not carry this streak on)

    def count_from(self, card: str, frame: int) -> None:
        """A steady card's sighting streak is taken to begin at its first sighting at or after `frame`
        (its sightings before were another card misread there); steady still if seen `on_hits` times
        since, else from its next sightings on. Its first reading ever is kept."""
        t = self.tracks.get(card)
        if t is None:
            return
        kept = [f for f in t.recent if f >= frame]
        if not kept:
            self.read_afresh(card)
            return
        t.first_frame, t.hits = kept[0], len(kept)
        direct = [f for f in t.recent_direct if f >= frame]
        t.direct, t.first_direct = len(direct), (direct[0] if direct else -1)
        if t.hits < self.on_hits:
            t.present = False
        elif t.present:
            t.since = kept[self.on_hits - 1]

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


def opposite_corners(a: tuple[float, ...], b: tuple[float, ...], offset: tuple[float, float] | None,
                     slack: float = 1.0) -> bool:
    """Are two corner-index boxes the top-left and bottom-right index of one card? `offset` is where
    the bottom-right index lies from the top-left one on this deck (in index heights, learnt from cards
    read whole); a neighbour in a row lies beside it, a card of the next row below it. A card's two
    indices are alike in size: a box half as tall again, or nearly twice as wide, as the other is no
    index of the same card (an index found twice, a little apart, and joined, beside a new card's
    index a row further up); the recognizer's box of an index may take in a little of the pip beside
    it (kennard_4color round 28: the jack's near index 1.5 times as wide as its far one)."""
    if offset is None:
        return False
    ha, hb = a[3] - a[1], b[3] - b[1]
    wa, wb = a[2] - a[0], b[2] - b[0]
    if min(ha, hb, wa, wb) <= 0 or max(ha, hb) > 1.5 * min(ha, hb) or max(wa, wb) > 1.75 * min(wa, wb):
        return False
    h = (ha + hb) / 2
    dx = ((b[0] + b[2]) - (a[0] + a[2])) / 2 / h
    dy = ((b[1] + b[3]) - (a[1] + a[3])) / 2 / h
    if dy < 0:
        dx, dy = -dx, -dy
    return (abs(dx - offset[0]) <= slack * (0.25 * offset[0] + 0.2)
            and abs(dy - offset[1]) <= slack * (0.2 * offset[1] + 0.2))


def _same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """One place: the boxes overlap by more than half of the smaller."""
    return overlap(a, b) > 0.5


def _reads_at(box: tuple[float, ...], single: bool, place: tuple[float, ...]) -> bool:
    """Is a card seen as `box` (a lone index, or `single` False: the union of its two corner
    indices) read at `place`? A card read whole is read at its two corners, not everywhere between
    them: a lone index place inside it (a neighbour's index it now half covers) is not where it is
    read."""
    x1, y1, x2, y2 = box
    w, h = place[2] - place[0], place[3] - place[1]
    if single or 4 * w * h > (x2 - x1) * (y2 - y1):
        return _same(box, place)
    return _same((x1, y1, x1 + w, y1 + h), place) or _same((x2 - w, y2 - h, x2, y2), place)


def _one_card(d: DetectionLike, near: tuple[float, ...] | None,
              avoid: tuple[float, ...] | None = None,
              offset: tuple[float, float] | None = None,
              lying: bool = False) -> tuple[tuple[float, float, float, float], bool]:
    """The box of one card: a recognizer that joins the corner indices read as one card joins two
    cards when it misreads one of them as the other (a deck holds each card once). The indices are
    paired up as the two corners of one card, each index in at most one pair (with the corner
    `offset` learnt from this table, pairs that match it best first; a lone index lying a card's
    height from a pair is not a third corner of it); then the group nearest where the card was seen
    is kept (else the first); never the one at a place known to be a misreading (`avoid`); a pair
    (both corners read alike) before a lone index (that is another card misread), unless the card lies
    steadily at `near` as a lone index (`lying`: a fanned card, only its index showing) and that index
    is read in this reading too, the pair beside it (within a card's size: a pair further off may be
    the card itself, and the index where it was thought to lie another card misread)."""
    raw = [tuple(float(v) for v in b) for b in (getattr(d, "indices", ()) or ())]
    if len(raw) < 2:
        return tuple(float(v) for v in d.box), len(raw) == 1  # type: ignore[return-value]
    # one index found more than once is one index
    indices: list[list[tuple[float, ...]]] = []
    for b in raw:
        for g in indices:
            if _same(b, g[0]):
                g.append(b)
                break
        else:
            indices.append([b])

    def misfit(a, b) -> float:  # how far a pair is from the learnt corner offset, in index heights
        if offset is None:
            return 0.0
        dx, dy = _corner_offset(a, b)
        return abs(dx - offset[0]) + abs(dy - offset[1])

    pairs = sorted((misfit(indices[i][0], indices[j][0]), i, j) for i in range(len(indices))
                   for j in range(i + 1, len(indices)) if _same_card(indices[i][0], indices[j][0]))
    used: set[int] = set()
    groups: list[tuple[list[tuple[float, ...]], bool]] = []  # (boxes, lone index)
    for _, i, j in pairs:
        if i not in used and j not in used:
            used |= {i, j}
            groups.append((indices[i] + indices[j], False))
    groups += [(g, True) for k, g in enumerate(indices) if k not in used]
    if len(groups) == 1 and groups[0][1]:
        # one lone index found more than once: where it lies is the mean of its boxes, not their
        # union, which is wider than the index and no longer pairs with the card's other corner by
        # the corner offset (photo deck round 605: the eight of hearts' bottom-right index found
        # twice, 5 px apart, 16 px wide joined)
        return tuple(sum(v) / len(groups[0][0]) for v in zip(*groups[0][0])), True  # type: ignore[return-value]
    if len(groups) == 1:
        return enclosing(groups[0][0]), groups[0][1]  # type: ignore[return-value]
    found = [(enclosing(g), lone) for g, lone in groups]
    if avoid is not None:
        found = [f for f in found if not _same(f[0], avoid)] or found
    whole = [f for f in found if not f[1]]
    if (lying and near is not None and len(whole) == 1 and not _same(whole[0][0], near)
            and not far_apart(whole[0][0], near)):
        # its own index, read where it lies, and a pair elsewhere joined to it: the pair is another
        # card misread as this one (kennard_4color round 337: a ten of hearts put on the table beside
        # the eight's index, read whole as the eight with it; the eight's place moved onto the ten,
        # and the ten, read as itself there, taken for the eight misread)
        own = [f for f in found if f[1] and _same(f[0], near)]
        if len(own) == 1:
            return own[0]
    if len(whole) == 1:
        return whole[0]  # both corners read alike: that card; a lone index read so is another card misread
    if near is None:
        return found[0]
    # where the card was read whole, the group at one of its corners (photo deck round 82: the queen
    # of diamonds read whole, then at its near index with the king's near index beside it, inside
    # its box and nearer its middle, read as the queen too: the king, put on it, taken for a misreading)
    at = [f for f in found if _reads_at(near, False, f[0])]
    if len(at) == 1:
        return at[0]
    cx, cy = (near[0] + near[2]) / 2, (near[1] + near[3]) / 2
    return min(found, key=lambda f: abs((f[0][0] + f[0][2]) / 2 - cx) + abs((f[0][1] + f[0][3]) / 2 - cy))


def _corners_read(box: tuple[float, ...], indices: Sequence[Sequence[float]]) -> set[int]:
    """The corners of a card's whole `box` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right)
    where the indices lying inside it were read: an index's middle within its own size of that
    corner. Not one read further in (a pip or a court figure found as an index, joined to the card's
    reading: kennard_4color round 1260, the jack of diamonds read with a third index a third of the
    way in from its right edge, which marked the jack's top-right corner as one of its indices; the
    queen's index, put down just over that corner in a spread row, was then taken for the jack's
    and the queen written a turn late, for the wrong player)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    out = set()
    for b in indices:
        mx, my = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        k = (mx > cx) + 2 * (my > cy)
        x1, y1, x2, y2 = corner_boxes(box, b[2] - b[0], b[3] - b[1])[k]
        if x1 <= mx <= x2 and y1 <= my <= y2:
            out.add(k)
    return out


def corner_boxes(whole: tuple[float, ...], w: float, h: float) -> list[tuple[float, float, float, float]]:
    """The boxes, `w` by `h`, at the four corners of a card's whole box: 0 top-left, 1 top-right,
    2 bottom-left, 3 bottom-right (`Track.index_corners` numbers them so)."""
    x1, y1, x2, y2 = whole
    return [(x1, y1, x1 + w, y1 + h), (x2 - w, y1, x2, y1 + h), (x1, y2 - h, x1 + w, y2), (x2 - w, y2 - h, x2, y2)]


def _corner_offset(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float]:
    """Where the lower of two index boxes lies from the upper one, in index heights (x, y)."""
    a, b = sorted((a, b), key=lambda i: i[1])
    h = max(a[3] - a[1], b[3] - b[1], 1.0)
    return ((b[0] + b[2]) - (a[0] + a[2])) / 2 / h, ((b[1] + b[3]) - (a[1] + a[3])) / 2 / h


def _same_card(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Can two index boxes be the two corners of one card? Its corners are diagonally apart (a card
    is 2.5 to 4.5 index heights tall, depending on the deck's design)."""
    if _same(a, b):
        return True  # one index found twice
    h = max(a[3] - a[1], b[3] - b[1], 1.0)
    dx, dy = abs((a[0] + a[2]) - (b[0] + b[2])) / 2, abs((a[1] + a[3]) - (b[1] + b[3])) / 2
    return dx <= 3.5 * h and h <= dy <= 5.0 * h  # diagonally apart; side by side is two cards in a row


def far_apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Are two boxes farther apart than the size of the card?"""
    size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1], 1.0)
    return abs((a[0] + a[2]) - (b[0] + b[2])) / 2 > size or abs((a[1] + a[3]) - (b[1] + b[3])) / 2 > size
