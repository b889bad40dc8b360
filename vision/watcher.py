"""From frames to the game record: steady cards become plays, declared passes slot in, hands become shows.

Why it needs the rules engine: a camera only sees cards appear. Who put a card down follows from the
turn order (the engine knows whose turn it is once the passes are declared), and which of the cards
that seem to appear is believable follows from the rules: only a card that could be played next is
taken at once. A card that does not fit is believed only when it really lies there, steadily, for a
while; it then goes into the record as that player's play (the engine flags it as illegal) and is
reported at once, and its removal is reported when it is seen. In the Hoyle layout, where a new card
covers the pile it is put on, a pile top further out than the row's end means the cards between were
played too (frames were missed). At the end of a round the hands laid down in front of each seat
become `show` lines.

    >>> w = Watcher(MatchStart("fan-tan", ("Anna", "Ben", "Cleo", "Dan")), dealer="Dan", detector=detector)  # doctest: +SKIP
    >>> for frame in FrameSource("frames/"): w.see(frame)        # doctest: +SKIP
    >>> w.finish(); write_record(w.events)                       # doctest: +SKIP
"""

from __future__ import annotations

import bisect
import math
from itertools import combinations, islice
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

import numpy as np

from scorekeeper.cards import DECK, SUIT_NAMES, Card, parse_card
from scorekeeper.events import End, MatchStart, Pass, Play, RoundStart, Show
from scorekeeper.flags import ILLEGAL_PASS
from scorekeeper.match import Match

from .capture import Frame
from .occlusion import Cover, CoverWatch
from .stabiliser import DetectionLike, Stabiliser, Track, corner_boxes, far_apart
from .table import CARD_MM, TableModel, box_corners, enclosing, nearest_seat, order_corners, overlap


class Detector(Protocol):
    """What the watcher reads frames with. A detector may also have `detect_closely(image)`, a slower
    look that finds smaller cards: the watcher uses it while it waits for the hands laid down."""

    def detect(self, image) -> list[DetectionLike]: ...


@dataclass(frozen=True)
class News:
    """What the dashboard hears: 'play', 'pass', 'show', 'illegal' (a card that does not fit lies there),
    'removed' (that card was taken back), 'retracted' (it fitted after all: a play before it had been
    missed), 'round', 'end'."""

    kind: str
    frame: int
    event: object | None = None
    flag: object | None = None
    message: str = ""


@dataclass
class _CoverSpell:
    start: int
    end: int | None = None
    entries: list[float] = field(default_factory=list)  # entry angles seen during the spell
    landings: tuple[tuple[float, float], ...] = ()  # where something new showed as the arm left


