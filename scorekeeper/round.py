"""One deal, from the round line to the last card: the state object that knows the rules.

Like `chess.Board`, a `Round` takes events with `push` and gives them back with `pop`, and answers
questions about the position: whose turn it is (`to_move`), the `table`, the `legal_plays` (a lazy
view), how many cards each player has left, the flags found so far, and what the round scores
(`result`).

Hands may be known (a simulation, a recorded deal) or unknown (a camera sees only the table).  Each
hand is kept as a bit mask of the cards known to be in it plus a count of cards of unknown identity,
so a replay never guesses: a play from an unknown card is accepted if it fits the rows, and the
evidence that convicts an illegal pass (a later play or show of a card that was legal at the pass)
is collected as it arrives.

Cards are bits (``1 << card.index``); rows are kept as the positions of their lowest and highest
cards along the variant's order, which makes a replay a few integer operations per line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional

from . import flags as F
from . import ledger as L
from .cards import DECK, FULL_MASK, SUITS, BadCard, Card, cards_in, parse_card
from .events import Draw, End, Pass, Play, Show
from .flags import Flag
from .scoring import penalty_points
from .variants import Variant


@dataclass(frozen=True)
class Row:
    """One suit's row on the table: its end cards and every card in it, in row order.

    Row order is rank order (A low), except with ``ace_high`` (2 .. K A) and in `free`, where a row
    starts at the base rank and wraps (J Q K A 2 ...): ``low`` and ``high`` are the row's two ends.
    """

    suit: str
    cards: tuple[Card, ...]
    _round: Optional["Round"] = field(default=None, repr=False, compare=False)

    def is_legal(self, card: Card) -> bool:
        """True if ``card`` fits at one end of this row now."""
        return card.suit == self.suit and self._round is not None and self._round._fits(card)

    @property
    def low(self) -> Card:
        return self.cards[0]

    @property
    def high(self) -> Card:
        return self.cards[-1]

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def opener(self) -> Card:
        """The card that opened this row (the seven; in `free`, the base-rank card)."""
        r = self._round
        assert r is not None and r._pos is not None
        return r._card_at["cdhs".index(self.suit)][r._open_pos]

    def gap_to(self, card: Card) -> Optional[tuple[Card, tuple[Card, ...]]]:
        """If ``card`` lies beyond one end of this row: that end and the cards strictly between, in
        row order going outwards from the end; else None.  Follows the row's own order (ace high,
        `free`'s wrap), so a caller never compares ranks itself.

        Used where cards may be hidden, e.g. Hoyle piles where only a pile's top card shows.
        """
        r = self._round
        if r is None or r._pos is None or card.suit != self.suit:
            return None
        at = r._card_at["cdhs".index(self.suit)]
        p, lo, hi = r._pos[card.rank], r._pos[self.low.rank], r._pos[self.high.rank]
        if p < lo:
            return self.low, tuple(at[i] for i in range(lo - 1, p, -1))
        if p > hi:
            return self.high, tuple(at[i] for i in range(hi + 1, p))
        return None

    def goes_high(self, card: Card) -> Optional[bool]:
        """Does ``card`` go beyond this row's high end (True) or its low end (False)? None if it is
        of another suit or already in the row's span. On the table a row grows from its opening card
        one way upwards and the other way downwards."""
        r = self._round
        if r is None or r._pos is None or card.suit != self.suit:
            return None
        p, lo, hi = r._pos[card.rank], r._pos[self.low.rank], r._pos[self.high.rank]
        return True if p > hi else False if p < lo else None


class Table:
    """A read-only view of the rows on the table (rows[suit] is None until that row is opened)."""

    def __init__(self, round_: "Round") -> None:
        self._round = round_

    @property
    def rows(self) -> dict[str, Optional[Row]]:
        r = self._round
        out: dict[str, Optional[Row]] = {}
        for s, suit in enumerate(SUITS):
            lo = r._lo[s]
            if lo < 0:
                out[suit] = None
            else:
                at = r._card_at[s]
                out[suit] = Row(suit, tuple(at[p] for p in range(lo, r._hi[s] + 1)), r)
        return out

    @property
    def cards(self) -> frozenset[Card]:
        return frozenset(cards_in(self._round._on_table))

    def __contains__(self, card: Card) -> bool:
        return bool(self._round._on_table & card.bit)

    def __len__(self) -> int:
        return self._round._on_table.bit_count()

    def is_legal(self, card: Card) -> bool:
        """True if ``card`` fits a row now (whoever holds it)."""
        return bool(self._round._fitting_mask() & card.bit)

    def __repr__(self) -> str:
        rows = self.rows
        return "Table(" + ", ".join(
            f"{s}: {row.low}..{row.high}" if row else f"{s}: -" for s, row in rows.items()) + ")"


class LegalPlays:
    """The cards the player to move may play now; computed when asked (python-chess style).

    With a known hand: the hand's cards that fit; with an unknown hand: every card that fits and is
    not on the table.  Empty when the round is over.
    """

    def __init__(self, round_: "Round") -> None:
        self._round = round_

    def mask(self) -> int:
        return self._round._legal_mask()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except BadCard:
                return False
        return isinstance(card, Card) and bool(self.mask() & card.bit)

    def __iter__(self) -> Iterator[Card]:
        return cards_in(self.mask())

    def __len__(self) -> int:
        return self.mask().bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask())

    def __repr__(self) -> str:
        return f"<LegalPlays ({', '.join(c.code for c in self)})>"


@dataclass(frozen=True)
class RoundResult:
    """What a round scores: the verdict's entry plus the chip transfers behind it."""

    winner: Optional[str]
    points: dict[str, int]
    chips: Optional[dict[str, int]]
    flags: list[Flag]
    transfers: list[L.Transfer] = field(default_factory=list)
    line: int = 0  # the round line
    dealer: str = ""
    cards_left: dict[str, int] = field(default_factory=dict)
    passes: dict[str, int] = field(default_factory=dict)

    def to_json(self, chips: bool) -> dict:
        out: dict = {"winner": self.winner, "points": dict(self.points)}
        if chips:
            out["chips"] = dict(self.chips or {})
        out["flags"] = [f.to_json() for f in self.flags]
        return out


