"""BankGame: one night of Chinese Fan-Tan, built line by line with push and undone with pop.

Chips are counted relative to the start of the night. When a player opens a bank, the chips he puts
in leave his `net` and sit in `bank`; losing bets go into the bank, winnings come out of it; when the
bank passes, whatever is in it goes back to him. So at every moment

    sum(game.net.values()) + game.bank == 0

and `game.balances` (the bank credited to its banker) sums to zero and feeds the settle-up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from scorekeeper.banking.cut import cut_rank, read_cut_card
from scorekeeper.banking.events import BankMatch, Cut, CutForBank, Event, OpenBank, PlaceBet, Result
from scorekeeper.banking.flags import Flag
from scorekeeper.banking.layout import BadSpot, Bet, Spot, is_fair_cut, winning_number
from scorekeeper.banking.payout import Payout, pay_hand

#: What the table is waiting for.
CUT_FOR_BANK, OPEN_BANK, BETS = "cut_for_bank", "bank", "bets"


@dataclass(frozen=True)
class Tenure:
    """One player's turn as banker. end: 'open' (still banking), 'hands' (the agreed hands were
    played and he took the bank back), 'emptied' (the bank ran dry and passed at once)."""

    banker: str
    line: int
    chips: int
    reserve: int | None = None
    hands: int = 0
    taken: int = 0
    end: str = "open"


@dataclass(frozen=True)
class CutCard:
    """An accepted card in the cut for the first bank; `round` 2, 3... are re-cuts after ties."""

    line: int
    player: str
    card: str
    round: int


@dataclass(frozen=True)
class Hand:
    """One settled hand: the bets, the cut, and how they were paid."""

    number: int  # 1, 2, ... over the night
    line: int  # the cut or result line
    banker: str
    count: int | None  # cards in the cut, None when the number was entered directly
    bets: tuple[Bet, ...]
    payout: Payout
    flags: tuple[Flag, ...]  # flags raised on this hand's lines (its bets and cuts)
    passed: str | None  # 'hands' or 'emptied' when the bank passed after this hand

    @property
    def winning_number(self) -> int:
        return self.payout.winning_number


@dataclass(frozen=True)
class _State:
    """Everything push changes, except the append-only logs (kept by length)."""

    phase: str
    net: Mapping[str, int]
    bank: int = 0
    tenure: Tenure | None = None
    expected: str | None = None  # who should open the next bank (None: not known yet)
    cutters: tuple[str, ...] = ()  # who still cuts in this round of the cut for the bank
    round_cuts: tuple[tuple[str, int], ...] = ()  # (player, rank) cut in this round so far
    cut_round: int = 1
    cut_winner: str | None = None  # who won the high cut for the first bank
    bets: tuple[Bet, ...] = ()
    hand_flags_from: int = 0  # index in flags where the current hand's flags start
    n_flags: int = 0
    n_hands: int = 0
    n_banks: int = 0
    n_cuts: int = 0


class BankGame:
    """The state of the night; it knows every money rule so that a caller never re-derives one.

    >>> from scorekeeper.banking import BankGame, BankMatch, OpenBank, PlaceBet, Cut, Limits
    >>> g = BankGame(BankMatch(("Anna", "Ben", "Cleo"), hands_per_bank=3, limits=Limits(1, 10)))
    >>> g.push(OpenBank("Anna", 20)), g.push(PlaceBet("Ben", "3", 2)), g.push(Cut(19))
    (None, None, None)
    >>> g.bank, g.net, g.balances
    (14, {'Anna': -20, 'Ben': 6, 'Cleo': 0}, {'Anna': -6, 'Ben': 6, 'Cleo': 0})
    """

    def __init__(self, match: BankMatch) -> None:
        self.match = match
        self.events: list[Event] = [match]
        self._state = _State(phase=CUT_FOR_BANK, net={p: 0 for p in match.players}, cutters=match.players)
        self._stack: list[_State] = []
        self._flags: list[Flag] = []
        self._hands: list[Hand] = []
        self._banks: list[Tenure] = []  # closed tenures
        self._cuts: list[CutCard] = []

    # ---- what a caller reads -------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def phase(self) -> str:
        """'cut_for_bank', 'bank' (waiting for a banker to open a bank) or 'bets'."""
        return self._state.phase

    @property
    def banker(self) -> str | None:
        t = self._state.tenure
        return t.banker if t else None

    @property
    def bank(self) -> int:
        """Chips in the bank now."""
        return self._state.bank

    @property
    def next_banker(self) -> str | None:
        """Who should open the next bank (None while the cut for the bank is undecided)."""
        return self._state.expected

    @property
    def cutters(self) -> tuple[str, ...]:
        """Players still to cut in the current round of the cut for the bank."""
        s = self._state
        done = {p for p, _ in s.round_cuts}
        return tuple(p for p in s.cutters if p not in done) if s.phase == CUT_FOR_BANK else ()

    @property
    def high_cut(self) -> str | None:
        """Who won the cut for the first bank (None when nobody cut, or the cut is undecided)."""
        return self._state.cut_winner

    @property
    def cuts(self) -> list[CutCard]:
        return self._cuts[: self._state.n_cuts]

    @property
    def bets(self) -> tuple[Bet, ...]:
        """Bets on the layout for the coming cut."""
        return self._state.bets

    @property
    def hands_left(self) -> int:
        """Hands this bank still has to run (0 when no bank is open)."""
        t = self._state.tenure
        return self.match.hands_per_bank - t.hands if t else 0

    @property
    def net(self) -> dict[str, int]:
        """Each player's chips won (+) or lost (-) since the start, not counting chips in the bank."""
        return dict(self._state.net)

    @property
    def balances(self) -> dict[str, int]:
        """Each player's result if the night ended now (the bank goes back to its banker); sums to 0."""
        out = dict(self._state.net)
        if self.banker is not None:
            out[self.banker] += self._state.bank
        return out

    @property
    def flags(self) -> list[Flag]:
        return self._flags[: self._state.n_flags]

    @property
    def hands(self) -> list[Hand]:
        return self._hands[: self._state.n_hands]

    @property
    def banks(self) -> list[Tenure]:
        """Every bank of the night so far, the running one last."""
        out = self._banks[: self._state.n_banks]
        return out + [self._state.tenure] if self._state.tenure else out

    def preview(self, number: int) -> Payout:
        """How the bets on the layout would be paid if `number` won (changes nothing)."""
        if self.banker is None:
            raise ValueError("no bank is open")
        return pay_hand(self._state.bets, number, self._state.bank, self.banker, self.players)

    def check(self, event: Event) -> Flag | None:
        """The flag `event` would raise now, without pushing it (e.g. to refuse a bet as it is typed)."""
        flag = self.push(event)
        self.pop()
        return flag

    # ---- push / pop -------------------------------------------------------------------------
    def push(self, event: Event) -> Flag | None:
        """Add the next record line; returns the flag raised at that line, or None.

        Raises ValueError for a line that cannot be part of a record at all (a second match line, a
        bank opened by someone who is not a player); those make a record unreadable.
        """
        line = len(self.events) + 1
        handler = {
            CutForBank: self._cut_for_bank,
            OpenBank: self._open_bank,
            PlaceBet: self._bet,
            Cut: self._cut,
            Result: self._result,
        }.get(type(event))
        if handler is None:
            raise ValueError(f"not an event of the banking game: {event!r}")
        before = self._state
        flag = handler(event, line)
        if flag is not None:
            del self._flags[self._state.n_flags :]
            self._flags.append(flag)
            self._state = replace(self._state, n_flags=self._state.n_flags + 1)
            if isinstance(event, OpenBank) and self._state.phase == BETS and before.phase != BETS:
                # a wrong_banker note belongs to the bank line, not to the first hand's bets
                self._state = replace(self._state, hand_flags_from=self._state.n_flags)
        self._stack.append(before)
        self.events.append(event)
        return flag

    def pop(self) -> Event:
        """Undo the last line: the state is exactly what it was before it."""
        if not self._stack:
            raise IndexError("nothing to undo: only the match line is left")
        self._state = self._stack.pop()
        return self.events.pop()

    # ---- the rules --------------------------------------------------------------------------
    def _flag(self, kind: str, line: int, **fields) -> Flag:
        return Flag(kind, line, **fields)

    def _cut_for_bank(self, e: CutForBank, line: int) -> Flag | None:
        s = self._state
        if e.player not in self.players:
            return self._flag("unknown_player", line, player=e.player)
        if s.phase != CUT_FOR_BANK or e.player not in self.cutters:
            return self._flag("out_of_turn", line, player=e.player)
        card = read_cut_card(e.card)
        if card is None:
            return self._flag("bad_card", line, player=e.player, card=e.card)
        self._log(self._cuts, "n_cuts", CutCard(line, e.player, card, s.cut_round))
        s = self._state
        round_cuts = s.round_cuts + ((e.player, cut_rank(card)),)
        if len(round_cuts) < len(s.cutters):
            self._state = replace(s, round_cuts=round_cuts)
            return None
        top = max(r for _, r in round_cuts)
        tied = tuple(p for p, r in round_cuts if r == top)
        if len(tied) == 1:
            self._state = replace(s, phase=OPEN_BANK, expected=tied[0], round_cuts=(), cutters=(),
                                  cut_winner=tied[0])
        else:
            self._state = replace(s, cutters=tuple(p for p in self.players if p in tied),
                                  round_cuts=(), cut_round=s.cut_round + 1)
        return None

    def _open_bank(self, e: OpenBank, line: int) -> Flag | None:
        s = self._state
        if e.banker not in self.players:
            raise ValueError(f"the banker {e.banker!r} is not a player")
        if s.phase == BETS:
            return self._flag("bank_open", line, player=e.banker)
        if e.chips < 1:
            return self._flag("bad_bank", line, player=e.banker, chips=e.chips)
        flag = None
        uncut = s.phase == CUT_FOR_BANK and s.n_cuts == 0  # the record skipped the cut: trust it
        if e.banker != s.expected and not uncut:
            flag = self._flag("wrong_banker", line, player=e.banker, expected=s.expected)
        net = dict(s.net)
        net[e.banker] -= e.chips
        self._state = replace(
            s, phase=BETS, net=net, bank=e.chips, expected=None, cutters=(), round_cuts=(),
            tenure=Tenure(e.banker, line, e.chips, e.reserve), bets=(),
            hand_flags_from=s.n_flags,
        )
        return flag

    def _bet(self, e: PlaceBet, line: int) -> Flag | None:
        s = self._state
        if e.player not in self.players:
            return self._flag("unknown_player", line, player=e.player)
        if s.phase != BETS:
            return self._flag("no_bank", line, player=e.player)
        if e.player == self.banker:
            return self._flag("banker_bet", line, player=e.player)
        try:
            spot = Spot.parse(e.spot)
        except BadSpot:
            return self._flag("bad_spot", line, player=e.player, spot=e.spot)
        limits = self.match.limits
        breach = limits.breach(e.chips)
        if breach:
            limit = limits.min if breach == "under_limit" else limits.max
            return self._flag(breach, line, player=e.player, spot=spot.code, chips=e.chips, limit=limit)
        self._state = replace(s, bets=s.bets + (Bet(e.player, spot, e.chips, line),))
        return None

    def _cut(self, e: Cut, line: int) -> Flag | None:
        if self._state.phase != BETS:
            return self._flag("no_bank", line)
        if not is_fair_cut(e.count):
            return self._flag("bad_cut", line, count=e.count)
        self._settle(winning_number(e.count), e.count, line)
        return None

    def _result(self, e: Result, line: int) -> Flag | None:
        if self._state.phase != BETS:
            return self._flag("no_bank", line)
        if e.number not in (1, 2, 3, 4):
            return self._flag("bad_result", line, number=e.number)
        self._settle(e.number, None, line)
        return None

    def _settle(self, number: int, count: int | None, line: int) -> None:
        s = self._state
        tenure = s.tenure
        assert tenure is not None
        payout = pay_hand(s.bets, number, s.bank, tenure.banker, self.players)
        net = dict(s.net)
        for player, change in payout.changes().items():
            net[player] += change
        bank = payout.bank_after
        tenure = replace(tenure, hands=tenure.hands + 1)
        passed = None
        if payout.emptied:
            passed = "emptied"
        elif tenure.hands >= self.match.hands_per_bank:
            passed = "hands"
            net[tenure.banker] += bank
            tenure = replace(tenure, taken=bank)
            bank = 0
        flags = tuple(self._flags[s.hand_flags_from : s.n_flags])
        hand = Hand(s.n_hands + 1, line, tenure.banker, count, s.bets, payout, flags, passed)
        self._log(self._hands, "n_hands", hand)
        s = self._state
        if passed:
            tenure = replace(tenure, end=passed)
            self._log(self._banks, "n_banks", tenure)
            s = self._state
            left = self.players[(self.players.index(tenure.banker) + 1) % len(self.players)]
            self._state = replace(s, phase=OPEN_BANK, net=net, bank=0, tenure=None, expected=left,
                                  bets=(), hand_flags_from=s.n_flags)
        else:
            self._state = replace(s, net=net, bank=bank, tenure=tenure, bets=(),
                                  hand_flags_from=s.n_flags)

    def _log(self, log: list, counter: str, item) -> None:
        """Append to an append-only log, dropping entries that a pop left beyond the state's count."""
        n = getattr(self._state, counter)
        del log[n:]
        log.append(item)
        self._state = replace(self._state, **{counter: n + 1})
