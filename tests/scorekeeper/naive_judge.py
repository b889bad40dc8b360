"""A second, deliberately naive judge of game records, written from docs/RULES.md alone.

It shares no code with the engine beyond reading card codes: hands are sets of card codes, the table
is a set, legality is recomputed from scratch, and illegal passes are judged at the end of the
record by scanning every later line.  It is slow and plain on purpose; tests compare its verdicts
with the engine's on many simulated records (test_differential.py).
"""

from __future__ import annotations

from scorekeeper.cards import BadCard, parse_card
from scorekeeper.events import Draw, End, Pass, RoundStart, Show

SUITS = "cdhs"


def code(c: str) -> str:
    return parse_card(c).code


def deck_key(c: str) -> tuple[int, int]:
    return (SUITS.index(c[1]), "A23456789TJQK".index(c[0]))


class NaiveRound:
    def __init__(self, start, dealer, line, hands):
        self.start = start
        self.players = list(start.players)
        n = len(self.players)
        self.line = line
        self.dealer = dealer
        variant = start.variant
        self.variant = variant
        first = (self.players.index(dealer) + 1) % n
        if variant == "domino":
            sizes = [start.options.hand_size or 13] * n
        else:
            sizes = [52 // n + (1 if k < 52 % n else 0) for k in range(n)]
        self.dealt = {self.players[(first + k) % n]: sizes[k] for k in range(n)}
        self.flags = []
        self.hand = {p: None for p in self.players}  # known dealt hand (set) or None
        self.known = {p: set() for p in self.players}
        self.unknown = {p: 0 for p in self.players}
        self.seen = {p: False for p in self.players}  # a known hand, every draw into it seen
        if hands:
            strangers = [p for p in hands if p not in self.players]
            bad = None
            for p, cards in hands.items():
                if p not in self.players:
                    continue
                try:
                    self.hand[p] = {code(c) for c in cards}
                except BadCard:
                    bad = bad or next(c for c in cards if not _ok(c))
            if strangers:
                self.flags.append({"kind": "unknown_player", "line": line, "player": strangers[0]})
            elif bad is not None:
                self.flags.append({"kind": "bad_card", "line": line, "card": bad})
        for p in self.players:
            if self.hand[p] is not None:
                self.known[p] = set(self.hand[p])
                self.seen[p] = True
            self.unknown[p] = self.dealt[p] - len(self.known[p])
        self.stock = 52 - sum(self.dealt.values()) if variant == "domino" else 0
        self.table: list[str] = []
        self.base = None
        self.opening = {"fan-tan": "7d", "sjuan": "7h"}.get(variant)
        if self.opening:
            holders = [p for p in self.players if self.hand[p] and self.opening in self.hand[p]]
            self.turn = holders[0] if holders else None
        else:
            self.turn = self.players[first]
        self.winner = None
        self.closed = False
        self.passes = {p: 0 for p in self.players}
        self.pass_log = []  # (line, player, legal set, known-at-pass set, table at pass)
        self.log = []  # (line, kind, player, cards) for accepted plays, shows and draws (card or None)
        self.end_line = line

    # -- rows
    def order(self) -> str:
        if self.variant == "free":
            ranks = "A23456789TJQK"
            i = ranks.index(self.base)
            return ranks[i:] + ranks[:i]
        return "23456789TJQKA" if self.start.options.ace_high else "A23456789TJQK"

    def fitting(self) -> set[str]:
        on = set(self.table)
        if self.opening and self.opening not in on:
            return {self.opening}
        if self.variant == "free" and self.base is None:
            return {r + s for s in SUITS for r in "A23456789TJQK"}
        order = self.order()
        opener = order[0] if self.variant == "free" else "7"
        out = set()
        for s in SUITS:
            idx = sorted(order.index(c[0]) for c in on if c[1] == s)
            if not idx:
                out.add(opener + s)
                continue
            if idx[0] > 0 and self.variant != "free":
                out.add(order[idx[0] - 1] + s)
            if idx[-1] < 12:
                out.add(order[idx[-1] + 1] + s)
        return out

    def left(self, p) -> int:
        return len(self.known[p]) + self.unknown[p]

    @property
    def over(self) -> bool:
        return self.winner is not None or self.closed

    # -- lines
    def apply(self, ev, line):
        if isinstance(ev, End):
            if not self.over:
                self.closed = True
                self.end_line = line
            return
        p = ev.player
        if p not in self.players:
            self.flags.append({"kind": "unknown_player", "line": line, "player": p})
            return
        if isinstance(ev, Show):
            if not all(_ok(c) for c in ev.cards):
                self.flags.append({"kind": "bad_card", "line": line, "card": next(c for c in ev.cards if not _ok(c))})
                return
            self.log.append((line, "show", p, {code(c) for c in ev.cards}))
            return
        if self.over or (self.turn is not None and p != self.turn):
            self.flags.append({"kind": "out_of_turn", "line": line, "player": p})
            return
        nxt = self.players[(self.players.index(p) + 1) % len(self.players)]
        if isinstance(ev, Pass):
            self.passes[p] += 1
            self.pass_log.append((line, p, self.fitting(), set(self.known[p]), set(self.table)))
            if self.turn is not None:
                self.turn = nxt
            return
        if isinstance(ev, Draw):
            if ev.card is not None and not _ok(ev.card):
                self.flags.append({"kind": "bad_card", "line": line, "card": ev.card})
                return
            self.stock -= 1
            c = code(ev.card) if ev.card is not None else None
            if c is not None and c not in self.table and not any(c in k for k in self.known.values()):
                self.known[p].add(c)
                self.log.append((line, "draw", p, {c}))
            else:
                self.unknown[p] += 1
                self.seen[p] = False
                self.log.append((line, "draw", p, None))
            return
        # play
        if not _ok(ev.card):
            self.flags.append({"kind": "bad_card", "line": line, "card": ev.card})
            return
        c = code(ev.card)
        if c in self.table or c not in self.fitting():
            self.flags.append({"kind": "illegal_play", "line": line, "player": p, "card": c})
            return
        if c in self.known[p]:
            self.known[p].discard(c)
        elif self.seen[p]:
            self.flags.append({"kind": "illegal_play", "line": line, "player": p, "card": c})
            return
        else:
            self.unknown[p] -= 1
        if self.variant == "free" and self.base is None:
            self.base = c[0]
        self.table.append(c)
        self.log.append((line, "play", p, {c}))
        if self.left(p) <= 0:
            self.winner = p
            self.turn = None
            self.end_line = line
        else:
            self.turn = nxt

    # -- judging
    def maybe_drawn(self, p, after, before) -> set | None:
        """Cards p may have drawn between two lines; None means any card."""
        out = set()
        for line, kind, who, cards in self.log:
            if kind == "draw" and who == p and after < line < before:
                if cards is None:
                    return None
                out |= cards
        return out

    def proofs(self):
        found = []
        for pline, p, legal, known_at, table_at in self.pass_log:
            proof = None
            if self.hand[p] is not None:
                cards = legal & known_at & self.hand[p]
                if cards:
                    proof = (self.line, cards)
            if proof is None:
                for line, kind, who, cards in self.log:
                    if line <= pline or who != p or kind == "draw":
                        continue
                    got = cards & legal
                    drawn = self.maybe_drawn(p, pline, line)
                    got = {c for c in got if c in known_at or (drawn is not None and c not in drawn)}
                    if got:
                        proof = (line, got)
                        break
            found.append((pline, p, table_at, proof))
        return found

    def holder(self, card, at_line, table_at):
        if card in table_at:
            return None
        for p in self.players:
            if self.hand[p] is not None and card in self.hand[p]:
                return p
        for line, kind, who, cards in self.log:
            if kind == "draw" and cards is not None and card in cards and line < at_line:
                return who
        evidence = []
        for line, kind, who, cards in self.log:
            if kind != "draw" and cards is not None and card in cards and line > at_line:
                evidence.append((line, who))
        for line, who in sorted(evidence):
            drawn = self.maybe_drawn(who, at_line, line)
            if drawn is not None and card not in drawn:
                return who
        return None

    def result(self, chips: bool):
        proofs = self.proofs()
        fines = {p: 0 for p in self.players}
        flags = list(self.flags)
        for pline, p, _, proof in proofs:
            if proof:
                fines[p] += 1
                flags.append({"kind": "illegal_pass", "line": pline, "player": p, "proof_line": proof[0],
                              "cards": sorted(proof[1], key=deck_key)})
        flags.sort(key=lambda f: f["line"])
        points = {p: self.passes[p] + 3 * fines[p] + (0 if p == self.winner else self.left(p))
                  for p in self.players}
        out = {"winner": self.winner, "points": points}
        if chips:
            net = {p: 0 for p in self.players}
            pot = 0
            big = max(self.dealt.values())
            for p in self.players:
                pay = 1 + (1 if self.dealt[p] < big else 0)
                net[p] -= pay
                pot += pay
            for pline, p, table_at, proof in proofs:
                net[p] -= 1
                pot += 1
                if proof:
                    net[p] -= 3
                    pot += 3
                    for c in proof[1]:
                        if c[0] != "7":
                            continue
                        for r in "68":
                            h = self.holder(r + c[1], pline, table_at)
                            if h is not None and h != p:
                                net[p] -= 5
                                net[h] += 5
            for p in self.players:
                if p != self.winner:
                    net[p] -= self.left(p)
                    pot += self.left(p)
            if self.winner is not None:
                net[self.winner] += pot
            out["chips"] = net
        out["flags"] = flags
        return out


def _ok(c) -> bool:
    try:
        parse_card(c)
        return True
    except BadCard:
        return False


def naive_verdict(events) -> dict:
    start = events[0]
    chips = start.stakes == "chips"
    rounds: list[NaiveRound] = []
    target = start.target
    if start.rounds is None and start.target is None and start.variant == "sjuan":
        target = 100

    def over() -> bool:
        """Every round started so far taken as closed (at a round line, or the record's end)."""
        won = 0
        totals = {p: 0 for p in start.players}
        for r in rounds:
            res = r.result(False)
            for p in totals:
                totals[p] += res["points"][p]
            if r.winner is not None:
                won += 1
                if start.rounds is not None and won >= start.rounds:
                    return True
            if target is not None and max(totals.values()) >= target:
                return True
        return False

    for line, ev in enumerate(events[1:], start=2):
        if isinstance(ev, RoundStart):
            if rounds and over():
                rounds[-1].flags.append({"kind": "out_of_turn", "line": line, "player": ev.dealer})
                if not rounds[-1].over:
                    rounds[-1].closed = True
                    rounds[-1].end_line = line
                continue
            if rounds and not rounds[-1].over:
                rounds[-1].closed = True
                rounds[-1].end_line = line
            rounds.append(NaiveRound(start, ev.dealer, line, ev.hands))
        else:
            rounds[-1].apply(ev, line)
    results = [r.result(chips) for r in rounds]
    key = "chips" if chips else "points"
    totals = {p: sum(r[key][p] for r in results) for p in start.players}
    winner = None
    if over():
        points = {p: sum(r["points"][p] for r in results) for p in start.players}
        tied = list(start.players)
        if chips:
            best = max(totals.values())
            tied = [p for p in tied if totals[p] == best]
        low = min(points[p] for p in tied)
        tied = [p for p in tied if points[p] == low]
        winner = tied[0] if len(tied) == 1 else None
    return {"rounds": results, "totals": totals, "match_winner": winner}