# Row orders by (variant class, ace_high, base rank): the position of each rank along a row, the
# position of the card that opens a row, and the card at each position of each suit (read-only).
_ROW_ORDERS: dict[tuple, tuple] = {}

# A pass as the round remembers it: enough to judge it later.
# (line, seat, legal mask at the pass, mask of cards known held at the pass, table mask at the pass)
_PassRecord = tuple[int, int, int, int, int]


class Round:
    """The state of one deal.  Build it from the match (`Match.push(RoundStart(...))`)."""

    def __init__(self, variant: Variant, players: tuple[str, ...], dealer: str, line: int,
                 hands: Optional[dict[str, tuple[str, ...]]] = None, stakes: str = "points") -> None:
        self.variant = variant
        self.players = players
        self.dealer = dealer
        self.line = line
        self.stakes = stakes
        n = self.n = len(players)
        self._seat = {name: i for i, name in enumerate(players)}
        self.first_seat = (self._seat[dealer] + 1) % n
        sizes = variant.deal_sizes(n)
        dealt = [0] * n
        for k in range(n):
            dealt[(self.first_seat + k) % n] = sizes[k]
        self._flags: list[Flag] = []
        dealt_known = [0] * n
        hand_known = [False] * n
        if hands:
            flag, dealt_known, hand_known = self._read_hands(hands, line)
            if flag is not None:
                self._flags.append(flag)
        self.dealt: tuple[int, ...] = tuple(dealt)
        self.dealt_known: tuple[int, ...] = tuple(dealt_known)
        self.hand_known: tuple[bool, ...] = tuple(hand_known)
        # -- mutable state (everything below is saved by _save and restored by _undo) --------
        self._on_table = 0
        self._lo = [-1, -1, -1, -1]
        self._hi = [-1, -1, -1, -1]
        self._base: Optional[int] = None
        # Cards known to be in each hand, and how many more there are (the count, dealt - accepted
        # plays + draws, is always exact; a hand written with the wrong size leaves this non-zero,
        # even negative: the cards written are trusted, and so is the deal).
        self._known = list(dealt_known)
        self._unknown = [dealt[s] - dealt_known[s].bit_count() for s in range(n)]
        # A hand is "known" (record-format.md) when the round line gave it, and it stays known while
        # every card drawn into it is seen; an unknown hand never becomes known, whatever is seen.
        self._hand_seen = list(hand_known)
        self._passes = [0] * n
        self._unproven = [0] * n
        self._winner: Optional[int] = None
        self._closed = False
        self._last_line = line
        self._end_line = line  # the line that ended the round (its last card, `end`, next round)
        self._stock = 52 - sum(dealt) if variant.has_stock else 0
        self._pass_log: list[_PassRecord] = []
        self._proofs: list[Optional[tuple[int, int]]] = []  # per pass: (proof line, cards mask)
        self._proof_order: list[int] = []  # pass indices in the order they were proven
        self._draws: list[tuple[int, int, int]] = []  # (line, seat, card index or -1 if unseen)
        self._plays: list[tuple[int, int, int]] = []  # accepted plays (line, seat, card index)
        self._shows: list[tuple[int, int, int]] = []  # (line, seat, cards mask)
        self._stack: list[tuple] = []
        self._opening: Optional[Card] = variant.opening_card
        if variant.base_from_first_card:
            self._set_positions(None)
        else:
            self._set_positions(7)
        if self._opening is not None:
            holder = [s for s in range(n) if dealt_known[s] & self._opening.bit]
            self._to_move: Optional[int] = holder[0] if holder else None
        else:
            self._to_move = self.first_seat

    # -- reading the round line ---------------------------------------------------------------
    def _read_hands(self, hands: dict, line: int) -> tuple[Optional[Flag], list[int], list[bool]]:
        """Known hands from the round line; a name not at the table or a bad code is flagged and
        that hand is left unknown (the rest of the line still counts)."""
        n = self.n
        dealt_known = [0] * n
        hand_known = [False] * n
        unknown_names = [name for name in hands if name not in self._seat]
        bad: Optional[str] = None
        for name, codes in hands.items():
            if name not in self._seat:
                continue
            mask = 0
            ok = True
            for code in codes:
                try:
                    mask |= parse_card(code).bit
                except BadCard:
                    ok = False
                    if bad is None:
                        bad = code
            if ok:
                s = self._seat[name]
                dealt_known[s] = mask
                hand_known[s] = True
        flag = None
        if unknown_names:
            flag = Flag(F.UNKNOWN_PLAYER, line, player=str(unknown_names[0]),
                        reason="named in the round line's hands")
        elif bad is not None:
            flag = Flag(F.BAD_CARD, line, card=bad, reason="in the round line's hands")
        return flag, dealt_known, hand_known

    def _set_positions(self, base: Optional[int]) -> None:
        self._base = base
        if base is None:  # `free` before its first card: no rows, any card may start
            self._pos = None
            self._open_pos = 0
            self._card_at = [[None] * 13 for _ in range(4)]
            return
        key = (type(self.variant), self.variant.options.ace_high, base)
        cached = _ROW_ORDERS.get(key)
        if cached is None:
            pos, open_pos = self.variant.positions(base)
            card_at: list[list] = [[None] * 13 for _ in range(4)]
            for card in DECK:
                card_at[card.index // 13][pos[card.rank]] = card
            cached = _ROW_ORDERS[key] = (pos, open_pos, card_at)
        self._pos, self._open_pos, self._card_at = cached

    # -- questions --------------------------------------------------------------------------
    @property
    def to_move(self) -> Optional[str]:
        """Whose turn it is; None once the round is over, or while the opener is not known."""
        if self._winner is not None or self._closed or self._to_move is None:
            return None
        return self.players[self._to_move]

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self._closed

    @property
    def winner(self) -> Optional[str]:
        return None if self._winner is None else self.players[self._winner]

    @property
    def table(self) -> Table:
        return Table(self)

    @property
    def legal_plays(self) -> LegalPlays:
        return LegalPlays(self)

    def is_legal(self, card: Card | str) -> bool:
        """True if the player to move may play ``card`` now."""
        return card in self.legal_plays

    @property
    def cards_left(self) -> dict[str, int]:
        return {name: self._known[s].bit_count() + self._unknown[s] for s, name in enumerate(self.players)}

    @property
    def stock(self) -> int:
        """Cards left in the stock (`domino`)."""
        return self._stock

    def hand(self, player: str) -> Optional[frozenset[Card]]:
        """The player's hand if it is known (given on the round line, every draw seen), else None."""
        s = self._seat[player]
        if not self._hand_seen[s]:
            return None
        return frozenset(cards_in(self._known[s]))

    def known_cards(self, player: str) -> frozenset[Card]:
        """The cards known to be in the player's hand now (all of it when the hand is known)."""
        return frozenset(cards_in(self._known[self._seat[player]]))

    @property
    def passes(self) -> dict[str, int]:
        return {name: self._passes[s] for s, name in enumerate(self.players)}

    @property
    def flags(self) -> list[Flag]:
        """Every flag of the round in line order, illegal passes proven so far included."""
        out = list(self._flags)
        for i, proof in enumerate(self._proofs):
            if proof is not None:
                out.append(self._pass_flag(i, proof))
        out.sort(key=lambda f: f.line)
        return out

    def _pass_flag(self, i: int, proof: tuple[int, int]) -> Flag:
        line, seat = self._pass_log[i][0], self._pass_log[i][1]
        if proof[0] == self.line:
            how = "the hands of the round line"
        elif any(pl == proof[0] for pl, _, _ in self._plays):
            how = "a later play"
        else:
            how = "a show"
        return Flag(F.ILLEGAL_PASS, line, player=self.players[seat], proof_line=proof[0],
                    cards=tuple(c.code for c in cards_in(proof[1])), reason=how)

    # -- the rules ----------------------------------------------------------------------------
    def _fitting_mask(self) -> int:
        """Cards that fit a row now, whoever holds them (never a card on the table)."""
        opening = self._opening
        if opening is not None and not (self._on_table & opening.bit):
            return opening.bit
        if self._pos is None:
            return FULL_MASK & ~self._on_table
        mask = 0
        up_only = self.variant.upward_only
        for s in range(4):
            lo = self._lo[s]
            at = self._card_at[s]
            if lo < 0:
                mask |= at[self._open_pos].bit
            else:
                hi = self._hi[s]
                if lo > 0 and not up_only:
                    mask |= at[lo - 1].bit
                if hi < 12:
                    mask |= at[hi + 1].bit
        return mask

    def _fits(self, card: Card) -> bool:
        if self._on_table & card.bit:
            return False
        opening = self._opening
        if opening is not None and not (self._on_table & opening.bit):
            return card is opening
        pos_table = self._pos
        if pos_table is None:
            return True
        s = card.index // 13
        pos = pos_table[card.rank]
        lo = self._lo[s]
        if lo < 0:
            return pos == self._open_pos
        if pos == self._hi[s] + 1:
            return True
        return pos == lo - 1 and not self.variant.upward_only

    def _legal_mask(self) -> int:
        if self._winner is not None or self._closed:
            return 0
        fitting = self._fitting_mask()
        s = self._to_move
        if s is None or not self._hand_seen[s]:
            return fitting
        return fitting & self._known[s]

    # -- push / pop ---------------------------------------------------------------------------
    def _save(self) -> None:
        self._stack.append((
            self._on_table, tuple(self._lo), tuple(self._hi), self._base, tuple(self._known),
            tuple(self._unknown), tuple(self._hand_seen), tuple(self._passes), tuple(self._unproven), self._to_move,
            self._winner, self._closed, self._last_line, self._end_line, self._stock, len(self._flags),
            len(self._pass_log), len(self._proof_order), len(self._draws), len(self._plays),
            len(self._shows)))

    def _undo(self) -> None:
        (self._on_table, lo, hi, base, known, unknown, seen, passes, unproven, self._to_move,
         self._winner, self._closed, self._last_line, self._end_line, self._stock, n_flags, n_passes, n_proofs,
         n_draws, n_plays, n_shows) = self._stack.pop()
        self._lo[:] = lo
        self._hi[:] = hi
        self._known[:] = known
        self._unknown[:] = unknown
        self._hand_seen[:] = seen
        self._passes[:] = passes
        self._unproven[:] = unproven
        if base != self._base:
            self._set_positions(base)
        del self._flags[n_flags:]
        while len(self._proof_order) > n_proofs:
            self._proofs[self._proof_order.pop()] = None
        del self._pass_log[n_passes:]
        del self._proofs[n_passes:]
        del self._draws[n_draws:]
        del self._plays[n_plays:]
        del self._shows[n_shows:]

    def pop(self) -> None:
        """Undo the last line pushed into this round."""
        self._undo()

    def push(self, event, line: int) -> Optional[Flag]:
        """Apply one line of the record; return the flag raised at that line, or None."""
        self._save()
        self._last_line = line
        kind = type(event)
        if kind is End:
            if self._winner is None and not self._closed:
                self._closed = True
                self._end_line = line
            return None
        seat = self._seat.get(event.player)
        if seat is None:
            return self._flag(Flag(F.UNKNOWN_PLAYER, line, player=event.player))
        if kind is Show:
            return self._show(seat, event.cards, line)
        if self._winner is not None or self._closed:
            return self._flag(Flag(F.OUT_OF_TURN, line, player=event.player, reason="the round is over"))
        if self._to_move is not None and seat != self._to_move:
            return self._flag(Flag(F.OUT_OF_TURN, line, player=event.player,
                                   reason=f"it was {self.players[self._to_move]}'s turn"))
        if kind is Play:
            return self._play(seat, event.card, line)
        if kind is Pass:
            return self._pass(seat, line)
        if kind is Draw:
            return self._draw(seat, event.card, line)
        raise TypeError(f"a round cannot take {event!r}")

    def flag_line(self, flag: Flag, line: int) -> Flag:
        """A round line after the match is over: it closes this round and is flagged here."""
        self._save()
        self._last_line = line
        if self._winner is None and not self._closed:
            self._closed = True
            self._end_line = line
        return self._flag(flag)

    def close(self, line: int) -> None:
        """The next round line closes this round (without a winner if no hand is empty)."""
        self._save()
        if self._winner is None and not self._closed:
            self._closed = True
            self._end_line = line

    def _flag(self, flag: Flag) -> Flag:
        self._flags.append(flag)
        return flag

    def _play(self, seat: int, code: str, line: int) -> Optional[Flag]:
        try:
            card = parse_card(code)
        except BadCard:
            return self._flag(Flag(F.BAD_CARD, line, player=self.players[seat], card=code))
        bit = card.bit
        if self._on_table & bit:
            return self._flag(Flag(F.ILLEGAL_PLAY, line, player=self.players[seat], card=card.code,
                                   reason="it is already on the table"))
        if not self._fits(card):
            return self._flag(Flag(F.ILLEGAL_PLAY, line, player=self.players[seat], card=card.code,
                                   reason="it does not fit the rows"))
        known = self._known[seat]
        if known & bit:
            self._known[seat] = known ^ bit
        elif self._hand_seen[seat]:
            return self._flag(Flag(F.ILLEGAL_PLAY, line, player=self.players[seat], card=card.code,
                                   reason="it is not in that player's known hand"))
        else:  # from the unknown part of the hand (the count goes down; it is never below zero)
            self._unknown[seat] -= 1
        # on the table
        self._on_table |= bit
        if self._pos is None:  # `free`: the first card sets the base rank of every row
            self._set_positions(card.rank)
        s = card.index // 13
        pos = self._pos[card.rank]
        if self._lo[s] < 0:
            self._lo[s] = self._hi[s] = pos
        elif pos < self._lo[s]:
            self._lo[s] = pos
        else:
            self._hi[s] = pos
        self._plays.append((line, seat, card.index))
        if self._unproven[seat]:
            self._prove(seat, bit, line, single=True)
        if self._known[seat].bit_count() + self._unknown[seat] <= 0:
            self._winner = seat
            self._end_line = line
        self._to_move = (seat + 1) % self.n
        return None

    def _pass(self, seat: int, line: int) -> Optional[Flag]:
        self._passes[seat] += 1
        legal = self._fitting_mask()
        known_at = self._known[seat]
        self._pass_log.append((line, seat, legal, known_at, self._on_table))
        proven = legal & known_at & self.dealt_known[seat]
        if proven:  # the round line's known hand proves it at once
            self._proofs.append((self.line, proven))
            self._proof_order.append(len(self._proofs) - 1)
        else:
            self._proofs.append(None)
            self._unproven[seat] += 1
        if self._to_move is not None:
            self._to_move = (seat + 1) % self.n
        return None

    def _draw(self, seat: int, code: Optional[str], line: int) -> Optional[Flag]:
        card = None
        if code is not None:
            try:
                card = parse_card(code)
            except BadCard:
                return self._flag(Flag(F.BAD_CARD, line, player=self.players[seat], card=code))
        self._stock -= 1  # "cards left = dealt - plays + draws": every draw counts (docs/RULES.md)
        if card is not None and not (self._on_table & card.bit) and not any(k & card.bit for k in self._known):
            self._known[seat] |= card.bit
            self._draws.append((line, seat, card.index))
        else:  # unseen (or impossible: already placed) - a card of unknown identity
            self._unknown[seat] += 1
            self._hand_seen[seat] = False
            self._draws.append((line, seat, -1))
        return None

    def _show(self, seat: int, codes: tuple[str, ...], line: int) -> Optional[Flag]:
        mask = 0
        for code in codes:
            try:
                mask |= parse_card(code).bit
            except BadCard:
                return self._flag(Flag(F.BAD_CARD, line, player=self.players[seat], card=code))
        self._shows.append((line, seat, mask))
        if self._unproven[seat]:
            self._prove(seat, mask, line, single=False)
        return None

    def _maybe_drawn(self, seat: int, after: int, before: int) -> int:
        """Cards the player may have drawn between two lines (all cards if a draw was unseen)."""
        mask = 0
        for dline, dseat, index in self._draws:
            if dseat == seat and after < dline < before:
                if index < 0:
                    return FULL_MASK
                mask |= 1 << index
        return mask

    def _prove(self, seat: int, mask: int, line: int, single: bool) -> None:
        """A play or show by ``seat`` at ``line``: does it prove any of their earlier passes?"""
        for i, rec in enumerate(self._pass_log):
            if rec[1] != seat or self._proofs[i] is not None:
                continue
            pline, _, legal, known_at, _ = rec
            cards = mask & legal
            if not cards:
                continue
            if self._draws:  # `domino`: a card drawn after the pass proves nothing
                cards &= known_at | ~self._maybe_drawn(seat, pline, line)
                if not cards:
                    continue
            self._proofs[i] = (line, cards)
            self._proof_order.append(i)
            self._unproven[seat] -= 1

    # -- scoring ------------------------------------------------------------------------------
    def _holder(self, index: int, at_line: int, table_at: int) -> Optional[int]:
        """Who held card ``index`` when the pass at ``at_line`` was made, as far as the record shows."""
        bit = 1 << index
        if table_at & bit:
            return None
        for s in range(self.n):
            if self.dealt_known[s] & bit:
                return s
        for dline, dseat, i in self._draws:  # a seen draw before the pass is as good as the hands
            if i == index and dline < at_line:
                return dseat
        # "as known from the hands or a later play or show" (and, in domino, not drawn after it)
        evidence: list[tuple[int, int]] = []  # (line, seat) where seat is seen holding the card
        for pline, pseat, i in self._plays:
            if i == index and pline > at_line:
                evidence.append((pline, pseat))
        for sline, sseat, smask in self._shows:
            if smask & bit and sline > at_line:
                evidence.append((sline, sseat))
        for eline, eseat in sorted(evidence):
            if not (self._maybe_drawn(eseat, at_line, eline) & bit):
                return eseat
        return None

    def result(self) -> RoundResult:
        """The round's points, chips and flags as the record stands now."""
        players = self.players
        n = self.n
        left = [self._known[s].bit_count() + self._unknown[s] for s in range(n)]
        winner = self._winner
        fines = [0] * n
        for i, proof in enumerate(self._proofs):
            if proof is not None:
                fines[self._pass_log[i][1]] += 1
        points = {players[s]: penalty_points(self._passes[s], fines[s], left[s], s == winner)
                  for s in range(n)}
        chips = None
        transfers: list[L.Transfer] = []
        if self.stakes == "chips":
            transfers = self._transfers(left)
            chips = L.net_chips(players, transfers)
        return RoundResult(
            winner=None if winner is None else players[winner], points=points, chips=chips,
            flags=self.flags, transfers=transfers, line=self.line, dealer=self.dealer,
            cards_left={players[s]: left[s] for s in range(n)},
            passes={players[s]: self._passes[s] for s in range(n)})

    def _transfers(self, left: list[int]) -> list[L.Transfer]:
        players = self.players
        out: list[L.Transfer] = []
        largest = max(self.dealt)
        for s, name in enumerate(players):
            out.append(L.Transfer(name, L.POT, L.ANTE_CHIPS, L.ANTE, self.line))
        for s, name in enumerate(players):
            if self.dealt[s] < largest:
                out.append(L.Transfer(name, L.POT, L.SHORT_HAND_CHIPS, L.SHORT_HAND, self.line))
        for i, (pline, seat, _legal, _known, table_at) in enumerate(self._pass_log):
            name = players[seat]
            out.append(L.Transfer(name, L.POT, L.PASS_CHIPS, L.PASS, pline))
            proof = self._proofs[i]
            if proof is None:
                continue
            out.append(L.Transfer(name, L.POT, L.ILLEGAL_PASS_CHIPS, L.ILLEGAL_PASS_FINE, pline))
            for card in cards_in(proof[1]):
                if card.rank != 7:
                    continue
                base = card.index - 6  # the ace of that suit
                for neighbour in (base + 5, base + 7):  # its six and its eight
                    holder = self._holder(neighbour, pline, table_at)
                    if holder is not None and holder != seat:
                        out.append(L.Transfer(name, players[holder], L.SEVEN_RULE_CHIPS, L.SEVEN_RULE, pline))
        end = self._end_line if self.is_over else self._last_line
        for s, name in enumerate(players):
            if s != self._winner and left[s]:
                out.append(L.Transfer(name, L.POT, L.CARD_CHIPS * left[s], L.CARDS_LEFT, end))
        if self._winner is not None:
            pot = L.pot_after(out)
            out.append(L.Transfer(L.POT, players[self._winner], pot, L.POT_TAKEN, end))
        return out

    def __repr__(self) -> str:
        state = f"won by {self.winner}" if self._winner is not None else (
            "closed" if self._closed else f"{self.to_move or '?'} to move")
        return f"<Round dealer={self.dealer} line={self.line} {state} {self.table!r}>"
