"""`fantan check RECORD [--json]`: replay a game record and print its verdict (spec: cli.md).

Exit 0 for a readable record (flags are findings, not errors), 2 for an unreadable one, with one line
on stderr naming the line and the problem and nothing on stdout.  Records of the Chinese banking game
(`variant: chinese-fan-tan`) are judged by `scorekeeper.banking`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional

BANKING_VARIANT = "chinese-fan-tan"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "check", help="replay a game record and print its verdict",
        description="Replay a game record (JSON Lines) and print its verdict: winners, points, chips, flags.")
    parser.add_argument("record", metavar="RECORD", help="the game record (.jsonl); '-' reads stdin")
    parser.add_argument("--json", action="store_true", help="print the verdict as the spec's JSON object")
    parser.set_defaults(run=run)
    return parser


def _fail(path: str, message: str) -> int:
    print(f"fantan check: {path}: {message}".replace("\n", " "), file=sys.stderr)
    return 2


def _first_variant(data: bytes) -> Optional[str]:
    """The match line's variant, if the first line is readable enough to say (for dispatch only)."""
    first = data.split(b"\n", 1)[0].rstrip(b"\r")
    try:
        obj = json.loads(first.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(obj, dict) and obj.get("event") == "match" and isinstance(obj.get("variant"), str):
        return obj["variant"]
    return None


def run(args: argparse.Namespace) -> int:
    from scorekeeper.match import replay
    from scorekeeper.record import RecordError, read_record

    path = args.record
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        return _fail(path, f"cannot read the record ({exc.strerror or exc})")

    if _first_variant(data) == BANKING_VARIANT:
        return _run_banking(path, data, args.json)

    try:
        match = replay(read_record(data))
    except RecordError as exc:
        return _fail(path, str(exc))
    verdict = match.verdict()
    if args.json:
        sys.stdout.write(json.dumps(verdict, indent=1) + "\n")
    else:
        sys.stdout.write(format_verdict(match))
    return 0


def _run_banking(path: str, data: bytes, as_json: bool) -> int:
    from scorekeeper.record import RecordError

    try:
        from scorekeeper.banking import check_record, format_verdict as format_bank
    except ImportError as exc:  # the banking package is another engineer's; say so plainly
        return _fail(path, f"line 1: the chinese-fan-tan variant is not available ({exc})")
    try:
        verdict = check_record(data)
    except RecordError as exc:
        return _fail(path, str(exc))
    except ValueError as exc:  # a banking reader that raises its own error type
        line = getattr(exc, "line", None)
        return _fail(path, f"line {line}: {exc}" if line and not str(exc).startswith("line ") else str(exc))
    if as_json:
        sys.stdout.write(json.dumps(verdict, indent=1) + "\n")
    else:
        text = format_bank(verdict)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def format_verdict(match) -> str:
    """The verdict as a table for people: each round, its flags in words, totals, the winner."""
    start = match.start
    chips = match.stakes == "chips"
    players = list(match.players)
    width = max(8, max(len(p) for p in players) + 2)
    out: list[str] = []
    ends = []
    if match.rounds_to_play is not None:
        ends.append(f"after {match.rounds_to_play} won round{'s' if match.rounds_to_play != 1 else ''}")
    if match.target is not None:
        ends.append(f"{'' if ends else 'when '}a points total reaches {match.target}")
    opts = []
    if start.options.ace_high:
        opts.append("ace high")
    if start.options.hand_size:
        opts.append(f"hand size {start.options.hand_size}")
    out.append(f"{match.variant.title} - {len(players)} players: {', '.join(players)}; "
               f"stakes {match.stakes}; ends {' or when '.join(ends) if ends else 'never by itself'}"
               + (f"; {', '.join(opts)}" if opts else ""))
    results = match.rounds
    if not results:
        out.append("No round played yet.")
    for number, res in enumerate(results, start=1):
        out.append("")
        who = f"won by {res.winner}" if res.winner else "no winner (not counted)"
        out.append(f"Round {number} (line {res.line}, dealer {res.dealer}): {who}")
        header = f"  {'player':<{width}}{'passes':>8}{'cards left':>12}{'points':>8}"
        if chips:
            header += f"{'chips':>8}"
        out.append(header)
        for p in players:
            row = f"  {p:<{width}}{res.passes[p]:>8}{res.cards_left[p]:>12}{res.points[p]:>8}"
            if chips:
                row += f"{res.chips[p]:>+8d}"
            out.append(row)
        if chips:
            from scorekeeper.ledger import POT, pot_after
            taken = [t for t in res.transfers if t.src == POT]
            if taken:
                out.append(f"  pot {taken[0].chips} taken by {taken[0].dst}")
            else:
                out.append(f"  pot {pot_after(res.transfers)} left on the table")
            for t in res.transfers:
                if t.reason == "seven rule":
                    out.append(f"  seven rule: {t.src} pays {t.chips} to {t.dst} (line {t.line})")
        if res.flags:
            out.append("  flags:")
            for f in res.flags:
                out.append(f"    {f.explain()}")
    out.append("")
    totals = match.totals
    out.append(("Totals (chips): " if chips else "Totals (points): ")
               + ", ".join(f"{p} {totals[p]:+d}" if chips else f"{p} {totals[p]}" for p in players))
    winner = match.verdict()["match_winner"]
    if winner:
        out.append(f"Match winner: {winner}")
    elif match.is_decided(record_complete=True):
        out.append("Match over, tied: no single winner.")
    else:
        out.append("The match is not over.")
    return "\n".join(out) + "\n"
