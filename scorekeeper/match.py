"""A match: the rounds of one night at one table, replayed line by line.

>>> from scorekeeper.events import MatchStart, RoundStart, Play
>>> m = Match(MatchStart("fan-tan", ("Anna", "Ben", "Cleo", "Dan"), "points", rounds=1))
>>> m.push(RoundStart("Ben"))
>>> m.push(Play("Ben", "7d")) is None          # Ben opens (nobody knew he held the seven)
True
>>> m.round.to_move
'Cleo'
>>> m.push(Play("Cleo", "5d")).kind             # does not fit: flagged, Cleo still to move
'illegal_play'
>>> m.pop()
Play(player='Cleo', card='5d')
>>> m.round.to_move, len(m.round.flags)
('Cleo', 0)

`push` takes the record's lines in order (the match line is line 1, given to the constructor) and
returns the flag raised at that line; `pop` undoes the last line exactly.  `verdict()` is the JSON
object of `fantan check --json`.  Lines that make a record unreadable raise `RecordError`.
"""

from __future__ import annotations

from typing import Optional

from . import flags as F
from .events import Draw, End, MatchStart, Pass, Play, RoundStart, Show
from .flags import Flag
from .record import RecordError, check_match_start
from .round import Round, RoundResult
from .variants import find_variant


