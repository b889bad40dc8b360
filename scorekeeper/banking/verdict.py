"""The verdict on a banking record: what `fantan check` prints for `variant: chinese-fan-tan`."""

from __future__ import annotations

from scorekeeper.banking.flags import Flag
from scorekeeper.banking.game import BankGame, Hand
from scorekeeper.banking.record import read_record
from scorekeeper.settle import settle


def _hand_json(hand: Hand) -> dict:
    p = hand.payout
    return {
        "hand": hand.number,
        "line": hand.line,
        "banker": hand.banker,
        "count": hand.count,
        "winning_number": hand.winning_number,
        "bank_before": p.bank_before,
        "payments": [step.to_json() for step in p.steps],
        "returned": [dict(b.to_json(), owed=b.winnings(p.winning_number)) for b in p.returned],
        "bank_after": p.bank_after,
        "bank_passed": hand.passed,
        "flags": [f.to_json() for f in hand.flags],
    }


def verdict(game: BankGame) -> dict:
    """The verdict JSON of the night so far (docs/BANKING.md describes every field)."""
    return {
        "variant": "chinese-fan-tan",
        "first_banker": {
            "banker": game.high_cut,
            "cuts": [{"line": c.line, "player": c.player, "card": c.card, "round": c.round} for c in game.cuts],
        },
        "banks": [
            {"banker": t.banker, "line": t.line, "chips": t.chips, "reserve": t.reserve,
             "hands": t.hands, "taken": t.taken, "end": t.end}
            for t in game.banks
        ],
        "hands": [_hand_json(h) for h in game.hands],
        "open_bets": [b.to_json() for b in game.bets],
        "flags": [f.to_json() for f in game.flags],
        "bank": {"banker": game.banker, "chips": game.bank, "next_banker": game.next_banker},
        "balances": game.balances,
        "settle_up": [p.to_json() for p in settle(game.balances).payments],
    }


def replay(text: str | bytes) -> BankGame:
    """The game after every line of a banking record (RecordError if it cannot be read)."""
    events = read_record(text)
    game = BankGame(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        game.push(event)
    return game


def check_record(text: str | bytes) -> dict:
    """The verdict of a banking record; raises RecordError for an unreadable one."""
    return verdict(replay(text))


def format_verdict(v: dict) -> str:
    """The verdict as readable lines in record order: banks, hands with their payments in pay order,
    flags where they happened, then the balances and the settle-up command."""
    items: list[tuple[int, int, list[str]]] = []  # (line, order, text lines)
    fb = v["first_banker"]
    if fb["cuts"]:
        cuts = ", ".join(f"{c['player']} {c['card']}" for c in fb["cuts"])
        items.append((fb["cuts"][-1]["line"], 0, [f"Cut for the bank: {cuts} -> {fb['banker'] or 'undecided'}"]))
    for b in v["banks"]:
        reserve = f", {b['reserve']} set aside" if b["reserve"] is not None else ""
        items.append((b["line"], 0, [f"line {b['line']}: {b['banker']} opens a bank of {b['chips']}{reserve}"]))
    for h in v["hands"]:
        how = f"{h['count']} cards cut" if h["count"] is not None else "number entered"
        text = [f"Hand {h['hand']} (line {h['line']}, banker {h['banker']}): {how}, {h['winning_number']} wins;"
                f" bank {h['bank_before']} -> {h['bank_after']}"]
        for p in h["payments"]:
            what = {"lost": "loses", "won": "is paid", "short": "gets the bank's last"}[p["reason"]]
            tail = f" of {p['owed']} owed" if p["reason"] == "short" else ""
            text.append(f"  {p['player']} {what} {p['chips']}{tail} (bet of {p['stake']} on {p['spot']},"
                        f" line {p['line']})")
        for r in h["returned"]:
            text.append(f"  {r['player']}'s bet of {r['chips']} on {r['spot']} is returned unpaid (bank empty)")
        if h["bank_passed"] == "emptied":
            text.append("  the bank is empty: bank and deal pass at once")
        elif h["bank_passed"] == "hands":
            text.append(f"  {h['banker']} takes the bank; bank and deal pass to the left")
        items.append((h["line"], 1, text))
    for f in v["flags"]:
        items.append((f["line"], 0, [f"line {f['line']}: {Flag(**f).explain()}"]))
    out = [text for _, _, lines in sorted(items, key=lambda i: i[:2]) for text in lines]
    for b in v["open_bets"]:
        out.append(f"Still on the layout: {b['player']} {b['chips']} on {b['spot']} (line {b['line']})")
    bank = v["bank"]
    if bank["banker"]:
        out.append(f"Bank now: {bank['banker']} holds {bank['chips']}")
    elif bank["next_banker"]:
        out.append(f"Next to open a bank: {bank['next_banker']}")
    bal = v["balances"]
    width = max(len(p) for p in bal)
    out.append("Balances (the bank back to its banker):")
    out.extend(f"  {p:<{width}} {n:+d}" for p, n in bal.items())
    if v["settle_up"]:
        out.append("Settle up: " + "; ".join(f"{p['from']} pays {p['to']} {p['chips']}" for p in v["settle_up"]))
    else:
        out.append("Settle up: nobody owes anything")
    return "\n".join(out) + "\n"