class Watcher:
    """Turns frames into the events of one match (record lines), one round after another."""

    def __init__(self, start: MatchStart, dealer: str, detector: Detector,
                 passes: Iterable[tuple[int, str]] = (), on_news: Callable[[News], None] | None = None,
                 stabiliser: Stabiliser | None = None, cover: CoverWatch | None = None,
                 illegal_after: int = 6, illegal_confidence: float = 0.7, clear_after: int = 10,
                 same_place: float = 0.5, fits_share: float = 0.33, gathered_least: int = 10,
                 apart_looks: int = 5, hands_settle: int = 20, closer_looks: int = 6,
                 sure_enough: float = 0.4):
        if dealer not in start.players:
            raise ValueError(f"dealer {dealer!r} is not one of the players {', '.join(start.players)}")
        self.match = Match(start)
        self.players = tuple(start.players)
        self.detector = detector
        self.on_news = on_news or (lambda news: None)
        self.stab = stabiliser or Stabiliser()
        self.cover = cover or CoverWatch()
        self.illegal_after, self.illegal_confidence, self.clear_after = illegal_after, illegal_confidence, clear_after
        self.gathered_least = gathered_least
        self.same_place = same_place  # boxes overlapping more than this (of the smaller) are one place
        self.fits_share = fits_share
        self.apart_looks = apart_looks
        self.hands_settle = hands_settle
        self.closer_looks = closer_looks
        self.sure_enough = sure_enough
        self.closer_asked = 0  # closer looks asked for after an arm visit nothing was read from (`_visit_unread`)
        self._closer_frames: set[int] = set()  # the frames those closer looks were at
        self._apart = 0  # looks that showed this round's rows laid card beside card (`_note_rows_apart`)
        #: (card, other) swaps the record refused this round (`_rewrite_with`): not tried again
        self._mirror_tried: set[tuple[str, str]] = set()
        #: (card, the card read surely instead) swapped this round (`_read_surely_instead`)
        self._read_instead: set[tuple[str, str]] = set()
        self._wholes_at: tuple | None = None  # the record's cards read whole, by look (`_opposite_on_table`)
        self._read_away: dict[str, list[tuple[int, tuple]]] = {}  # `_note_read_away`
        self._played_boxes: dict[str, tuple] = {}  # card -> where it was read when first played (`_strayed`)
        self._played_confidence: dict[str, float] = {}  # card -> its streak's mean confidence then
        self._written_in: dict[str, int] = {}  # card -> the look its play was written in (`_came_with`)
        self._redated: set[tuple[str, int]] = set()  # (card, moment) tried by `_put_down_later` this round
        self._high_way_at: tuple | None = None  # `_high_way`'s answer, with the plane and cards it was for
        #: (card, first seen, steady since, read mostly first): believable? (`_fresh`)
        self._alt_fitted: dict[tuple[str, int, int, bool], bool] = {}
        self._passes: list[tuple[int, str]] = sorted(passes)
        self.table = TableModel(len(self.players))
        self._spells: list[_CoverSpell] = []
        self._covered = False
        #: uncovered frames that showed small changes this round: (frame, their centres); an arm the
        #: hand check missed leaves them where it put its card (`_never_put_down`)
        self._stirs: list[tuple[int, tuple[tuple[float, float], ...]]] = []
        self._stirs_asked = False  # `_stirred_unseen` is at work (it asks the explained visits)
        self._looked: list[int] = []  # frames the recognizer looked at
        self._looked_since_cover = 0
        self._since_read = 0
        self.frames_unread = 0  # uncovered frames not read for cards while behind
        self._frame = -1
        self._picture_centre = (0.0, 0.0)
        self._illegal: dict[str, object] = {}  # card lying there that does not fit -> its flag
        #: cards written after lines dated later than they arrived (they did not fit there then) -> when
        #: they arrived: a card found missing before those lines lets them go where they belong
        self._arrived: dict[str, int] = {}
        #: a reading found where a card in the record lay -> [(that place, that card)]
        self._misread_places: dict[str, list[tuple[tuple[float, float, float, float], str]]] = {}
        self._row_ends_tried: set[tuple[int, str]] = set()  # (visit, card) tried as an unread row end
        self._silent_ways_tried: set[tuple] = set()  # (card, silent arms, record state) tried in `_fill_unseen`
        self._shown: dict[int, list[str]] = {}  # seat -> cards seen laid down
        self._shown_first: dict[int, int] = {}
        self._shown_done: set[int] = set()
        self._shown_changed = 0  # when a card last went into (or moved between) the hands seen
        #: hand card -> (seat, the sighting streak it was seated by, that streak's support so far)
        self._hand_seen: dict[str, tuple[int, int, float]] = {}
        self._hand_misreads: dict[str, int] = {}  # card read at another hand card's index -> seat
        self._empty_run = 0
        self.frames_seen = 0
        self.frames_covered = 0
        self.last_detections: list[DetectionLike] = []
        self._when: list[int] = [0]  # per record line: the moment it happened (a play: its arrival)
        self._opener_guessed: int | None = None  # the round line of a round whose opener is a guess
        self._start_round(dealer, 0)

    # ------------------------------------------------------------------ input
    @property
    def events(self) -> list:
        return list(self.match.events)

    @property
    def covered(self) -> bool:
        """Is a hand over the table in the latest frame?"""
        return self._covered

    def declare_pass(self, frame: int, player: str) -> None:
        """A pass declared at `frame` (the dashboard's Pass button, or a passes file)."""
        bisect.insort(self._passes, (frame, player))

    def see(self, frame: Frame, behind: bool = False) -> list[News]:
        """Take one frame; returns the news it caused.

        `behind` (a live pipeline with frames waiting): every frame is still checked for a hand over
        the table, which is cheap, so arms are followed at the full frame rate; but the recognizer
        only reads the first two uncovered frames after an arm left (when a new card shows) and
        otherwise every fifth frame."""
        news: list[News] = []
        self._frame = frame.index
        self.frames_seen += 1
        h, w = frame.image.shape[:2]
        self._picture_centre = (w / 2, h / 2)
        cover = self.cover.update(frame.image)
        if cover.covered:
            self.last_detections = []
            self.frames_covered += 1
            self._note_cover(frame.index, cover)
            self._settle(frame.index, news, final=False)
            return self._tell(news)
        if self._covered:
            self._spells[-1].end = frame.index
            self._spells[-1].landings = cover.changes
            self._forget_misreadings_near(cover.changes)
            self._covered = False
            self._looked_since_cover = 0
        if cover.changes:
            self._stirs.append((frame.index, cover.changes))
        detect = not behind or self._looked_since_cover < 2 or self._since_read >= 4
        self._since_read = 0 if detect else self._since_read + 1
        self.frames_unread += not detect
        if detect:
            closely = getattr(self.detector, "detect_closely", None)
            if closely is not None and not self._hands_awaited():
                if self._visit_unread():
                    self.closer_asked += 1
                    self._closer_frames.add(frame.index)
                else:
                    closely = None
            detections = (closely or self.detector.detect)(frame.image)
            self.last_detections = list(detections)
            self._looked.append(frame.index)
            self._looked_since_cover += 1
            rnd = self.match.round
            self.stab.local_corners = rnd is not None and not rnd.is_over  # (`Stabiliser.offset_near`)
            self.stab.update(frame.index, detections)
            self._misreadings_read_whole()
            self._note_read_away(self.last_detections)
            self._note_rows_apart()
        self._settle(frame.index, news, final=False)
        return self._tell(news)

    def finish(self) -> list[News]:
        """The source ended: settle what is still open, then write the shows and close the round."""
        news: list[News] = []
        if not self._round_closed():
            self._read_again(self._frame + 1, news)
            rnd = self.match.round
            if rnd is not None and rnd.is_over:
                self._push(End(), self._frame)
                news.append(News("end", self._frame, End()))
        return self._tell(news)

    def _read_again(self, now: int, news: list[News]) -> None:
        """The round's last look (the source ended, or its cards were gathered): settle what is still
        open, read the round again if it is not over by the count (`_reconcile_missed_plays`), then
        write the hands laid down."""
        self._settle(now, news, final=True, next_round=False)
        if self._reconcile_missed_plays(news):
            self._settle(now, news, final=True, next_round=False)
        self._push_shows(news, final=True)

    def _hands_awaited(self) -> bool:
        """Is the round over by the count, with hands still to be laid down (and written)? Their cards
        lie at the table's edge, the far ones small: the detector is then asked to look closely."""
        rnd = self.match.round
        return (rnd is not None and rnd.is_over and rnd.winner is not None
                and any(seat not in self._shown_done for seat in self._counting_order()))

    def _visit_unread(self) -> bool:
        """Has an arm come and gone, after the looks a card needs to become steady, with no record line
        and no card read that it put down? Then the next `closer_looks` looks are closer ones: a card
        put down at the far side of the table shows indices so small that the usual look misses them
        (kennard_4color round 292: the two of diamonds laid on the three at the far row's end, read
        only by the end's closer look; paris round 262: the queen of hearts at the far side, whose
        arm the hand check saw leave nothing new). Only while the round is being played, and only the
        latest three visits: an arm that put nothing down costs those few looks and no more (1-2 % of
        the looks were closer ones over the benchmark rounds recorded in session 23)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or not self._spells:
            return False
        # one arm seen leaving and coming back within a few frames (its edge over the table's edge)
        # is one visit, counted from its last leaving and explained if any of its parts is (photo
        # deck round 63: 70 closer looks, most after the first parts of arms whose card was read
        # and dated to the last part)
        visits: list[list[_CoverSpell]] = []
        for spell in self._spells[-12:]:
            if visits and visits[-1][-1].end is not None and spell.start - visits[-1][-1].end <= self.stab.on_hits:
                visits[-1].append(spell)
            else:
                visits.append([spell])
        wait = self.stab.on_hits + self.stab.gap_allowed
        waiting = [v for v in visits[-3:] if v[-1].end is not None
                   and wait <= self._looks_since(v[-1].end) < wait + self.closer_looks]
        if not waiting:
            return False
        explained = self._explained_visits(surely=True)
        return any(all(s.start not in explained for s in v) for v in waiting)

    def _round_closed(self) -> bool:
        """Has this round its `end` line (it may have no winner: its cards were gathered unfinished)?"""
        return any(isinstance(e, End) for e in self._round_events())

    # ------------------------------------------------------------------ bookkeeping
    def _tell(self, news: list[News]) -> list[News]:
        for n in news:
            self.on_news(n)
        return news

    def _round_events(self) -> list:
        evs = self.match.events
        for i in range(len(evs) - 1, -1, -1):
            if isinstance(evs[i], RoundStart):
                return evs[i + 1:]
        return []

    def _round_plays_latest_first(self) -> Iterable[tuple[int, Play]]:
        """This round's plays, the latest first, each with its record line."""
        start = self._round_line()
        for pos in range(len(self.match.events) - 1, start, -1):
            if isinstance(ev := self.match.events[pos], Play):
                yield pos, ev

    def _round_line(self) -> int:
        """Where this round's `round` line is in the record (0 before the first)."""
        return max((i for i, e in enumerate(self.match.events) if isinstance(e, RoundStart)), default=0)

    def _push(self, event, when: int):
        """Push a record line with the moment it happened (plays are kept in the order of those moments)."""
        flag = self.match.push(event)
        self._when.append(when)
        if isinstance(event, Play) and (k := self.stab.tracks.get(event.card)) is not None and k.last_seen >= 0:
            self._played_boxes.setdefault(event.card, k.box)
            self._played_confidence.setdefault(event.card, k.confidence)
        if isinstance(event, Play):
            self._written_in[event.card] = self._frame
        return flag

    def _pop(self) -> tuple[object, int]:
        return self.match.pop(), self._when.pop()

    def _put_back(self, pos: int, lines: list[tuple[object, int]]) -> None:
        """Take the record back to its first `pos` lines and put `lines` (taken off before) back."""
        while len(self.match.events) > pos:
            self._pop()
        for ev, w in lines:
            self._repush(ev, w)

    def _repush(self, event, when: int):
        """Put a line taken off back (a flagged play keeps its flag up to date)."""
        flag = self._push(event, when)
        if isinstance(event, Play) and event.card in self._illegal:
            self._illegal[event.card] = flag
        return flag

    def _start_round(self, dealer: str, frame: int) -> None:
        self._push(RoundStart(dealer), frame)
        self.table = TableModel(len(self.players))
        self.stab.misread_at.clear()
        self._misread_places.clear()
        self._mirror_tried.clear()
        self._read_instead.clear()
        self._read_away.clear()
        self._stirs.clear()
        self._played_boxes.clear()
        self._written_in.clear()
        self._played_confidence.clear()
        self._redated.clear()
        self._illegal.clear()
        self._arrived.clear()
        self._silent_ways_tried.clear()
        self._shown.clear()
        self._shown_first.clear()
        self._shown_done.clear()
        self._hand_seen.clear()
        self._hand_misreads.clear()
        self._apart = 0

    def _note_cover(self, index: int, cover: Cover) -> None:
        if not self._covered:
            self._spells.append(_CoverSpell(index))
            self._covered = True
        angle = cover.entry_angle(self._picture_centre)
        if angle is not None:
            self._spells[-1].entries.append(angle)
        self._looked_since_cover = 0

    def _arrival(self, t: Track) -> int:
        """When a card was put down: the start of the arm's visit that ended just before it was first
        seen, unless the recognizer looked at the table in between and did not see it. When the
        recognizer reads only now and then (a live pipeline that is behind) two visits may end before
        a card is first seen: then the one after which something new showed where the card lies.

        A reading seen long before it became steady (too unsure to count: most likely another card
        misread) that became steady only after an arm put something down where it lies was put down by
        that arm."""
        if t.present and t.since > t.first_frame:
            for spell in reversed(self._spells):
                if spell.end is None or spell.end > t.since:
                    continue
                if spell.end <= t.first_frame:
                    break
                before = sum(1 for f in t.recent if f < spell.end)
                # (near where it was first read too: a card read whole now reaches further than its
                # index read before; paris round 138: the jack of spades put down above the queen of
                # hearts read at its index since before it)
                if before > self.stab.on_hits + self.stab.gap_allowed and any(
                        _near(p, t.box) and (t.first_box is None or _near(p, t.first_box)) for p in spell.landings):
                    return spell.start
        if t.first_read < t.first_frame and (silent := self._silent_arm(t)) is not None:
            return silent
        if t.first_frame < t.first_direct and all(f >= t.first_direct for f in t.recent_direct):
            # read only as another card's next reading where a card of the record lies, and lay when
            # played (that card misread; not one read lately away from its place), until an arm
            # came, and as itself from then on: put down by that arm (photo deck round 1165: the
            # queen of spades, the jack's next reading at 0.14-0.21 in three looks after Ben's arm
            # put the ten of clubs down, was put beside the jack by Dan's arm two visits later;
            # dated to Ben's, it went in for Cleo, before her two of spades)
            early = [b for f, b in zip(t.recent, t.recent_boxes) if f < t.first_direct]
            came: int | None = None
            taken = [u for u in self._taken_places() if u.card != t.card]
            if early and all(any(overlap(b, u.box) > self.same_place
                                     and overlap(b, self._played_boxes.get(u.card, u.box)) > self.same_place
                                     for u in taken) for b in early):
                for spell in reversed(self._spells):
                    if spell.end is None or spell.end > t.first_direct:
                        continue
                    if spell.end > t.first_frame:
                        came = spell.start if came is None else came
                        continue
                    # (unless the visit just before those readings left something new on the card
                    # and put no card of the record down: it put the card down, and the next
                    # readings were the card showing through another's reading; kennard_4color
                    # round 1795, session 45: Ben's six of clubs, fanned left of the seven, its
                    # index joined with the seven's and the eight's as one reading of the eight)
                    if (came is not None and self._looks_between(spell.end, t.first_frame) <= self.stab.gap_allowed + 2
                            and any(_inside(p, self._body(t)) for p in spell.landings)
                            and t.card not in self._known_cards() and spell.start not in self._explained_visits()):
                        return spell.start
                    break
                if came is not None:
                    return came
        latest = None
        lies_over = self._lies_over(t)
        for spell in reversed(self._spells):
            if spell.end is None or spell.end > t.first_frame:
                continue
            looked = self._looks_between(spell.end, t.first_frame)
            if latest is None:
                latest = (spell, looked)
            if looked > 3 * (self.stab.on_hits + self.stab.gap_allowed):
                break
            if any(_inside(p, box) for p in spell.landings for box in lies_over):
                # the arm that left something new right where the card lies; if the recognizer looked
                # a few times since without making it out (a court card), only if no card in the
                # record was put down by that visit, nor the card next to it in its row was read
                # there meanwhile (a Hoyle pile: that card, then this one on it)
                if looked > self.stab.gap_allowed + 2 and self._read_under(t, spell.end):
                    break
                if (looked <= self.stab.gap_allowed + 2 or t.card in self._known_cards()
                        or spell.start not in self._explained_visits()):
                    return spell.start
                break
            if (t.single and t.whole_box is None and any(_inside(p, self._body(t)) for p in spell.landings)
                    and t.card not in self._known_cards() and spell.start not in self._explained_visits()):
                # read at its top-left index only, never whole: an arm that left something new where
                # the rest of the card reaches, and put no card of the record down, put it down
                # (photo deck round 1414, session 44: the two of spades in the far row, Cleo's arm
                # landing in its middle; dated to its first reading, after the arm of the ace of
                # spades put down next, the ace and the three of diamonds after it went in each for
                # the other's player. Not an arm that put another card down: in a fanned row a card's
                # body reaches over its neighbours; kennard_4color round 214, the eight of spades,
                # first read long before it came)
                return spell.start
            if looked > self.stab.gap_allowed + 2:
                break
        late = self._unread_long(t)
        if late is not None:
            return late
        if latest is not None and (latest[1] <= self.stab.gap_allowed or self._arm_lingered(t, latest[0])):
            if self._landed_on_another(t, latest[0]):
                return latest[0].start - 1
            before = self._unread_visit_before(t, latest[0])
            return before if before is not None else latest[0].start
        stirred = self._stirred_unseen(t)
        return stirred if stirred is not None else t.first_frame

    def _arm_lingered(self, t: Track, spell: _CoverSpell) -> bool:
        """Did the arm of visit `spell`, which put no card of the record down, stay over card `t` after
        the hand check let it go: of the looks between the visit's end and the card's first sighting,
        all but the few a card may go unread (`gap_allowed`) saw a change within it (photo deck round
        1518, session 45: the seven of spades, Dan's, first read two looks after the visit ended, the
        second of them a change on its place; dated to its first sighting, the seven of clubs, put
        down by Eve's arm that the hand check missed, was dated to Dan's visit and went in first).
        Only a visit seen leaving something new somewhere: one that left nothing has rules of its
        own (`_unread_long`, `_silent_arm`), and counting it here broke kennard_4color round 1673
        of e43 (the four and three of clubs put squarely on their piles, 21 edits)."""
        if spell.end is None or not spell.landings or t.card in self._known_cards():
            return False
        body = self._body(t)
        looks = self._looked[bisect.bisect_left(self._looked, spell.end):bisect.bisect_left(self._looked, t.first_frame)]
        since = self._stirs[bisect.bisect_left(self._stirs, spell.end, key=lambda s: s[0]):]
        stirred = {f for f, points in since if f < t.first_frame and any(_inside(p, body) for p in points)}
        return (bool(stirred) and sum(1 for f in looks if f not in stirred) <= self.stab.gap_allowed
                and spell.start not in self._explained_visits())  # (the costly question last)

    def _stirred_unseen(self, t: Track) -> int | None:
        """The first look of a small change that stayed at one spot within card `t` while no arm was
        seen, ending a few looks before the card's first sighting, when no arm visit that could have
        put it down came since the last one that left something new on it (each visit between put
        another card of the record down, elsewhere): an arm the hand check missed put it down then.
        None otherwise; only for a card not in the record (photo deck round 1317, session 43: the
        ace of spades put down above the ace of clubs, six looks of change at one spot within it,
        then Dan's arm put the ace of diamonds down; the spade, steady only after that, went in
        after the diamond, for Dan. Not a change that moves on: kennard_4color round 1518, the five
        of diamonds' place crossed once by an earlier arm the hand check missed)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or self._stirs_asked or t.card in self._known_cards():
            return None
        body = self._body(t)
        bound = self._when[self._round_line()]
        if self._change_that_stayed(t, body, bound) is None:
            return None  # (the common case, found without the explained visits, which cost much)
        self._stirs_asked = True  # (the explained visits date the record's cards, this among them)
        try:
            explained = self._explained_visits()
        finally:
            self._stirs_asked = False
        between = []
        for spell in self._spells:
            if spell.end is None or spell.end > t.first_frame:
                continue
            if spell.start not in explained or any(_inside(p, body, grow=0.0) for p in spell.landings):
                bound, between = max(bound, spell.end), []
            else:
                between.append(spell)
        f = self._change_that_stayed(t, body, bound)
        if f is None or any(s.start <= f <= s.end + self.stab.gap_allowed for s in between):
            return None  # (changes left by a visit's own arm, as it went)
        return f

    def _change_that_stayed(self, t: Track, body: tuple[float, float, float, float], since: int) -> int | None:
        """The first look after `since` of a small change within `body` that stayed at one spot (within
        3 pixels) for as many looks as a card needs to become steady, ending at most fifteen looks
        before card `t` was first seen; None if none. (A change that stays, look after look: something
        new lies there; an arm passing over leaves a change that moves on. One the card was first read
        long after lay elsewhere.)"""
        stirs = [(f, p) for f, points in self._stirs if since < f < t.first_frame
                 for p in points if _inside(p, body, grow=0.1)]
        for f, p in stirs:
            same = {g for g, q in stirs if f <= g and math.dist(p, q) <= 3.0}
            if (len(same) >= self.stab.on_hits
                    and self._looks_between(max(same), t.first_frame) <= 3 * (self.stab.on_hits + self.stab.gap_allowed)):
                return f
        return None

    def _unread_visit_before(self, t: Track, spell: _CoverSpell) -> int | None:
        """Two cards not in the record, first read in the same look just after arm visit `spell`; the
        visit before it put down no card that was read, and between the two the recognizer looked and
        read, where the other card lies, the card of the record it was put on or beside, but nothing
        where `t` lies: the other came with `spell` and `t` with the visit before, whose card was too
        small to read in the usual looks (the closer looks come only after the looks a card needs;
        kennard_4color round 1523, session 42: the king of diamonds put on the queen's pile at the
        far row by Ben, read by the closer looks only, first after Cleo's arm had put the two of
        spades on the three's pile, the three read there in the four looks between; both dated to
        Cleo's arm, the two went in for Ben). The start of that visit before, or None."""
        known = self._known_cards()
        if t.card in known:
            return None
        # (`spell` is the latest visit or near it: looked for from the end)
        i = next((j for j in range(len(self._spells) - 1, -1, -1) if self._spells[j] is spell), None)
        if not i:
            return None
        prev = self._spells[i - 1]
        if (prev.end is None or prev.start < self._when[self._round_line()]
                or self._looks_between(prev.end, spell.start) == 0
                or prev.start in self._explained_visits()):
            return None

        def read_at(box) -> bool:  # a card of the record read at `box` between the two visits
            return any(prev.end <= f < spell.start and overlap(b, box) > self.same_place
                       for c in known if (u := self.stab.tracks.get(c)) is not None
                       for f, b in zip(u.recent, u.recent_boxes))

        if t.first_frame < spell.end or read_at(t.box):
            return None
        others = [k for k in self.stab.tracks.values() if k is not t and k.card not in known and k.present
                  and spell.end <= k.first_frame and abs(k.first_frame - t.first_frame) <= 1
                  and overlap(k.box, t.box) <= self.same_place]
        return prev.start if len(others) == 1 and read_at(others[0].box) else None

    def _landed_on_another(self, t: Track, spell: _CoverSpell) -> bool:
        """Did arm visit `spell`, after which `t` was first read (ever), leave something new only
        within another card first read after it too, nowhere near `t`? One arm puts one card down:
        that visit put the other card down, and `t` was put down before it, by an arm the hand check
        missed (photo deck round 742: an arm reaching in over the far edge, unseen, put the five of
        hearts beside the six, read only after the next arm put the ten down at the row's other end;
        the ten was written for the player of the unseen arm, the five for the next). Not where a
        card of the record was read when it was played: a reading on a Hoyle pile, or on a card
        already played, is most likely that card misread (`_put_on` judges a card put on a pile by
        the arm that came), and an earlier moment would slip it past that (the Hoyle piles read
        anew after an arm elsewhere, in tests/vision/test_watcher_rules.py). Where it was played,
        not where it is read now: in round 742 the six of hearts' track box had moved onto the
        five, read once as the six."""
        if not spell.landings or t.first_read < spell.end:
            return False
        if any(_near(p, box) for p in spell.landings for box in self._lies_over(t)):
            return False
        if any(overlap(t.box, self._played_boxes.get(u.card, u.box)) > self.same_place
               for u in self._taken_places()):
            return False
        return any(k is not t and k.present and k.first_read >= spell.end
                   and self._looks_between(spell.end, k.first_frame) <= self.stab.gap_allowed
                   and overlap(k.box, t.box) <= self.same_place
                   and all(any(_inside(p, box) for box in self._lies_over(k)) for p in spell.landings)
                   for k in self.stab.tracks.values())

    def _lies_over(self, t: Track) -> list[tuple[float, float, float, float]]:
        """Where card `t` lies, as far as it was read: its box now and, when read whole (both corner
        indices) in this sighting streak, that box (read at one index now, the card still reaches
        over all of it: an arm's landing in its middle is where it lies; kennard_4color round 84)."""
        boxes = [t.box]
        if t.whole_box is not None and t.whole_last >= t.first_frame and t.whole_box != t.box:
            boxes.append(t.whole_box)
        return boxes

    def _read_under(self, t: Track, since: int) -> bool:
        """Was a card that lies next to `t` in its row, not in the record, read where `t` lies between
        `since` and `t`'s first sighting (put down there first, then covered by `t`)?"""
        known = self._known_cards()
        return any(k is not t and k.card not in known and since <= k.last_seen < t.first_frame
                   and _next_in_row(k.card, t.card) and overlap(k.box, t.box) > self.same_place
                   for k in self.stab.tracks.values())

    def _unread_long(self, t: Track) -> int | None:
        """A card the recognizer could not make out for a long while after it was put down (a small far
        court card, read only now and then): the arm visit that put it down is the last one that left
        something new where it lies before the card was first read at all, if no card in the record
        was put down by that visit. Only for a steady card, never read before that visit."""
        known = self._known_cards()
        if not t.present or t.first_read < 0 or t.card in known:
            return None  # (a card in the record: its visit is among those explained)
        first_read, first_box = t.first_read, t.first_box
        if not self._first_read_here(t):
            # first read elsewhere: another card misread then, not this one unread; the first of its
            # latest readings where it lies, if that was long after (paris round 199: the jack of
            # spades, read as another card's index a hundred looks before it was put down, then
            # now and then for fifty looks where it lies)
            here = [(f, b) for f, b in zip(t.recent, t.recent_boxes)
                    if self._read_here(t, b, _index_sized(b, t)) and f > t.first_read + self.stab.memory]
            if not here:
                return None
            first_read, first_box = here[0]
        start = self._when[self._round_line()]
        explained = self._explained_visits()
        last = True
        for i in range(len(self._spells) - 1, -1, -1):
            spell = self._spells[i]
            if spell.end is None or spell.end > first_read:
                continue
            if spell.start < start:
                return None
            if last and spell.start not in explained:
                looked = self._looks_between(spell.end, first_read)
                if looked <= self.stab.gap_allowed + 2:
                    # the arm just before the card was first read put no card of the record down and
                    # left nothing seen as new anywhere (it put this one down squarely on a pile), or
                    # something on the card itself, off its index (paris round 136: the four of
                    # hearts, fanned beside the five): it put this one down
                    if not spell.landings:
                        return None
                    if any(_inside(p, self._body(t)) for p in spell.landings):
                        return spell.start
                elif (self._in_closer_looks(first_read, looked)
                      and any(_inside(p, self._body(t)) for p in spell.landings)):
                    # or first read by the closer looks asked because nothing was read from that arm
                    # (they come only after the looks a card needs to become steady), something new
                    # left on the card (photo deck round 166: the four of spades at the far side, its
                    # index read 21 pixels above where the arm left something new, in the first
                    # closer look)
                    return spell.start
            last = False
            # near where it was first read (read whole since, its box reaches two card lengths: an arm
            # that put a card down beside it counted; paris round 144, the queen of hearts), or on the
            # card itself (photo deck round 244: the five of hearts at the far side, its index 5 by 11
            # pixels, the arm's landing 24 pixels below its middle, on the card; first read by a closer
            # look after the next player's arm, with that player's card, and written after it)
            if any(_near(p, first_box if first_box is not None else t.box) or _inside(p, self._body(t))
                   for p in spell.landings):
                if spell.start in explained or self._read_under(t, spell.end):
                    return None
                # a card in the record first read since the visit before ended, steady only after this
                # one began: this is the arm that put it down, come back a moment after it showed
                # (not one played long before, its index seen again as another card moved: photo deck
                # round 244, the eight of hearts, played forty looks before, read again at its index
                # as the five was fanned beside it)
                before = self._spells[i - 1].end if i > 0 else start
                played = self._played_at()
                if any(k is not None and before <= k.first_read <= spell.end
                       and (k.first_steady < 0 or k.first_steady > spell.start)
                       and played.get(k.card, before) >= before
                       for k in map(self.stab.tracks.get, known)):
                    return None
                return spell.start
        return None

    def _looks_since(self, start: int) -> int:
        """How many times the recognizer looked at the table from frame `start` on (that frame too)."""
        return len(self._looked) - bisect.bisect_left(self._looked, start)

    def _in_closer_looks(self, frame: int, looked: int) -> bool:
        """Was frame `frame`, `looked` looks after an arm left, one of the closer looks asked because
        that arm left nothing read (`_visit_unread`: they begin once a card could have become steady,
        and last `closer_looks` looks)?"""
        return frame in self._closer_frames and looked < self.stab.on_hits + self.stab.gap_allowed + self.closer_looks

    def _looks_between(self, start: int, end: int) -> int:
        """How many times the recognizer looked at the table from frame `start` up to (not with) `end`."""
        return bisect.bisect_left(self._looked, end) - bisect.bisect_left(self._looked, start)

    def _body(self, t: Track) -> tuple[float, float, float, float]:
        """Where card `t` lies as far as the picture tells: read at its top-left index alone, the card
        reaches from it to where its bottom-right index lies (`Stabiliser.corner_offset`); else its box."""
        offset = self.stab.corner_offset
        if not t.single or offset is None:
            return t.box
        x1, y1, x2, y2 = t.box
        h = y2 - y1
        return (x1, y1, x2 + offset[0] * h, y2 + offset[1] * h)

    def _first_read_here(self, t: Track) -> bool:
        """Was card `t` first read where it lies now: at its place, or (a lone index first) at a
        corner of its whole box? In a fanned row the far index of the card a new one goes on lies
        inside the new card's box, off its corners: read there as the new card before it came, that
        was the card under it misread."""
        return t.first_box is None or self._read_here(t, t.first_box, t.first_single)

    def _read_here(self, t: Track, b: tuple[float, float, float, float], single: bool) -> bool:
        """Is a reading of card `t` at box `b` (`single`: a lone index) where it lies now (`_first_read_here`)?"""
        if any(overlap(b, p) > self.same_place for _, p in t.places):
            return True
        whole = t.whole_box if t.whole_box is not None else (None if t.single else t.box)
        if single and whole is not None:
            return _at_corner(b, whole, self.same_place)
        return overlap(b, t.box) > self.same_place

    def _spell_before(self, t: Track) -> _CoverSpell | None:
        """The last arm visit that ended by card `t`'s first sighting in its streak."""
        return self._spell_ended_by(t.first_frame)

    def _spell_from(self, moment: int | None) -> _CoverSpell | None:
        """The arm visit that began at `moment` (a card's date), None if no visit did."""
        return next((s for s in self._spells if s.start == moment), None)

    def _spell_ended_by(self, frame: int) -> _CoverSpell | None:
        """The last arm visit that ended by frame `frame` (None if none did)."""
        return next((s for s in reversed(self._spells) if s.end is not None and s.end <= frame), None)

    def _earliest_open(self) -> int | None:
        """The earliest moment a card still being made out (or an arm over the table) may have arrived."""
        taken = self._taken_places()
        known = self._known_cards()
        times = [self._arrival(t) for t in self.stab.pending()
                 if t.card not in known and t.hits <= self.stab.on_hits + self.stab.gap_allowed
                 and 2 * t.direct >= t.hits and not any(self._lies_at(t, u) for u in taken)
                 and not self._misread_here(t)]
        if self._covered and self._spells:
            times.append(self._spells[-1].start)
        elif self._looked_since_cover < self.stab.on_hits + self.stab.gap_allowed and self._spells:
            times.append(self._spells[-1].start)
        return min(times) if times else None

    # ------------------------------------------------------------------ deciding
    def _candidates(self) -> list[Track]:
        rnd = self.match.round
        on_table = {c.code for c in rnd.table.cards} if rnd is not None else set()
        known = self._known_cards()
        over = rnd is not None and rnd.is_over
        # A new card shows where nothing was: where a card already taken lies, another reading is that card misread.
        taken = [u for u in self._taken_places() if not over or u.card in on_table]  # hands lie fanned, overlapping
        # the rows' cards not read steadily now still lie there: one read still at the lone index
        # where `t` is read, now that `t` is steady (the two read there by turns), is what lies there
        # (kennard_4color round 187: the eight of clubs' index in a fanned row read as the eight and
        # the five by turns, neither steadily; the five fits); or a row's end card steady in its
        # last sighting streak there, with no arm come near since (not one read there now and then
        # only: paris round 187, the queen of clubs' place, where the king put on it was read as
        # the queen and the king by turns, never steadily) (kennard_4color round 411: the queen of diamonds at the
        # far side, read by the closer looks only, its index read as the king in the usual looks
        # after them); or read whole, at a corner of its whole box where its own index was read
        # (photo deck round 382: the ten of spades read whole, then its far index as the queen)
        lately = [k for c in sorted(on_table) if (k := self.stab.tracks.get(c)) is not None and not k.present
                  and k.last_seen >= 0] if not over else []
        out = []
        for t in self.stab.steady():
            if t.card in known:
                continue
            near = taken + [k for k in lately if t.single and overlap(k.box, t.box) > self.same_place
                            and not self._moved_by(t, k)
                            and ((k.last_seen >= t.since and (k.single or self._rows_laid_apart()))
                                 or (k.since >= 0 and self._untouched(k.last_seen, t) and self._at_row_end(k.card)
                                     and (k.single or (k.whole_box is not None and _at_corner(
                                         t.box, k.whole_box, self.same_place, only=k.index_corners)))))]
            # (the next card of a hand laid down fanned is that card wherever the fan reaches)
            fanned = over and self._in_a_hand_fan(t)
            under = next((u for u in near if self._lies_at(t, u) and not self._put_on(t, u)
                          and not fanned and not self._buried(u.card, u.box) and not self._back_with(u, t)
                          and not self._strayed(u) and not self._drawn_by_next_reading(u, t)
                          and not self._hides_row_end(t, u)), None)
            if (under is not None and not self._rows_laid_apart() and not self._arm_since(under, t, free=True)
                    and (looks := self._top_changed(t, under)) is not None and looks < self._top_change_looks()):
                continue  # the pile's top may have changed unseen: not judged until it has lasted (`_replaced_unseen`)
            if (under is not None or not self._fresh(t) or (self._misread_here(t) and not fanned)
                    or self._inside_its_row(t)
                    or self._far_from_its_row_end(t) or self._off_its_row_line(t)
                    or self._behind_its_row_end(t) or self._lay_before_it_fitted(t)
                    or self._never_put_down(t) or self._came_with_its_row_end(t)):
                self.stab.misread_at[t.card] = t.box  # so the card itself is not ignored where it shows
                places = self._misread_places.setdefault(t.card, [])
                if (under is not None and under.last_seen > t.first_frame  # both read there at once
                        and not any(overlap(t.box, box) > self.same_place for box, _ in places)):
                    places.append((t.box, under.card))
            else:
                out.append(t)
        out = [t for t in out if 2 * t.direct >= t.hits] if over else self._one_per_place(out)
        return sorted(out, key=lambda t: (self._arrival(t), t.first_frame, t.card))

    def _moved_by(self, t: Track, k: Track) -> bool:
        """Was lone index `t` read as card `k`, which lay elsewhere, and so moved k's box here? Card `k`
        was read as a lone index at least twice before `t` was first seen, never where `t` is, and
        read here only since (photo deck round 382: the king of spades put beyond the queen in a
        fanned row, its index read as the queen once as it came; the queen, unread since, was not
        what lay there, and the king was taken for it misread and played late)."""
        before = [b for f, b in k.places if f < t.first_frame]
        return (k.single and len(before) >= 2 and k.last_seen >= t.first_frame
                and not any(overlap(t.box, b) > self.same_place for b in before))

    def _untouched(self, since: int, t: Track) -> bool:
        """Did no arm come near where `t` is read between frame `since` and t's first sighting (each
        arm that came and went in that time seen leaving something new, all of it far from `t`)?"""
        return not any(s.end is not None and since < s.end <= t.first_frame
                       and (not s.landings or any(_near(p, t.box) for p in s.landings)) for s in self._spells)

    def _at_row_end(self, card: str) -> bool:
        """Is a card of the record an end of its row (no card of the record beyond it: one covered by
        the next on a Hoyle pile is not what lies there)?"""
        rnd = self.match.round
        row = rnd.table.rows.get(parse_card(card).suit) if rnd is not None else None
        return row is not None and card in (row.cards[0].code, row.cards[-1].code)

    def _put_on(self, t: Track, u: Track) -> bool:
        """Was card `t` put on card `u` (a Hoyle pile)? An arm came and went after `u` was there and
        before `t` was first seen (or, with none seen, the top changed to `t` for good:
        `_replaced_unseen`), and since then `t` is what is read there most of the time, or at the
        corner where `u` was read before (below). No card that no arm could have put down
        (`_never_put_down`) was put on a pile. A pile holds one suit: a card of another suit
        read there is that card misread. A pile grows outwards from its seven: a card goes on a
        card of its row on its own side, never on one beyond the seven (the ten's index read as the
        six, with the seven between)."""
        if parse_card(t.card).suit != parse_card(u.card).suit:
            return False
        if not self._on_its_side(t, u) or self._rows_laid_apart():
            return False
        if (not self._arm_since(u, t, free=True) and not self._replaced_unseen(t, u)) or self._never_put_down(t):
            return False
        # (since it was first read as the recognizer's first reading, when mostly read so: a glimpse
        # of it as the next reading of the card under it, before the arm came, is not it; kennard_4color
        # round 1655, session 43: the five of diamonds put on the six's pile, once the six's next
        # reading in the look before Ben's arm, counted from there, was read as often as the six since)
        since = t.counted_from
        if t.seen_since(since) > 2 * u.seen_since(since):
            return True
        # read there as the first reading far more often than `u` since (`u` only as its next
        # reading): the card on top is `t`, whose index still looks a little like the one under it
        # (photo deck round 53: the two of hearts on the three, read 2h 0.67 / 3h 0.33 look after look)
        if t.read_first_since(since) > 2 * max(u.read_first_since(since), 1):
            return True
        # `u`'s next card, first read just after an arm visit that came when `u` was there, left
        # nothing seen as new anywhere and put no card of the record down, and read as the first
        # reading at least half as often as `u` since: put squarely on the pile, the card shows only
        # as the index changing, and the recognizer reads the two alike (photo deck round 1103: the
        # five of hearts put on the six, read 0.6 5h / 0.4 6h and the other way by turns, at both
        # corners; the next player's card was written for the arm, and the five nineteen plays
        # late). Not a card further out, nor with `u` first read after that arm (photo deck round
        # 238: the eight of spades fanned on the seven by an arm that left nothing new, its far
        # index read as the nine from the next look on: not a nine put on the seven)
        came = self._spell_before(t)
        if (came is not None and not came.landings and 0 <= u.first_read < came.start
                and self._next_to(t.card) == u.card
                and self._looks_between(came.end, t.first_frame) <= self.stab.gap_allowed + 2
                and 2 * t.read_first_since(t.first_frame) >= u.read_first_since(t.first_frame)
                and came.start not in self._explained_visits()):
            return True
        ends = [s.end for s in self._spells[-8:] if s.end is not None and s.end <= t.first_frame]
        # `u` was read whole (both corners) before an arm came; since then one corner reads `t` and
        # `u` is read only at the other: a card of the pile's suit put squarely on it, whose one
        # index the recognizer still reads as the card under it. A whole reading of `u` in the look
        # that first read `t`, there only as that reading's next one, joined t's index to u's far
        # one: u's whole readings before it count (photo deck round 530: the five of spades put on
        # the six, the first look after the arm reading both indices as the six, the five next)
        whole = (u.whole_last if u.whole_last < t.first_frame
                 else u.first_whole if u.whole_last == t.first_frame and t.first_direct != t.first_frame else -1)
        return (t.single and u.whole_box is not None and 0 <= whole
                and any(whole < e for e in ends) and _inside(_middle(t.box), u.whole_box, grow=0.0)
                and overlap(t.box, u.box) <= self.same_place)

    def _replaced_unseen(self, t: Track, u: Track) -> bool:
        """Was card `t`, the next card of u's row, put on Hoyle pile top `u` by an arm the hand check
        missed? `u` was read up to the look before `t` was first read there and never since
        (`_top_changed`), and `t` was read, mostly as the first reading, in nearly every look since,
        at least twice the looks a card needs to become steady: the pile's top changed at once and
        for good. A misreading of `u` comes and goes with u's own readings (kennard_4color round
        860: the three of diamonds put on the four, and later the ace on the two, by arms the hand
        check missed; the four read whole at 0.6 until the look before the three's first reading,
        never after; the three at 0.5 in every look since, taken for the four misread, and the two
        and the ace after it never written)."""
        looks = self._top_changed(t, u)
        return (looks is not None and looks >= self._top_change_looks()
                and 4 * t.seen_since(t.first_frame) >= 3 * min(looks, 30)
                and 2 * t.read_first_since(t.first_frame) >= t.seen_since(t.first_frame))

    def _top_changed(self, t: Track, u: Track) -> int | None:
        """When `t` goes next to `u` in its row, and `u` was read up to the look before `t` was first
        read and never since, or since as the recognizer's first reading in at most a quarter as many
        looks as `t` (the new top's far index misread as the card under it: photo deck round 1118, the
        five of diamonds put on the six by an arm reaching in over the far edge, which the hand check
        missed; the five read whole at 0.5-0.7 in every look since, the six's readings only its next
        ones but for three at one corner, at 0.4, the five their next reading): the looks since
        (else None)."""
        if self._next_to(t.card) != u.card:
            return None
        before = u.last_seen
        if u.last_seen >= t.first_frame:
            if 4 * u.read_first_since(t.first_frame) > t.read_first_since(t.first_frame):
                return None
            before = max((f for f in u.recent_direct if f < t.first_frame), default=-1)
        if before < 0 or self._looks_between(before, t.first_frame) > self.stab.gap_allowed + 1:
            return None  # (not read just before it: not the pile top then)
        return self._looks_since(t.first_frame)

    def _top_change_looks(self) -> int:
        """How many looks a pile top's change must last to be taken for a card put on it unseen."""
        return 2 * (self.stab.on_hits + self.stab.gap_allowed)

    def _on_pile(self, k: Track, u: Track) -> bool:
        """Could card `k` have been put on card `u`'s Hoyle pile: of its suit, on its side of the
        seven, rows not seen laid apart, and an arm came and went after `u` was there and before `k`
        was first seen, one that put no other card of the record down or left something new near `k`
        (`_arm_since`)? Not a second reading of the pile's far index seen while an arm put a card
        down elsewhere (kennard_4color round 116: the nine of diamonds' far index read as the queen,
        the ten second, as an arm put the four down on the other side of the seven)."""
        return (parse_card(k.card).suit == parse_card(u.card).suit and self._on_its_side(k, u)
                and not self._rows_laid_apart() and self._arm_since(u, k, free=True))

    def _rows_laid_apart(self) -> bool:
        """Are this round's rows laid card beside card (spread or fanned), not in Hoyle piles?"""
        return self._apart >= self.apart_looks

    def _note_rows_apart(self) -> None:
        """Count a look that shows the rows laid card beside card: two played cards of one row, on the
        same side of its seven and neighbours, both read in this look or the one before, the one
        further in read outside the whole box (both corner indices) of the one further out, which
        was put on or beside it, and not where another card of the record lies. On a Hoyle pile the
        card under the top is hidden: a reading of it is a corner of the top misread, inside the
        top's box, or another card misread where that card lies.
        Once `apart_looks` such looks were seen, no card is taken for one put on another
        (`_put_on`): the index of the jack read as the queen is the jack misread."""
        rnd = self.match.round
        if self._rows_laid_apart() or rnd is None or rnd.is_over:
            return
        for row in rnd.table.rows.values():
            if row is None:
                continue
            seven = row.cards.index(row.opener)
            for i in range(len(row.cards) - 1):
                a, b = (self.stab.tracks.get(c.code) for c in row.cards[i:i + 2])
                if i == seven or i + 1 == seven:
                    # the seven and its neighbour lie apart in rows laid card beside card and in
                    # Hoyle piles alike; fanned, the neighbour lies partly over (or under) the seven
                    # (kennard_4color round 559: the eight of clubs fanned on the seven, the nine's
                    # reading at the eight's index taken for the nine put on the eight's pile)
                    opener, neighbour = (a, b) if i == seven else (b, a)
                    if self._fanned_on(neighbour, opener):
                        self._apart += 1
                        return
                    continue
                inner, outer = (a, b) if i > seven else (b, a)
                if inner is None or outer is None or not inner.present or not outer.present:
                    continue
                whole = outer.whole_box if outer.whole_box is not None else None if outer.single else outer.box
                if (min(inner.last_seen, outer.last_seen) < self._frame - 1 or whole is None
                        or overlap(inner.box, whole) > 0):
                    continue  # not read outside it
                if any(u is not inner and u is not outer and self._lies_at(inner, u) for u in self._taken_places()):
                    continue  # where another card lies: that card misread
                if any((o := self.table.row_outlines.get(k.card)) is not None
                       and overlap(k.box, (*o.min(axis=0), *o.max(axis=0))) == 0 for k in (inner, outer)):
                    continue  # read away from where it was put down: another card misread (`_mirror_misread`)
                self._apart += 1
                return

    def _fanned_on(self, k: Track | None, seven: Track | None) -> bool:
        """Is card `k`, read whole in this look or the one before, lying partly over (or under) its
        row's seven, read in them too: their whole boxes (the seven's where it was last read whole:
        a card fanned on it hides its far index) overlapping by a fifth to nine tenths of the
        smaller? A Hoyle pile never lies on the seven's, nor does a card laid beside it."""
        if k is None or seven is None or not k.present or not seven.present:
            return False
        if (k.whole_box is None or seven.whole_box is None or k.whole_last < self._frame - 1
                or seven.last_seen < self._frame - 1):
            return False
        return 0.2 < overlap(k.whole_box, seven.whole_box) < 0.9

    def _far_from_its_row_end(self, t: Track) -> bool:
        """Is `t`, a card that goes next to its row's end, read far from there: more than three row
        steps and two card sizes (the median of the cards in the rows read whole) from one step
        beyond the end card (the step from the end card's neighbour further in), both as the two
        were read last and as they were read when played? On a table whose
        rows lie card beside card a card is put next to the end it goes on; read anywhere else it
        is another card misread (the index of a queen just put down at one end of the diamonds read
        as the four, which goes at the other). Not on Hoyle piles, nor in a row of its seven alone
        (no step yet)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or not self._rows_laid_apart():
            return False
        c = parse_card(t.card)
        row = rnd.table.rows.get(c.suit)
        if row is None or len(row.cards) < 2:
            return False
        gap = row.gap_to(c)
        if gap is None or gap[1]:
            return False
        i = row.cards.index(gap[0])
        inner = row.cards[i - 1] if i == len(row.cards) - 1 else row.cards[i + 1]
        e, n = self.stab.tracks.get(gap[0].code), self.stab.tracks.get(inner.code)
        if e is None or n is None or e.last_seen < 0 or n.last_seen < 0:
            return False
        # a card may be read at either corner index, a card's size apart
        tracks = [k for c in rnd.table.cards if (k := self.stab.tracks.get(c.code)) is not None]
        wholes = [k.whole_box if k.whole_box is not None else k.box for k in tracks
                  if k.whole_box is not None or (k.last_seen >= 0 and not k.single)]
        sizes = sorted(max(b[2] - b[0], b[3] - b[1]) for b in wholes)
        if not sizes:
            return False
        tx, ty = _middle(t.box)

        def far(end_box, inner_box) -> bool:
            (ex, ey), (nx, ny) = _middle(end_box), _middle(inner_box)
            reach = max(3 * math.hypot(ex - nx, ey - ny), 2 * sizes[len(sizes) // 2])
            return math.hypot(tx - (2 * ex - nx), ty - (2 * ey - ny)) > reach

        # far from where the two were read last and from where they were played: a neighbour's
        # index read (as a next reading) as the end card moves its box there for a while (photo deck
        # round 640: the queen of hearts' box moved onto the six's index, six cards in, and the king
        # put down beyond the queen was taken for a misreading far from the row's end, written for
        # the next player)
        played = self._played_boxes.get(e.card), self._played_boxes.get(n.card)
        return far(e.box, n.box) and (None in played or far(*played))

    def _off_its_row_line(self, t: Track) -> bool:
        """Is `t`, a card that goes beyond its row's end (next to it, or further out with the cards
        between not yet in the record), read more than a card's length off the line its row's cards
        lie on (on the table, through their middles)? On rows laid card beside card a card is put
        down on its row's line (cards between put down and never read, `_fill_unseen`, lie there
        too); read a row or two away it is another card misread (the two of hearts just put down
        read as the two of diamonds: the four and the three taken for played unseen; the king of
        spades, a row below the clubs, read as the king of clubs). Not on Hoyle piles.
        The line runs through the row's cards known by their outline when two or more are: a card
        known by one lone index lies up to half a card's length from it, at either corner (photo deck
        round 342, session 29: the six of clubs known by its far index, the eight by its near one,
        the line through them and the five and seven bent, and the four put down beside the five
        taken for a misreading a card off it, written three plays late)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or not self._rows_laid_apart():
            return False
        c = parse_card(t.card)
        row = rnd.table.rows.get(c.suit)
        gap = row.gap_to(c) if row is not None else None
        if gap is None:
            return False
        centres = self._row_line(row)
        if centres is None:
            centres = self._seven_s_line(row)
        if centres is None:
            return False
        here = self.table.plane.to_table([_middle(t.box)])[0]
        return _off_line(centres, here) > CARD_MM[1]

    def _seven_s_line(self, row) -> np.ndarray | None:
        """A row holding only its opening card, known by its whole outline: the line through that
        card's middle the way the other rows grow (`_high_way`; rows laid card beside card lie
        side by side), as two points, or None (photo deck round 1275, session 42: the six of clubs
        put down beside the seven, its top-left index read as the six of spades at 0.26-0.32, the
        spades' row a card's length below holding only its seven; the six of spades was written
        for the next player)."""
        plane = self.table.plane
        if plane is None or len(row.cards) != 1:
            return None
        outline = self.table.row_outlines.get(row.opener.code)
        way = self._high_way()
        if outline is None or way is None:
            return None
        whole = self._whole_outline(row.opener.code, outline)
        if _index_big_on_table(plane.to_table(list(whole))):
            return None  # known by one lone index: its middle is not the card's
        centre = plane.to_table([whole.mean(axis=0)])[0]
        return np.array([centre, centre + way[0] * CARD_MM[0]])

    def _row_line(self, row) -> np.ndarray | None:
        """The middles, on the table, of a row's cards known by their outline, to fit its line
        through (`_off_line`); None while fewer than two are known or there is no plane yet."""
        plane = self.table.plane
        if plane is None:
            return None
        outlines = [self._whole_outline(x.code, o) for x in row.cards
                    if (o := self.table.row_outlines.get(x.code)) is not None]
        # (known by their outline: in the picture over twice as tall as the smallest of the row's
        # places, a lone index's; not judged on the table, where the plane, fitted to the near rows,
        # makes a far index as big as half a card: kennard_4color round 187)
        tall = [float(np.ptp(o[:, 1])) for o in outlines]
        whole = [o for o, h in zip(outlines, tall) if h > 2 * min(tall)]
        if len(whole) >= 2:
            outlines = whole
        if len(outlines) < 2:
            return None
        centres = plane.to_table([o.mean(axis=0) for o in outlines])
        if len(centres) >= 3:
            # one card lying more than a card's length off the line of the others goes by a place
            # that is not its own (kennard_4color round 334: the seven of diamonds, played from a
            # misreading of the far row's seven of hearts, kept that place; the diamonds' line ran
            # through it, and the five put down beside the six was taken for another card misread,
            # the four, three, two and ace after it never written)
            offs = [_off_line(np.delete(centres, i, axis=0), centres[i]) for i in range(len(centres))]
            worst = int(np.argmax(offs))
            if offs[worst] > CARD_MM[1]:
                centres = np.delete(centres, worst, axis=0)
        return centres

    def _whole_outline(self, card: str, outline: np.ndarray) -> np.ndarray:
        """A row card's outline as it lies: where it was played, unless that is one lone index and the
        card was read whole since, round that index (then its whole box: a line through the middle of
        one card and the index of the next runs askew; kennard_4color round 360: the seven of
        diamonds, played from its index, the six beside it from its whole box, and the eight put
        down beyond the seven taken for a misreading a card off their line)."""
        plane = self.table.plane
        k = self.stab.tracks.get(card)
        if plane is None or k is None or k.whole_box is None or not _index_big_on_table(plane.to_table(list(outline))):
            return outline
        if not _inside(_middle(_outline_box(outline)), k.whole_box, grow=0.0):
            return outline
        return box_corners(k.whole_box)

    def _high_way(self) -> tuple[np.ndarray, float] | None:
        """The way the rows grow upwards on the table plane (a unit vector: from each row's opening
        card towards its higher cards, away from its lower ones), and the median step between
        neighbouring cards of a row along it (mm). None until two cards beside their rows' opening
        cards are in the record and agree on it."""
        rnd, plane = self.match.round, self.table.plane
        if rnd is None or plane is None:
            return None
        # the same until a card goes into (or out of) the rows: asked for each candidate, each look
        cards = (frozenset(self.table.row_outlines), frozenset(c.code for c in rnd.table.cards))
        if self._high_way_at is not None and self._high_way_at[0] is plane and self._high_way_at[1] == cards:
            return self._high_way_at[2]
        way = self._high_way_from(rnd, plane)
        self._high_way_at = (plane, cards, way)
        return way

    def _high_way_from(self, rnd, plane, leave_out: str | None = None,
                       least: int = 2) -> tuple[np.ndarray, float, int] | None:
        """`_high_way`, worked out from the rows in the record (but suit `leave_out`'s), from at
        least `least` cards beside their rows' opening cards; with how many cards said it."""
        ways, steps = [], []
        for row in rnd.table.rows.values():
            if row is None or row.suit == leave_out:
                continue
            at = {c: o for c in row.cards if (o := self.table.row_outlines.get(c.code)) is not None}
            if row.opener not in at or len(at) < 2:
                continue
            cards = [c for c in row.cards if c in at]
            centres = plane.to_table([at[c].mean(axis=0) for c in cards])
            # a card known by one lone index lies up to half a card's width from it either way: a
            # neighbour nearer its seven than that says nothing of the way (photo deck round 238: the
            # eight of spades fanned on the seven at the far side, known by its index, up and a little
            # left of the seven's middle; the six of hearts, left of its seven, was taken for the eight
            # misread, and 43 lines went wrong)
            lone = [_index_big_on_table(plane.to_table(list(at[c]))) for c in cards]
            k = cards.index(row.opener)
            for i, centre in enumerate(centres):
                v = centre - centres[k]
                n = float(np.hypot(*v))
                if i != k and n > CARD_MM[0] * 0.5 * (lone[i] + lone[k]):
                    ways.append(v / n * (1 if i > k else -1))
            steps += [float(np.hypot(*(b - a))) for a, b in zip(centres, centres[1:])]
        if len(ways) < least:
            return None
        mean = np.mean(ways, axis=0)
        if float(np.hypot(*mean)) < 0.8:
            return None  # the rows' cards disagree (a misreading among them): no way to go by
        steps.sort()
        return mean / float(np.hypot(*mean)), steps[len(steps) // 2], len(ways)

    def _own_row_way(self, row) -> tuple[np.ndarray, float] | None:
        """The way one row grows upwards on the table plane, and its step (`_high_way`'s), from its
        opening card and a neighbour of it in the record, both read whole (their middles, not where
        a lone index was read when played: a fanned card's far index lies most of a card's width from
        its middle). None if either was never read whole, or they lie less than a tenth of a card's
        width apart."""
        plane = self.table.plane
        if plane is None or row.opener not in row.cards:
            return None
        k = row.cards.index(row.opener)
        for i in (k + 1, k - 1):
            if not 0 <= i < len(row.cards):
                continue
            a, b = self.stab.tracks.get(row.opener.code), self.stab.tracks.get(row.cards[i].code)
            if a is None or b is None or a.whole_box is None or b.whole_box is None:
                continue
            there, here = plane.to_table([_middle(a.whole_box), _middle(b.whole_box)])
            v = here - there
            n = float(np.hypot(*v))
            if n > CARD_MM[0] / 10:
                return v / n * (1 if i > k else -1), n
        return None

    def _behind_its_row_end(self, t: Track) -> bool:
        """Is `t` read further in than the end of its row it goes beyond: more than half a row step
        back from that end card, along the way its row grows there (read as one lone index, which
        lies up to half a card's width either way from the card's middle: that much further)? Every
        row grows one way upwards from its seven and the other way downwards, all the same way on
        one table, and a card is put down beyond the end it goes next to (on it, on a Hoyle pile);
        a card read further in, or on the other side of the seven, is another card misread (the six
        of clubs, put down left of the seven, read as the eight, which fits too; a ten read as the
        queen, once the jack lies beyond it). A card's place is the middle of its two corner indices
        when it was read whole, else where it was read when it was played (one lone index: half a
        card's width further again). On Hoyle piles (rows not seen laid apart) only the seven's place
        counts (an end card's place there may be another pile's card misread as it), as it does for
        an end played unseen. A lone index is also checked against the end card's same index
        (`_behind_its_row_end_index`), with no slack for where in its card it lies."""
        rnd, plane = self.match.round, self.table.plane
        if rnd is None or rnd.is_over or plane is None:
            return False
        c = parse_card(t.card)
        row = rnd.table.rows.get(c.suit)
        high = row.goes_high(c) if row is not None else None
        if high is None:
            return False
        ends = [row.opener]
        if self._rows_laid_apart():  # (a Hoyle pile's cards lie where its first card lies)
            ends.append(row.high if high else row.low)
        outlines = []
        for e in ends:
            k = self.stab.tracks.get(e.code)
            if k is not None and k.whole_box is not None:  # read whole (both corners) at some time
                outlines.append(box_corners(k.whole_box))
            elif (o := self.table.row_outlines.get(e.code)) is not None:
                outlines.append(o)
        # (until two rows agree on the way, the card's own row says it: photo deck round 865, the six
        # of diamonds fanned under the seven's left edge, its index read as the nine with only the
        # eight, right of the seven, played; the nine was written for it, and 22 lines went wrong)
        way = (self._high_way() or self._own_row_way(row)) if outlines else None
        if way is None:
            return False
        direction, step = way[0], way[1]
        here = plane.to_table([_middle(t.box)])[0]
        half = CARD_MM[0] / 2  # how far a lone index may lie from its card's middle
        for outline in outlines:
            corners = plane.to_table(list(outline))
            there = corners.mean(axis=0)
            # an end card known only by one lone index (its place when played) may lie half a card off too
            lone = _index_big_on_table(corners)
            back = step / 2 + (half if t.single else 0.0) + (half if lone else 0.0)
            if float(np.dot(here - there, direction)) * (1 if high else -1) < -back:
                return True
        return t.single and any(self._behind_its_row_end_index(t, e.code, high, direction, step)
                                for e in dict.fromkeys(ends))

    def _behind_its_row_end_index(self, t: Track, end: str, high: bool, direction: np.ndarray,
                                  step: float) -> bool:
        """`_behind_its_row_end` index by index: is lone index `t` not beyond the same index of end
        card `end`, read whole (its own indices, `Track.index_corners`, as big as t's), along the
        way its row grows? A card's index lies where the same index of its neighbour lies, a row
        step along; which index t is, is told across the row (the end card's indices level with t,
        within half a card's length; t must be short of each of them). Not beyond the end's own
        index at all, it is that index misread (up to half a step beyond, nearer the end's index
        than the next card's, broke photo deck rounds 1477 and 1483 of session 44's c44).
        kennard_4color round 1021 (fanned, far row): the eight of hearts' near index, on the seven
        in the fan, read as the six by the closer looks; one step beyond the seven's near index,
        and level with the seven's middle, so half a card's width of slack for a lone index let it
        by, and the six was written, every play after it going to the wrong player. kennard_4color
        round 1786 (session 45, fanned): the eight of clubs' near index read as the nine, four
        pixels to the near side of where the eight's own was read (a row step there is fourteen);
        the nine went in, and eighteen lines went wrong (until then, only an index half a step
        back counted)."""
        k = self.stab.tracks.get(end)
        plane = self.table.plane
        if k is None or k.whole_box is None or not k.index_corners or plane is None:
            return False
        x1, y1, x2, y2 = k.whole_box
        w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
        if 2 * w > x2 - x1 or 2 * h > y2 - y1:
            return False
        corners = corner_boxes(k.whole_box, w, h)
        here = plane.to_table([_middle(t.box)])[0]
        across = np.array([-direction[1], direction[0]])
        level = [m for m in plane.to_table([_middle(corners[c]) for c in sorted(k.index_corners)])
                 if abs(float(np.dot(here - m, across))) <= CARD_MM[1] / 2]
        return bool(level) and all(float(np.dot(here - m, direction)) * (1 if high else -1) < 0.0
                                   for m in level)

    def _mirrored(self) -> tuple[int, str, str] | None:
        """A card of the record that lies on the wrong side of its row's seven: the card next to the
        seven on the other side, misread (a six and an eight look alike as a far row's small index;
        kennard_4color rounds 113 and 128: the first card put beside a seven, read as its mirror,
        before any row said which way the rows grow). It must be its row's end on its side, nothing
        put beyond it, and the rows show which way they grow without it (the other rows' cards beside
        their sevens, all one way: two of them, against the one the card says; one when its mirror
        is in the record too, on the other side, for the two then say nothing either way). It lies on the other side when its place is beyond
        the seven's, against that way, by more than a tenth of a card's width (and half a card's
        width for each of the two known only by one lone index). Returns (its line, the card as
        written, the card it is) or None. When the mirror card is in the record too, on the wrong
        side just as well, the two are swapped: that is left to the next look (the second is then
        that card's mirror). Of several such cards, the one the most cards of the other rows speak
        against (one misreading is likelier than two: kennard_4color round 1711, session 44, fanned:
        the six of spades, left of its seven, read as the eight; the six and eight of diamonds put
        down on either side of their seven were then swapped on the one spade's word, where the two
        diamonds said the spade was the six)."""
        rnd, plane = self.match.round, self.table.plane
        if rnd is None or rnd.is_over or plane is None:
            return None
        start = self._round_line()
        events = self.match.events
        found, said = None, 0
        for row in rnd.table.rows.values():
            if row is None or len(row.cards) < 2:
                continue
            k = row.cards.index(row.opener)
            for x in {row.low, row.high} - {row.opener}:
                i = row.cards.index(x)
                if abs(i - k) != 1:
                    continue  # not beside the seven, or something put beyond it
                high = i > k
                other = row.cards[k - 1] if high and k > 0 else row.cards[k + 1] if not high and k + 1 < len(row.cards) else None
                if other is None:
                    mirror = next((c for c in DECK if c.suit == row.suit and c not in row.cards
                                   and row.gap_to(c) == (row.opener, ()) and row.goes_high(c) != high), None)
                else:
                    if other not in (row.low, row.high):
                        continue  # the mirror has cards beyond it: x stays
                    mirror = other
                if mirror is None or (x.code, mirror.code) in self._mirror_tried:
                    continue
                pos = next((j for j in range(len(events) - 1, start, -1)
                            if isinstance(events[j], Play) and events[j].card == x.code), None)
                if pos is None:
                    continue
                again = None if other is not None else self._read_across(x.code, row.opener.code, high, self._when[pos])
                way = self._high_way_from(rnd, plane, leave_out=row.suit,
                                          least=1 if other is not None or again is not None else 2)
                if way is None or not self._across_seven(x.code, row.opener.code, high, way[0]):
                    continue
                if other is not None and not self._across_seven(other.code, row.opener.code, not high, way[0]):
                    continue
                if way[2] > said:
                    found, said = (pos, x.code, mirror.code, again), way[2]
        return found

    def _note_read_away(self, detections: list) -> None:
        """Keep the readings of cards in the rows whose box reaches off the place the card was put
        down, by more than its width (its index joined with one of another card read as it): the
        stabiliser keeps a card in one place, so these are known only here."""
        for d in detections:
            o = self.table.row_outlines.get(d.card)
            if o is None:
                continue
            (x1, y1), (x2, y2) = o.min(axis=0), o.max(axis=0)
            w = max(x2 - x1, y2 - y1)
            if d.box[0] < x1 - w or d.box[2] > x2 + w:
                seen = self._read_away.setdefault(d.card, [])
                seen.append((self._frame, tuple(d.box)))
                del seen[:-30]

    def _read_across(self, card: str, seven: str, high: bool, written: int) -> int | None:
        """Is `card`, written at `written` as going `high` (or low) of `seven`, read now on that side
        of the seven, by the rows' way without its own row, as well as where it was written (a new
        card put there, read as this one and joined with the reading at its old place: a box
        reaching out on its side by nearly a card's width), first so after an arm visit that began
        after it was written? That visit's start, or None."""
        k, plane = self.stab.tracks.get(seven), self.table.plane
        away = self._read_away.get(card, [])
        if not away or away[-1][0] != self._looked[-1] or k is None or k.whole_box is None:
            return None  # not read away from its place in the latest look
        way = self._high_way_from(self.match.round, plane, leave_out=parse_card(card).suit, least=1)
        if way is None:
            return None
        there = plane.to_table([_middle(k.whole_box)])[0]
        side = 1.0 if high else -1.0

        def out_there(box) -> bool:
            corners = plane.to_table(list(box_corners(box)))
            return float(np.max((corners - there) @ way[0] * side)) > 0.9 * CARD_MM[0]

        if not out_there(away[-1][1]):
            return None
        first = next((f for f, b in away if f > written and out_there(b)), None)
        spell = self._spell_ended_by(first) if first else None
        return spell.start if spell is not None and spell.start > written else None

    def _across_seven(self, card: str, seven: str, high: bool, way: np.ndarray) -> bool:
        """Does `card` of the record, going `high` (or low) of `seven`, lie on the other side of it?"""
        plane = self.table.plane
        places = []
        for c in (card, seven):
            k = self.stab.tracks.get(c)
            if c == seven and k is not None and k.whole_box is not None:
                outline = box_corners(k.whole_box)
            elif (outline := self.table.row_outlines.get(c)) is None:
                return False
            corners = plane.to_table(list(outline))
            lone = _index_big_on_table(corners)
            places.append((corners.mean(axis=0), lone))
        (here, lone_here), (there, lone_there) = places
        slack = CARD_MM[0] * (0.1 + 0.5 * lone_here + 0.5 * lone_there)
        return float(np.dot(here - there, way)) * (1 if high else -1) < -slack

    def _mirror_misread(self, news: list[News]) -> bool:
        """Write the card the record has on the wrong side of its seven as its mirror (`_mirrored`),
        if the record then has no more flags; the reading of it is known as a misreading there."""
        found = self._mirrored()
        if found is None:
            return False
        pos, card, mirror, again = found
        if not self._rewrite_with(pos, card, mirror):
            return False
        outlines = {c: self.table.row_outlines.get(c) for c in (card, mirror)}
        for c, o in ((mirror, outlines[card]), (card, outlines[mirror])):
            self.table.remove_row_card(c)
            if o is not None:
                self.table.add_row_card(c, o)
        t = self.stab.tracks.get(card)
        if t is not None and outlines[mirror] is None:
            self.stab.misread_at[card] = t.box
            self._misread_places.setdefault(card, []).append((t.box, mirror))
        news.append(News("corrected", self._frame, None, None,
                         f"{card} was {mirror} misread: it lies on the {mirror} side of its row's seven"))
        if again is not None:  # and the card itself now lies on its own side: put down by that visit
            self.table.remove_row_card(card)
            if t is not None:
                self.stab.misread_at[card] = (*outlines[card].min(axis=0), *outlines[card].max(axis=0)) \
                    if outlines[card] is not None else t.box
            if not self._play_in_time(card, None, news, when=again):
                mover = self.match.round.to_move
                if mover is not None and self._play(mover, card, None, news, when=again) is not None:
                    self._pop()  # it would be flagged: it waits to be read as it comes
        return True

    def _in_another_row(self) -> tuple[int, str, str] | None:
        """On rows laid card beside card: a play of this round, its row's end, written from a lone
        index read where it is read still, that lies beside another row's end, as near as that row's
        indices step from card to card (and half as near again), and over three times as far from
        the index of the card it went next to in its own row: the card of its rank in that other
        row's suit, misread, when that one can go there now and is neither in the record nor read
        anywhere else (photo deck round 883, fanned: the four of clubs put beside the five of clubs,
        read as the four of spades at 0.55 and written; the next arm put the four of spades down
        beside the five of spades, a row above; and two turns on the three of spades, put beside
        that four, read as the three of clubs at 0.87). In the picture each row's indices lie in a
        line, a card's overlap apart; on the table, where a lone index may be at either end of its
        card, the two rows' lines lie too near to tell (`_on_its_row_s_line`). Its record line, the
        card written and the card it is."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or not self._rows_laid_apart():
            return None
        known = self._known_cards()
        rows = rnd.table.rows
        for pos, ev in self._round_plays_latest_first():
            c = parse_card(ev.card)
            row, t, box = rows.get(c.suit), self.stab.tracks.get(ev.card), self._played_boxes.get(ev.card)
            if (row is None or c == row.opener or c not in (row.low, row.high) or t is None or not t.present
                    or box is None or self._card_sized(box) or overlap(t.box, box) <= self.same_place):
                continue
            inner = _further_in(row, c)  # the card it was put next to
            here = min((_distance(box, b) for b in self._index_places(inner.code)), default=None)
            if here is None:
                continue
            for suit, other in rows.items():
                instead = Card(c.rank, suit)
                u = self.stab.tracks.get(instead.code)
                if (suit == c.suit or other is None or instead.code in known
                        or (ev.card, instead.code) in self._mirror_tried
                        or (u is not None and u.present and overlap(u.box, box) <= self.same_place)):
                    continue
                gap = other.gap_to(instead)
                if gap is None or gap[1]:
                    continue  # it cannot go there now
                step = self._index_step(other, gap[0])
                there = min((_distance(box, b) for b in self._index_places(gap[0].code)), default=None)
                if step is not None and there is not None and there <= 1.5 * step and here > 3 * there:
                    return pos, ev.card, instead.code
        return None

    def _index_places(self, card: str) -> list[tuple[float, float, float, float]]:
        """Where a card's lone index was read, in the picture: when it was played, and now (not away
        from where it was read when played: another card's index misread as it; kennard_4color round
        1609, session 43: the three of spades' index, in the row above, read as the three of clubs)."""
        k = self.stab.tracks.get(card)
        boxes = [b for b in (self._played_boxes.get(card),) if b is not None and not self._card_sized(b)]
        if (k is not None and k.last_seen >= 0 and k.single
                and not any(overlap(k.box, b) <= self.same_place for b in boxes)):
            boxes.append(k.box)
        return boxes

    def _index_step(self, row, end: Card) -> float | None:
        """The step, in the picture, to the index of `end`, its row's end, from that of the card
        further in: the least distance between where the two were read as lone indices; None while
        one of them never was (or `end` is the seven, alone in its row)."""
        inner = _further_in(row, end)
        if inner is None:
            return None
        here, there = self._index_places(end.code), self._index_places(inner.code)
        return min((_distance(a, b) for a in here for b in there), default=None)

    def _row_misread(self, news: list[News]) -> bool:
        """Write the card of the other row for a card of the record read beside that row's end
        (`_in_another_row`), if the record then has no more flags; the reading there is known as
        that card misread, and read afresh."""
        found = self._in_another_row()
        if found is None:
            return False
        pos, card, instead = found
        if not self._rewrite_with(pos, card, instead):
            return False
        self._known_misread_as(card, instead, self.table.row_outlines.get(card))
        # (the reading it was written from was that card's)
        self._played_boxes[instead] = self._played_boxes.pop(card)
        self._played_confidence[instead] = self._played_confidence.pop(card)
        news.append(News("corrected", self._frame, None, None, f"{card} was {instead} misread: it lies "
                         f"beside the end of the {SUIT_NAMES[parse_card(instead).suit]}' row"))
        return True

    def _surely_read_instead(self) -> tuple[int, str, str] | None:
        """A play of this round written from unsure readings only (its streak's mean confidence under
        `sure_enough`), one lone index, and another card that can be played in its place read surely
        (mean confidence 1 - `sure_enough` or more, mostly as the first reading) since, at the opposite
        corner of that same card (`_opposite_on_table`), steadily, with no arm come between the two
        cards' first readings: that card's index was misread. Its record line,
        the card written and the card read surely (kennard_4color round 655: the eight of spades put
        down, its upside-down near index read as the six at 0.35; the closer looks asked after such a
        visit read its far index as the eight at 0.7)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over:
            return None
        known = self._known_cards()
        sure = None  # the cards read surely, not in the record (found once, when a play needs them)
        for pos, ev in self._round_plays_latest_first():
            t = self.stab.tracks.get(ev.card)
            if (t is None or not t.present or not t.single or t.first_read < 0
                    or t.confidence >= self.sure_enough):
                continue
            if sure is None:
                sure = [k for c in sorted(self.stab.tracks) if (k := self.stab.tracks[c]).present
                        and c not in known and k.single and k.confidence >= 1 - self.sure_enough
                        and 2 * k.direct >= k.hits]
            for k in sure:
                if (k.first_read < t.first_read or (ev.card, k.card) in self._mirror_tried
                        or not self._opposite_on_table(t.box, k.box)):
                    continue
                if any(s.start < k.first_read and (s.end is None or s.end > t.first_read)
                       for s in self._spells[-8:]):
                    continue  # an arm came between them: it may have put that card down
                if self._made_off_its_row(t, k, coming=k.card):
                    # the card the two corners make would lie a row away from the surely read
                    # card's own row: not that card (photo deck round 1248, session 42: the two of
                    # clubs put down beside the three, its near index read as the two of spades at
                    # 0.6-0.9; the card lay on the clubs' line, 118 mm off the spades')
                    continue
                if self._behind_its_row_end(k):
                    # where it cannot lie, on the far side of its row's end (kennard_4color round
                    # 1062: the eight of hearts, put down beyond the seven, its near index read surely
                    # as the five by the closer looks, the six lying on the seven's other side)
                    continue
                return pos, ev.card, k.card
        return None

    def _read_surely_instead(self, news: list[News]) -> bool:
        """Write the card read surely at the other corner of a card of the record read unsurely
        (`_surely_read_instead`) in its place, if the record then has no more flags; the unsure reading
        is known as a misreading there."""
        found = self._surely_read_instead()
        if found is None:
            return False
        pos, card, instead = found
        if not self._rewrite_with(pos, card, instead):
            return False
        t, k = self.stab.tracks[card], self.stab.tracks[instead]
        known = self._known_cards()
        self.table.remove_row_card(card)  # the card lies where its two indices were read
        self.table.add_row_card(instead, box_corners(enclosing([t.box, k.box])))
        # every card read at that index so far (the written one, its next readings) was that card misread
        for u in [t] + [u for c in sorted(self.stab.tracks) if (u := self.stab.tracks[c]) is not t
                        and c not in known and u.present and u.single and overlap(u.box, t.box) > self.same_place]:
            self.stab.misread_at[u.card] = u.box
            self._misread_places.setdefault(u.card, []).append((u.box, instead))
            self.stab.read_afresh(u.card)
            self._read_instead.add((u.card, instead))
        news.append(News("corrected", self._frame, None, None,
                         f"{card} was {instead} misread: {instead} read surely at that card's other corner"))
        return True

    def _on_another_pile(self) -> tuple[int, str, str] | None:
        """On Hoyle piles: a play of this round, its row's end, read where the top of another suit's
        pile was read and not where the card it was put on was: the card of its rank in that pile's
        suit, misread, when that card can go on that pile and is not in the record nor read anywhere
        (photo deck round 497: the two of clubs put on the three of clubs' pile, read as the two of
        spades and never as itself; the spades' pile lay a card's height below). Judged where the card
        was read when it was played, and only while it is read there still: a card's track moves
        with its readings (photo deck round 566: the two of clubs, rightly written, its track moved
        onto the spades' pile by a faint reading there as the two of spades was put down, and was
        rewritten as the two of spades). Its record line, the card written and the card of the
        pile's suit."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or self._rows_laid_apart():
            return None
        known = self._known_cards()
        rows = rnd.table.rows
        for pos, ev in self._round_plays_latest_first():
            t = self.stab.tracks.get(ev.card)
            c = parse_card(ev.card)
            row = rows.get(c.suit)
            if (t is None or not t.present or row is None or c == row.opener or c not in (row.low, row.high)
                    or overlap(self._played_boxes.get(ev.card, t.box), t.box) <= self.same_place):
                continue
            under = self.stab.tracks.get(_further_in(row, c).code)
            if under is None or under.last_seen < 0 or self._one_place(t, under):
                continue  # read where its own pile lies (or that pile's place unknown)
            for suit, other in rows.items():
                if suit == c.suit or other is None:
                    continue
                instead = next(d for d in DECK if d.suit == suit and d.rank == c.rank)
                if instead.code in known or (instead.code in self.stab.tracks
                                             and self.stab.tracks[instead.code].present):
                    continue
                gap = other.gap_to(instead)
                if gap is None or gap[1]:
                    continue  # it cannot go on that pile now
                top = self.stab.tracks.get(gap[0].code)
                if (top is None or top.last_seen < 0 or not self._one_place(t, top)
                        or (ev.card, instead.code) in self._mirror_tried):
                    continue
                return pos, ev.card, instead.code
        return None

    def _known_misread_as(self, card: str, instead: str, outline) -> None:
        """The record now has `instead` for `card`: `instead` lies where `card` was taken to lie
        (`outline`, if known), and `card` read there is `instead` misread; it is read afresh."""
        t = self.stab.tracks[card]
        self.table.remove_row_card(card)
        if outline is not None:
            self.table.add_row_card(instead, outline)
        self.stab.misread_at[card] = t.box
        self._misread_places.setdefault(card, []).append((t.box, instead))
        self.stab.read_afresh(card)

    def _read_on_its_pile_instead(self, news: list[News]) -> bool:
        """Write the card of the pile's suit for a card of the record read on another suit's pile
        (`_on_another_pile`), if the record then has no more flags; its reading there is known as a
        misreading and read afresh."""
        found = self._on_another_pile()
        if found is None:
            return False
        pos, card, instead = found
        if not self._rewrite_with(pos, card, instead):
            return False
        self._known_misread_as(card, instead, self.stab.outline(card))
        news.append(News("corrected", self._frame, None, None,
                         f"{card} was {instead} misread: it lies on the {SUIT_NAMES[parse_card(instead).suit]}' pile"))
        return True

    def _read_whole_later(self) -> tuple[int, str, int, str] | None:
        """A play of this round written from one lone index read unsurely (its streak's mean
        confidence under `sure_enough`) where another card of the record lies (read there now, at a
        corner of its whole box, or at the other corner from where that card was read when played),
        now read whole and surely (mean 1 - `sure_enough` or more, mostly as the first reading)
        somewhere else, its streak begun within twice the looks a card needs to become steady after
        the end of an arm visit that came after the play's moment and left something new on it (its
        landing within the card's whole box): that index was the other card's, misread, and the card
        was put down by that visit (kennard_4color round 779: the eight of hearts put on its Hoyle
        pile, its top-left index read as the six at 0.29 and its bottom-right one as the eight, both
        written for that one arm; the six, put down by the next arm, read whole at 0.73). Its record
        line, the card, the visit's start and the other card."""
        rnd = self.match.round
        if rnd is None or rnd.is_over:
            return None
        start = self._round_line()
        events = self.match.events
        played = sorted(e.card for e in events[start:] if isinstance(e, Play))
        for pos in range(start + 1, len(events)):
            ev, when = events[pos], self._when[pos]
            if not isinstance(ev, Play) or (ev.card, when) in self._redated:
                continue
            box, t = self._played_boxes.get(ev.card), self.stab.tracks.get(ev.card)
            if (box is None or self._played_confidence.get(ev.card, 1.0) >= self.sure_enough or self._card_sized(box)
                    or t is None or not t.present or t.single or t.whole_box is None
                    or t.confidence < 1 - self.sure_enough or 2 * t.direct < t.hits or overlap(t.whole_box, box) > 0):
                continue
            came = self._spell_before(t)
            if (came is None or came.start <= when
                    or self._looks_between(came.end, t.first_frame) > 2 * (self.stab.on_hits + self.stab.gap_allowed)
                    or not any(_inside(p, t.whole_box, grow=0.0) for p in came.landings)):
                continue
            for c in played:
                k = self.stab.tracks.get(c)
                if c == ev.card or k is None or k.last_seen < 0:
                    continue
                other = self._played_boxes.get(c)
                if (overlap(box, k.box) > self.same_place
                        or (k.whole_box is not None and _at_corner(box, k.whole_box, self.same_place))
                        or (other is not None and self.stab.opposite(box, other))):
                    return pos, ev.card, came.start, c
        return None

    def _put_down_later(self, news: list[News]) -> bool:
        """Write the card of `_read_whole_later` at the visit that put it down, the lines after its old
        place put back by turn, if the record then has no more flags and no more plays against the
        arms that put them down; its old place is known as the other card's index misread as it."""
        found = self._read_whole_later()
        if found is None:
            return False
        pos, card, when, other = found
        self._redated.add((card, self._when[pos]))
        rnd = self.match.round
        flags_before, arms_before = len(rnd.flags), self._arms_against(pos)
        later = [self._pop() for _ in range(len(self.match.events) - pos)][::-1]
        (first, old_when), rest = later[0], later[1:]
        # the other card, written only for that visit or later, lies where the play's index was read:
        # it is what the play's own arm put down, and the two trade moments (kennard_4color round
        # 1350: the six of diamonds put down beside the seven, its near index read as the eight and
        # written; the eight, put down by the next arm on the seven's other side, read whole there,
        # and the six, read whole at last, written for that arm)
        mine = next((i for i, (ev, w) in enumerate(rest) if isinstance(ev, Play) and ev.card == other and w >= when), None)
        if mine is not None:
            rest.insert(0, (rest.pop(mine)[0], old_when))
        at = next((i for i, (_, w) in enumerate(rest) if w > when), len(rest))
        # (written again, it is known by where and how surely it is read now)
        old_box, old_confidence = self._played_boxes.pop(card), self._played_confidence.pop(card)
        self._repush_by_turn(rest[:at] + [(Play(first.player, card), when)] + rest[at:])
        if len(rnd.flags) > flags_before or self._arms_against(pos) > arms_before:
            self._put_back(pos, later)
            self._played_boxes[card], self._played_confidence[card] = old_box, old_confidence
            return False
        self.table.remove_row_card(card)
        if (outline := self.stab.outline(card)) is not None:
            self.table.add_row_card(card, outline)
        self._misread_places.setdefault(card, []).append((old_box, other))
        news.append(News("corrected", self._frame, None, None,
                         f"{card} was {other}'s index misread; {card} was put down later, read whole"))
        return True

    def _rewrite_with(self, pos: int, card: str, other: str) -> bool:
        """Write this round's record again from line `pos` (a play of `card`) on, with `card` and
        `other` trading places; if the round then has more flags, put it back as it was (and that
        swap is not tried again). Whether it was rewritten."""
        flags_before = len(self.match.round.flags)
        later = [self._pop() for _ in range(len(self.match.events) - pos)][::-1]
        (first, w), rest = later[0], later[1:]
        swapped = [(Play(ev.player, other if ev.card == card else card), wl)
                   if isinstance(ev, Play) and ev.card in (card, other) else (ev, wl) for ev, wl in rest]
        self._repush(Play(first.player, other), w)
        for ev, wl in swapped:
            self._repush(ev, wl)
        if len(self.match.round.flags) > flags_before:
            self._put_back(pos, later)
            self._mirror_tried.add((card, other))
            return False
        return True

    def _buried(self, card: str, box: tuple[float, float, float, float]) -> bool:
        """Is `card` of the record under another card of the record on its Hoyle pile (rows not
        seen laid apart; its row goes on beyond it, on its side of the seven, and `box`, where it is
        read, lies within where the pile's top was read whole)? Read at its corner, it is the top's
        index misread (the recognizer's next reading of it), and says nothing of a new card read
        there: the top does (kennard_4color round 374: the ten of clubs put on the nine, read at its
        far index, the eight under both read there as its next reading; the ten taken for the eight
        misread, and the next player's card given to the player who put it down)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or self._rows_laid_apart():
            return False
        c = parse_card(card)
        row = rnd.table.rows.get(c.suit)
        if row is None or c not in row.cards or c == row.opener or c in (row.low, row.high):
            return False
        # and under it: where it is read lies within the top's whole box (a fanned row, not yet seen
        # laid apart, shows each card's index beside the next card: kennard_4color round 187)
        top = row.high if row.cards.index(c) > row.cards.index(row.opener) else row.low
        k = self.stab.tracks.get(top.code)
        return k is not None and k.whole_box is not None and _inside(_middle(box), k.whole_box, grow=0.0)

    def _on_its_side(self, t: Track, u: Track) -> bool:
        """Could card `t`, not yet in the record, go on card `u` of its row? `u` lies between the
        row's opening card and the end `t` goes beyond (the opening card itself included). True
        when the record cannot tell (no round, a round over, `u` not in its row)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over:
            return True
        c, under = parse_card(t.card), parse_card(u.card)
        row = rnd.table.rows.get(c.suit)
        if row is None or under not in row.cards:
            return True
        gap = row.gap_to(c)
        if gap is None:
            return True
        at, opener, end = row.cards.index(under), row.cards.index(row.opener), row.cards.index(gap[0])
        return opener <= at <= end if end >= opener else end <= at <= opener

    def _inside_its_row(self, t: Track) -> bool:
        """Is `t` read where a card of its own row shows or last showed an index (`_at_index_of`), one
        further in than the end `t` would go next to (the far index of a ten read as the six, with the
        seven at the row's other end; a queen read on the ten, with the jack down)? A card goes next
        to its row's end, so this is that card misread, whether or not the card is still read there
        (a hand half over it hides it from the recognizer while no arm is seen). Only while the end
        card is seen lying elsewhere: a card put on a Hoyle pile hides its top, and lies where the
        cards under it lie. Only for a lone index: a card read whole (a king put on the queen in a
        fanned row, over the far corners of the jack and the ten) lies there."""
        rnd = self.match.round
        if not t.single or rnd is None or rnd.is_over:
            return False  # a card read whole, at both corners, is a card lying there
        c = parse_card(t.card)
        row = rnd.table.rows.get(c.suit)
        gap = row.gap_to(c) if row is not None else None
        if gap is None:
            return False
        end = self.stab.tracks.get(gap[0].code)
        if end is None or not end.present or self._lies_at(t, end):
            return False  # the end card is not seen lying elsewhere (a new card on its pile hides it)
        inner: list[Track | None] = []
        for card in row.cards:
            u = self.stab.tracks.get(card.code)
            if (card != gap[0] and u is not None and u.last_seen >= 0
                    and not self._strayed(u) and not self._one_place(end, u)):
                if self._at_index_of(t, u):
                    return True
                inner.append(u)
            else:
                inner.append(None)
        # or read between the indices of two neighbouring cards of its row, both further in than
        # that end, across them (kennard_4color round 1333: the four of clubs read at 0.17-0.24 in a
        # box over the seven's index and the eight's, in a fanned row whose end was the five; written
        # for a player whose arm had not come, the plays after went to the wrong players)
        reach = max(t.box[2] - t.box[0], t.box[3] - t.box[1]) / 2
        if any(a is not None and b is not None and _between(t.box, _place(a), _place(b), reach)
               for a, b in zip(inner, inner[1:])):
            return True
        # or between like corners of the end and the card next in from it, both read whole, far
        # enough apart to tell a way along the row, well short of the end's (photo deck round 1132:
        # the nine of clubs read at 0.23-0.50 at a top-left index between the seven's and the
        # eight's, the eight the row's end; written for Ben a round of plays before Cleo put the
        # nine down). Not at the end's corner: in a spread row the next card's top-left index lies
        # at the end's top-right corner (kennard_4color round 576, the jack of spades beside the ten)
        w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
        k = row.cards.index(gap[0])
        for n in (inner[j] for j in (k - 1, k + 1) if 0 <= j < len(inner)):
            if n is None or n.whole_box is None or end.whole_box is None:
                continue
            for a, b in zip(corner_boxes(n.whole_box, w, h), corner_boxes(end.whole_box, w, h)):
                if _distance(a, b) >= w and _between(t.box, a, b, reach, upto=0.75):
                    return True
        return False

    def _at_index_of(self, t: Track, u: Track) -> bool:
        """Is lone index `t` read where card `u` shows an index: where `u` was read as a lone index, or
        at a corner of its whole box (the union of its two indices)? Not anywhere inside that box: in
        a fanned row a card's box spans the indices of the next cards put on it."""
        if any(overlap(t.box, b) > self.same_place for _, b in u.places):
            return True
        if u.single and overlap(t.box, u.box) > self.same_place:
            return True
        return u.whole_box is not None and _at_corner(t.box, u.whole_box, self.same_place)

    def _back_with(self, u: Track, t: Track) -> bool:
        """Is card `u`, long in the record and lost from sight since, buried (a later card of its suit
        was put where it is read now: a Hoyle pile), read again only since `t` showed at its place?
        Then both are readings of the card just put there (its far index misread as a card under
        it), and `u`, played long before, is not that card."""
        plays = self._played_at()
        played = plays.get(u.card)
        if (played is None or u.first_frame <= played + self.stab.memory
                # not a card read again after a moment's flicker (one never read before, put in
                # the record unseen, is not flickering: kennard_4color round 107)
                or (u.unseen_before <= self.stab.memory and u.first_read < u.first_frame)
                or t.first_frame > u.first_frame + self.stab.gap_allowed):
            return False
        # buried: a later card of its suit was put where it is now read
        suit = parse_card(u.card).suit
        for card, when in plays.items():
            k = self.stab.tracks.get(card)
            if (k is not None and when > played and card != t.card and parse_card(card).suit == suit
                    and (self._one_place(k, u) or (k.whole_box is not None
                                                   and _inside(_middle(u.box), k.whole_box, grow=0.0)))):
                return True
        return False

    def _strayed(self, u: Track) -> bool:
        """Is card `u`, played this round, read now only away from where it lay when it was played,
        after it was lost from sight for a while? Cards in the rows stay where they were put (a pile
        covers them, a nudge moves them a little), so such readings are another card misread as `u`
        (the index of a queen put down later read as a three long buried under its pile), and do not
        make the place `u`'s."""
        outline = self.table.row_outlines.get(u.card)
        played = self._played_at().get(u.card)
        if played is None or u.first_frame <= played + self.stab.memory:
            return False
        box = self._played_boxes.get(u.card)
        if box is not None and self.stab.opposite(box, u.box):
            return False  # read at its other corner index (kennard_4color round 187: the eight of
            # clubs played from its far index, read at its near one once the nine lay on it)
        if outline is None:
            # played without an outline (put in unseen, or from an unsure reading): where it was read
            # when it was played, if it was (kennard_4color round 166: the ten of spades, under the
            # jack, read afresh at the far index of the king put down beside them)
            return box is not None and not (_inside(_middle(u.box), box) or _inside(_middle(box), u.box, grow=0.0))
        return not _inside(_middle(u.box), _outline_box(outline))

    def _drawn_by_next_reading(self, u: Track, t: Track) -> bool:
        """Is card `u`, played this round, read where `t` is only as the next reading of `t`'s own
        latest reading (in that look, not as the recognizer's first reading), away from where it was
        played? Its track followed that reading there; the place says nothing of `u` (photo deck
        round 1294, session 42: the six of diamonds put down left of the seven by an arm the hand
        check missed, its index read as the six at 0.42-0.54 with the eight as the next reading once;
        the eight's track moved there from beyond the seven, and the six was taken for it misread,
        written four plays late)."""
        played = self._played_boxes.get(u.card)
        return (played is not None and u.last_seen == t.last_seen and u.last_seen not in u.recent_direct[-1:]
                and overlap(u.box, t.box) > self.same_place and overlap(played, u.box) <= self.same_place)

    def _one_place(self, t: Track, u: Track) -> bool:
        """Are two sightings one card? The same place, or the two opposite corner indices of one card.
        Not a lone index at an empty corner of the other's whole box (`_at_empty_corner`), nor inside
        a box of two cards' indices joined (`_past_a_card`; kennard_4color round 1609, session 43:
        the three of spades, put down in the far row, its index read with the three of clubs' in the
        row below as the three of clubs, a box 141 mm tall: the spades' three, read inside it, was
        taken for the clubs' misread and written only at the round's end)."""
        if self._at_empty_corner(t, u) or self._at_empty_corner(u, t):
            return False
        return ((overlap(_place(t), _place(u)) > self.same_place
                 and not self._past_a_card(t) and not self._past_a_card(u))
                or (t.single and u.single and (self.stab.opposite(t.box, u.box)
                                               or self._opposite_on_table(t.box, u.box))
                    and self._within_whole(t, u) and self._within_whole(u, t)
                    and not self._made_off_its_row(t, u))
                or (t.single and u.corners is not None and overlap(t.box, _place(u, far=True)) > self.same_place))

    def _past_a_card(self, k: Track) -> bool:
        """Is `k` read now as indices joined into a box no one card lying there fills (more than half
        as long again as a card, either way, on the table)? Two cards' indices joined, not a place."""
        return not k.single and k.corners is None and (size := self._size_on_table(k.box)) is not None \
            and (size[0] > 1.5 * CARD_MM[1] or size[1] > 1.5 * CARD_MM[1])

    def _made_off_its_row(self, t: Track, u: Track, coming: str | None = None) -> bool:
        """Would two lone indices taken for one card's opposite corners make a card lying more than a
        card's width off the line of the row of either, when that one is a card of the rows (or is
        `coming`, a card about to be written in the other's place)? On
        rows laid card beside card a card lies on its row's line: the two are then indices of two
        cards, rows apart (kennard_4color round 742: the two of hearts put down in a fanned row, its
        index up and to the left of the five of spades' in the row below, as a card's top-left index
        lies from its bottom-right one; the card the two would make lay 125 mm off the spades' line
        and 28 mm off the hearts': taken for the five's other corner, the two was never written).
        So too once the round is over: a hand laid down beyond a row (kennard_4color round 1543,
        session 43: the jack of spades at the picture's far edge, its far index up and to the left of
        the queen of clubs' near one in the far row; the card the two would make lay 82 mm off the
        clubs' line, and the jack, taken for the queen misread, was left out of its hand)."""
        rnd, plane = self.match.round, self.table.plane
        if rnd is None or plane is None or not self._rows_laid_apart():
            return False
        on_table = {c.code for c in rnd.table.cards} | ({coming} if coming else set())
        here = None
        for k in (t, u):
            if k.card not in on_table:
                continue
            centres = self._row_line(rnd.table.rows[parse_card(k.card).suit])
            if centres is None:
                continue
            if here is None:
                here = plane.to_table([_middle(enclosing([t.box, u.box]))])[0]
            if _off_line(centres, here) > CARD_MM[0]:
                return True
        return False

    def _within_whole(self, t: Track, u: Track) -> bool:
        """May lone index `t` be card `u`'s other corner: does it lie within u's whole box, where u was
        read whole, or is it not a card that can be played now? In a fanned row the next card's far
        index lies just beyond the last one's card (kennard_4color round 541: the eight of hearts'
        far index and the seven's near one, a card's size apart, 8 pixels beyond the seven's whole
        box): read as a card that can be played, it is that card's. Read as one that cannot, it is
        still taken for a misreading there (photo deck round 238: the eight of spades' far index,
        there, read as the nine again and again, the eight only at its near index)."""
        return u.whole_box is None or self._within_outline(t.box, u.card) or not self._fits_now(t.card)

    def _at_empty_corner(self, t: Track, u: Track) -> bool:
        """Is `t` a lone index read at a corner of card `u`'s whole box where u's own indices were never
        read? A design with two indices shows them at two opposite corners (`Track.index_corners`);
        at the other two there is nothing to read but a neighbour's index, which the box reaches when
        the camera looks at the row at an angle (paris round 147: the king of diamonds' index at the
        queen's top-right corner, in a spread row, taken for the queen's index misread and the king
        never played). Not where this very reading was found to be a misreading (`_found_misread`;
        kennard_4color round 63: the ten of clubs, in the record but never read, read whole as the
        queen again and again, behind the row's end: its index at the nine's top-right corner, and its
        far one at the jack's bottom-left)."""
        corners = u.index_corners
        if not (t.single and u.whole_box is not None and len(corners) == 2 and sum(corners) == 3):
            return False
        # (at it now, or as read earlier in this sighting streak: a closer look reads an index in a
        # tighter box, a few pixels off the one the usual looks read, and off the corner by as much;
        # kennard_4color round 822: the jack of hearts' index over the ten's top-right corner in a
        # spread row, taken for the ten's misread after one closer look, the jack played late)
        empty = {0, 1, 2, 3} - corners
        boxes = {t.box, *(b for f, b in t.places if f >= t.first_frame)}  # (a lone index is read in one box for long)
        return (any(_at_corner(box, u.whole_box, self.same_place, only=empty) for box in boxes)
                and not any(overlap(t.box, box) > self.same_place for box in self._found_misread(t.card)))

    def _found_misread(self, card: str) -> list[tuple[float, float, float, float]]:
        """The places where a reading of `card` was found to be another card misread this round
        (`_misread_places`, `Stabiliser.misread_at`)."""
        places = [box for box, _ in self._misread_places.get(card, ())]
        if (box := self.stab.misread_at.get(card)) is not None:
            places.append(box)
        return places

    def _opposite_on_table(self, a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        """Are two lone index boxes the top-left and bottom-right index of one card, judged by the
        card of the record read whole (both corner indices) nearest to them? With the camera at an
        angle a far row's indices are squeezed upright but not across, so the offset between a
        card's corners in index heights (`Stabiliser.corner_offset`) is larger there than near the
        camera, where most cards read whole are (kennard_4color round 113: the eight of diamonds in
        the far row read as the six at one corner and the five at the other, taken for two cards).
        The nearest card lies at the same distance from the camera: the box the two take in
        together is as wide and as tall as that card's, within an eighth, when no further from it
        than two of its widths."""
        rnd = self.match.round
        if rnd is None:
            return False
        if _middle(b)[1] < _middle(a)[1]:
            a, b = b, a
        if _middle(b)[0] <= _middle(a)[0]:
            return False  # a card in the rows shows its indices top-left and bottom-right
        box = (min(a[0], b[0]), a[1], max(a[2], b[2]), b[3])
        if self._wholes_at is None or self._wholes_at[0] != (self._frame, len(rnd.table.cards)):
            self._wholes_at = ((self._frame, len(rnd.table.cards)),
                               [k.whole_box for c in rnd.table.cards
                                if (k := self.stab.tracks.get(c.code)) is not None and k.whole_box is not None])
        wholes = self._wholes_at[1]
        if not wholes:
            return False
        near = min(wholes, key=lambda w: _distance(w, box))
        w, h = near[2] - near[0], near[3] - near[1]
        return (_distance(near, box) <= 2 * w and abs(box[2] - box[0] - w) <= w / 8
                and abs(box[3] - box[1] - h) <= h / 8)

    def _forget_misreadings_near(self, landings: tuple[tuple[float, float], ...]) -> None:
        """Something new lies where an arm just left: the places known for misreadings near it are
        read afresh (a card put on that very pile, or where a phantom was read before)."""
        for card, box in list(self.stab.misread_at.items()):
            if any(self._landed_on(p, box) for p in landings):
                del self.stab.misread_at[card]
        afresh = set()
        for card, places in self._misread_places.items():
            kept = [(box, under) for box, under in places if not any(self._landed_on(p, box) for p in landings)]
            afresh |= {card for box, under in places if (box, under) not in kept and (
                (_next_in_row(card, under) and self._within_outline(box, under))
                or (card, under) in self._read_instead)}
            places[:] = kept
        # A card found to be its neighbour in the row misread, read within that neighbour's outline
        # and steady there since before the arm, is read afresh too: it may now lie there itself, put
        # on that neighbour's pile by this arm (paris round 263: the king of clubs put on the queen,
        # whose index had been read as the king for sixty looks; taken for that misreading still, it
        # was written forty looks late, after the next player's pass). Not a misreading of a card
        # further off (kennard_4color round 63: the nine of clubs' index read as the queen, long
        # before the queen came), nor a card read reaching beyond its neighbour's outline: one laid
        # beside it, there since before (photo deck round 37: the jack of hearts, fanned on the ten,
        # would have been written five plays late when an arm put the two of diamonds down nearby).
        for card in afresh - self._known_cards():
            self.stab.read_afresh(card)

    def _landed_on(self, point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
        """Did an arm leave something new (its middle at `point`) on the place of a reading (`box`)?
        Within a card's reach of a lone index (`_near`); on a card read whole, within half its size
        of its box (a card's reach measured from a whole card is two cards): not a card put down
        beside it (photo deck round 438: the eight of spades read whole as the nine, the eight
        played for it; the six, put down on the seven's other side, made that misreading forgotten,
        and the nine was written for that arm's player)."""
        if not self._card_sized(box):
            return _near(point, box)
        # (on rows laid card beside card, within a quarter of its size: a card put down beside it
        # has its middle half its width off the box; kennard_4color round 1740, session 44, spread:
        # the jack of clubs put down beside the ten, whose index, read steadily as the queen, was
        # known for the ten misread; forgotten, the queen went in as soon as the jack made it fit)
        return _inside(point, box, grow=0.25 if self._rows_laid_apart() else 0.5)

    def _card_sized(self, box: tuple[float, float, float, float]) -> bool:
        """Is `box` a card read whole, not a lone index: over half a card's width and height on the
        table (False while the table's plane is not known)?"""
        size = self._size_on_table(box)
        return size is not None and size[0] > CARD_MM[0] / 2 and size[1] > CARD_MM[1] / 2

    def _misreadings_read_whole(self) -> None:
        """A card found to be another card misread at one index, read whole (both corner indices alike)
        since an arm came and went, over where that card lay, which has not been read since: put on
        that card's pile, it hides it. It is no longer taken for the misreading, and its sightings
        count from the arm's leaving (photo deck round 74: the eight of diamonds' far index read as
        the nine for forty looks; the nine, put squarely on it by an arm that left nothing seen as
        new, read whole where the eight had been read; written five plays late, after the next
        card put down elsewhere)."""
        if not self._spells or self._spells[-1].end is None:
            return
        end, landings = self._spells[-1].end, self._spells[-1].landings
        for card, places in self._misread_places.items():
            t = self.stab.tracks.get(card)
            if (t is None or not t.present or t.single or t.whole_box is None or t.whole_last != self._frame
                    or t.first_frame >= end):
                continue
            # (an arm seen leaving something new only elsewhere put nothing on it: photo deck round
            # 438, the eight of spades read whole as the nine, the eight played for it, when the
            # next arm put the six down on the seven's other side)
            if landings and not any(self._landed_on(p, t.whole_box) for p in landings):
                continue
            since = [f for f in t.recent if f >= end]
            if len(since) < self.stab.on_hits:
                continue
            # (when first read whole since the arm: not read since as the recognizer's first reading,
            # read only as the next reading of the card on it; kennard_4color round 428: the king of
            # clubs put on the queen, read whole with the queen as its next reading. Not a card read
            # whole there before the arm too: nothing new lies there; photo deck round 213: the
            # three of clubs, read whole as the three of spades for a hundred looks). And only a
            # card that can lie on that card's pile, the next of its row: not a card of another suit
            # (photo deck round 285: that three of clubs again, read whole as the three of spades
            # when an arm put the eight of spades down elsewhere, the three of clubs' own reading
            # lost for a while; the three of spades was written for that arm, which was legal by then)
            whole_since = t.first_whole >= end
            hidden = {under for _, under in places
                      if _next_in_row(card, under) and (u := self.stab.tracks.get(under)) is not None
                      and (u.read_first_since(since[0]) == 0 if whole_since else u.last_seen < since[0])
                      and _inside(_middle(u.box), t.whole_box, grow=0.0)}
            if hidden:
                places[:] = [(box, under) for box, under in places if under not in hidden]
                self.stab.misread_at.pop(card, None)
                # read whole there before the arm too, and the card under it, read whole before, never
                # read whole since it first was: it lay there since then, put by an arm the hand check
                # missed (photo deck round 497: the king of diamonds read whole on the queen two looks
                # after the queen's last whole reading, the queen read since only at one index, the
                # king's misread; counted from the next arm, the king was written after the two put
                # down by that arm)
                first = t.first_whole if not whole_since and all(
                    0 <= self.stab.tracks[under].whole_last < t.first_whole for under in hidden) else end
                self.stab.count_from(card, first)

    def _within_outline(self, box: tuple[float, float, float, float], card: str) -> bool:
        """Does `box` lie within where `card` was last read whole (a tenth of its size to spare)?"""
        u = self.stab.tracks.get(card)
        if u is None or u.whole_box is None:
            return False
        return _inside(box[:2], u.whole_box, grow=0.1) and _inside(box[2:], u.whole_box, grow=0.1)

    def _lies_at(self, t: Track, u: Track) -> bool:
        """Is `t` read where card `u` lies? Its place now, or (`t` a lone index) where `u` was read as a
        lone index at least twice before `t` was first seen: a neighbour's index misread as `u` moves
        u's box there for a while; its own place is still where it lies."""
        if self._beside_its_row_end(t, u):
            return False
        if self._one_place(t, u):
            return True
        if not t.single:
            return False
        here = t.box
        if sum(1 for f, box in u.places if f < t.first_frame and overlap(here, box) > self.same_place) >= 2:
            return True
        # At a corner of u's whole box (where u's own index was read), while u is read on at once:
        # u's index misread; another card lies there only when put squarely on u (a pile, `_put_on`)
        # (or of the card u is read as, all its indices joined: a design with four indices whose whole
        # readings are down one edge, the index at another corner read alone; not at a corner where
        # u, read at two opposite corners, has none, when `t` was read at two corners itself: kennard_4color
        # round 411, the queen of diamonds' index at the jack's empty top-right corner, read whole and
        # surely, taken for the jack's; a lone index never read whole there may be the next card's
        # own, misread: photo deck round 180, the king of clubs' index read as the king of spades)
        if any(_both_ways(box, here) for box in t.card_boxes) and self._at_empty_corner(t, u):
            return False
        # (a whole box no one card fills, half as big again as a card lying there, is two cards'
        # indices joined: kennard_4color round 1609, session 43, the three of spades' index and the
        # three of clubs' in the row below, read together as the three of clubs, 141 mm tall)
        return u.last_seen >= t.first_frame and (
            (u.whole_box is not None and _at_corner(here, u.whole_box, self.same_place, only=u.index_corners)
             and self._one_card_big(u.whole_box, over=0.5))
            or any(_at_corner(here, box, self.same_place, middle=True) and _both_ways(box, here)
                   and self._one_card_big(box) for box in u.card_boxes))

    def _beside_its_row_end(self, t: Track, u: Track) -> bool:
        """Is lone index `t` read at an empty corner of card `u` (`_at_empty_corner`; its middle
        there), the row's end it goes next to, on the side away from the card next in from `u`? In a
        spread row the next card's top-left index lies at the end's top-right corner, where the end
        has no index of its own
        (kennard_4color round 1443: the ten of clubs read surely there, taken for the nine misread
        for the nine's joined boxes, and written two plays late; photo deck round 180, the index at a
        queen's empty corner read as the king of another suit, does not go next to the queen)."""
        corners = u.index_corners
        if (not t.single or u.whole_box is None or len(corners) != 2 or sum(corners) != 3
                or self._next_to(t.card) != u.card
                or not _at_corner(t.box, u.whole_box, self.same_place, middle=True,
                                  only={0, 1, 2, 3} - corners)):
            return False
        rnd = self.match.round
        c = parse_card(u.card)
        row = rnd.table.rows.get(c.suit) if rnd is not None else None
        if row is None or len(row) < 2:
            return False
        k = row.cards.index(c)
        inner = row.cards[k + 1] if k == 0 else row.cards[k - 1]
        n = self.stab.tracks.get(inner.code)
        if n is None or n.last_seen < 0:
            return False
        return _distance(t.box, n.box) > _distance(u.box, n.box)

    def _one_card_big(self, box: tuple[float, float, float, float], over: float = 0.2) -> bool:
        """Is a box no bigger than one card lying on the table there (a fifth over, each way; or
        `over`)?"""
        size = self._size_on_table(box)
        return size is not None and size[0] <= (1 + over) * CARD_MM[0] and size[1] <= (1 + over) * CARD_MM[1]

    def _size_on_table(self, box: tuple[float, float, float, float]) -> tuple[float, float] | None:
        """A picture box's width and height on the table, mm (None while the table's plane is not known)."""
        plane = self.table.plane
        if plane is None:
            return None
        x1, y1, x2, y2 = box
        tl, tr, bl = plane.to_table([(x1, y1), (x2, y1), (x1, y2)])
        return math.hypot(*(tr - tl)), math.hypot(*(bl - tl))

    def _misread_here(self, t: Track) -> bool:
        """Is `t` read where this very reading was found to be a card in the record misread, while
        that card was still read there too (at any of the places where that happened this round),
        with nothing put down there since (an arm leaving something new there forgets the place)?
        The card under it may no longer be read as itself, so no card steadily read there says so.
        A card of the same suit that can be played now may have been put on it (a Hoyle pile whose
        top hides the card under it, still read as that card at one corner for a while); one further
        out could only be a pile top with cards between played unseen, not while the card under it
        was still read."""
        # (or a lone index reaching a quarter into that place: one index found twice, a few pixels
        # apart, read where it was found misread before; photo round 69, the eight of diamonds' index
        # read as the nine, believed when the recognizer's box for it shifted)
        # (not where the card under it has since been buried on its pile by a card of the record:
        # what lies there now is that card or one put on it; kennard_4color round 1073: the ten of
        # diamonds' index read as the king as the ten came; the jack, queen and king went on it, the
        # king read surely for twenty looks and never written, nor the queen under it)
        here = [under for box, under in self._misread_places.get(t.card, ())
                if overlap(t.box, box) > (self.same_place / 2 if t.single else self.same_place)
                and not self._buried(under, box)]
        if not here:
            return False
        if not self._fits_now(t.card):
            return True
        # put on it only by an arm that came after the card under it was there, not one seen to put a
        # card elsewhere: a reading that began with that card (the six's index read as the five as
        # the six was put down), or after an arm put a card elsewhere, stays a misreading
        # (or the pile's top changed at once and for good, by an arm the hand check missed:
        # `_replaced_unseen`; photo deck round 1118)
        suit = parse_card(t.card).suit
        for under in here:
            u = self.stab.tracks.get(under)
            if (parse_card(under).suit != suit or u is None
                    or not (self._arm_since(u, t, landed=True, there=self._there_since(under, u))
                            or self._replaced_unseen(t, u))):
                return True
        return False

    def _there_since(self, card: str, u: Track) -> int | None:
        """Since when card `card` of the record, its track `u`, lies where it was played, when its
        readings now are elsewhere (a card far away misread as it, its sightings gone on there): the
        look it was written in (photo deck round 872: the eight of hearts, played from a reading at
        its near index, its track taken back to the six of hearts' place, read as the eight before;
        dated from there, the eight's own arm counted as one that came after it lay there, and the
        nine read at its far index was taken for one put on it). None when it is read where it was
        played, or at its other corner."""
        box = self._played_boxes.get(card)
        if (box is None or card not in self._written_in or not far_apart(box, u.box)
                or self.stab.opposite(box, u.box)):
            return None
        return self._written_in[card]

    def _arm_since(self, u: Track, t: Track, landed: bool = False, free: bool = False,
                   there: int | None = None) -> bool:
        """Did an arm come and go after card `u` was there and before `t` was first seen? With
        `landed`: or before `t` last became steady (a reading of the pile's top kept on as the card
        put on it), and not seen leaving something new only elsewhere (a card put squarely on a pile
        often changes too little to be seen as new). "There" is then since `u` was first read at all:
        a buried card read afresh by the look that first reads the card put on its pile was there
        long before (kennard_4color round 116: the queen of diamonds put on the pile where the ten's
        far index had been misread as the queen; the ten, under the jack, read again in that look).
        `free`: an arm that put a card of the record down counts only if it left something new near
        `t` (kennard_4color round 134: the jack of clubs' pile read as the queen just after an arm
        put the three of clubs down on the other side of the seven)."""
        if not landed:
            explained = self._explained_visits() if free else set()
            return any(s.end is not None and u.first_frame < s.end <= t.first_frame
                       and (s.start not in explained or any(_near(p, t.box) for p in s.landings))
                       for s in self._spells[-8:])
        # (or before it was first read as itself: a track made steady by next readings alone is the
        # card under it misread; kennard_4color round 1283, the five of diamonds, steady on the six's
        # pile as the six's next reading, then put there by the next arm and read whole)
        seen = max(t.first_frame, t.since, t.first_direct)
        if there is None:
            there = u.first_read if 0 <= u.first_read < u.first_frame else u.first_frame
        # (a visit that put another card of the record down counts only as the last before `t` was
        # first seen, or before it last became steady: kennard_4color round 1062, the eight of
        # hearts put down beyond the seven, its arm landing within reach of the six on the other
        # side; two arms later the six's indices were read as the five, taken for one put on it)
        last: set[int] | None = None
        explained: set[int] | None = None
        for s in reversed(self._spells):
            if s.end is not None and s.end <= there:
                return False
            if (s.end is not None and s.end <= seen
                    and (not s.landings or any(_near(p, t.box) for p in s.landings)
                         or self._landed_off_rows(s))):
                if last is None:
                    last = {v.start for f in (t.first_frame, seen) if (v := self._spell_ended_by(f)) is not None}
                if s.start not in last:
                    explained = self._explained_visits() if explained is None else explained
                    if s.start in explained:
                        continue
                return True
        return False

    def _landed_off_rows(self, s: _CoverSpell) -> bool:
        """Did arm visit `s` leave something new only off the rows (beyond a card and a half of
        them: the arm's own trace where it came in, not a card)?"""
        if not s.landings or self.table.plane is None:
            return False
        return not any(self.table.point_in_rows(p) for p in s.landings)

    def _known_cards(self) -> set[str]:
        """Cards already in the record of this round: played, flagged, shown."""
        rnd = self.match.round
        known = {c.code for c in rnd.table.cards} if rnd is not None else set()
        return (known | {c for cards in self._shown.values() for c in cards} | set(self._illegal)
                | set(self._hand_misreads))

    def _taken_places(self) -> list[Track]:
        """The cards already in the record (played, flagged, shown) that are seen lying there."""
        known = self._known_cards()
        # (in the cards' order: a set's order changes from one run to the next, and the first of
        # these found lying under a reading is the one it is taken for)
        return [t for c in sorted(known) if (t := self.stab.tracks.get(c)) is not None and t.present]

    def _fresh(self, t: Track) -> bool:
        """A card read mostly as the recognizer's second or third reading is believed only if it became
        steady soon after it was first seen and fitted then, near where the last arm left something
        new if it was seen to (a new card where the arm just left); one
        that did not is another card's misreading, lying there, and stays doubted however the rows grow.
        Likewise a first reading that took long to become steady (too unsure, looked at again and
        again), unless an arm put something down near it just before or meanwhile."""
        direct = 2 * t.direct >= t.hits
        # (judged once per streak and way of reading: a card read mostly as a second reading when it
        # became steady and as the first reading since is judged again as one read directly;
        # paris round 88: the queen of diamonds, 3 looks of which 1 direct, then 10 of 12)
        key = (t.card, t.first_frame, t.since, direct)
        if key not in self._alt_fitted:
            rnd = self.match.round
            # a card read directly counts from its first reading as the recognizer's first choice:
            # glimpses of it as a neighbour's next reading before that do not make it slow to become
            # steady (kennard_4color round 262: the five of clubs, glimpsed at the six's index fifteen
            # looks before it was put down by an arm the hand check missed)
            first = t.counted_from
            looks = bisect.bisect_right(self._looked, t.since) - bisect.bisect_left(self._looked, first)
            if direct:
                before = self._spell_before(t)
                body = self._body(t)
                self._alt_fitted[key] = (looks <= 2 * (self.stab.on_hits + self.stab.gap_allowed) or any(
                    s.end is not None and (s is before or t.first_frame < s.end <= t.since)
                    and any(_near(p, t.box) or _inside(p, body, grow=0.0) for p in s.landings)
                    for s in self._spells[-30:])
                    or self._covers_row_end(t) or self._silent_arm(t) is not None)
            else:
                # and where the last arm left something new, if it was seen to (kennard_4color round
                # 604: the eight of spades' index in a fanned row, read as the eight and, next, as the
                # six, three looks after an arm put the ten down a card's reach further on; the six
                # was written for the next player, and every play after it went to the wrong one)
                before = self._spell_before(t)
                self._alt_fitted[key] = (looks <= self.stab.on_hits + 2 * self.stab.gap_allowed + 1
                                         and rnd is not None and not rnd.is_over and rnd.is_legal(t.card)
                                         and (before is None or not before.landings
                                              or any(_near(p, t.box) for p in before.landings)
                                              or self._covers_row_end(t)))
        return self._alt_fitted[key]

    def _silent_arm(self, t: Track) -> int | None:
        """The arm visit that put card `t` down, when it was first read (ever, not just in this
        streak) where it lies now at once after an arm that left nothing seen as new and has no line
        in the record, and it fitted then: that visit's moment, else None. A card fanned onto the
        one before changes too little to be seen as new, and a far court card may be read, unsurely,
        only now and then, becoming steady long after (paris round 187: the king of clubs on the
        queen, read in one look in ten for eighty looks). At once: within a few looks, or in the
        closer looks asked because that arm left nothing read (they come only after the looks a card
        needs to become steady; kennard_4color round 1045: the five of clubs, fanned under the six at
        the far side, read by the first closer look and by few looks after, the six of spades put down
        by the next arm read with it)."""
        if t.first_read < 0 or t.first_box is None or overlap(t.first_box, t.box) <= self.same_place:
            return None
        came = self._spell_ended_by(t.first_read)
        if came is None or came.landings or came.start in self._when[self._round_line():]:
            return None
        looked = self._looks_between(came.end, t.first_read)
        if looked > self.stab.gap_allowed + 2 and not self._in_closer_looks(t.first_read, looked):
            return None
        return came.start if t.card in self._fitting_at(came.start) else None

    def _lay_before_it_fitted(self, t: Track) -> bool:
        """Was `t` steadily read where it lies since before the arm came that put down the card it
        goes next to (the one that made it fit)? Then it lay there when it could not be played, too
        unsurely read to be an illegal play: another card misread (the far index of the ten of clubs
        read as the queen, steady for a hundred looks before the jack came; kennard_4color round
        90). A card put down unread and made out late goes where its arm put it (`_arrival`), and one
        read before the card under it was made out is played with it (`_hidden_gap`)."""
        if not t.present or t.confidence >= self.illegal_confidence:  # (sure enough: taken for an illegal play)
            return False
        end = self._next_to(t.card)
        when = self._played_at().get(end) if end is not None else None
        return when is not None and t.since < when

    def _never_put_down(self, t: Track) -> bool:
        """Was `t`, read unsurely, first read where it lies now before the streak it is steady in
        began (and after it became playable, if it is), and has every arm visit that could have put
        it down put another card of the record down, none seen leaving something new within it?
        Those visits: since it was first read, when it cannot be played now; else since the visit
        that put down the card it goes next to (the one that made it playable: a card stays
        playable until played). Then it was never put down: it is the card lying there misread,
        read now and then until a few readings fell together.
        - photo deck round 530: the jack of spades on its pile, read as the king at 0.2 one look in
          three for seventy looks; three readings after an arm put the two down on the other pile
          made it steady, and the king was taken for a card put on the pile with the queen unseen
          under it.
        - kennard_4color round 837: the queen of diamonds, at the far side, read by the closer
          looks only, its far index now and then as the king; the king, steady after three closer
          looks, was written though every arm since the queen's put another card down.
        A card put down unread and read late was put down by a visit that explains no other card
        (`_silent_arm`)."""
        rnd = self.match.round
        if (rnd is None or rnd.is_over or t.confidence >= self.illegal_confidence or t.first_read < 0
                or t.first_read >= t.first_frame or t.first_box is None
                or overlap(t.first_box, t.box) <= self.same_place):
            return False
        if rnd.is_legal(t.card):
            end = self._next_to(t.card)
            start = self._played_at().get(end) if end is not None else None
            if start is None or t.first_read <= start:
                # (first read before it could be played: a glimpse of what lay there then, not
                # this card read now and then since; photo deck round 590: the ten of hearts, put
                # on the nine's pile by an arm the hand check missed and read surely from then on,
                # glimpsed once as the eight's far index a hundred looks before)
                return False
        else:
            start = t.first_read
        # (up to its streak's start: a visit after that did not put down what was read before it)
        since = [s for s in self._spells if s.end is not None and start < s.end <= t.first_frame]
        if not since:
            return False
        explained = self._explained_visits()
        body = self._body(t)
        # (nor any change seen within it while no arm was seen: an arm the hand check missed, thin
        # or reaching in over the far edge, shows only as small changes; kennard_4color round 1400:
        # the six of diamonds put down left of the seven, the eight right of it read as the six
        # before; round 1376: the ace of spades on the two's pile, the change just off its
        # corner, the cover's grid being coarse)
        stirs = self._stirs[bisect.bisect_right(self._stirs, start, key=lambda s: s[0]):]
        if any(f <= t.first_frame and any(_inside(p, body, grow=0.1) for p in points) for f, points in stirs):
            return False
        return not any(s.start not in explained or any(_inside(p, body, grow=0.0) for p in s.landings)
                       for s in since)

    def _came_before(self, frame: int) -> int:
        """The start of the last arm visit that ended by frame `frame` (the round's start if none)."""
        came = self._spell_ended_by(frame)
        return came.start if came is not None else self._when[self._round_line()]

    def _next_to(self, card: str) -> str | None:
        """The card of the record that `card` goes next to in its row (the row's end), when it can be
        played now with none missing between; None otherwise."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or not rnd.is_legal(card):
            return None
        c = parse_card(card)
        row = rnd.table.rows.get(c.suit)
        gap = row.gap_to(c) if row is not None else None
        return gap[0].code if gap and not gap[1] else None

    def _hides_row_end(self, t: Track, u: Track) -> bool:
        """Was `t` put down next to `u`, its row's end, over part of it (a fanned row), so that `u` is
        no longer read at all? `t` fits there now, `u` has not been read since `t` was first seen,
        and the arm that came between them left something new inside what is read of `t`. A
        misreading of `u` as `t` would lie where `u` was read, with no arm putting anything there;
        the card put down is read as soon as the arm leaves, before `u` has been missed long
        enough to leave (kennard_4color round 1: the jack of hearts, read whole over two thirds
        of the ten's last box, the ten never read again)."""
        if u.last_seen >= t.first_frame or self._next_to(t.card) != u.card:
            return False
        return any(s.end is not None and u.last_seen < s.end <= t.first_frame
                   and any(_inside(p, t.box, grow=0.0) for p in s.landings) for s in self._spells[-8:])

    def _covers_row_end(self, t: Track) -> bool:
        """Does `t` lie on the card its row ends with, the card it goes next to, and has that card not
        been read since `t` was first seen (a Hoyle pile's new top, hiding the one under it)? A
        misreading of the end card would not hide it, so this is a card put down however unsurely it
        was read (a court card read a look in three, with no change seen as the arm left)."""
        end = self._next_to(t.card)
        u = self.stab.tracks.get(end) if end is not None else None
        return u is not None and u.last_seen < t.first_frame and self._lies_at(t, u) and self._put_on(t, u)

    def _one_per_place(self, tracks: list[Track]) -> list[Track]:
        """Several readings steady at one place are one card: the likeliest reading (summed over the
        frames), unless it did not fit when the card was put down and a card that did was read there
        with real probability too (a third of the likeliest's): a card seen where the arm just left is
        most likely one that could be played then."""
        rnd = self.match.round
        groups: list[list[Track]] = []
        for t in sorted(tracks, key=lambda t: -t.support):
            for g in groups:
                if self._one_place(g[0], t):
                    g.append(t)
                    break
            else:
                groups.append([t])
        out = []
        for g in groups:
            best = g[0]
            if rnd is not None and not rnd.is_over and len(g) > 1:
                fitting = self._fitting_at(min(self._arrival(t) for t in g))
                if best.card not in fitting:
                    fits = [t for t in g if t.card in fitting and t.support >= self.fits_share * best.support]
                    if fits:
                        best = fits[0]
                best = self._read_whole_instead(g, best, fitting)
                best = self._on_its_seven_s_side(g, best, fitting)
                best = self._on_its_row_s_line(g, best, fitting)
                suit = self._pile_suit_at(best)
                if suit is not None and parse_card(best.card).suit != suit:
                    # a Hoyle pile holds one suit: of the readings where its top lay, one of its suit
                    # that fitted (paris round 158: the king of clubs put on the queen, read as the
                    # king of spades most of the time, the king of clubs a third as often)
                    # (or one put on it over tops never seen, `_hidden_gap`: photo deck round 809, the
                    # two of clubs on the four's pile, the three never read, and read as the two of
                    # spades by turns; the spades' two, which fitted, held the place and was never
                    # written, nor the two of clubs, and the round never ended)
                    ours = [t for t in g if parse_card(t.card).suit == suit
                            and (t.card in fitting or self._hidden_gap(t))
                            and t.support >= self.fits_share * best.support]
                    if ours:
                        best = ours[0]
            out.append(best)
        return out

    def _read_whole_instead(self, g: list[Track], best: Track, fitting: set[str]) -> Track:
        """Of readings steady at one place, the likeliest never read whole as the recognizer's first
        choice (only at a lone corner index, and as another's next reading) gives way to one read
        whole as the first choice (its two corner indices paired as one card) more often than the
        likeliest was read as the first choice at all, where that one fits as well: the lone index
        is the whole card's other index misread (kennard_4color round 1741, session 45: the eight of
        clubs put beside the seven on a fanned row, read whole as the eight at 0.35-0.44 four looks
        in six, the six its next reading, its far index alone read as the six twice; the six, the
        likelier summed, was written, and the real six and nine went in as the eight and the nine)."""
        if best.card_boxes:
            return best
        whole = [t for t in g if t is not best and t.card_boxes and t.direct > best.direct
                 and (t.card in fitting or best.card not in fitting)]
        return whole[0] if whole else best

    def _on_its_row_s_line(self, g: list[Track], best: Track, fitting: set[str]) -> Track:
        """Of readings steady at one place that fit, of different suits, on rows laid card beside
        card: the likeliest, unless the place (all the readings' boxes together: a card read at one
        corner index, then the other; `_place_of`) lies more than a card's length off its row's line
        and another's row line runs nearer by half (photo deck round 480: the two of clubs put down
        beside the three, one index read as the two of spades and the other as the two of clubs by
        turns, the spades a little likelier; the place lay 2 mm off the clubs' line and 114 mm off
        the spades': the two of spades was played, and every play after it went to the wrong
        player)."""
        rnd, plane = self.match.round, self.table.plane
        if rnd is None or plane is None or not self._rows_laid_apart():
            return best
        others = [t for t in g if t is not best and t.card in fitting
                  and parse_card(t.card).suit != parse_card(best.card).suit]
        if not others:
            return best
        here = plane.to_table([_middle(enclosing(self._place_of(g)))])[0]

        def off(t: Track) -> float | None:
            row = rnd.table.rows.get(parse_card(t.card).suit)
            centres = self._row_line(row) if row is not None else None
            return None if centres is None else _off_line(centres, here)

        away = off(best)
        if away is None or away <= CARD_MM[1]:
            return best
        for t in others:
            near = off(t)
            if near is not None and 2 * near < away:
                return t
        return best

    def _place_of(self, g: list[Track]) -> list[tuple[float, float, float, float]]:
        """The boxes where readings steady at one place were read: each one's box now, and the lone
        indices it was read at in its streak that lie at the other corner from where one of them is
        read now (a card's next reading is seen where the first one is: one reading may have its box
        moved onto the other corner by that, while it was read first at its own; photo deck round
        726, the three of clubs read first at the near index, as the next reading at the far one)."""
        boxes = [t.box for t in g]
        for t in g:
            boxes += [b for f, b in t.places if f >= t.first_frame
                      and any(self.stab.opposite(b, u.box) or self.stab.opposite(u.box, b) for u in g)]
        return boxes

    def _on_its_seven_s_side(self, g: list[Track], best: Track, fitting: set[str]) -> Track:
        """Of readings steady at one place, two that both fit and go opposite ways from their row's
        seven (a six and an eight: a far row's small index read as its mirror) are told apart by
        the side of the seven the place lies on, once the rows show which way they grow: the
        likeliest reading, unless the place lies across the seven from where it goes, by more than a
        tenth of a card's width (half a card's width more when the readings are one lone index:
        where the card's middle is, is known only that far) (kennard_4color round 318: the eight of
        spades put down right of the seven, its near index read as the six and its far one as the
        eight, the six a little likelier: the six was played, forty plays early)."""
        rnd, plane = self.match.round, self.table.plane
        c = parse_card(best.card)
        row = rnd.table.rows.get(c.suit) if rnd is not None else None
        if row is None or plane is None or (high := row.goes_high(c)) is None:
            return best
        mirrors = [t for t in g[1:] if t.card in fitting and row.goes_high(parse_card(t.card)) is (not high)]
        seven = self.stab.tracks.get(row.opener.code)
        if not mirrors or seven is None or seven.whole_box is None or (way := self._high_way()) is None:
            return best
        box = enclosing([t.box for t in g])
        corners = plane.to_table([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])])
        lone = _index_big_on_table(corners)
        here = corners.mean(axis=0)
        there = plane.to_table([_middle(seven.whole_box)])[0]
        slack = CARD_MM[0] * (0.1 + 0.5 * lone)
        return mirrors[0] if float(np.dot(here - there, way[0])) * (1 if high else -1) < -slack else best

    def _pile_suit_at(self, t: Track) -> str | None:
        """On Hoyle piles: the suit of the one pile whose top card (a row's end) was read where `t` is;
        None on rows laid card beside card, or where no pile top or tops of two suits were read."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or self._rows_laid_apart():
            return None
        suits = {row.suit for row in rnd.table.rows.values() if row is not None
                 for end in (row.low, row.high)
                 if (u := self.stab.tracks.get(end.code)) is not None and u.last_seen >= 0 and self._one_place(t, u)}
        return suits.pop() if len(suits) == 1 else None

    def _fitting_at(self, when: int) -> set[str]:
        """The cards that fitted at moment `when` (the record as it was then; now if nothing later was
        written): a card put down then was one of them."""
        events = self.match.events
        pos = len(events)
        while pos > 1 and self._when[pos - 1] > when and isinstance(events[pos - 1], (Play, Pass)):
            pos -= 1
        later = [self._pop() for _ in range(len(events) - pos)][::-1]
        try:
            rnd = self.match.round
            return set() if rnd is None or rnd.is_over else {c.code for c in rnd.legal_plays}
        finally:
            for ev, w in later:
                self._repush(ev, w)

    def _settle(self, now: int, news: list[News], final: bool, next_round: bool = True) -> None:
        self._see_removals(now, news)
        self._mirror_misread(news)
        self._row_misread(news)
        self._read_surely_instead(news)
        self._read_on_its_pile_instead(news)
        self._put_down_later(news)
        for _ in range(200):  # at most a few events per frame; the bound only guards against a loop
            if not self._step(now, news, final):
                break
        self._push_shows(news, final=False)
        if next_round:
            self._maybe_next_round(now, news)

    def _doubtful(self, t: Track) -> bool:
        """A steady card that does not fit and, seen long enough, is still not sure enough to be taken
        for an illegal play (most likely a card read wrongly again and again): it holds nothing up."""
        return (t.hits >= self.illegal_after and t.confidence < self.illegal_confidence
                and not self.match.round.is_over and not self.match.round.is_legal(t.card))

    def _step(self, now: int, news: list[News], final: bool) -> bool:
        cands = [t for t in self._candidates() if not self._doubtful(t)]
        if self._passes and (final or not self.match.round.is_over):  # else they wait for the next round
            p_frame, player = self._passes[0]
            open_since = None if final else self._earliest_open()
            due = final or (p_frame < now and (open_since is None or p_frame < open_since))
            if due and (not cands or self._pass_first(p_frame, player, cands[0])):
                self._passes.pop(0)
                ev = Pass(player)
                flag = self._push(ev, p_frame)
                news.append(News("pass", p_frame, ev, flag))
                return True
        held = False
        for t in cands:
            if self._passes and self._pass_first(*self._passes[0], t):
                return False  # a pass declared before this card arrived is not settled yet
            if not final and (self._surer_reading_coming(t) or self._came_with(t)):
                return False
            if not final and self._gap_unexplained(t):
                held = True  # it waits (and the cards after it), unless read as one that fits
                break
            if self._judge(t, now, news, final):
                return True
        found = self._read_as_fitting()
        if found is None and held:
            return False
        if found is not None:
            t, k = found
            if self._passes and self._pass_first(*self._passes[0], t):
                return False
            self.stab.misread_at[t.card] = t.box
            # and while it is read there, it is that card misread (not a card further on in its
            # row, with the cards between filled in unseen: kennard_4color round 171, the ten of
            # diamonds' index read as the queen, and the jack filled in)
            self._misread_places.setdefault(t.card, []).append((t.box, k.card))
            # (and when an arm lands there later, its streak starts afresh: what it read before was
            # that card; kennard_4color round 1523, session 42: the queen of clubs, the ten's pile
            # read as it for 180 looks, played with the jack when the jack went on the ten)
            self._read_instead.add((t.card, k.card))
            if not self._play_in_time(k.card, k, news, when=self._arrival(t)):
                self._play(self._mover(t), k.card, k, news)
            return True
        unread = self._unread_at_row_end()
        if unread is not None:
            card, when = unread
            if self._passes and self._passes[0][0] < when:
                return False
            self._row_ends_tried.add((when, card))
            if self._play_in_time(card, None, news, when):
                return True
            mover = self.match.round.to_move
            if self._when[-1] <= when and mover is not None:  # nothing written since: it is played now
                if self._play(mover, card, None, news, when=when) is None:
                    return True
                self._pop()  # it would be flagged: leave the record as it was
        return False

    def _surer_reading_coming(self, t: Track) -> bool:
        """Is `t` just steady (within `on_hits` looks), and was another card that can be played read
        where it is since it came, lately (within `on_hits` looks), more surely on average and nearly
        as often (its support short of t's by less than one of t's looks)? Then `t` waits, at most
        those few looks, for the next ones to tell which of the two lies there (`_one_per_place`):
        a card read steadily on its first few unsure looks is often a neighbour misread
        (kennard_4color round 543: the eight of clubs put down, its near index read as the six
        three looks running at 0.26-0.30, its far index as the eight at 0.38, then from the next
        look on read whole as the eight at 0.6; the six was written, and the eight for the next
        player, who put the six down)."""
        rnd = self.match.round
        if rnd is None or rnd.is_over or t.since < 0:
            return False
        if self._looks_since(t.since) > self.stab.on_hits:
            return False
        known = self._known_cards()
        suit = self._pile_suit_at(t)  # (on a Hoyle pile, only a card of its suit: paris round 158)
        for k in self.stab.tracks.values():
            if (k is t or k.card in known or k.last_seen < t.first_frame or k.confidence <= t.confidence
                    or k.support + t.confidence < t.support or not rnd.is_legal(k.card)
                    or self._looks_since(k.last_seen) > self.stab.on_hits
                    or (suit is not None and parse_card(k.card).suit != suit)):
                continue
            if self._one_place(k, t):
                return True
        return False

    def _came_with(self, t: Track) -> bool:
        """Can `t` be played only since the card it goes next to was written, in this very look, for
        the arm visit that `t` too was first read after? One arm puts one card down: `t` is most
        likely that card's other index misread, and waits a look for the readings to tell (photo
        deck round 605: the eight of hearts put beside the seven on a Hoyle table, its top-left
        index read as the nine, its bottom-right one as the eight in two overlapping boxes, too wide
        together for the two to pair as one card's corners until the next look; the nine was
        written for the next player, who had passed, and the plays after went to the wrong players)."""
        end = self._next_to(t.card)
        if end is None or self._written_in.get(end) != self._frame:
            return False
        return self._played_at().get(end) == self._arrival(t)

    def _came_with_its_row_end(self, t: Track) -> bool:
        """Was `t`, which goes next to its row's end and is read where that end lies (`_lies_at`), by
        turns with it, first read (in its streak) after the arm visit that put that end down, and
        steady in it, before any other arm visit came and went? One arm puts one card down: `t`
        came with the end card, and is that card misread (photo deck round 1540, session 45: the
        eight of diamonds' far index, fanned beside the seven, read as the nine about half the time
        from the eight's own visit on; when the eight's streak broke over a later arm's visit, the
        nine, steady all along, went in, before Ben's six of spades). Steady only after another
        visit, it may have come with that one (kennard_4color round 1799: the five of clubs,
        glimpsed once on the six's pile before Anna's arm put it there). The end card's own visit
        must have been seen (with no arm seen at all, a missed arm may have put `t` down beside it:
        kennard_4color round 63), `t` read from the first few looks after it (photo deck round 497:
        the king of diamonds, put on the queen's pile by an arm the hand check missed eight looks
        after the queen's, the queen's index still read now and then), and the end read since `t`
        was first read (a pile's top that changed for good was covered by a card put on it by an
        arm the hand check missed: round 1799's ace of clubs on the two's pile)."""
        end = self._next_to(t.card)
        u = self.stab.tracks.get(end) if end is not None else None
        if u is None or u.last_seen < t.first_frame:
            return False
        when = self._played_at().get(end)
        came = self._spell_from(when)
        if (came is None or came.end is None or t.first_frame <= came.start
                or self._looks_between(came.end, t.first_frame) > self.stab.gap_allowed + 2
                or not self._lies_at(t, u)):
            return False
        steady = t.since if t.since >= 0 else t.first_frame
        return not any(s.start > when and s.end is not None and s.end <= steady for s in self._spells)

    def _played_at(self) -> dict[str, int]:
        """This round's played cards, each with the moment it was put down."""
        events = self.match.events
        start = self._round_line()
        return {e.card: w for e, w in zip(events[start:], self._when[start:]) if isinstance(e, Play)}

    def _unread_at_row_end(self) -> tuple[str, int] | None:
        """A card the recognizer cannot read, put down where a row goes on: an arm visit that left
        something new exactly one row step beyond a row's end (the step between the middles of the
        end card and its neighbour as their arms left them, the same as the step before it), from
        which no card was made out in the looks since (three times as many as a card needs to become
        steady), while the one card that goes there fitted: that card, at that visit. Another card
        read there lets the readings decide; that card itself, read there now and then too unsurely
        to become steady, does not hold it back (kennard_4color round 576). Only on rows laid card
        beside card, once seen so (`_rows_laid_apart`): Hoyle piles beside their seven lie a step
        apart too, and a card goes on the pile, not beyond it (kennard_4color round 1664, session
        43: the five of diamonds filled in one step left of the six's pile, where Cleo's arm, which
        put the nine of clubs down, had left a change in passing; the five went in for Cleo, two
        turns early). Returns (card, visit) or None."""
        rnd = self.match.round
        if (rnd is None or rnd.is_over or rnd.to_move is None or not self._spells
                or not self._rows_laid_apart()):
            return None
        looks_needed = 3 * (self.stab.on_hits + self.stab.gap_allowed)
        done = [s for s in self._spells[-8:] if s.end is not None and s.landings
                and self._looks_since(s.end) >= looks_needed]
        if not done:
            return None
        explained = self._explained_visits()
        done = [s for s in done if s.start not in explained]
        if not done:
            return None
        known = self._known_cards()
        for slot, tol, card, since in self._row_end_slots(known):
            for s in done:
                if s.start <= since or (s.start, card) in self._row_ends_tried:
                    continue
                if not any(math.hypot(p[0] - slot[0], p[1] - slot[1]) <= tol for p in s.landings):
                    continue
                if any(k.card not in known and k.card != card and (k.present or k.hits > 0)
                       and k.last_seen >= s.end and _near(slot, k.box) for k in self.stab.tracks.values()):
                    continue  # something else is being read there: the readings decide
                if card in self._fitting_at(s.start):
                    return card, s.start
        return None

    def _row_end_slots(self, known: set[str]) -> list[tuple[tuple[float, float], float, str, int]]:
        """Where the next card of each row end would be put down (the middle of the arm's landing),
        how near a landing must be, that card, and when the end card was played."""
        rnd = self.match.round
        legal = [c for c in rnd.legal_plays if c.code not in known]
        played = self._played_at()
        out = []
        for row in rnd.table.rows.values():
            if row is None or len(row.cards) < 3:
                continue
            for end, inner, inner2 in (row.cards[-1:-4:-1], row.cards[:3]):
                beyond = next((c for c in legal if (g := row.gap_to(c)) is not None and g[0] == end and not g[1]), None)
                if beyond is None:
                    continue
                le, li, li2 = (self._landing_of(c.code, played) for c in (end, inner, inner2))
                if le is None or li is None or li2 is None:
                    continue
                vx, vy = le[0] - li[0], le[1] - li[1]
                step = math.hypot(vx, vy)
                if step < 10.0 or math.hypot(li[0] - li2[0] - vx, li[1] - li2[1] - vy) > 0.25 * step:
                    continue  # not a row laid out evenly (a pile, or a landing not where its card lies)
                out.append(((le[0] + vx, le[1] + vy), 0.4 * step, beyond.code, played.get(end.code, 0)))
        return out

    def _landing_of(self, card: str, played: dict[str, int]) -> tuple[float, float] | None:
        """Where the arm that put a card down left something new (the nearest such point to the card).
        A card of the record goes by the visit at its moment in the record and where it was read
        when played (its outline in the rows), not by where it is read now: a far row's cards are
        misread as each other, their readings wander (kennard_4color round 576: the ten of spades,
        read at the queen's place, given the queen's landing, so the row no longer stepped evenly
        and the king put down beyond the queen, never read, was never found). `played`: the round's
        plays and their moments (`_played_at`)."""
        when = played.get(card)
        outline = self.table.row_outlines.get(card)
        if when is not None and outline is not None:
            spell = next((s for s in reversed(self._spells) if s.start == when), None)
            if spell is not None and spell.landings:
                # (the visit that put it down: its landing nearest the card, however far from the
                # index the card was read by; a card's middle lies some way from its index)
                mx, my = _middle(_outline_box(outline))
                return min(spell.landings, key=lambda q: math.hypot(q[0] - mx, q[1] - my))
        t = self.stab.tracks.get(card)
        if t is None:
            return None
        start = self._visit_of(t)
        spell = next((s for s in reversed(self._spells) if s.start == start), None)
        if spell is None or not spell.landings:
            return None
        mx, my = _middle(t.box)
        p = min(spell.landings, key=lambda q: math.hypot(q[0] - mx, q[1] - my))
        return p if _near(p, t.box) else None

    def _explained_visits(self, surely: bool = False) -> set[int]:
        """The moments of this round's record lines and of the visits that put its known cards down.
        `surely`: not by a card read only unsurely where it lies (its streak's mean confidence under
        `sure_enough`), which may be a neighbour's index misread there, or the card's own read as
        another."""
        start = self._round_line()
        unsure = ({c for c in self._known_cards() if (k := self.stab.tracks.get(c)) is not None
                   and k.present and k.confidence < self.sure_enough} if surely else set())
        explained = {w for e, w in zip(self.match.events[start:], self._when[start:])
                     if not (isinstance(e, Play) and e.card in unsure)}
        played = self._played_at()
        starts = {s.start for s in self._spells}
        for card in sorted(self._known_cards() - unsure):
            visit = self._visit_that_put(card, played, starts)
            if visit is not None:
                explained.add(visit)
        return explained

    def _visit_that_put(self, card: str, played: dict[str, int], starts: set[int]) -> int | None:
        """The arm visit that put `card` (of the record; `played`: this round's plays and their
        moments; `starts`: the moments the arm visits began) down. A card written at the start of a
        visit was put down by that one (paris round 146: the two of clubs, put down by an arm that
        left nothing seen as new; the last one before that left something near it put the king down
        beside the queen; paris round 205: the jack
        of clubs, played unseen, first read by the queen of hearts put down next to it). Else as far
        as its readings tell (`_visit_of`), but not a visit that began after the card was first
        steadily there (its index hidden a while by the card put next to it, it was read afresh
        later: that visit put another down)."""
        k = self.stab.tracks.get(card)
        if k is None:
            return None
        if played.get(card) in starts:
            return played[card]
        visit = self._visit_of(k)
        if k.first_steady >= 0 and visit > k.first_steady:
            return None
        # nor a visit that began after the card was first read where it lies (a far card played unseen,
        # its index read now and then since: a closer look reads it again after an arm put another
        # card down beside it; photo round 85, the five of hearts)
        if k.first_read >= 0 and visit > k.first_read and self._first_read_here(k):
            return None
        return visit

    def _read_as_fitting(self) -> tuple[Track, Track] | None:
        """A card that cannot be played, read steadily where a row goes on, at the place where a card
        that can be played there was read too (as the recognizer's second reading, say): the card that
        fits (an ace of clubs read as the ace of spades nine times in ten, lying next to the two of
        clubs), provided that card fitted when what lies there was put down (the four of clubs' index
        read as the ace, and once as the two, before the three came: not the two). Not for a reading
        as sure as an illegal play must be to be flagged, unless it waits on a Hoyle pile beyond
        cards no arm explains (`_gap_unexplained`). A reading known where it is read as a card of
        the record misread (`_misread_here`) points only to a card that came with an arm that put no
        other card down. Returns (the reading that does not fit, the card that does) or None.

        Where a row goes on: within one and a half row steps (the median distance between neighbours
        in the rows, as seen) of the row's end that the fitting card would lie beside."""
        rnd = self.match.round
        if rnd is None or rnd.is_over:
            return None
        known = self._known_cards()
        taken = self._taken_places()
        step: float | None = None
        explained: set[int] | None = None  # `_explained_visits`, for misreadings (worked out once)
        for t in self.stab.steady():
            if t.card in known or rnd.is_legal(t.card) or (t.confidence >= self.illegal_confidence
                                                           and not self._gap_unexplained(t)):
                continue  # a card read surely is believed (an illegal play is flagged as such)
            # known here as a card of the record misread: a sign of another card only if that one
            # came with an arm that put no other card down (kennard_4color round 113: the ten of
            # diamonds put on the nine's pile, where the queen was the nine misread, by an arm that
            # left nothing seen as new; round 1523, session 42: the queen of clubs, the ten misread,
            # taken for the jack glimpsed there once, dated to an arm that put the five of hearts down)
            misread = self._misread_here(t)
            under = [u for u in taken if self._lies_at(t, u) and not self._put_on(t, u)]
            if (not under and self._never_put_down(t)
                    and self._came_before(t.first_read) in self._explained_visits()):
                # read there since before it could be played, with no arm come since but those that
                # put other cards down: what lies there came with the arm before it was first read,
                # which put a card of the record down (photo deck round 530: the jack of spades, not
                # read steadily, read as the king; not the queen)
                continue
            fitted: set[str] | None = None
            for k in sorted(self.stab.tracks.values(), key=lambda k: -k.support):
                if (k is t or k.card in known or k.last_seen < t.first_frame or not rnd.is_legal(k.card)
                        or not self._one_place(k, t) or self._behind_its_row_end(k) or self._misread_here(k)):
                    continue  # (nor one found to be a card of the record misread, there: kennard_4color
                    # round 602, the eight of diamonds' near index read as the six and as the five;
                    # the six, known there for the eight misread, was played for the five)
                if misread:
                    explained = explained if explained is not None else self._explained_visits()
                    came = self._arrival(k)
                    if came in explained or (not k.direct and self._spell_from(came) is None):
                        continue
                if under:
                    # read where a card of the record lies: only a card put on its pile since, read
                    # there now and then (the nine of diamonds on the eight's pile, its index read as
                    # the four nearly always; kennard_4color round 122), fitting when its arm came
                    # (read, not glimpsed once as a next reading: kennard_4color round 374, the ten of
                    # hearts, once the nine's pile's next reading, played for the arm that put the four of
                    # clubs down; the jack of diamonds of round 113, read once as the first reading, is;
                    # nor read twice only as the next reading of the card under it, read whole there
                    # as itself: photo deck round 366, the eight of diamonds' next reading the nine)
                    if (not k.direct or not all(self._on_pile(k, u) for u in under)
                            or k.card not in self._fitting_at(self._arrival(k))):
                        continue
                else:
                    fitted = fitted if fitted is not None else self._fitting_at(self._arrival(t))
                    if k.card not in fitted:
                        continue  # what lies there was put down when `k` could not be played: not `k`
                if k.hits == 1 and (under or not k.direct):
                    # read once, on a pile (as the first reading) or anywhere only as a next reading:
                    # only after the looks a card needs to become steady, and not dated to an arm
                    # that put another card down, which may need those looks to show (kennard_4color
                    # round 1649, session 43: the ten of diamonds' far index read once as the jack,
                    # in the first look after Cleo's arm put the four of hearts down elsewhere; the
                    # jack went in for Cleo at once, the four after it for Anna; photo deck round
                    # 1425, session 44: the eight of clubs, its near index read steadily as the ten,
                    # its far one once as the nine, the next reading, one look after the ten was
                    # first read; the nine went in for the ten). A card read once as the first
                    # reading beside a row's end, on no pile, still counts at once (kennard_4color
                    # round 1545: the queen of clubs, read as the king three times before)
                    explained = explained if explained is not None else self._explained_visits()
                    if (self._looks_between(k.first_frame, self._frame) < self.stab.on_hits
                            or self._arrival(k) in explained):
                        continue
                c = parse_card(k.card)
                row = rnd.table.rows.get(c.suit)
                gap = row.gap_to(c) if row is not None else None
                end = self.stab.tracks.get(gap[0].code) if gap else None
                # (or a pile's top once steady and no longer read, where it was last read, when what
                # is read there lies at it: on a Hoyle pile, under the card put on it; not a seven,
                # which nothing is put on; photo deck round 878, the three of clubs put on the four's
                # pile, its near index read as the three of spades and once as the three of diamonds,
                # which, the four of diamonds read a row away, was written for it)
                if end is None or (not end.present and (
                        end.first_steady < 0 or gap[0] == row.opener or self._rows_laid_apart()
                        or not self._lies_at(t, end))):
                    continue
                step = step if step is not None else self._row_step()
                if step is not None and _distance(_place(t), _place(end)) <= 1.5 * step:
                    return t, k
        return None

    def _row_step(self) -> float | None:
        """The median distance, in the picture, between the places of neighbouring cards in the rows."""
        steps = []
        by_suit: dict[str, list] = {}
        for c in self.match.round.table.cards:
            by_suit.setdefault(c.suit, []).append(c)
        for cards in by_suit.values():
            cards.sort(key=lambda c: c.rank)
            for a, b in zip(cards, cards[1:]):
                ta, tb = self.stab.tracks.get(a.code), self.stab.tracks.get(b.code)
                if b.rank - a.rank == 1 and ta is not None and tb is not None and ta.present and tb.present:
                    d = _distance(_place(ta), _place(tb))
                    if d > 0:
                        steps.append(d)
        if not steps:
            return None
        steps.sort()
        return steps[len(steps) // 2]

    def _pass_first(self, p_frame: int, player: str, t: Track) -> bool:
        """Does a pass declared at `p_frame` come before the card of track `t`?

        Before the arm that put the card down came in: yes; after the card was first seen: no. In
        between (the passer tapped while an arm was over the table) the turn order decides: the pass
        comes first exactly when it is the passer's turn now.
        """
        arrival = self._arrival(t)
        if p_frame < arrival:
            return True
        if p_frame >= t.first_frame:
            return False
        return self.match.round is not None and self.match.round.to_move == player

    def _mover(self, t: Track) -> str:
        """Whose card it is: the engine's turn order; before an unknown opener, the arm's side of the table."""
        rnd = self.match.round
        if rnd.to_move is not None:
            return rnd.to_move
        spell = self._spell_before(t)
        if spell is not None and spell.entries:
            return self._arm_player(spell)
        dealer = self._round_dealer()
        self._opener_guessed = self._round_line()  # no arm seen: a guess, until a later arm says
        return self.players[(self.players.index(dealer) + 1) % len(self.players)]

    def _opener_from_later_arm(self, t: Track, news: list[News]) -> None:
        """The round's first card was put down by an arm the hand check never saw (a sleeve the colour
        of the cloth), so its player was a guess: the dealer's left-hand neighbour. The first later play
        whose arm was seen says who opened: of the openers whose turn order gives that play to the
        arm's seat, the one with the fewest flags (a declared pass out of turn) is kept, the guess
        first among equals; the round's lines are put back with it (passes stay whose they are)."""
        start = self._round_line()
        events = self.match.events
        if self._opener_guessed != start or len(events) < start + 3 or not isinstance(events[start + 1], Play):
            return
        spell = self._spell_before(t)
        if spell is None or not spell.entries or spell.start <= self._when[start + 1]:
            return
        self._opener_guessed = None  # one try a round
        if not isinstance(events[-1], Play) or events[-1].card != t.card:
            return
        player = self._arm_player(spell)
        lines = [self._pop() for _ in range(len(events) - start - 1)][::-1]
        guessed = lines[0][0].player

        def put_back(opener: str) -> tuple[bool, int]:
            """The lines with this opener: does the arm's play fall to the arm's seat; the flags."""
            for _ in range(len(self.match.events) - start - 1):
                self._pop()
            (first, w), *rest = lines
            self._repush(Play(opener, first.card), w)
            self._repush_by_turn(rest)
            return self.match.events[-1].player == player, len(self.match.round.flags)

        fits = [(flags, k, opener) for k, opener in enumerate([guessed] + [p for p in self.players if p != guessed])
                for ok, flags in [put_back(opener)] if ok]
        best = min(fits)[2] if fits else guessed
        put_back(best)
        if best != guessed:
            news.append(News("corrected", self._frame, None, None,
                             f"{lines[0][0].card} was put down by {best}, not {guessed}: the arm that put "
                             f"{t.card} down came from {player}'s side of the table"))

    def _arm_player(self, spell: _CoverSpell) -> str:
        """The player on whose side of the table the arm of a visit came in (its mean entry angle)."""
        angle = math.atan2(sum(math.sin(a) for a in spell.entries), sum(math.cos(a) for a in spell.entries))
        return self.players[nearest_seat(angle, len(self.players))]

    def _repush_by_turn(self, lines: list[tuple[object, int]]) -> list[tuple[object, int]]:
        """Put lines taken off back, each play given to whoever is to move then (passes stay whose
        they are); returns the lines as put back."""
        redone = []
        for ev, w in lines:
            to_move = self.match.round.to_move
            if isinstance(ev, Play) and to_move is not None:
                ev = Play(to_move, ev.card)
            self._repush(ev, w)
            redone.append((ev, w))
        return redone

    def _round_dealer(self) -> str:
        for e in reversed(self.match.events):
            if isinstance(e, RoundStart):
                return e.dealer
        return self.players[0]

    def _play(self, player: str, card: str, t: Track | None, news: list[News], when: int | None = None) -> object:
        ev = Play(player, card)
        frame = t.first_frame if t is not None else self._frame
        if when is None:
            when = self._arrival(t) if t is not None else self._frame
        # written after the lines already there, it stays after them when the round's lines are put
        # back in the order of their moments (a card dated before them that could not go there)
        if when < self._when[-1]:
            self._arrived[card] = when
        flag = self._push(ev, max(when, self._when[-1]))
        if t is not None and t.card == card and (box := self.stab.misread_at.get(card)) is not None \
                and overlap(box, t.box) > self.same_place:
            # taken for a misreading there before, it is now taken for the card itself there: its
            # readings elsewhere are other cards misread (paris round 187: the queen of clubs, doubted
            # for a look where the jack lies, then played; the king on it, read now and then as the
            # queen, moved the queen's track onto the king)
            del self.stab.misread_at[card]
        if flag is None:
            if t is not None:
                outline = self.stab.outline(card)
                if outline is not None:
                    self.table.add_row_card(card, outline)
            news.append(News("play", frame, ev, None))
            if t is not None and self._opener_guessed is not None:
                self._opener_from_later_arm(t, news)
        return flag

    def _judge(self, t: Track, now: int, news: list[News], final: bool) -> bool:
        rnd = self.match.round
        if rnd.is_over:
            return self._see_hand_card(t, news)
        card = t.card
        if rnd.is_legal(card):
            if not self._play_in_time(card, t, news):
                self._play(self._mover(t), card, t, news)
            return True
        gap = self._hidden_gap(t)
        if gap:
            for c, when in zip(gap, self._gap_moments(t, gap)):
                if when is None or not self._play_in_time(c, None, news, when):
                    self._play(self._mover(t), c, None, news)
            self._play(self._mover(t), card, t, news)
            return True
        if self._fill_unseen(t, news):
            return True
        if (t.hits >= self.illegal_after or final) and t.confidence >= self.illegal_confidence:
            player = self._mover(t)
            ev = Play(player, card)
            flag = self._push(ev, self._arrival(t))
            if flag is None:  # it was fine after all (an unknown opener's seven, say)
                news.append(News("play", t.first_frame, ev))
                return True
            self._illegal[card] = flag
            explain = getattr(flag, "explain", None)
            news.append(News("illegal", t.first_frame, ev, flag, explain() if callable(explain) else str(flag)))
            return True
        return False

    def _play_in_time(self, card: str, t: Track | None, news: list[News], when: int | None = None) -> bool:
        """A card made out only after later cards were written (the recognizer needed more looks at it)
        goes where it arrived: the lines after that moment are taken off, the card is played, and the
        plays taken off are put back by turn order (so they may change hands; declared passes stay
        whose they are). Kept only if the record then has no more flags than before; else False and
        nothing changed (the card is then played now)."""
        if when is None:
            assert t is not None
            when = self._arrival(t)
        return self._plays_in_time([(card, when)], t, news)

    def _plays_in_time(self, plays: list[tuple[str, int]], t: Track | None, news: list[News]) -> bool:
        """`_play_in_time` for several cards at once, each at its moment (cards played unseen in a row,
        inner first: one alone in its place, the record between would say the wrong player passed;
        kennard_4color round 199: the ten and jack of spades, never read, found when the queen came).
        `t`: the track of the one card (a single card read late), else None."""
        plays = sorted(plays, key=lambda x: x[1])
        events = self.match.events
        pos = len(events)
        while pos > 1 and self._when[pos - 1] > plays[0][1] and isinstance(events[pos - 1], (Play, Pass)):
            pos -= 1
        if pos == len(events):
            return False
        rnd = self.match.round
        flags_before = len(rnd.flags)
        arms_before = self._arms_against(pos)
        later = [self._pop() for _ in range(len(events) - pos)][::-1]

        def redo(lines: list[tuple[object, int]]) -> tuple[bool, list[tuple[object, int]], list[Play]]:
            while len(self.match.events) > pos:
                self._pop()
            ok = True
            redone: list[tuple[object, int]] = []
            played: list[Play] = []
            waiting = list(plays)
            for line in lines + [None]:
                while ok and waiting and (line is None or waiting[0][1] < line[1]):
                    card, when = waiting.pop(0)
                    mover = self.match.round.to_move
                    ok = mover is not None and self._push(Play(mover, card), when) is None
                    played.append(Play(mover or "", card))
                if not ok or line is None:
                    break
                redone += self._repush_by_turn([line])
            if ok:
                ok = len(self.match.round.flags) <= flags_before and self._arms_against(pos) <= arms_before
            if not ok:
                self._put_back(pos, later)
            return ok, redone, played

        # a card written late, after lines dated after it arrived (it did not fit then), goes where it
        # arrived now that the missed card is in, if then fewer plays go to another player than the
        # one whose arm put them down than before (paris round 168: the queen of spades, put down
        # before the ten of hearts, when the king of clubs had not been read); when the arms do not
        # say so, the lines stay as written (kennard_4color round 68: the five of hearts, dated
        # before the eight, which went down first)
        timed = sorted(((ev, min(w, self._arrived.get(ev.card, w)) if isinstance(ev, Play) else w)
                        for ev, w in later), key=lambda line: line[1])
        fine = []  # (plays against their arms, lines) of the orders that work out, as written first
        for lines in ([later, timed] if timed != later else [later]):
            ok, _, _ = redo(lines)
            if ok:
                arms = self._arms_against(pos)
                if lines is later or arms < arms_before:
                    fine.append((arms, lines))
                self._put_back(pos, later)
        if not fine:
            return False
        ok, redone, played = redo(min(fine, key=lambda f: f[0])[1])  # (the first of equals)
        if not ok:  # (the same lines worked out a moment ago: the record is a pure function of them)
            return False
        for play, (_, when) in zip(played, plays):
            outline = self.stab.outline(play.card) if t is not None else None
            if outline is not None:
                self.table.add_row_card(play.card, outline)
            news.append(News("play", t.first_frame if t is not None else when, play))
        before = {a.card: a.player for a, _ in later if isinstance(a, Play)}
        moved = [f"{b.card}: {b.player}, not {before[b.card]}" for b, _ in redone
                 if isinstance(b, Play) and before.get(b.card, b.player) != b.player]
        news.append(News("corrected", self._frame, None, None,
                         f"{', '.join(p.card for p in played)} {'was' if len(played) == 1 else 'were'} put down "
                         f"before {len(later)} line(s) already written" + (f"; so {'; '.join(moved)}" if moved else "")))
        return True

    def _arms_against(self, pos: int) -> int:
        """Of the plays from line `pos` on, how many went to another player than the one from whose
        side of the table the arm that put the card down came in (a visit seen with its arm's way in;
        the others say nothing)?"""
        starts = {s.start: s for s in self._spells if s.entries}
        return sum(1 for e, when in zip(self.match.events[pos:], self._when[pos:])
                   if isinstance(e, Play) and when in starts and self._arm_player(starts[when]) != e.player)

    def _read_before(self, card: str) -> int | None:
        """A card never read steadily, now hidden under its pile's new top, that was read where it
        lies this round (unsurely, now and then) before the top came: the start of the arm visit
        that ended just before that first reading, if the recognizer looked at most
        `gap_allowed + 2` times between. None if it was never read there, or no such visit."""
        k = self.stab.tracks.get(card)
        start = self._when[self._round_line()]
        if k is None or k.first_read < start or not self._first_read_here(k):
            return None
        for spell in reversed(self._spells):
            if spell.end is None or spell.end > k.first_read:
                continue
            looked = self._looks_between(spell.end, k.first_read)
            return spell.start if looked <= self.stab.gap_allowed + 2 and spell.start >= start else None
        return None

    def _hidden_gap(self, t: Track) -> list[str]:
        """Hoyle piles: a card put on a pile whose earlier tops were never seen; the cards in between."""
        rnd = self.match.round
        try:
            c = parse_card(t.card)
        except ValueError:
            return []
        row = rnd.table.rows.get(c.suit)
        if row is None:
            return []
        gap = row.gap_to(c)
        if gap is None:
            return []
        end, between = gap
        if end == row.opener:
            return []  # the first card out from the seven starts its own pile
        end_track = self.stab.tracks.get(end.code)
        if end_track is None or overlap(end_track.box, t.box) < 0.6:
            return []
        gap = [g.code for g in between]
        if any(g in self.stab.tracks and self.stab.tracks[g].present for g in gap):
            return []
        return gap

    def _gap_moments(self, t: Track, gap: list[str]) -> list[int | None]:
        """When each card of `gap` (`_hidden_gap`: under `t` on its Hoyle pile, never seen) was put
        down: as it was first read, unless that was just after an arm that put another card of the
        record down; else the arm visits that explain it (`_unexplained_visits`); None where none
        does."""
        rnd = self.match.round
        explained, moments = self._explained_visits(), None
        out: list[int | None] = []
        for i, c in enumerate(gap):
            when = self._read_before(c)
            if when is None or when in explained:
                # read first after an arm that put another card of the record down: put down
                # unseen by an arm before that one (kennard_4color round 113: the jack of
                # diamonds, under the queen, first read after the three of clubs went down);
                # never read just after an arm: the arms that left something new by the row's
                # end and put no card of the record down, one a card (kennard_4color round
                # 136: the ten and jack of hearts, the jack read as the jack of diamonds)
                if moments is None:
                    end = rnd.table.rows[parse_card(t.card).suit].gap_to(parse_card(t.card))[0].code
                    moments = self._unexplained_visits(t, end, gap)[0] or []
                when = moments[i] if len(moments) == len(gap) else None
            out.append(when)
        return out

    def _gap_unexplained(self, t: Track) -> bool:
        """Is `t`, just steady (within twice the looks a card needs), read on a Hoyle pile beyond
        cards never seen, some of which no arm visit explains? It may be the pile's new top misread
        (a ten read whole as the queen), so it waits those few looks for a reading that fits there
        (`_read_as_fitting`, which then hears it however surely it was read) before the cards
        between are written as put down unseen (kennard_4color round 728: the ten of clubs put on
        the nine's pile, read whole as the queen at 0.5, its far index as the ten from the next
        looks on; the jack and queen were written as well, for the next two players, after one arm;
        kennard_4color round 1523, session 42: the same read whole as the queen at 0.68-0.75, as
        surely as an illegal play must be, the ten dated to the queen's own arm: a top read so
        surely waits only then)."""
        if t.since < 0 or self._looks_since(t.since) > 2 * (self.stab.on_hits + self.stab.gap_allowed):
            return False
        rnd = self.match.round
        if rnd is None or rnd.is_over or rnd.is_legal(t.card):
            return False
        gap = self._hidden_gap(t)
        if not gap:
            return False
        moments = self._gap_moments(t, gap)
        if t.confidence >= self.illegal_confidence:
            # read surely: only when a card between would have come with the very arm that put this
            # one down (one arm puts one card down; kennard_4color round 1532, session 42: the four
            # of clubs read surely on the five's pile, the five put down by an arm the hand check
            # missed and not yet written, held and never written with it)
            return None in moments and self._arrival(t) in moments
        return None in moments

    def _fill_unseen(self, t: Track, news: list[News]) -> bool:
        """A card further out in its row than the row's end says the cards between were played. If as
        many arm visits as those cards put something down between the row's end and this card, and no
        card was made out from them, those were the cards (inner first), never read: they go in at
        those moments, then this card."""
        rnd = self.match.round
        try:
            c = parse_card(t.card)
        except ValueError:
            return False
        row = rnd.table.rows.get(c.suit)
        if row is None:
            # its row not begun: the card that begins it, if that is all it needs, was played
            # unseen (kennard_4color round 136: the seven of hearts, in the fanned row's far end,
            # read at 0.17-0.19 only, under the steady floor; the eight on it read surely)
            opener = [k for k in rnd.legal_plays if k.suit == c.suit]
            if len(opener) != 1 or not self._fits_after(opener[0].code, t.card):
                return False
            end, between = None, opener
        else:
            gap = row.gap_to(c)
            if not gap or not gap[1]:
                return False
            end, between = gap
        codes = [g.code for g in between]
        # a card between, not yet steady, read at this very place in this look (its other corner
        # index): the card put down is that one, and this reading it misread; it is waited for (photo
        # deck round 96: the eight of spades' near index read as the nine, its far one as the eight
        # a look later; the eight was filled in unseen and the nine played for the next player before
        # his arm came). One steady there and not played is not waited for (paris round 268: the
        # queen and king of diamonds read at one place, the queen steady, the jack never read: the
        # jack and queen are filled in, then the king)
        if self._looked and any((k := self.stab.tracks.get(g)) is not None and not k.present
                                and k.last_seen == self._looked[-1] and k.last_seen >= t.first_frame
                                and self._one_place(t, k) for g in codes):
            return False
        moments, silent = self._unexplained_visits(t, end.code if end is not None else "", codes)
        if moments is None and len(silent) < len(codes):
            return False
        base = len(self.match.events)
        while (base > 1 and self._when[base - 1] > min((moments or []) + silent)
               and isinstance(self.match.events[base - 1], (Play, Pass))):
            base -= 1
        saved = list(zip(self.match.events[base:], self._when[base:]))

        def in_time(at: list[int]) -> Callable[[list[News]], bool]:
            return lambda told: self._plays_in_time(list(zip(codes, at)), None, told)

        # the visits that left something by the row's end, all together, each at its arm; failing that
        # (the turns do not come out), the one way (the one record) of as many visits that left
        # nothing seen as new and no card made out that does (kennard_4color round 218: the five of
        # clubs put on the six's pile with nothing seen as new, an arm that brushed over the six
        # just after it was put down taken for the five's)
        def another_way(told: list[News]) -> bool:
            tried = (t.card, tuple(silent), base, tuple(saved))
            if tried in self._silent_ways_tried:  # (the same record and arms: the same outcome)
                return False
            self._silent_ways_tried.add(tried)
            fine: dict[tuple, list[int]] = {}  # the record each way makes -> the first way making it
            for at in islice(combinations(silent, len(codes)), 50):
                if list(at) != moments and in_time(list(at))([]) and self.match.round.is_legal(t.card):
                    fine.setdefault(tuple(self.match.events[base:]), list(at))
                self._put_back(base, saved)
            return len(fine) == 1 and in_time(next(iter(fine.values())))(told)

        def one_by_one(told: list[News]) -> bool:
            for g, when in zip(between, moments):
                if not self._play_in_time(g.code, None, told, when):
                    if not rnd.is_legal(g.code) or self._play(self._mover(t), g.code, None, told, when=when) is not None:
                        return False
            return True

        # then one by one, each at its arm or else now
        for put_in in (in_time(moments), another_way, one_by_one) if moments is not None else (another_way,):
            told: list[News] = []
            if put_in(told) and self.match.round.is_legal(t.card):
                if not self._play_in_time(t.card, t, told):
                    self._play(self._mover(t), t.card, t, told)
                news.extend(told)
                return True
            self._put_back(base, saved)  # it did not work out: leave the record as it was
        return False

    def _fits_after(self, first: str, card: str) -> bool:
        """Would `card` fit once `first` were played now?"""
        mover = self.match.round.to_move
        if mover is None or self._push(Play(mover, first), self._when[-1]) is not None:
            if mover is not None:
                self._pop()
            return False
        try:
            return self.match.round.is_legal(card)
        finally:
            self._pop()

    def _unexplained_visits(self, t: Track, end: str, missing: list[str]) -> tuple[list[int] | None, list[int]]:
        """The moments of the last arm visits (one per card of `missing`), after the card `end` was
        played and before `t` arrived, that left something new between `end` and `t` (in the row's band
        of the picture) and from which no other card was made out (a card of `missing` itself read now
        and then, never steadily: a Hoyle pile's card covered by the next one soon after, is no other
        card); None if there are fewer. And the moments of all the visits in that time from which no
        card was made out that left nothing seen as new anywhere."""
        n = len(missing)
        start = self._round_line()
        since = self._played_at().get(end, self._when[start])
        # the visits that put `t` down and the cards of the record down explain nothing missing; a
        # visit after which a missing card itself was read (too seldom to be steady) is that card's
        # (not one read only where another card lies: `_read_off_its_pile`)
        theirs = {self._visit_of(k) for c in missing if (k := self.stab.tracks.get(c)) is not None and k.last_seen >= 0
                  and not self._read_off_its_pile(k)}
        arrival = self._arrival(t)
        # `t` read just after the visit it arrived at was put down by it (an arm that left nothing
        # seen as new, the card fanned onto the one before: kennard_4color round 136), else by the
        # last visit before that left something near it
        came = next((s for s in self._spells if s.start == arrival and s.end is not None), None)
        soon = came is not None and self._looks_between(came.end, t.first_frame) <= self.stab.gap_allowed + 2
        explained = (self._explained_visits() | {arrival if soon else self._visit_of(t)}) - theirs
        known = self._known_cards()
        end_track = self.stab.tracks.get(end)
        boxes = [t.box] + ([end_track.box] if end_track is not None else [])
        reach = 2.0 * max(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
        for k in self.stab.tracks.values():
            if (k is not t and k.card not in known and k.card not in missing and (k.present or k.hits > 0)
                    and k.first_steady >= 0):  # made out: steady once (not a phantom read twice)
                if end_track is not None and _between(k.box, end_track.box, t.box, reach):
                    continue  # a reading between the row's end and this card: a missing card misread
                explained.add(self._arrival(k))
        silent = [s.start for s in self._spells
                  if s.end is not None and since < s.start < arrival and s.start not in explained and not s.landings]
        x1, x2 = min(b[0] for b in boxes) - reach, max(b[2] for b in boxes) + reach
        y1, y2 = min(b[1] for b in boxes) - reach, max(b[3] for b in boxes) + reach
        visits = [s for s in self._spells
                  if s.end is not None and since < s.start < arrival and s.start not in explained
                  and any(x1 <= p[0] <= x2 and y1 <= p[1] <= y2 for p in s.landings)]
        if len(visits) < n:
            # a card slid under the end card of a fanned row (a lower card) changes too little to be
            # seen as new: visits that left nothing seen as new anywhere count too, when with them
            # there are just as many as missing cards (paris round 139: the six of clubs under the
            # seven, the five on it read first)
            if len(visits) + len(silent) != n:
                return None, silent
            return sorted([s.start for s in visits] + silent), silent
        # of more visits than missing cards, those that left something nearest the stretch between
        # the row's end and this card, where the missing cards lie (the latest of equals)
        a, b = _middle(boxes[-1]), _middle(t.box)
        nearest = sorted(visits, key=lambda s: (min(_to_segment(p, a, b) for p in s.landings), -s.start))[:n]
        return sorted(s.start for s in nearest), silent

    def _read_off_its_pile(self, k: Track) -> bool:
        """Is card `k`, not yet in the record, read where a card of the record lies that is not on its
        own pile (from its row's seven out to the end it goes beyond): of another row, or across the
        seven? That card's index misread, not `k` glimpsed (photo round 1073: the six of diamonds' far
        index read once as the eight just after the six's arm, which was then taken for the eight's,
        put down unseen, and the eight's own arm for the nine's, the eight's far index misread)."""
        suit = parse_card(k.card).suit
        return any(self._lies_at(k, u) for c in self.match.round.table.cards
                   if (u := self.stab.tracks.get(c.code)) is not None
                   and (c.suit != suit or not self._on_its_side(k, u)))

    def _visit_of(self, t: Track) -> int:
        """The arm visit that put a card down: the last one before it was first seen that changed
        something near where it lies (else its arrival). A card read mostly as the recognizer's first
        reading counts from the first such reading: glimpses of it as another card's next reading
        before the arm came are not it (photo deck round 438: the nine of hearts, glimpsed at the
        eight's place a look before its arm, taken for put down by the arm before; its own arm, left
        unexplained, was later taken for one that put the eight of spades down unseen)."""
        for spell in reversed(self._spells):
            if spell.end is not None and spell.end <= t.counted_from and any(_near(p, t.box) for p in spell.landings):
                return spell.start
        return self._arrival(t)

    def _see_removals(self, now: int, news: list[News]) -> None:
        for card in list(self._illegal):
            if self.stab.is_gone(card):
                flag = self._illegal.pop(card)
                news.append(News("removed", now, None, flag, f"{card} was taken back"))
            elif self._fits_now(card):
                self._retract(card, now, news)

    def _fits_now(self, card: str) -> bool:
        rnd = self.match.round
        return rnd is not None and not rnd.is_over and rnd.is_legal(card)

    def _retract(self, card: str, now: int, news: list[News]) -> None:
        """A card taken for illegal still lies there and now fits: a play before it was missed (seen
        only later). Take the illegal play out of the record; the card is then judged afresh. A flagged
        play did not move the turn on, so the lines after it stay as they were."""
        events = self.match.events
        at = max(i for i, e in enumerate(events) if isinstance(e, Play) and e.card == card)
        if any(isinstance(e, RoundStart) for e in events[at:]):
            return  # from an earlier round: leave it
        later = [self._pop() for _ in range(len(events) - at - 1)][::-1]
        self._pop()
        for e, when in later:
            self._push(e, when)
        flag = self._illegal.pop(card)
        news.append(News("retracted", now, None, flag, f"{card} was not illegal after all: a play before it was missed"))

    # ------------------------------------------------------------------ a round not over by the count
    def _reconcile_missed_plays(self, news: list[News], most: int = 3, tries: int = 3000) -> bool:
        """The source ended and the round is not over by the count, or its last plays lie off the rows:
        plays were missed (a card the recognizer never made out, a pile top never read), and the hands
        laid down since may have been taken for plays. The last plays that lie off the rows (in front
        of a seat, `_off_rows`) are hand cards: they are taken off (and the hands read afresh). The
        cards neither on the table nor seen in a hand are the missed plays and the hand cards never
        read; arm visits that left no line in the record are when the missed plays were put down.
        If exactly one way of putting at most `most` of those cards down at those visits, in turn
        order and each fitting then, ends the round (its last play takes a player's last card) with
        no flag more and no seen hand card in the winner's hand or too many in another's, the record
        is redone that way. Else, or when there are more than `tries` ways to try, the record stays
        as it was. Returns whether it was redone."""
        rnd = self.match.round
        if rnd is None or self.table.plane is None or not self._spells:
            return False
        events = self.match.events
        start = self._round_line()
        saved = list(zip(events[start + 1:], self._when[start + 1:]))
        if any(isinstance(e, End) for e, _ in saved):
            return False
        lines = [x for x in saved if not isinstance(x[0], Show)]  # the hands are seen afresh after
        # the last plays that lie off the rows the plays before them make (a hand laid down and taken
        # for plays widens the rows: each is judged against the rows without the others)
        plays = [i for i, (e, _) in enumerate(lines) if isinstance(e, Play)]
        hand: list[str] = []
        tails = []
        for k in range(1, min(len(plays), 16) + 1):
            tail = [lines[i][0].card for i in plays[-k:]]
            tails.append((tail, [c for c in tail if self._off_rows(c, tail)]))
        # the longest run of last plays all off the rows; failing that, the one with the most hand
        # cards that begins with one, with at most two cards among them that lie in the rows (read late)
        whole = [off for tail, off in tails if off == tail]
        if whole:
            hand = whole[-1]
        else:
            for tail, off in tails:
                if len(off) > len(hand) and off[0] == tail[0] and len(tail) - len(off) <= 2:
                    hand = off
        # plays written after the first hand card went down (read late, a pile's top at last made
        # out) were put down before it, unseen: where is for the search below to say
        late: list[str] = []
        if hand:
            first_hand_line = min(w for e, w in lines if isinstance(e, Play) and e.card in hand)
            late = [e.card for e, w in lines if isinstance(e, Play) and w > first_hand_line and e.card not in hand]
            lines = [x for x in lines if not (isinstance(x[0], Play) and (x[0].card in hand or x[0].card in late))]
        elif rnd.is_over:
            # over by the count, no hand card taken for a play: nothing was missed, unless cards
            # read since lie in the rows (a player's last cards were taken for another's, one play
            # never read: the round seemed over one play early)
            late = self._read_in_rows_after(lines)
            if not late:
                return False
        last_play = max((w for e, w in lines if isinstance(e, Play)), default=self._when[start])
        on_table = {e.card for e, _ in lines if isinstance(e, Play)}
        for t in self.stab.tracks.values():
            if (t.card not in on_table and t.card not in hand and t.since >= 0 and t.last_seen > last_play
                    and self._off_rows(t.card, hand) and not self._at_its_misreading(t)):
                hand.append(t.card)
        if not hand:
            return False  # no hand was laid down: the round may go on
        seats = {}
        for card in hand:
            outline = self.stab.outline(card)
            if outline is not None:
                seats[card] = self.table.seat_of(outline)
        unseen = [c.code for c in DECK if c.code not in on_table and c.code not in hand]
        first = next((e.card for e, _ in lines if isinstance(e, Play)), None)  # `free`: its rank is the base
        bases = frozenset({7} | ({parse_card(first).rank} if first is not None else set()))
        # the missed plays were put down by visits that ended before any hand card was seen, left no
        # line in the record and put no card of the record down
        hand_tracks = [k for c in hand if (k := self.stab.tracks.get(c)) is not None]
        first_hand = min((k.first_frame for k in hand_tracks), default=self._frame)
        played = {e.card: w for e, w in lines if isinstance(e, Play)}
        starts = {s.start for s in self._spells}
        explained = {w for _, w in lines} | {v for c in on_table if (v := self._visit_that_put(c, played, starts)) is not None}
        visits = [s.start for s in self._spells if s.end is not None and s.start > self._when[start]
                  and s.end <= first_hand and s.start not in explained
                  and s.end < first_hand - self.stab.gap_allowed - 1  # not the one after which a hand showed
                  and not any(_inside(p, k.box) for p in s.landings for k in hand_tracks)]

        def redo(extra: list[tuple[str, int]]) -> int | None:
            """Put this round's lines back with `extra` plays in, plays by turn order; the flags then
            (None: a line came after the round was over, or the opening lead's player is not known)."""
            for _ in range(len(self.match.events) - start - 1):
                self._pop()
            merged = sorted([(e, w, 0) for e, w in lines] + [(Play("", c), w, 1) for c, w in extra],
                            key=lambda x: (x[1], -x[2]))
            for ev, w, _ in merged:
                r = self.match.round
                if r.is_over:
                    return None
                if isinstance(ev, Play) and r.to_move is not None:
                    ev = Play(r.to_move, ev.card)
                elif isinstance(ev, Play) and not ev.player:
                    return None
                self._repush(ev, w)
            return len(self.match.round.flags)

        def ends_round(extra: list[tuple[str, int]]) -> bool:
            flags = redo(extra)
            r = self.match.round
            if flags is None or flags > flags_before or not r.is_over:
                return False
            for seat in seats.values():
                left = r.cards_left.get(self.players[seat], 0)
                if left == 0 or sum(1 for s in seats.values() if s == seat) > left:
                    return False  # a hand seen holds more cards than its holder has left
            return True

        base = redo([])
        flags_before = base if base is not None else len(rnd.flags)  # the record without the hand cards
        found: list[list[tuple[str, int]]] = []
        ways = list(islice((list(zip(cards, when)) for k in range(max(1, len(late)), min(most + len(late), len(visits)) + 1)
                            for cards in _chains(unseen, k, on_table, bases) if set(late) <= set(cards)
                            for when in combinations(visits, k)), tries + 1))
        if len(ways) <= tries:
            for k in range(1, most + len(late) + 1):
                for way in (w for w in ways if len(w) == k):
                    if ends_round(way):
                        found.append(way)
                if found:
                    break
        if len(found) > 1:
            # ways that differ only in when a card went down, each giving the same record, are one
            # (kennard_4color round 180: the king of diamonds, the last card, at any of the last arms)
            records = []
            for way in found:
                redo(way)
                records.append(list(self.match.events[start + 1:]))
            if all(r == records[0] for r in records[1:]):
                found = found[:1]
        if len(found) > 1:
            # of several ways, the one whose arms each left something by the card the missed card
            # goes next to (paris round 157: the jack of diamonds or the three of spades, both
            # fitting at the one arm unaccounted for, which left something on the ten of diamonds)
            by_arms = [way for way in found if self._arms_by_their_cards(way)]
            if len(by_arms) == 1:
                found = by_arms
        if len(found) == 1:
            ends_round(found[0])
            for card in hand:
                self.table.remove_row_card(card)
                self._illegal.pop(card, None)
            self._shown.clear()  # the hands are read again, now that the round is over
            self._shown_first.clear()
            self._shown_done.clear()
            self._hand_seen.clear()
            for card, _ in found[0]:
                news.append(News("corrected", self._frame, None, None,
                                 f"{card} was played unseen: the hands laid down leave it nowhere else"))
            return True
        self._put_back(start + 1, saved)  # none or more than one way: as it was
        return False

    def _arms_by_their_cards(self, way: list[tuple[str, int]]) -> bool:
        """Did each arm of `way` (missed cards, each with the visit that put it down) leave something
        near the card of the rows its card goes next to, the one on its seven's side, where that card
        was read, or on the missed card itself, where it was read (unsurely, never steadily: kennard_4color
        round 241, the ace of diamonds, read now and then beside the two, whose index lies a little
        further from the arm's mark)? An arm that left nothing seen as new, or a card whose neighbour
        was never read, says nothing against it."""
        for card, when in way:
            spell = next((s for s in self._spells if s.start == when), None)
            c = parse_card(card)
            inner = Card(c.rank - 1 if c.rank > 7 else c.rank + 1, c.suit) if c.rank != 7 else None
            u = self.stab.tracks.get(inner.code) if inner is not None else None
            if spell is None or not spell.landings:
                continue
            k = self.stab.tracks.get(card)
            if k is not None and k.last_seen >= 0 and any(_inside(p, self._body(k), grow=0.0) for p in spell.landings):
                continue
            if u is None or u.last_seen < 0:
                continue
            # (where it is read, where it was read whole, where it was read when played)
            boxes = [b for b in (u.box, u.whole_box, self._played_boxes.get(u.card)) if b is not None]
            if not any(_near(p, box) for p in spell.landings for box in boxes):
                return False
        return True

    def _at_its_misreading(self, t: Track) -> bool:
        """Is card `t` a lone index read where a reading of it was found to be another card misread,
        that card still read steadily (`_misread_places`)? Then it is that card misread, no hand card
        laid down (kennard_4color round 128: the ten of diamonds' far index in a hand read as the
        queen of diamonds, steady there once the queen's glimpse elsewhere had broken off; taken for a
        hand card, no missed play fitted). Not a card read whole: the misreadings known are of lone
        indices, and a whole card there is more than one (the scripted Hoyle round of
        tests/vision/test_missed_plays.py: the ace of diamonds, laid down in a hand overlapping the
        king of clubs, where a reading of the ace had been found to be the king misread; kept out,
        the winning card never read was not found from the hands). Nor only when the two are read
        at one place now (photo deck round 655: the two of spades' index read where a reading of it
        had been found to be the two of clubs misread, the clubs' two read in its own row; not kept
        out, it was taken for a hand card and the round was never ended, 6 edits)."""
        return t.single and any(overlap(t.box, box) > self.same_place
                                and (u := self.stab.tracks.get(under)) is not None and u.present
                                for box, under in self._misread_places.get(t.card, ()))

    def _read_in_rows_after(self, lines: list[tuple[object, int]]) -> list[str]:
        """The cards not in the record's plays (`lines`) read steadily after its last play, each in
        the rows next to a card of its row, where no card of the record lies: plays the recognizer
        missed (paris round 168: the king of spades, read unsurely as it went down, made out only as
        the hands went down; the plays after it were taken for the next players', the round over by
        the count a play early and the king of hearts, the last play, read then too)."""
        played = {e.card: w for e, w in lines if isinstance(e, Play)}
        last_play = max(played.values(), default=-1)
        taken = [u for u in self._taken_places() if u.card in played]
        out = []
        for t in self.stab.tracks.values():
            if (t.card in played or t.first_steady < 0 or t.last_seen <= last_play
                    or any(self._lies_at(t, u) for u in taken)):
                continue
            seen = self._rows_without(t.card, [])
            near = _from_neighbours(seen[0], t.card, seen[1]) if seen is not None else []
            if near and min(near) <= CARD_MM[1]:
                out.append(t.card)
        return sorted(out, key=_deck_pos)

    def _rows_without(self, card: str, leave_out: list[str]) -> tuple[TableModel, tuple] | None:
        """The rows as seen without `card` and the cards `leave_out`, and `card`'s outline; None if it
        was never outlined or the rows are not all seen. Its outline is where it is read steadily now;
        a card of the rows no longer read so lies where it was played (photo deck round 978: the queen
        of clubs, the last play, read whole beside the jack by the closer looks while hands were
        awaited; once they stopped it was read only as the next reading of the queen of spades in a
        hand, its track's box moved there, and at the round's end it was taken for a hand card laid
        down, the jack of hearts, read in Dan's hand for thirty looks and no more since, for the
        missed play)."""
        t = self.stab.tracks.get(card)
        outline = self.table.row_outlines.get(card) if t is None or not t.present else None
        if outline is None:
            outline = self.stab.outline(card)
        if outline is None:
            return None
        rows = TableModel(len(self.players))
        for c, o in self.table.row_outlines.items():
            if c != card and c not in leave_out:
                rows.add_row_card(c, o)
        if len(rows.row_outlines) < 4 or rows.plane is None:
            return None
        return rows, outline

    def _off_rows(self, card: str, leave_out: list[str]) -> bool:
        """Does `card` lie away from where it would be played (the rows without the cards `leave_out`):
        more than one and a half card lengths on the table from each card of its suit it would lie
        next to, or, with none of those down (a seven), outside the rows? Then it is a card of a hand
        laid down in front of a seat, not a play."""
        seen = self._rows_without(card, leave_out)
        if seen is None:
            return False
        rows, outline = seen
        near = _from_neighbours(rows, card, outline)
        if not near:
            return not rows.in_rows(outline)
        return all(d > 1.5 * CARD_MM[1] for d in near)

    # ------------------------------------------------------------------ end of a round
    def _see_hand_card(self, t: Track, news: list[News]) -> bool:
        seat = self._hand_seat(t.card)
        if seat is None or seat in self._shown_done:
            return False  # (a hand written, all its cards seen: this reading is not one of them)
        if self._on_a_row_card(t) and not self._in_a_hand_fan(t):
            # a card of the rows misread as it (paris round 186: the king of spades' index and
            # crown, in its row, read as the king of clubs as the hands went down): the king
            # itself, laid down in a hand, is read afresh there
            self.stab.misread_at[t.card] = t.box
            return False
        self._seat_hand_card(seat, t)
        return True

    def _holders(self) -> list[int]:
        """The seats whose players still hold cards (this round's)."""
        rnd = self.match.round
        return [i for i, p in enumerate(self.players) if rnd.cards_left.get(p, 0) > 0]

    def _hand_seat(self, card: str) -> int | None:
        """The seat, of those still holding cards, that a card read lies in front of (None: unknown)."""
        outline = self.stab.outline(card)
        holders = self._holders()
        if outline is None or not holders or self.table.plane is None:
            return None
        return self.table.seat_of(outline, holders)

    def _seat_hand_card(self, seat: int, t: Track) -> None:
        """Card `t` is seen in the hand laid down in front of `seat`, by its current sighting streak."""
        self._shown.setdefault(seat, []).append(t.card)
        self._shown_first.setdefault(seat, self._arrival(t))
        self._shown_changed = self._frame
        self._hand_seen[t.card] = (seat, t.first_frame, t.support)

    def _reseat_hand_cards(self) -> None:
        """A hand card read again in a new sighting streak in front of another seat, more surely
        (probability summed over the streak) than in the streak that seated it, is that seat's: the
        first was another hand's card misread (the queen of clubs at the table's far edge read as the
        king, before the king was laid down in front of its holder)."""
        for seat, cards in list(self._shown.items()):
            if seat in self._shown_done:
                continue
            for card in list(cards):
                t, seen = self.stab.tracks.get(card), self._hand_seen.get(card)
                if t is None or not t.present or seen is None or seen[0] != seat:
                    continue
                there = seat if t.first_frame == seen[1] else self._hand_seat(card)
                if there == seat:  # the same streak goes on, or a new one where it was seated
                    self._hand_seen[card] = (seat, t.first_frame, t.support)
                elif (there is not None and there not in self._shown_done and t.support > seen[2]
                      and not self._still_read_where_seated(t, seat)):
                    cards.remove(card)
                    self._seat_hand_card(there, t)

    def _still_read_where_seated(self, t: Track, seat: int) -> bool:
        """Was hand card `t`, seated in front of `seat`, read there again since its new sighting
        streak in front of another seat began, `on_hits` times or more, more surely on average than
        in that streak? A card laid down does not go back and forth: the new streak is another card
        misread (kennard_4color round 1060: the ace of clubs, read surely at its lone index in Ben's
        hand; the ace of spades in Cleo's, joined by the closer look with another index into a pair
        read as the ace of clubs, 0.48, two looks in three. In those looks the recognizer, one
        reading to a card, dropped the ace of clubs' own index, so its streak there broke off and one
        began at the pair; the ace of clubs went to Cleo's hand, though read at its index at
        0.75-0.78 in the other looks, and the ace of spades to Ben's.)"""
        holders = self._holders()
        if self.table.plane is None or not holders:
            return False
        back = [conf for f, box, conf in t.elsewhere
                if f >= t.first_frame and self.table.seat_of(box_corners(box), holders) == seat]
        return len(back) >= self.stab.on_hits and sum(back) / len(back) > t.confidence

    def _hand_cards_read_elsewhere(self) -> None:
        """A hand card seated by one lone index, read first at one place in front of another seat still
        holding cards, lately, at least twice as often as where it lies since it was first read there,
        is that seat's: where it was seated is another hand's card misread (kennard_4color round 393:
        the king of spades at the picture's far edge read as the four, before the four was laid down in
        front of its holder; the four, read surely there in every look, was taken for a misreading).
        Where it was seated stays known as a misreading; the card is seen afresh where it lies."""
        holders = self._holders()
        if self.table.plane is None or not holders:
            return
        for seat, cards in self._shown.items():
            if seat in self._shown_done:
                continue
            for card in list(cards):
                t = self.stab.tracks.get(card)
                if t is None or not t.present or not t.single or not t.elsewhere:
                    continue
                last = t.elsewhere[-1][1]
                there = [(f, conf) for f, box, conf in t.elsewhere
                         if self._frame - f <= self.stab.memory and overlap(box, last) > self.same_place]
                if len(there) < 2 * self.stab.on_hits or len(there) < 2 * t.seen_since(there[0][0]):
                    continue
                if sum(conf for _, conf in there) / len(there) < t.confidence:
                    continue  # read less surely there, on average, than where it lies
                other = self.table.seat_of(box_corners(last), holders)
                if other == seat or other in self._shown_done:
                    continue
                cards.remove(card)
                self._hand_seen.pop(card, None)
                self._shown_changed = self._frame
                self.stab.misread_at[card] = t.box
                self.stab.read_afresh(card)

    def _push_shows(self, news: list[News], final: bool) -> None:
        """Hands laid down become `show` lines, clockwise from the winner's left (the order of counting).

        The hands go in together, once all the cards their holders have left are seen and none went
        into a hand or moved to another for `hands_settle` frames (a hand card misread as one laid
        down later in front of another seat moves there, `_reseat_hand_cards`); at the end of the
        source (or of the round) whatever was seen goes in."""
        rnd = self.match.round
        if rnd is None or not rnd.is_over or rnd.winner is None:
            return
        self._hand_cards_read_elsewhere()
        self._reseat_hand_cards()
        self._trim_hands()
        if final:
            self._deduce_unseen_hand_cards()
        elif (any(len(self._shown.get(seat, [])) < rnd.cards_left.get(self.players[seat], 0)
                  for seat in self._counting_order() if seat not in self._shown_done)
              or self._frame - self._shown_changed < self.hands_settle):
            return
        for seat in self._counting_order():
            player = self.players[seat]
            if seat in self._shown_done:
                continue
            left = rnd.cards_left.get(player, 0)
            seen = self._shown.get(seat, [])
            if left == 0 and not seen:
                continue
            if seen:
                ev = Show(player, tuple(sorted(seen, key=_deck_pos)))
                self._push(ev, self._frame)
                news.append(News("show", self._shown_first.get(seat, self._frame), ev))
            self._shown_done.add(seat)

    def _counting_order(self) -> list[int]:
        """The seats other than the winner's, clockwise from the winner's left (the order hands are
        counted and shown in)."""
        n = len(self.players)
        first = self.players.index(self.match.round.winner) + 1
        return [(first + k) % n for k in range(n - 1)]

    def _trim_hands(self) -> None:
        """A hand holds the cards its holder has left, no more: when more were read in front of a seat
        (an index of one hand card misread as a card lying elsewhere), the least surely read of them
        (probability summed over its sightings) are not that hand's; they count as not seen, so the
        last hands may still take them (`_deduce_unseen_hand_cards`), and where they were read is
        another card misread: read elsewhere in the same looks (the king of clubs laid down in front
        of another seat later, its index read in the same looks as the first hand's king of spades),
        the stabiliser sees them there afresh (paris round 13)."""
        rnd = self.match.round
        for seat, seen in self._shown.items():
            if seat in self._shown_done:
                continue
            self._one_card_per_index(seat, seen)
            left = rnd.cards_left.get(self.players[seat], 0)
            if len(seen) <= left:
                continue
            sure = sorted(seen, key=lambda c: -(t.support if (t := self.stab.tracks.get(c)) is not None else 0.0))
            for card in sure[left:]:
                if (t := self.stab.tracks.get(card)) is not None:
                    self.stab.misread_at[card] = t.box  # where it was read is another card misread
            seen[:] = [c for c in seen if c in sure[:left]]

    def _one_card_per_index(self, seat: int, seen: list[str]) -> None:
        """Two cards read at one lone index of a hand (the far corner of a king of spades read as the
        king of clubs as often as not) are one card: the one read more surely (so far) is the hand's;
        the other is a misreading, not a card seen in that hand, and is not given to any hand for
        having been read."""
        cards = seen + [c for c, s in self._hand_misreads.items() if s == seat and c not in seen]
        keep: list[Track] = []
        dropped = set()
        for card in sorted(cards, key=lambda c: -(t.support if (t := self.stab.tracks.get(c)) is not None else 0.0)):
            t = self.stab.tracks.get(card)
            if t is not None and any(self._one_index(t, u) for u in keep):
                dropped.add(card)
            elif t is not None:
                keep.append(t)
        self._hand_misreads = {c: s for c, s in self._hand_misreads.items() if s != seat} | {c: seat for c in dropped}
        seen[:] = [c for c in cards if c not in dropped]

    def _one_index(self, t: Track, u: Track) -> bool:
        """Are `t` and `u` read at one corner index (two readings of it): both as that lone index, or
        one as that index and the other read whole, with that index at a corner of it (kennard_4color
        round 187: the king of spades in a hand read whole, its near index alone as the jack) where
        its own indices were read (`Track.index_corners`; photo deck round 907: the queen of spades in
        a fanned hand, its box joined from indices at its top-right and bottom-left corners, and the
        four of spades, the next card of the fan, read surely at the box's top-left, where the queen
        has no index: the four was dropped from the hand, and the hand short of it)? Judged, where the
        two were read in the same looks, by the whole card's box in those looks, most of them: the
        recognizer may join the next card's index to a card's own, its box then reaching over that
        index in those looks only (photo deck round 1103: the four of spades in a fanned hand, its
        index half under the king's; the king read with three or four indices in about half the
        looks, its box stretched 4-5 px over the four, which was dropped whenever the round's last
        look was such a one)."""
        if t.single and u.single:
            return overlap(t.box, u.box) > self.same_place
        if t.single != u.single:
            index, whole = (t, u) if t.single else (u, t)
            boxes = dict(zip(whole.recent, whole.recent_boxes))
            at = [_at_corner(box, boxes[f], self.same_place, only=whole.index_corners)
                  for f, box in index.places if f in boxes and not _index_sized(boxes[f], whole)]
            if at:
                return 2 * sum(at) > len(at)
            return _at_corner(index.box, whole.box, self.same_place, only=whole.index_corners)
        return False

    def _deduce_unseen_hand_cards(self) -> None:
        """The cards not on the table are in the hands. When the cards neither played nor seen in a
        hand are exactly as many as the hands seen short lack: each such card that was read at all after
        the last play (too unsurely to count), in front of a short hand, is that hand's; then, when one
        short hand is left, the rest are its cards."""
        rnd = self.match.round
        short = {i: rnd.cards_left.get(p, 0) - len(self._shown.get(i, []))
                 for i, p in enumerate(self.players) if i not in self._shown_done}
        short = {i: k for i, k in short.items() if k > 0}
        if not short or not self._shown:
            return
        accounted = {c.code for c in rnd.table.cards} | {c for cards in self._shown.values() for c in cards}
        unseen = [c.code for c in DECK if c.code not in accounted]
        if len(unseen) != sum(short.values()):
            return
        # hands are laid down once the round is over: a reading before that is some other card misread
        over_at = max((w for e, w in zip(self.match.events, self._when) if isinstance(e, (RoundStart, Play))),
                      default=0)
        if len(short) > 1 and self.table.plane is not None:
            holders = self._holders()
            for card in list(unseen):
                k = self.stab.tracks.get(card)
                outline = self.stab.outline(card)
                if k is None or k.last_seen <= over_at or outline is None or card in self._hand_misreads:
                    continue
                if any(u is not None and self._one_index(k, u)
                       for cards in self._shown.values() for u in map(self.stab.tracks.get, cards)):
                    continue  # read only at the index of a card seen in a hand: that card misread
                if self._on_a_row_card(k) or not self._off_rows(card, []):
                    continue  # read on a card of the rows (a pile top's index misread), or where
                    # it would lie if played (a fanned row's card misread)
                # in front of a short hand, of all the hands held (read in front of a hand already
                # full, it is that hand's card misread: kennard_4color round 214, the queen of clubs
                # read as the king in front of its holder, the king itself unread in another hand)
                seat = self.table.seat_of(outline, holders)
                if seat not in short:
                    continue
                self._shown.setdefault(seat, []).append(card)
                unseen.remove(card)
                short[seat] -= 1
                if short[seat] == 0:
                    del short[seat]
        if len(short) == 1:
            seat, lacking = next(iter(short.items()))
            if len(unseen) == lacking:
                self._shown.setdefault(seat, []).extend(unseen)
        elif len(short) > 1:
            chosen = self._hands_the_passes_allow(short, unseen)
            if chosen is not None:
                for seat, cards in chosen.items():
                    self._shown.setdefault(seat, []).extend(cards)

    def _in_a_hand_fan(self, t: Track) -> bool:
        """Is lone index `t` read one step beyond either end of a hand laid down fanned (at least two
        of its cards seen, their lone indices in a line, evenly apart), in line with it? That is the
        hand's next card, even where the fan reaches over a card of the rows (kennard_4color round
        321: the queen of hearts, first of a hand of four laid against the king of clubs, its index
        on the king's right edge, taken for the king misread and the hand written one card short).
        A hand card read whole counts by its near index, at its whole box's top-left corner where one
        was read (`_near_index`; photo deck round 339: the queen of hearts laid over the king of
        diamonds' corner, beside the ace of spades' index and the two of spades read whole)."""
        if not t.single:
            return False
        here = np.float32(_middle(t.box))
        size = t.box[3] - t.box[1]
        for cards in self._shown.values():
            boxes = [b for c in cards if (k := self.stab.tracks.get(c)) is not None and k.present
                     and (b := self._near_index(k, t)) is not None]
            if len(boxes) < 2:
                continue
            centres = np.float32([_middle(b) for b in boxes])
            way = centres[-1] - centres[0]
            if float(np.hypot(*way)) == 0:
                continue
            way /= float(np.hypot(*way))
            along = (centres - centres[0]) @ way
            order = np.argsort(along)
            centres, along = centres[order], along[order]
            steps = np.diff(along)
            step = float(np.median(steps))
            across = np.float32([-way[1], way[0]])
            if (step <= 0 or step > 3 * size or np.any(steps < 0.5 * step) or np.any(steps > 1.5 * step)
                    or np.any(np.abs((centres - centres[0]) @ across) > 0.5 * size)):
                continue
            if abs(float((here - centres[0]) @ across)) > 0.5 * size:
                continue
            at = float((here - centres[0]) @ way)
            beyond = max(along[0] - at, at - along[-1])
            if 0.5 * step <= beyond <= 1.5 * step:
                return True
        return False

    @staticmethod
    def _near_index(k: Track, like: Track) -> tuple[float, float, float, float] | None:
        """Where card `k` shows its near (top-left) index: its box, read as a lone index; read whole
        with an index read at its top-left corner, that corner, as big as lone index `like`; else
        None."""
        if k.single:
            return k.box
        if k.whole_box is None or 0 not in k.index_corners:
            return None
        x, y = k.whole_box[0], k.whole_box[1]
        return (x, y, x + like.box[2] - like.box[0], y + like.box[3] - like.box[1])

    def _on_a_row_card(self, k: Track) -> bool:
        """Does reading `k` lie on a card played into the rows, where it was read when played (its
        outline there, if no bigger than a card)? A hand is laid down in front of its holder, never on
        the rows. (Not where a row card's reading is now: that may be a hand card misread as it.)"""
        for card, o in self.table.row_outlines.items():
            box = _outline_box(o)
            if card != k.card and self._one_card_big(box) and _inside(_middle(k.box), box, grow=0.0):
                return True
        # or inside where a card of the rows was last read whole, both its corner indices (its outline
        # may have been made from one lone index; paris round 186: the king of spades' index and
        # crown read as the king of clubs as the hands went down)
        rnd = self.match.round
        for c in (rnd.table.cards if rnd is not None else ()):
            u = self.stab.tracks.get(c.code)
            # (the box round a card's two corner indices, as the picture's axes go: a card lying
            # askew, far off, spans up to half as much again on the table)
            # (not one read whole away from where it was played: a hand card misread as it, whose
            # reading moved its box there; photo deck round 536: the two of clubs, laid down in a
            # hand, read as the two of spades too, was taken for the two of spades misread)
            o = self.table.row_outlines.get(c.code)
            if (u is not None and u.card != k.card and u.whole_box is not None
                    and self._one_card_big(u.whole_box, over=0.5)
                    and _inside(_middle(k.box), u.whole_box, grow=0.0)
                    and (o is None or overlap(u.whole_box, _outline_box(o)) > 0)):
                return True
        return False

    def _hands_the_passes_allow(self, short: dict[int, int], unseen: list[str],
                                most: int = 400) -> dict[int, list[str]] | None:
        """The cards never seen, shared out among several short hands: the one way of sharing them
        (each hand taking as many as it lacks) under which the fewest passes of the round are proven
        illegal (a player must play when able, so a pass while holding a card that fitted is
        unlikely). None when that way is not the only one, or there are more than `most` ways."""
        seats = sorted(short)
        ways: list[dict[int, list[str]]] = [{}]
        for seat in seats:
            ways = [{**w, seat: list(pick)} for w in ways
                    for pick in combinations([c for c in unseen if not any(c in v for v in w.values())], short[seat])]
            if len(ways) > most:
                return None
        order = [seat for seat in self._counting_order() if seat in short]
        scored = []
        for way in ways:
            for seat in order:
                cards = tuple(sorted(self._shown.get(seat, []) + way[seat], key=_deck_pos))
                self.match.push(Show(self.players[seat], cards))
            scored.append((sum(1 for f in self.match.round.flags if f.kind == ILLEGAL_PASS), way))
            for _ in order:
                self.match.pop()
        least = min(k for k, _ in scored)
        best = [way for k, way in scored if k == least]
        return best[0] if len(best) == 1 else None

    def _maybe_next_round(self, now: int, news: list[News]) -> None:
        """A table that stays clear after a round's plays had its cards gathered: once clear for
        `clear_after` uncovered frames running after a round over by the count, the round is read again
        and closed (`_close_gathered`); the next card seen then starts the next round. A round not over
        by the count (a play was missed) is taken as gathered when the table stays clear twice as long
        and at least `gathered_least` cards lay there before (not one card whose index is hidden a
        while, early in a round)."""
        rnd = self.match.round
        if rnd is None:
            return
        if self.stab.steady():
            if self._round_closed() and self._empty_run >= self.clear_after and not self.match.is_over:
                dealer = self.match.dealer_for_next_round
                self.stab.tracks = {c: t for c, t in self.stab.tracks.items() if t.present}
                self._start_round(dealer, now)
                news.append(News("round", now, self.match.events[-1]))
            self._empty_run = 0  # clear means clear for that long, running
            return
        if self._covered:
            return
        self._empty_run += 1
        if self._round_closed() or not any(isinstance(e, Play) for e in self._round_events()):
            return
        if rnd.is_over and self._empty_run >= self.clear_after:
            self._close_gathered(now, news)
        elif (self._empty_run >= 2 * self.clear_after
              and len(self._gathered()) >= self.gathered_least):  # not a lone card's index hidden a while
            self._close_gathered(now, news)

    def _gathered(self) -> list[Track]:
        """The cards that lay on the table after the round's last line and are all gone now."""
        last_line = self._when[-1]
        return [t for t in self.stab.tracks.values() if not t.present and t.since >= 0 and t.last_seen > last_line]

    def _close_gathered(self, now: int, news: list[News]) -> None:
        """The round's cards were gathered. It is read again as at the end of the source
        (`_read_again`: missed plays, hand cards taken for plays, the hands laid down), on the cards as
        they lay before they were gathered (those steady after the round's last line, all gone now;
        passes declared since the last card went stay for the next round), and closed with its `end`:
        a round still not over by the count then ends without a winner (it does not count), so that
        the next round's cards are not taken for its plays."""
        back = self._gathered()
        gone_at = max((t.last_seen for t in back), default=now)
        later = [p for p in self._passes if p[0] > gone_at]
        self._passes = [p for p in self._passes if p[0] <= gone_at]
        for t in back:
            t.present = True
        try:
            self._read_again(gone_at + 1, news)
        finally:
            for t in back:
                t.present = False
            self._passes.extend(later)
        over = self.match.round.is_over
        # the next round's cards are new cards, wherever they lie (a card put down where the same card
        # lay last round is not that card's sighting going on), put down by the next round's arms (the
        # arm that gathered these cards is not the one that puts the next round's first card down)
        self.stab.tracks = {c: t for c, t in self.stab.tracks.items() if t.present}
        self._spells.clear()
        self._push(End(), now)
        news.append(News("end", now, End(), None, "" if over else
                         "the cards were gathered before the round was over: it ends without a winner"))


def _from_neighbours(rows: TableModel, card: str, outline) -> list[float]:
    """How far (on the table) `card`, lying at `outline`, is from each card of `rows` it would lie
    next to."""
    beside = [o for code, o in rows.row_outlines.items() if _next_in_row(code, card)]
    here, *there = rows.plane.to_table([np.asarray(o, np.float32).reshape(4, 2).mean(axis=0)
                                        for o in [outline, *beside]])
    return [math.hypot(*(here - p)) for p in there]


def _further_in(row, card: Card) -> Card | None:
    """The card next to `card` in its row on the seven's side: the one it was put next to (None for
    the seven)."""
    i, k = row.cards.index(card), row.cards.index(row.opener)
    return None if i == k else row.cards[i - 1 if i > k else i + 1]


def _next_in_row(a: str, b: str) -> bool:
    """Can two cards lie next to each other in a row, in some variant (same suit, ranks one apart, or
    the king and the ace: ace-high rows, and `free` rows that wrap)? The rules engine says which
    plays are legal; this only narrows the ways to try."""
    ca, cb = parse_card(a), parse_card(b)
    return ca.suit == cb.suit and abs(ca.rank - cb.rank) in (1, 12)


def _chains(pool: list[str], k: int, on_table: set[str], bases: frozenset[int] = frozenset({7})) -> Iterable[tuple[str, ...]]:
    """Sequences of `k` cards of `pool` that could be played one after another onto the table
    `on_table` (each next to a card already there, or of a rank rows start with: `bases`)."""
    def go(table: set[str], rest: list[str], seq: tuple[str, ...]):
        if len(seq) == k:
            yield seq
            return
        for c in rest:
            card = parse_card(c)
            if card.rank in bases or any(_next_in_row(x, c) for x in table):
                yield from go(table | {c}, [r for r in rest if r != c], seq + (c,))
    yield from go(set(on_table), list(pool), ())


def _place(t: Track, far: bool = False) -> tuple[float, float, float, float]:
    """Where a card shows its identity: its top-left corner index when its outline is known (cards
    overlap in a fanned row or a laid-down hand, their indices do not), else what was seen of it.
    `far`: its other index, at the bottom-right corner (a lone index read there is this card misread)."""
    if t.corners is None or len(t.corners) != 4:
        return t.box
    tl, tr, br, bl = order_corners(t.corners)
    if far:
        tl, tr, bl = br, bl, tr
    pts = [tl + a * (tr - tl) + b * (bl - tl) for a in (0.0, 0.3) for b in (0.0, 0.45)]
    xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _at_corner(index: tuple[float, ...], whole: tuple[float, ...], share: float, middle: bool = False,
               only: set[int] | frozenset[int] = frozenset()) -> bool:
    """Does a lone index box lie at a corner of a card's whole box (the union of its corner indices
    read at once: two at opposite corners, or, on a design with four, two down one edge when the
    next card in a fanned row hides the others)? A box as large as half the card both ways is no
    index. `middle`: the index's middle within the corner is enough (the box is made of the card's
    other indices, and the index read alone may stick out of it a little). `only`: just these corners
    (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right; all when empty)."""
    x1, y1, x2, y2 = whole
    w, h = index[2] - index[0], index[3] - index[1]
    if 2 * w > x2 - x1 and 2 * h > y2 - y1:
        return False
    corners = corner_boxes(whole, w, h)
    if only:
        corners = [c for k, c in enumerate(corners) if k in only]
    if middle:
        return any(_inside(_middle(index), c, grow=0.0) for c in corners)
    return any(overlap(index, c) > share for c in corners)


def _index_sized(box: tuple[float, ...], t: Track) -> bool:
    """Is `box`, a reading of card `t`, one lone index: at most half as wide and as tall as the card's
    whole box (its box now, never read whole)?"""
    whole = t.whole_box if t.whole_box is not None else t.box
    return 2 * (box[2] - box[0]) <= whole[2] - whole[0] and 2 * (box[3] - box[1]) <= whole[3] - whole[1]


def _both_ways(box: tuple[float, ...], index: tuple[float, ...]) -> bool:
    """Does a box of indices joined reach over more than two index sizes both ways (the corners of a
    card, not two indices side by side: a card's top corners, or two cards' in a fanned row)?"""
    return box[2] - box[0] > 2 * (index[2] - index[0]) and box[3] - box[1] > 2 * (index[3] - index[1])


def _between(box: tuple[float, ...], a: tuple[float, ...], b: tuple[float, ...], reach: float,
             upto: float = 1.0) -> bool:
    """Does `box` lie between boxes `a` and `b` (its middle projected strictly inside the segment
    between theirs, short of `upto` of the way from `a` to `b`, and within `reach` of that segment)?"""
    (px, py), (ax, ay), (bx, by) = (_middle(v) for v in (box, a, b))
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 <= 0:
        return False
    u = ((px - ax) * dx + (py - ay) * dy) / length2
    off = abs((px - ax) * dy - (py - ay) * dx) / math.sqrt(length2)
    return 0.0 < u < upto and off <= reach


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from point `p` to the segment from `a` to `b` (pixels)."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    share = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
    share = min(1.0, max(0.0, share))
    return math.hypot(px - ax - share * dx, py - ay - share * dy)


def _distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    (ax, ay), (bx, by) = _middle(a), _middle(b)
    return math.hypot(ax - bx, ay - by)


def _deck_pos(code: str) -> int:
    c = parse_card(code)
    return "cdhs".index(c.suit) * 13 + c.rank - 1


def _near(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    """Is a point (the middle of a card put down) within a card's reach of what was seen of it (a
    corner index is some way from the card's middle)?"""
    reach = 2.0 * max(box[2] - box[0], box[3] - box[1])
    return abs(point[0] - (box[0] + box[2]) / 2) <= reach and abs(point[1] - (box[1] + box[3]) / 2) <= reach


def _index_big_on_table(corners: np.ndarray) -> bool:
    """Is an outline (on the table, mm) smaller than half a card's width each way: a place known
    only by one lone index, not a card's outline?"""
    half = CARD_MM[0] / 2
    return float(np.ptp(corners[:, 0])) < half and float(np.ptp(corners[:, 1])) < half


def _off_line(points: np.ndarray, p: np.ndarray) -> float:
    """How far point `p` lies off the line through `points` (fitted: through their mean, along their
    main direction)."""
    mean = points.mean(axis=0)
    along = np.linalg.svd(points - mean)[2][0]
    off = (p - mean) - along * float(np.dot(p - mean, along))
    return float(np.hypot(*off))


def _inside(point: tuple[float, float], box: tuple[float, float, float, float], grow: float = 0.2) -> bool:
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * grow, (y2 - y1) * grow
    return x1 - dx <= point[0] <= x2 + dx and y1 - dy <= point[1] <= y2 + dy


def _outline_box(outline: np.ndarray) -> tuple[float, float, float, float]:
    """The picture box around a card's outline (four corners)."""
    xs, ys = outline[:, 0], outline[:, 1]
    return (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))


def _middle(box: tuple[float, ...]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