class Match:
    """The state of a match: its rounds, totals and, once over, its winner."""

    def __init__(self, start: MatchStart) -> None:
        check_match_start(start, line=1)
        self.start = start
        self.variant = find_variant(start.variant)(start.options)
        self.players: tuple[str, ...] = tuple(start.players)
        self.stakes = start.stakes
        self.rounds_to_play: Optional[int] = start.rounds
        self.target: Optional[int] = start.target
        if start.rounds is None and start.target is None:
            self.target = self.variant.default_target
        self.events: list = [start]
        self._rounds: list[Round] = []
        self._made_round: list[bool] = []  # per pushed line: did it start a new Round?

    # -- push / pop -----------------------------------------------------------------------------
    def push(self, event) -> Optional[Flag]:
        """Apply the next line of the record; return the flag raised at that line, or None."""
        line = len(self.events) + 1
        kind = type(event)
        if kind is RoundStart:
            flag = self._start_round(event, line)
        elif kind in (Play, Pass, Show, End, Draw):
            if not self._rounds:
                raise RecordError(line, f"a {_name(event)} line before the first round line")
            if kind is Draw and not self.variant.has_stock:
                raise RecordError(line, f"a draw line in {self.variant.name} (only domino has a stock)")
            flag = self._rounds[-1].push(event, line)
            self._made_round.append(False)
        elif kind is MatchStart:
            raise RecordError(line, "a second match line")
        else:
            raise TypeError(f"not a record event: {event!r}")
        self.events.append(event)
        return flag

    def _start_round(self, event: RoundStart, line: int) -> Optional[Flag]:
        if event.dealer not in self.players:
            raise RecordError(line, f"the dealer {event.dealer!r} is not a player")
        if self._rounds and self._over_after(self.rounds, last_closed=True) is not None:
            # The match is decided (this line would close an unfinished last round, so that round
            # counts as closed): a new deal is out of turn; it is flagged and ignored.
            # The unfinished round it would close is closed all the same (the old deal is over).
            flag = self._rounds[-1].flag_line(
                Flag(F.OUT_OF_TURN, line, player=event.dealer, reason="the match is over"), line)
            self._made_round.append(False)
            return flag
        if self._rounds:
            self._rounds[-1].close(line)
        new = Round(self.variant, self.players, event.dealer, line, event.hands, self.stakes)
        self._rounds.append(new)
        self._made_round.append(True)
        return new._flags[0] if new._flags else None

    def pop(self):
        """Undo the last line: the match is exactly as it was before it was pushed."""
        if len(self.events) <= 1:
            raise IndexError("pop from a match with no line after the match line")
        event = self.events.pop()
        if self._made_round.pop():
            self._rounds.pop()
            if self._rounds:
                self._rounds[-1]._undo()
        else:
            self._rounds[-1]._undo()
        return event

    # -- questions ------------------------------------------------------------------------------
    @property
    def round(self) -> Optional[Round]:
        """The current (last started) round, or None before the first round line."""
        return self._rounds[-1] if self._rounds else None

    @property
    def rounds(self) -> list[RoundResult]:
        """Every round so far, as scored now (an unfinished last round scores as if ended now)."""
        return [r.result() for r in self._rounds]

    @property
    def round_states(self) -> list[Round]:
        return list(self._rounds)

    def _over_after(self, results: list[RoundResult], last_closed: bool = False) -> Optional[int]:
        """Index of the round after which the match ended, or None while it goes on.

        Only closed rounds can end a match: won, ended by `end` or by the next round line, or - with
        ``last_closed`` - the last round at the end of the record.  A round without a winner does
        not count towards ``rounds``, but its points count towards the ``target``.
        """
        won = 0
        totals = {p: 0 for p in self.players}
        last = len(results) - 1
        for i, (state, res) in enumerate(zip(self._rounds, results)):
            if not (state.is_over or (last_closed and i == last)):
                continue  # the round being played
            for p, v in res.points.items():
                totals[p] += v
            if res.winner is not None:
                won += 1
                if self.rounds_to_play is not None and won >= self.rounds_to_play:
                    return i
            if self.target is not None and max(totals.values()) >= self.target:
                return i
        return None

    @property
    def is_over(self) -> bool:
        """True once the match is decided (a round still being played is not counted yet)."""
        return self._over_after(self.rounds) is not None

    def is_decided(self, record_complete: bool = False) -> bool:
        """`is_over`; with ``record_complete``, as the verdict sees it (an unfinished last round
        closed without a winner, as at the end of a record)."""
        return self._over_after(self.rounds, last_closed=record_complete) is not None

    def _totals(self, results: list[RoundResult], key: str) -> dict[str, int]:
        totals = {p: 0 for p in self.players}
        for res in results:
            values = res.points if key == "points" else (res.chips or {})
            for p, v in values.items():
                totals[p] += v
        return totals

    @property
    def totals(self) -> dict[str, int]:
        """Points totals, or chips totals for chip stakes."""
        return self._totals(self.rounds, "chips" if self.stakes == "chips" else "points")

    @property
    def points_totals(self) -> dict[str, int]:
        return self._totals(self.rounds, "points")

    def _winner(self, results: list[RoundResult], last_closed: bool = False) -> Optional[str]:
        if self._over_after(results, last_closed) is None:
            return None
        points = self._totals(results, "points")
        if self.stakes == "chips":
            chips = self._totals(results, "chips")
            best = max(chips.values())
            tied = [p for p in self.players if chips[p] == best]
        else:
            tied = list(self.players)
        low = min(points[p] for p in tied)
        tied = [p for p in tied if points[p] == low]
        return tied[0] if len(tied) == 1 else None

    @property
    def match_winner(self) -> Optional[str]:
        """Lowest points (chip stakes: most chips, then lowest points); None while going on or tied."""
        return self._winner(self.rounds)

    @property
    def dealer_for_next_round(self) -> str:
        """The deal passes to the left after every round."""
        if not self._rounds:
            return self.players[0]
        i = self.players.index(self._rounds[-1].dealer)
        return self.players[(i + 1) % len(self.players)]

    def verdict(self) -> dict:
        """The JSON object of `fantan check --json` (record-format.md), key order included.

        The record is taken as complete: an unfinished last round is closed without a winner.
        """
        results = self.rounds
        chips = self.stakes == "chips"
        return {
            "rounds": [r.to_json(chips) for r in results],
            "totals": self._totals(results, "chips" if chips else "points"),
            "match_winner": self._winner(results, last_closed=True),
        }


def _name(event) -> str:
    from .events import EVENT_NAMES
    return EVENT_NAMES.get(type(event), type(event).__name__)


def replay(events: list) -> Match:
    """A match with every event pushed (the first must be the `MatchStart`)."""
    if not events or type(events[0]) is not MatchStart:
        raise RecordError(1, "the first line must be the match line")
    m = Match(events[0])
    push = m.push
    for event in events[1:]:
        push(event)
    return m
