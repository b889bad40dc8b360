"""An independent reading of the game-record contract (shared/spec/record-format.md).

Written from the spec text alone, without looking at `scorekeeper/`, so that a second pair of eyes
judges every record: where this replay and the engine disagree, one of them misreads the spec.
It favours plain code over speed and only judges readable records (the engine decides readability).

Where the spec leaves a choice open, the reading taken here is named in a `READING_*` constant and
listed in tests/scorekeeper/data/edge_cases/README.md; the examples decide wherever they can.
"""
from __future__ import annotations

import re
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SYMBOLS = {"\u2663": "c", "\u2666": "d", "\u2665": "h", "\u2660": "s"}
DECK = [r + s for s in SUITS for r in RANKS]  # deck order: suits c d h s, A..K within a suit

_RANK = r"(10|[A2-9TJQK])"
_SYM = "([\u2663\u2666\u2665\u2660])\ufe0f?"
_LETTER_FORM = re.compile(_RANK + "([CDHS])", re.IGNORECASE)
_SYMBOL_AFTER = re.compile(_RANK + _SYM, re.IGNORECASE)
_SYMBOL_BEFORE = re.compile(_SYM + _RANK, re.IGNORECASE)

# Readings of points the spec leaves open (see the module docstring).
# A pass before the opening card of fan-tan/sjuan, when nobody knows who holds it, is accepted
# (anyone may act before the opener is known, as plays are judged `illegal_play`, not `out_of_turn`).
READING_PASS_BEFORE_UNKNOWN_OPENER = "accepted"
# domino: after an unseen draw a hand known from the round line is no longer "a known hand", so any
# card may come from it ("unknown"); the stricter "slot" reading lets each unseen draw explain one card.
READING_UNSEEN_DRAW = "unknown"
# A card seen drawn before a pass tells who held it at the pass (for the seven fine's six and eight).
READING_SEEN_DRAW_IS_KNOWN = True
# In a round without a winner the losers' cards left are still paid into the (untaken) pot.
READING_NO_WINNER_PAYS_CARDS = True


def parse_card(code: Any) -> str | None:
    """Canonical code of a card as written (`10♦️` -> `Td`), or None when it is no card."""
    if not isinstance(code, str):
        return None
    m = _LETTER_FORM.fullmatch(code)
    if m:
        rank, suit = m.group(1), m.group(2).lower()
    else:
        m = _SYMBOL_AFTER.fullmatch(code)
        if m:
            rank, suit = m.group(1), SYMBOLS[m.group(2)]
        else:
            m = _SYMBOL_BEFORE.fullmatch(code)
            if not m:
                return None
            suit, rank = SYMBOLS[m.group(1)], m.group(2)
    rank = "T" if rank == "10" else rank.upper()
    return rank + suit


def deck_sorted(cards) -> list[str]:
    return sorted(cards, key=DECK.index)


