"""Random but readable game records, full of the faults a real table (or a camera) produces.

A seeded game is simulated with the true hands (the generator knows them all), then written as a
record the way a camera or a careless scorer might: hands known, unknown or partly known, odd card
spellings, out-of-turn lines, strangers at the table, unreadable card codes, plays that do not fit,
passes while holding a playable card (sevens especially), draws seen and unseen, shows, early `end`
lines, records cut mid-round, events after a round or the match is over, dealers that do not move left.
The generator never judges: `reference_replay` and the engine do, and must agree.
"""
from __future__ import annotations

import json
import random

try:
    from reference_replay import reference_match_over
except ImportError:  # imported as tests.scorekeeper.record_fuzz
    from .reference_replay import reference_match_over

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK = [r + s for s in SUITS for r in RANKS]
VARIANTS = ("fan-tan", "sjuan", "parliament", "free", "domino")
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
STRANGERS = ["Zed", "anna", "Anna ", "Bob"]
SYMBOL = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
BAD_CODES = ["1h", "d7", "7x", "", "7 d", "77", " 7d", "7dd", "11s", "\u2666", "1\u2666", "Zc",
             "7\ufe0f", "0h", "\u2661" + "7", "7\u2662", "dT", "10", "s", "7d ", "T10d", "\ufe0f7d"]


def spell(card: str, rng: random.Random, odd: float) -> str:
    """A card code as some reader might meet it: canonical, or another accepted spelling."""
    if rng.random() >= odd:
        return card
    rank, suit = card[0], card[1]
    if rank == "T" and rng.random() < 0.5:
        rank = "10"
    if rng.random() < 0.5:
        rank = rank.lower()
    form = rng.randrange(3)
    if form == 0:
        return rank + (suit.upper() if rng.random() < 0.5 else suit)
    sym = SYMBOL[suit] + ("\ufe0f" if rng.random() < 0.5 else "")
    return rank + sym if form == 1 else sym + rank


class _Table:
    """The true rows, for the generator's own simulation of a fair game."""

    def __init__(self, variant: str, ace_high: bool):
        self.variant = variant
        self.order = "23456789TJQKA" if ace_high else RANKS
        self.rows: dict[str, list[str]] = {s: [] for s in SUITS}
        self.base: str | None = None
        self.cards: set[str] = set()
        self.opening = {"fan-tan": "7d", "sjuan": "7h"}.get(variant)

    def legal(self) -> set[str]:
        if self.opening and not self.cards:
            return {self.opening}
        out = set()
        if self.variant == "free":
            if self.base is None:
                return set(DECK)
            for s in SUITS:
                row = self.rows[s]
                if not row:
                    out.add(self.base + s)
                elif len(row) < 13:
                    out.add(RANKS[(RANKS.index(row[-1]) + 1) % 13] + s)
            return out
        for s in SUITS:
            row = self.rows[s]
            if not row:
                out.add("7" + s)
                continue
            pos = sorted(self.order.index(r) for r in row)
            if pos[0] > 0:
                out.add(self.order[pos[0] - 1] + s)
            if pos[-1] < 12:
                out.add(self.order[pos[-1] + 1] + s)
        return out

    def put(self, card: str) -> None:
        if self.variant == "free" and self.base is None:
            self.base = card[0]
        self.rows[card[1]].append(card[0])
        self.cards.add(card)


