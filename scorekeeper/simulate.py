"""Random matches with simple players, written as game records.

The simulation deals real hands and keeps its own *true* match (every hand known) to decide moves;
it writes the record a table companion would write (hands on the round line only with
``known_hands``; in `domino` some draws unseen).  Both see the same lines, so the line numbers of
flags agree.  Strategies:

- ``random``: a random legal card, else draw (domino) or pass;
- ``greedy``: the legal card that frees most of its own cards (it keeps long runs moving);
- ``cheater``: plays like ``random`` but now and then passes holding a playable card, plays a card
  that does not fit, acts out of turn, writes a card code that names no card, or lets a stranger
  speak - so that every kind of flag gets exercised.

Pure and reproducible: the same arguments give the same record.

>>> events = simulate_match("fan-tan", ("Anna", "Ben", "Cleo"), seed=1)
>>> type(events[0]).__name__, type(events[-1]).__name__
('MatchStart', 'End')
"""

from __future__ import annotations

import random
from typing import Optional, Sequence, Union

from .cards import DECK, Card, cards_in
from .events import Draw, End, MatchStart, Pass, Play, RoundStart, Show
from .match import Match
from .variants import Options, find_variant

STRATEGIES = ("random", "greedy", "cheater")
DEFAULT_NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
CHEAT_RATE = 0.12  # chance that a cheater cheats on a turn
UNSEEN_DRAW_RATE = 0.3  # chance that a camera misses a drawn card (hands unknown)
MAX_LINES_PER_ROUND = 5000


def player_names(players: Union[int, Sequence[str]]) -> tuple[str, ...]:
    """Names for ``players``: a count (the default names) or the names themselves."""
    if isinstance(players, int):
        if not 2 <= players <= len(DEFAULT_NAMES):
            raise ValueError(f"a match needs 2 to 8 players, not {players}")
        return DEFAULT_NAMES[:players]
    return tuple(players)


def _strategies(strategy: Union[str, Sequence[str]], players: tuple[str, ...]) -> dict[str, str]:
    names = [strategy] * len(players) if isinstance(strategy, str) else list(strategy)
    if len(names) != len(players):
        raise ValueError(f"{len(names)} strategies for {len(players)} players")
    for name in names:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return dict(zip(players, names))


def _greedy_choice(legal: list[Card], hand: int, variant_upward: bool) -> Card:
    """The legal card that opens the way to most of the player's own cards of that suit."""
    def freed(card: Card) -> tuple[int, int]:
        suit_cards = [c for c in cards_in(hand) if c.suit == card.suit and c is not card]
        if variant_upward:
            ahead = len(suit_cards)
        elif card.rank == 7:
            ahead = len(suit_cards)
        elif card.rank < 7:
            ahead = sum(1 for c in suit_cards if c.rank < card.rank)
        else:
            ahead = sum(1 for c in suit_cards if c.rank > card.rank)
        return (ahead, -card.index)
    return max(legal, key=freed)