class _Round:
    """One round as the record tells it: the table, the turn, and every accepted event."""

    def __init__(self, match: "_Match", line: int, obj: dict):
        self.m = match
        self.line = line
        self.dealer = obj["dealer"]
        players = match.players
        n = len(players)
        d = players.index(self.dealer)
        order = [players[(d + 1 + i) % n] for i in range(n)]
        if match.variant == "domino":
            self.dealt = {p: match.hand_size for p in players}
        else:
            self.dealt = {p: 52 // n + (1 if i < 52 % n else 0) for i, p in enumerate(order)}
        hands = obj.get("hands") or {}
        self.start_hand: dict[str, set[str]] = {}
        self.flags: list[dict] = []
        for p, cards in hands.items():
            if p in players:
                self.start_hand[p] = {c for c in map(parse_card, cards) if c}
                bad = [c for c in cards if parse_card(c) is None]
                if bad and not self.flags:  # one flag per line (a reading: the spec is silent)
                    self.flags.append({"kind": "bad_card", "line": line, "card": bad[0]})
        self.count = dict(self.dealt)
        self.table: dict[str, list[str]] = {s: [] for s in SUITS}  # ranks in the order played
        self.on_table: set[str] = set()
        self.base: str | None = None  # free: base rank
        self.opened = False
        self.winner: str | None = None
        self.over = False
        self.plays: list[tuple[int, str, str]] = []  # accepted plays
        self.passes: list[tuple[int, str, frozenset]] = []  # accepted passes with the legal cards then
        self.draws: list[tuple[int, str, str | None]] = []
        self.shows: list[tuple[int, str, list[str]]] = []
        self.unknown_draws = {p: 0 for p in players}
        self.known_draws: dict[str, set[str]] = {p: set() for p in players}
        v = match.variant
        if v in ("fan-tan", "sjuan"):
            self.opening_card = "7d" if v == "fan-tan" else "7h"
            holder = [p for p, h in self.start_hand.items() if self.opening_card in h]
            self.turn: str | None = holder[0] if holder else None
        else:
            self.opening_card = None
            self.turn = order[0]

    # -- the table -------------------------------------------------------------------------
    def rank_order(self) -> str:
        return "23456789TJQKA" if self.m.ace_high else RANKS

    def legal_cards(self) -> set[str]:
        if self.opening_card and not self.opened:
            return {self.opening_card}
        legal = set()
        if self.m.variant == "free":
            if self.base is None:
                return set(DECK)
            for s in SUITS:
                row = self.table[s]
                if not row:
                    legal.add(self.base + s)
                elif len(row) < 13:
                    legal.add(RANKS[(RANKS.index(row[-1]) + 1) % 13] + s)
            return legal
        order = self.rank_order()
        for s in SUITS:
            row = self.table[s]
            if not row:
                legal.add("7" + s)
                continue
            pos = sorted(order.index(r) for r in row)
            if pos[0] > 0:
                legal.add(order[pos[0] - 1] + s)
            if pos[-1] < 12:
                legal.add(order[pos[-1] + 1] + s)
        return legal

    def may_hold(self, p: str, card: str) -> bool:
        """Could `p` hold `card`?  Always, for an unknown hand.  A hand known from the round line
        stays "a known hand" only while every card drawn into it was seen (READING_UNSEEN_DRAW)."""
        if p not in self.start_hand:
            return True
        if READING_UNSEEN_DRAW == "unknown" and self.unknown_draws[p] > 0:
            return True
        if card in self.held_known(p):
            return True
        return READING_UNSEEN_DRAW == "slot" and self.unknown_draws[p] > 0

    def held_known(self, p: str) -> set[str]:
        played = {c for _, q, c in self.plays if q == p}
        return (self.start_hand.get(p, set()) | self.known_draws[p]) - played

    def next_player(self, p: str) -> str:
        pl = self.m.players
        return pl[(pl.index(p) + 1) % len(pl)]

    # -- events ----------------------------------------------------------------------------
    def _gate(self, line: int, p: str) -> bool:
        """unknown_player, then out_of_turn; True when the line may go on."""
        if p not in self.m.players:
            self.flags.append({"kind": "unknown_player", "line": line, "player": p})
            return False
        if self.over or (self.turn is not None and self.turn != p):
            self.flags.append({"kind": "out_of_turn", "line": line, "player": p})
            return False
        return True

    def play(self, line: int, p: str, code: Any) -> None:
        if not self._gate(line, p):
            return
        card = parse_card(code)
        if card is None:
            self.flags.append({"kind": "bad_card", "line": line, "card": code})
            return
        if (card in self.on_table or card not in self.legal_cards()
                or not self.may_hold(p, card)):
            self.flags.append({"kind": "illegal_play", "line": line, "player": p, "card": card})
            return
        if READING_UNSEEN_DRAW == "slot" and p in self.start_hand and card not in self.held_known(p):
            self.unknown_draws[p] -= 1  # it was the card of an unseen draw
        if self.m.variant == "free" and self.base is None:
            self.base = card[0]
        self.opened = True
        self.table[card[1]].append(card[0])
        self.on_table.add(card)
        self.plays.append((line, p, card))
        self.count[p] -= 1
        self.turn = self.next_player(p)
        if self.count[p] == 0:
            self.winner = p
            self.over = True

    def pass_(self, line: int, p: str) -> None:
        if not self._gate(line, p):
            return
        if self.turn is None and READING_PASS_BEFORE_UNKNOWN_OPENER == "out_of_turn":
            self.flags.append({"kind": "out_of_turn", "line": line, "player": p})
            return
        self.passes.append((line, p, frozenset(self.legal_cards())))
        if self.turn is not None:
            self.turn = self.next_player(p)

    def draw(self, line: int, p: str, obj: dict) -> None:
        if not self._gate(line, p):
            return
        if "card" in obj and obj["card"] is not None:
            card = parse_card(obj["card"])
            if card is None:
                self.flags.append({"kind": "bad_card", "line": line, "card": obj["card"]})
                return
            self.known_draws[p].add(card)
        else:
            card = None
            self.unknown_draws[p] += 1
        self.draws.append((line, p, card))
        self.count[p] += 1

    def show(self, line: int, p: str, cards: list) -> None:
        if p not in self.m.players:
            self.flags.append({"kind": "unknown_player", "line": line, "player": p})
            return
        parsed = [parse_card(c) for c in cards]
        if None in parsed:  # one flag per line: the first unreadable code; the show is ignored
            bad = cards[parsed.index(None)]
            self.flags.append({"kind": "bad_card", "line": line, "card": bad})
            return
        self.shows.append((line, p, parsed))

    # -- judging at the close --------------------------------------------------------------
    def _out_of_stock(self, card: str, line: int) -> bool:
        """Known not to lie in the stock at `line`: dealt into a known hand, seen drawn, or played."""
        return (any(card in h for h in self.start_hand.values())
                or any(c == card and ln < line for ln, _, c in self.draws)
                or any(c == card and ln < line for ln, _, c in self.plays))

    def _maybe_drawn(self, p: str, card: str, after: int, before: int) -> bool:
        """domino: could `p` have drawn `card` between two lines?"""
        if self.m.variant != "domino" or self._out_of_stock(card, after):
            return False
        return any(q == p and after < ln < before and c in (None, card) for ln, q, c in self.draws)

    def _proof(self, pass_line: int, p: str, legal: frozenset) -> tuple[int, list[str]] | None:
        if p in self.start_hand:
            played_before = {c for ln, q, c in self.plays if q == p and ln < pass_line}
            held = (self.start_hand[p] - played_before) & legal
            if held:
                return self.line, deck_sorted(held)
        evidence = [(ln, [c]) for ln, q, c in self.plays if q == p and ln > pass_line]
        evidence += [(ln, cs) for ln, q, cs in self.shows if q == p and ln > pass_line]
        for ln, cards in sorted(evidence):
            proven = {c for c in cards if c in legal and not self._maybe_drawn(p, c, pass_line, ln)}
            if proven:
                return ln, deck_sorted(proven)
        return None

    def _holder_at(self, card: str, pass_line: int) -> str | None:
        """Who held `card` at a pass, as known from the hands or a later play or show."""
        if any(c == card and ln < pass_line for ln, _, c in self.plays):
            return None  # on the table
        for p, hand in self.start_hand.items():
            if card in hand:
                return p
        if READING_SEEN_DRAW_IS_KNOWN:
            for ln, p, c in self.draws:
                if c == card and ln < pass_line:
                    return p
        evidence = [(ln, q, [c]) for ln, q, c in self.plays if ln > pass_line]
        evidence += [(ln, q, cs) for ln, q, cs in self.shows if ln > pass_line]
        for ln, q, cards in sorted(evidence, key=lambda e: e[0]):
            if card in cards and not self._maybe_drawn(q, card, pass_line, ln):
                return q
        return None

    def verdict(self) -> dict:
        players = self.m.players
        chips_stakes = self.m.stakes == "chips"
        points = {p: 0 for p in players}
        chips = {p: 0 for p in players}
        pot = 0
        biggest = max(self.dealt.values())
        for p in players:
            ante = 1 + (1 if self.dealt[p] < biggest else 0)
            chips[p] -= ante
            pot += ante
        for line, p, legal in self.passes:
            points[p] += 1
            chips[p] -= 1
            pot += 1
            proof = self._proof(line, p, legal)
            if proof is None:
                continue
            proof_line, cards = proof
            self.flags.append({"kind": "illegal_pass", "line": line, "player": p,
                               "proof_line": proof_line, "cards": cards})
            points[p] += 3
            chips[p] -= 3
            pot += 3
            for c in cards:
                if c[0] != "7":
                    continue
                for neighbour in ("6" + c[1], "8" + c[1]):
                    holder = self._holder_at(neighbour, line)
                    if holder is not None and holder != p:
                        chips[p] -= 5
                        chips[holder] += 5
        for p in players:
            if p != self.winner:
                points[p] += self.count[p]
                if self.winner is not None or READING_NO_WINNER_PAYS_CARDS:
                    chips[p] -= self.count[p]
                    pot += self.count[p]
        if self.winner is not None:
            chips[self.winner] += pot
        out: dict[str, Any] = {"winner": self.winner, "points": points}
        if chips_stakes:
            out["chips"] = chips
        out["flags"] = sorted(self.flags, key=lambda f: f["line"])
        return out


class _Match:
    def __init__(self, obj: dict):
        self.variant = obj["variant"]
        self.players = list(obj["players"])
        self.stakes = obj["stakes"]
        options = obj.get("options") or {}
        self.ace_high = bool(options.get("ace_high", False))
        self.hand_size = options.get("hand_size", 13)
        self.rounds_limit = obj.get("rounds")
        self.target = obj.get("target")
        if self.rounds_limit is None and self.target is None and self.variant == "sjuan":
            self.target = 100


def reference_verdict(lines: list[dict]) -> dict:
    """The verdict of a readable record (its lines as JSON objects), as the spec words it."""
    return _replay(lines)[0]


def reference_match_over(lines: list[dict]) -> bool:
    """Whether the match is over by the end of these lines (the fuzzer stops its games there)."""
    return _replay(lines)[1]


def _replay(lines: list[dict]) -> tuple[dict, bool]:
    m = _Match(lines[0])
    finished: list[dict] = []
    totals_points = {p: 0 for p in m.players}
    totals_chips = {p: 0 for p in m.players}
    complete = 0
    match_over = False
    current: _Round | None = None

    def close(r: _Round) -> None:
        nonlocal complete, match_over
        v = r.verdict()
        finished.append(v)
        for p in m.players:
            totals_points[p] += v["points"][p]
            if "chips" in v:
                totals_chips[p] += v["chips"][p]
        if v["winner"] is not None:
            complete += 1
        if m.rounds_limit is not None and complete >= m.rounds_limit:
            match_over = True
        # the target counts points, whatever the stakes ("Game to 100 points", RULES.md)
        if m.target is not None and max(totals_points.values()) >= m.target:
            match_over = True

    for number, obj in enumerate(lines[1:], start=2):
        ev = obj["event"]
        if ev == "round":
            if current is not None:
                close(current)
            current = _Round(m, number, obj)
        elif ev == "play":
            current.play(number, obj["player"], obj["card"])
        elif ev == "pass":
            current.pass_(number, obj["player"])
        elif ev == "draw":
            current.draw(number, obj["player"], obj)
        elif ev == "show":
            current.show(number, obj["player"], obj["cards"])
        elif ev == "end":
            current.over = True
    if current is not None:
        close(current)

    totals = totals_chips if m.stakes == "chips" else totals_points
    winner = None
    if match_over:
        if m.stakes == "chips":
            key = {p: (-totals_chips[p], totals_points[p]) for p in m.players}
        else:
            key = {p: totals_points[p] for p in m.players}
        best = min(key.values())
        leaders = [p for p in m.players if key[p] == best]
        winner = leaders[0] if len(leaders) == 1 else None
    return {"rounds": finished, "totals": totals, "match_winner": winner}, match_over
