"""Paying a hand: collect the losing bets, then pay the winners from the banker's left.

One pure function, `pay_hand`, returns the payments as ordered steps so that a dashboard can show
them one at a time, in the order the banker makes them at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from scorekeeper.banking.layout import Bet

#: The name used for the bank in a payment's `src` or `dst`.
BANK = "bank"


@dataclass(frozen=True)
class Step:
    """One movement of chips while a hand is paid.

    reason: 'lost' (a losing bet collected into the bank), 'won' (winnings paid in full from the
    bank; the stake stays with the bettor), 'short' (the bank's last chips, fewer than were owed:
    the bank is empty after this step).
    """

    src: str
    dst: str
    chips: int
    reason: str
    bet: Bet
    owed: int

    def explain(self) -> str:
        """The step in words, for a dashboard showing the payments one by one."""
        bet = self.bet
        on = f"{bet.chips} on {bet.spot.code}"
        if self.reason == "lost":
            return f"{bet.player} loses {on} to the bank"
        if self.reason == "won":
            odds = "3 to 1" if bet.spot.is_corner else "evens"
            return f"{bet.player} is paid {self.chips} for {on} ({odds})"
        return f"{bet.player} gets the bank's last {self.chips} of {self.owed} owed for {on}"

    def to_json(self) -> dict:
        return {
            "from": self.src,
            "to": self.dst,
            "chips": self.chips,
            "reason": self.reason,
            "line": self.bet.line,
            "player": self.bet.player,
            "spot": self.bet.spot.code,
            "stake": self.bet.chips,
            "owed": self.owed,
        }


@dataclass(frozen=True)
class Payout:
    """Everything that happened to the bets of one hand."""

    winning_number: int
    bank_before: int
    steps: tuple[Step, ...]
    returned: tuple[Bet, ...]  # winning bets that found the bank empty: the stake goes back, unpaid
    bank_after: int

    @property
    def emptied(self) -> bool:
        """True when the bank was left with nothing: bank and deal pass at once."""
        return self.bank_after == 0

    def explain(self) -> list[str]:
        """Every step in pay order, then the returned bets, in words."""
        lines = [step.explain() for step in self.steps]
        lines += [f"{b.player}'s {b.chips} on {b.spot.code} is returned unpaid: the bank is empty"
                  for b in self.returned]
        return lines

    def changes(self) -> dict[str, int]:
        """Each bettor's gain (+) or loss (-) in this hand; only players with bets appear."""
        out: dict[str, int] = {}
        for bet in self.returned:
            out.setdefault(bet.player, 0)
        for step in self.steps:
            player = step.bet.player
            sign = 1 if step.dst == player else -1
            out[player] = out.get(player, 0) + sign * step.chips
        return out


def pay_order(players: Sequence[str], banker: str) -> list[str]:
    """The bettors in the order the banker pays them: from his left, clockwise, banker excluded."""
    i = list(players).index(banker)
    n = len(players)
    return [players[(i + k) % n] for k in range(1, n)]


def pay_hand(
    bets: Iterable[Bet], number: int, bank: int, banker: str, players: Sequence[str]
) -> Payout:
    """Settle `bets` when `number` wins, with `bank` chips in the bank.

    Losing bets are collected first (so the bank can only run dry while paying). Winners are then paid
    seat by seat from the banker's left, each player's bets in the order they were placed. When the
    bank cannot pay a bet in full it pays what it has ('short'); the winning bets after that are
    returned to their bettors unpaid.
    """
    if number not in (1, 2, 3, 4):
        raise ValueError(f"the winning number is 1, 2, 3 or 4, not {number!r}")
    if bank < 0:
        raise ValueError(f"a bank cannot hold {bank} chips")
    seat = {p: k for k, p in enumerate(pay_order(players, banker))}
    bets = list(bets)
    for bet in bets:
        if bet.player not in seat:
            raise ValueError(f"{bet.player!r} cannot bet against the bank of {banker!r}")
        if bet.chips < 1:
            raise ValueError(f"a bet of {bet.chips} chips is no bet")
    ordered = sorted(bets, key=lambda b: seat[b.player])  # stable: placing order within a seat
    steps: list[Step] = []
    returned: list[Bet] = []
    before = bank
    for bet in ordered:
        if not bet.spot.wins(number):
            steps.append(Step(bet.player, BANK, bet.chips, "lost", bet, bet.chips))
            bank += bet.chips
    for bet in ordered:
        owed = bet.winnings(number)
        if not owed:
            continue
        if bank == 0:
            returned.append(bet)
        elif bank >= owed:
            steps.append(Step(BANK, bet.player, owed, "won", bet, owed))
            bank -= owed
        else:
            steps.append(Step(BANK, bet.player, bank, "short", bet, owed))
            bank = 0
    return Payout(number, before, tuple(steps), tuple(returned), bank)