class _Table:
    """One simulated match: the true match, the record being written, and the dice."""

    def __init__(self, start: MatchStart, rng: random.Random, strategies: dict[str, str],
                 known_hands: bool) -> None:
        self.start = start
        self.rng = rng
        # The camera's dice are separate from the players' so that a record with hands and one
        # without are the same game, line for line.
        self.camera = random.Random(rng.random())
        self.strategies = strategies
        self.known_hands = known_hands
        self.truth = Match(start)
        self.record: list = [start]
        self.variant = self.truth.variant
        self.stock: list[Card] = []

    def emit(self, true_event, record_event=None) -> object:
        self.record.append(true_event if record_event is None else record_event)
        return self.truth.push(true_event)

    def deal(self, dealer: str) -> None:
        players = self.start.players
        deck = list(DECK)
        self.rng.shuffle(deck)
        sizes = self.variant.deal_sizes(len(players))
        first = (players.index(dealer) + 1) % len(players)
        hands: dict[str, list[str]] = {p: [] for p in players}
        # one card at a time from the dealer's left, as at the table
        pos = 0
        for turn in range(max(sizes)):
            for k in range(len(players)):
                if turn < sizes[k]:
                    hands[players[(first + k) % len(players)]].append(deck[pos].code)
                    pos += 1
        self.stock = deck[pos:]
        true_hands = {p: tuple(h) for p, h in hands.items()}
        self.emit(RoundStart(dealer, true_hands), RoundStart(dealer, true_hands if self.known_hands else None))

    def play_round(self) -> None:
        rnd = self.truth.round
        lines = 0
        while not rnd.is_over and lines < MAX_LINES_PER_ROUND:
            lines += 1
            actor = rnd.to_move
            if actor is None:  # cannot happen with every hand known; be safe
                break
            if self.strategies[actor] == "cheater" and self.rng.random() < CHEAT_RATE:
                if self.cheat(actor):
                    continue
            self.move(actor)
        if not rnd.is_over:
            self.emit(End())
            return
        left = {p: rnd.known_cards(p) for p in self.start.players}
        for p in self.start.players:
            if left[p]:
                self.emit(Show(p, tuple(c.code for c in sorted(left[p]))))
        self.emit(End())

    def move(self, actor: str) -> None:
        rnd = self.truth.round
        legal = list(rnd.legal_plays)
        while not legal and self.variant.has_stock and self.stock:
            card = self.stock.pop()
            seen = self.camera.random() >= UNSEEN_DRAW_RATE or self.known_hands
            self.emit(Draw(actor, card.code), Draw(actor, card.code if seen else None))
            legal = list(rnd.legal_plays)
        if not legal:
            self.emit(Pass(actor))
            return
        if self.strategies[actor] == "greedy":
            hand = 0
            for c in rnd.known_cards(actor):
                hand |= c.bit
            card = _greedy_choice(legal, hand, self.variant.upward_only)
        else:
            card = self.rng.choice(legal)
        self.emit(Play(actor, card.code))

    def cheat(self, actor: str) -> bool:
        """One cheat by ``actor`` (True if a line was written)."""
        rnd = self.truth.round
        rng = self.rng
        kind = rng.choice(("illegal_pass", "illegal_play", "out_of_turn", "unknown_player", "bad_card"))
        hand = sorted(rnd.known_cards(actor))
        if kind == "illegal_pass":
            if not rnd.legal_plays:
                return False
            self.emit(Pass(actor))
            return True
        if kind == "illegal_play":
            # a card of one's own that does not fit, or one already on the table
            wrong = [c for c in hand if not rnd.table.is_legal(c)]
            on_table = sorted(rnd.table.cards)
            choices = wrong + on_table
            if not choices:
                return False
            self.emit(Play(actor, rng.choice(choices).code))
            return True
        if kind == "out_of_turn":
            # Not before the opening card of fan-tan/sjuan: a camera cannot know the turn yet.
            opening = self.variant.opening_card
            if opening is not None and opening not in rnd.table:
                return False
            others = [p for p in self.start.players if p != actor]
            other = rng.choice(others)
            their = sorted(rnd.known_cards(other))
            if their and rng.random() < 0.5:
                self.emit(Play(other, rng.choice(their).code))
            else:
                self.emit(Pass(other))
            return True
        if kind == "unknown_player":
            stranger = "Zed" if "Zed" not in self.start.players else "Zed2"
            self.emit(Pass(stranger))
            return True
        # bad card: a code that names no card
        self.emit(Play(actor, rng.choice(("1h", "11s", "Xd", "d7", "7x", "0c"))))
        return True


def simulate_match(variant: str, players: Union[int, Sequence[str]], seed: int, stakes: str = "points",
                   rounds: Optional[int] = 1, target: Optional[int] = None, options: Options = Options(),
                   strategy: Union[str, Sequence[str]] = "random", known_hands: bool = False,
                   first_dealer: Optional[str] = None) -> list:
    """A random match as the list of its record's events (MatchStart first).

    ``strategy`` is one name for everybody or one per player.  The match runs until it is over
    (``rounds`` won rounds or a total reaching ``target``); with neither and no default target it
    plays one round.
    """
    names = player_names(players)
    find_variant(variant)  # an unknown variant fails here, with the known ones named
    start = MatchStart(variant=variant, players=names, stakes=stakes, rounds=rounds, target=target,
                       options=options)
    rng = random.Random(seed)
    table = _Table(start, rng, _strategies(strategy, names), known_hands)
    dealer = first_dealer if first_dealer is not None else rng.choice(names)
    never_ends = table.truth.rounds_to_play is None and table.truth.target is None
    played = 0
    while not table.truth.is_over:
        table.deal(dealer)
        table.play_round()
        played += 1
        if never_ends or played >= 10_000:
            break
        dealer = table.truth.dealer_for_next_round
    return table.record


def simulate_round_events(variant: str, players: Union[int, Sequence[str]], seed: int,
                          strategy: Union[str, Sequence[str]] = "random", known_hands: bool = True,
                          options: Options = Options()) -> list:
    """One round's record (a one-round match): the unit of the replay benchmark and the tests."""
    return simulate_match(variant, players, seed, rounds=1, options=options, strategy=strategy,
                          known_hands=known_hands)
