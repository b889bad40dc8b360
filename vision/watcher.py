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
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol, Sequence

from scorekeeper.cards import parse_card
from scorekeeper.events import End, MatchStart, Pass, Play, RoundStart, Show
from scorekeeper.match import Match

from .capture import Frame
from .occlusion import Cover, CoverWatch
from .stabiliser import DetectionLike, Stabiliser, Track
from .table import TableModel, nearest_seat, overlap


class Detector(Protocol):
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
                 illegal_after: int = 6, illegal_confidence: float = 0.7, clear_after: int = 10):
        if dealer not in start.players:
            raise ValueError(f"dealer {dealer!r} is not one of the players {', '.join(start.players)}")
        self.match = Match(start)
        self.players = tuple(start.players)
        self.detector = detector
        self.on_news = on_news or (lambda news: None)
        self.stab = stabiliser or Stabiliser()
        self.cover = cover or CoverWatch()
        self.illegal_after, self.illegal_confidence, self.clear_after = illegal_after, illegal_confidence, clear_after
        self._passes: list[tuple[int, str]] = sorted(passes)
        self.table = TableModel(len(self.players))
        self._spells: list[_CoverSpell] = []
        self._covered = False
        self._looked: list[int] = []  # frames the recognizer looked at
        self._looked_since_cover = 0
        self._since_read = 0
        self.frames_unread = 0  # uncovered frames not read for cards while behind
        self._frame = -1
        self._picture_centre = (0.0, 0.0)
        self._illegal: dict[str, object] = {}  # card lying there that does not fit -> its flag
        self._shown: dict[int, list[str]] = {}  # seat -> cards seen laid down
        self._shown_first: dict[int, int] = {}
        self._shown_done: set[int] = set()
        self._empty_run = 0
        self.frames_seen = 0
        self.frames_covered = 0
        self.last_detections: list[DetectionLike] = []
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
            self._covered = False
            self._looked_since_cover = 0
        detect = not behind or self._looked_since_cover < 2 or self._since_read >= 4
        self._since_read = 0 if detect else self._since_read + 1
        self.frames_unread += not detect
        if detect:
            detections = self.detector.detect(frame.image)
            self.last_detections = list(detections)
            self._looked.append(frame.index)
            self._looked_since_cover += 1
            self.stab.update(frame.index, detections)
        self._settle(frame.index, news, final=False)
        return self._tell(news)

    def finish(self) -> list[News]:
        """The source ended: settle what is still open, then write the shows and close the round."""
        news: list[News] = []
        self._settle(self._frame + 1, news, final=True)
        self._push_shows(news, final=True)
        rnd = self.match.round
        if rnd is not None and rnd.is_over and not any(isinstance(e, End) for e in self._round_events()):
            self.match.push(End())
            news.append(News("end", self._frame, End()))
        return self._tell(news)

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

    def _start_round(self, dealer: str, frame: int) -> None:
        self.match.push(RoundStart(dealer))
        self.table = TableModel(len(self.players))
        self._illegal.clear()
        self._shown.clear()
        self._shown_first.clear()
        self._shown_done.clear()

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
        a card is first seen: then the one after which something new showed where the card lies."""
        latest = None
        for spell in reversed(self._spells):
            if spell.end is None or spell.end > t.first_frame:
                continue
            looked = bisect.bisect_left(self._looked, t.first_frame) - bisect.bisect_left(self._looked, spell.end)
            if latest is None:
                latest = (spell, looked)
            if looked > self.stab.gap_allowed + 2:
                break
            if any(_inside(p, t.box) for p in spell.landings):
                return spell.start
        if latest is not None and latest[1] <= self.stab.gap_allowed:
            return latest[0].start
        return t.first_frame

    def _spell_before(self, t: Track) -> _CoverSpell | None:
        for spell in reversed(self._spells):
            if spell.end is not None and spell.end <= t.first_frame:
                return spell
        return None

    def _earliest_open(self) -> int | None:
        """The earliest moment a card still being made out (or an arm over the table) may have arrived."""
        times = [self._arrival(t) for t in self.stab.pending()]
        if self._covered and self._spells:
            times.append(self._spells[-1].start)
        elif self._looked_since_cover < self.stab.on_hits + self.stab.gap_allowed and self._spells:
            times.append(self._spells[-1].start)
        return min(times) if times else None

    # ------------------------------------------------------------------ deciding
    def _candidates(self) -> list[Track]:
        rnd = self.match.round
        on_table = {c.code for c in rnd.table.cards} if rnd is not None else set()
        shown = {c for cards in self._shown.values() for c in cards}
        out = [t for t in self.stab.steady() if t.card not in on_table and t.card not in self._illegal and t.card not in shown]
        return sorted(out, key=lambda t: (self._arrival(t), t.first_frame, t.card))

    def _settle(self, now: int, news: list[News], final: bool) -> None:
        self._see_removals(now, news)
        for _ in range(200):  # at most a few events per frame; the bound only guards against a loop
            if not self._step(now, news, final):
                break
        self._push_shows(news, final=False)
        self._maybe_next_round(now, news)

    def _doubtful(self, t: Track) -> bool:
        """A steady card that does not fit and, seen long enough, is still not sure enough to be taken
        for an illegal play (most likely a card read wrongly again and again): it holds nothing up."""
        return (t.hits >= self.illegal_after and t.confidence < self.illegal_confidence
                and not self.match.round.is_over and not self.match.round.is_legal(t.card))

    def _step(self, now: int, news: list[News], final: bool) -> bool:
        cands = [t for t in self._candidates() if not self._doubtful(t)]
        if self._passes:
            p_frame, player = self._passes[0]
            open_since = None if final else self._earliest_open()
            due = final or (p_frame < now and (open_since is None or p_frame < open_since))
            if due and (not cands or self._pass_first(p_frame, player, cands[0])):
                self._passes.pop(0)
                ev = Pass(player)
                flag = self.match.push(ev)
                news.append(News("pass", p_frame, ev, flag))
                return True
        for t in cands:
            if self._passes and self._pass_first(*self._passes[0], t):
                return False  # a pass declared before this card arrived is not settled yet
            if self._judge(t, now, news, final):
                return True
        return False

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
            angle = math.atan2(sum(math.sin(a) for a in spell.entries), sum(math.cos(a) for a in spell.entries))
            return self.players[nearest_seat(angle, len(self.players))]
        dealer = self._round_dealer()
        return self.players[(self.players.index(dealer) + 1) % len(self.players)]

    def _round_dealer(self) -> str:
        for e in reversed(self.match.events):
            if isinstance(e, RoundStart):
                return e.dealer
        return self.players[0]

    def _play(self, player: str, card: str, t: Track | None, news: list[News]) -> object:
        ev = Play(player, card)
        flag = self.match.push(ev)
        frame = t.first_frame if t is not None else self._frame
        if flag is None:
            if t is not None:
                outline = self.stab.outline(card)
                if outline is not None:
                    self.table.add_row_card(card, outline)
            news.append(News("play", frame, ev, None))
        return flag

    def _judge(self, t: Track, now: int, news: list[News], final: bool) -> bool:
        rnd = self.match.round
        if rnd.is_over:
            return self._see_hand_card(t, news)
        card = t.card
        if rnd.is_legal(card):
            self._play(self._mover(t), card, t, news)
            return True
        gap = self._hidden_gap(t)
        if gap:
            for c in gap:
                self._play(self._mover(t), c, None, news)
            self._play(self._mover(t), card, t, news)
            return True
        if (t.hits >= self.illegal_after or final) and t.confidence >= self.illegal_confidence:
            player = self._mover(t)
            ev = Play(player, card)
            flag = self.match.push(ev)
            if flag is None:  # it was fine after all (an unknown opener's seven, say)
                news.append(News("play", t.first_frame, ev))
                return True
            self._illegal[card] = flag
            explain = getattr(flag, "explain", None)
            news.append(News("illegal", t.first_frame, ev, flag, explain() if callable(explain) else str(flag)))
            return True
        return False

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
        later = [self.match.pop() for _ in range(len(events) - at - 1)][::-1]
        self.match.pop()
        for e in later:
            self.match.push(e)
        flag = self._illegal.pop(card)
        news.append(News("retracted", now, None, flag, f"{card} was not illegal after all: a play before it was missed"))

    # ------------------------------------------------------------------ end of a round
    def _see_hand_card(self, t: Track, news: list[News]) -> bool:
        rnd = self.match.round
        outline = self.stab.outline(t.card)
        holders = [i for i, p in enumerate(self.players) if rnd.cards_left.get(p, 0) > 0]
        if outline is None or not holders or self.table.plane is None:
            return False
        seat = self.table.seat_of(outline, holders)
        self._shown.setdefault(seat, []).append(t.card)
        self._shown_first.setdefault(seat, self._arrival(t))
        return True

    def _push_shows(self, news: list[News], final: bool) -> None:
        """Hands laid down become `show` lines, clockwise from the winner's left (the order of counting).

        A hand goes in once all the cards its holder has left are seen, and only after the hands
        before it in that order; at the end of the source (or of the round) whatever was seen goes in."""
        rnd = self.match.round
        if rnd is None or not rnd.is_over or rnd.winner is None:
            return
        n = len(self.players)
        first = self.players.index(rnd.winner) + 1
        for k in range(n - 1):
            seat = (first + k) % n
            player = self.players[seat]
            if seat in self._shown_done:
                continue
            left = rnd.cards_left.get(player, 0)
            seen = self._shown.get(seat, [])
            if left == 0 and not seen:
                continue
            if not final and len(seen) < left:
                return  # wait for this hand before writing the ones after it
            if seen:
                ev = Show(player, tuple(sorted(seen, key=_deck_pos)))
                self.match.push(ev)
                news.append(News("show", self._shown_first.get(seat, self._frame), ev))
            self._shown_done.add(seat)

    def _maybe_next_round(self, now: int, news: list[News]) -> None:
        """After a finished round, a table cleared for a while and then a new card starts the next round."""
        rnd = self.match.round
        if rnd is None or not rnd.is_over or self.match.is_over:
            return
        if self.stab.steady():
            if self._empty_run >= self.clear_after:
                self._push_shows(news, final=True)
                self.match.push(End())
                news.append(News("end", now, End()))
                dealer = self.match.dealer_for_next_round
                self.stab.tracks = {c: t for c, t in self.stab.tracks.items() if t.present}
                self._start_round(dealer, now)
                news.append(News("round", now, self.match.events[-1]))
                self._empty_run = 0
            return
        if not self._covered:
            self._empty_run += 1


def _deck_pos(code: str) -> int:
    c = parse_card(code)
    return "cdhs".index(c.suit) * 13 + c.rank - 1


def _inside(point: tuple[float, float], box: tuple[float, float, float, float], grow: float = 0.2) -> bool:
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * grow, (y2 - y1) * grow
    return x1 - dx <= point[0] <= x2 + dx and y1 - dy <= point[1] <= y2 + dy
