"""`fantan settle NAME=CHIPS... [--json]`: who pays whom at the end of the night (spec/cli.md).

Balances are each player's net chips over the night (`Anna=12 Ben=-5 Cleo=-7`, signs optional
for winners, `0` allowed). They must sum to zero; anything unreadable exits 2 with one line on
stderr and prints nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

_BALANCE = re.compile(r"(?P<name>.+)=(?P<chips>[+-]?[0-9]+)")


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "settle",
        help="the fewest payments that square everyone's net chips",
        description="The fewest payments that square everyone's net chips over the night.",
    )
    parser.add_argument(
        "balances", nargs="+", metavar="NAME=CHIPS", help="a player's net chips, e.g. Ben=-5"
    )
    parser.add_argument("--json", action="store_true", help='print [{"from", "to", "chips"}, ...]')
    parser.add_argument(
        "--time-limit",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="most time to spend searching on a large table (default 0.8)",
    )
    parser.set_defaults(run=run)
    return parser


def parse_balances(words: list[str]) -> dict[str, int]:
    """NAME=CHIPS words -> {name: chips}; ValueError names the first word that is wrong."""
    balances: dict[str, int] = {}
    for word in words:
        found = _BALANCE.fullmatch(word)
        if not found or not found["name"].strip():
            raise ValueError(f"{word!r} is not NAME=CHIPS (a name, '=', a whole number like -5)")
        name = found["name"]
        if name in balances:
            raise ValueError(f"{name!r} is given twice; give each player's net chips once")
        balances[name] = int(found["chips"])
    return balances


def run(args: argparse.Namespace) -> int:
    from scorekeeper.settle import settle

    try:
        balances = parse_balances(args.balances)
        if not args.time_limit > 0:
            raise ValueError("--time-limit must be a positive number of seconds")
        settlement = settle(balances, time_limit=args.time_limit)
    except ValueError as exc:
        print(f"fantan settle: {exc}", file=sys.stderr)
        return 2

    if args.json:
        print(json.dumps([p.to_json() for p in settlement.payments], ensure_ascii=False))
        if not settlement.proven_minimal:
            print(
                f"fantan settle: {len(settlement.payments)} payments, not proven minimal "
                f"(at least {settlement.lower_bound} are needed)",
                file=sys.stderr,
            )
        return 0

    if not settlement.payments:
        print("Everyone is square: nobody pays anything.")
    width = max((len(p.src) for p in settlement.payments), default=0)
    for p in settlement.payments:
        print(f"{p.src:<{width}}  pays  {p.dst}  {p.chips} chip{'s' if p.chips != 1 else ''}")
    count = len(settlement.payments)
    if settlement.proven_minimal:
        print(f"{count} payment{'s' if count != 1 else ''}: proven the fewest possible.")
    else:
        print(
            f"{count} payments: not proven the fewest; at least {settlement.lower_bound} are "
            "needed (the search ran out of time)."
        )
    return 0