def _match_line(rng: random.Random) -> tuple[dict, list[str]]:
    variant = rng.choice(VARIANTS)
    if variant == "domino":
        n = rng.choice([2, 2, 2, 3, 4, 5, 8])
    else:
        n = rng.choice([2, 3, 3, 4, 4, 4, 5, 6, 7, 8])
    players = NAMES[:n]
    if rng.random() < 0.2:
        rng.shuffle(players)
    obj: dict = {"event": "match", "variant": variant, "players": players,
                 "stakes": rng.choice(["points", "chips"])}
    shape = rng.random()
    if shape < 0.35:
        obj["rounds"] = rng.randint(1, 3)
    elif shape < 0.6:
        obj["target"] = rng.randint(3, 40)
    elif shape < 0.75:
        obj["rounds"] = rng.randint(1, 3)
        obj["target"] = rng.randint(3, 40)
    # else neither: sjuan plays to 100, the others never end
    options: dict = {}
    if rng.random() < 0.3:
        options["ace_high"] = rng.random() < 0.8
    if variant == "domino" and (n * 13 > 52 or rng.random() < 0.7):
        options["hand_size"] = rng.randint(1, min(13, 52 // n))
    if options:
        obj["options"] = options
    return obj, players


def fuzz_record(seed: int, ambiguous: bool = False) -> list[dict]:
    """A readable record (its lines as JSON objects) for a seed; the same seed, the same record.

    With `ambiguous`, it also writes what the spec leaves open (see data/edge_cases/README.md):
    rounds after the match is over, shows in the middle of a round, and plays of cards that another
    hand is known to hold by a player whose own hand is unknown.
    """
    rng = random.Random(seed)
    match, players = _match_line(rng)
    variant = match["variant"]
    ace_high = bool(match.get("options", {}).get("ace_high", False))
    hand_size = match.get("options", {}).get("hand_size", 13)
    n = len(players)
    fault = rng.choice([0.0, 0.03, 0.08, 0.15])
    illegal_pass_rate = rng.choice([0.0, 0.05, 0.15, 0.3])
    odd = rng.choice([0.0, 0.1, 0.5])
    lines: list[dict] = [match]
    dealer = rng.choice(players)
    past_the_end = ambiguous and rng.random() < 0.15  # rounds after the match is over
    for round_no in range(rng.choice([1, 1, 2, 2, 3, 4])):
        if round_no and not past_the_end and reference_match_over(lines):
            break
        if round_no:
            if rng.random() < 0.85:
                dealer = players[(players.index(dealer) + 1) % n]
            else:
                dealer = rng.choice(players)
        last = _round(rng, lines, players, dealer, variant, ace_high, hand_size, fault,
                      illegal_pass_rate, odd, ambiguous)
        if last == "cut":
            break
    if rng.random() < 0.1:  # a stray event after everything
        p = rng.choice(players)
        lines.append(rng.choice([{"event": "pass", "player": p},
                                 {"event": "play", "player": p, "card": rng.choice(DECK)}]))
    return lines


def _round(rng, lines, players, dealer, variant, ace_high, hand_size, fault, ip_rate, odd,
           ambiguous) -> str:
    n = len(players)
    d = players.index(dealer)
    order = [players[(d + 1 + i) % n] for i in range(n)]
    deck = DECK[:]
    rng.shuffle(deck)
    hands: dict[str, set[str]] = {p: set() for p in players}
    if variant == "domino":
        for i, p in enumerate(order):
            hands[p] = set(deck[i * hand_size:(i + 1) * hand_size])
        stock = deck[n * hand_size:]
    else:
        for i, c in enumerate(deck):
            hands[order[i % n]].add(c)
        stock = []
    knowledge = rng.random()
    if knowledge < 0.4:
        known = list(players)
    elif knowledge < 0.75:
        known = []
    else:
        known = [p for p in players if rng.random() < 0.5]
    obj: dict = {"event": "round", "dealer": dealer}
    if known:
        hl = {}
        for p in known:
            cards = [spell(c, rng, odd) for c in sorted(hands[p])]
            rng.shuffle(cards)
            hl[p] = cards
        obj["hands"] = hl
    lines.append(obj)

    table = _Table(variant, ace_high)
    if table.opening:
        turn = next(p for p in players if table.opening in hands[p])
    else:
        turn = order[0]
    early_end = rng.random() < 0.1
    cut = rng.random() < 0.06
    mid_show = ambiguous and rng.random() < 0.2
    winner = None
    for step in range(600):
        p = turn
        legal = table.legal()
        # faults: lines the judge must flag and ignore
        while rng.random() < fault:
            _fault_line(rng, lines, players, p, hands, table, legal, variant, odd,
                        ambiguous or (variant != "domino" and p in known))
        if mid_show and rng.random() < 0.05:
            q = rng.choice(players)
            if hands[q]:
                lines.append({"event": "show", "player": q,
                              "cards": [spell(c, rng, odd) for c in rng.sample(sorted(hands[q]), 1)]})
        if (early_end or cut) and rng.random() < 0.03:
            if cut:
                return "cut"
            lines.append({"event": "end"})
            break
        if variant == "domino":
            while not (hands[p] & legal) and stock:
                c = stock.pop()
                hands[p].add(c)
                seen = rng.random() < 0.6
                lines.append({"event": "draw", "player": p, **({"card": spell(c, rng, odd)} if seen else {})})
            if stock and hands[p] & legal and rng.random() < 0.03:  # a draw not needed: still allowed
                c = stock.pop()
                hands[p].add(c)
                lines.append({"event": "draw", "player": p})
        playable = sorted(hands[p] & legal)
        sevens = [c for c in playable if c[0] == "7"]
        withhold = playable and rng.random() < (ip_rate * (3 if sevens else 1))
        if playable and not withhold:
            c = rng.choice(playable)
            hands[p].discard(c)
            table.put(c)
            lines.append({"event": "play", "player": p, "card": spell(c, rng, odd)})
            if not hands[p]:
                winner = p
                break
        else:
            lines.append({"event": "pass", "player": p})
        turn = players[(players.index(p) + 1) % n]
    # after the last card: stray lines, shows, the end line
    if rng.random() < 0.15:
        q = rng.choice(players)
        lines.append(rng.choice([{"event": "pass", "player": q},
                                 {"event": "play", "player": q, "card": rng.choice(DECK)}]))
    show_mode = rng.random()
    for q in players:
        if q == winner or not hands[q]:
            continue
        if show_mode < 0.45:
            cards = sorted(hands[q])
        elif show_mode < 0.7:
            cards = [c for c in sorted(hands[q]) if rng.random() < 0.5]
        else:
            continue
        if cards:
            rng.shuffle(cards)
            lines.append({"event": "show", "player": q, "cards": [spell(c, rng, odd) for c in cards]})
    if winner is None and rng.random() < 0.3:
        return "cut" if rng.random() < 0.5 else "open"
    if rng.random() < 0.7:
        lines.append({"event": "end"})
    if rng.random() < 0.05:
        q = rng.choice(players)
        lines.append({"event": "pass", "player": q})
    return "done"


def _fault_line(rng, lines, players, p, hands, table, legal, variant, odd, elsewhere_ok) -> None:
    kind = rng.randrange(6)
    others = [q for q in players if q != p]
    if kind == 0 and others:  # out of turn: someone else plays a card they hold, or passes, or draws
        q = rng.choice(others)
        mine = sorted(hands[q] & legal) or sorted(hands[q]) or DECK
        ev = rng.choice(["play", "play", "pass"] + (["draw"] if variant == "domino" else []))
        if ev == "play":
            lines.append({"event": "play", "player": q, "card": spell(rng.choice(mine), rng, odd)})
        else:
            lines.append({"event": ev, "player": q})
    elif kind == 1:  # a stranger
        q = rng.choice(STRANGERS)
        ev = rng.choice(["play", "pass"])
        lines.append({"event": ev, "player": q, **({"card": rng.choice(DECK)} if ev == "play" else {})})
    elif kind == 2:  # an unreadable card code
        lines.append({"event": "play", "player": p, "card": rng.choice(BAD_CODES)})
    elif kind == 3:  # a card that does not fit the rows
        misfit = sorted(hands[p] - legal)
        if misfit:
            lines.append({"event": "play", "player": p, "card": spell(rng.choice(misfit), rng, odd)})
    elif kind == 4:  # a card already on the table
        if table.cards:
            lines.append({"event": "play", "player": p, "card": spell(rng.choice(sorted(table.cards)), rng, odd)})
    elif elsewhere_ok:  # a card that fits but is in someone else's hand
        elsewhere = sorted(c for c in legal if c not in hands[p] and any(c in hands[q] for q in others))
        if elsewhere:
            lines.append({"event": "play", "player": p, "card": spell(rng.choice(elsewhere), rng, odd)})


def dumps_record(lines: list[dict]) -> str:
    """The record as JSON Lines text."""
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)


if __name__ == "__main__":  # print one record: python record_fuzz.py SEED
    import sys
    sys.stdout.write(dumps_record(fuzz_record(int(sys.argv[1]) if len(sys.argv) > 1 else 0)))
