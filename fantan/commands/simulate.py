"""`fantan simulate`: play random matches with simple players and write their game records.

    fantan simulate --variant sjuan --players 4 --seed 7 --target 100 --strategy random,greedy,cheater,random
    fantan simulate --variant domino --players 2 --hand-size 7 --stakes chips --count 50 --out-dir recs/

One record goes to stdout (or ``--out FILE``); ``--count N`` records (seeds SEED .. SEED+N-1) need
``--out-dir`` and are written there as ``<variant>-<seed>.jsonl``.  Every record is valid per
record-format.md and `fantan check` replays it.
"""

from __future__ import annotations

import argparse
import os
import sys


def add_parser(subparsers) -> argparse.ArgumentParser:
    from scorekeeper.simulate import STRATEGIES
    from scorekeeper.variants import VARIANTS

    parser = subparsers.add_parser(
        "simulate", help="play random matches and write their game records",
        description="Play random matches with simple player strategies and write their game records (JSONL).")
    parser.add_argument("--variant", default="fan-tan", choices=list(VARIANTS), help="preset (default fan-tan)")
    parser.add_argument("--players", default=None,
                        help="a number of players (2-8) or comma-separated names (default 4; domino 2)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds to play (default 1 unless --target is given or the variant has a target)")
    parser.add_argument("--target", type=int, default=None, help="play until a points total reaches this")
    parser.add_argument("--stakes", default="points", choices=["points", "chips"])
    parser.add_argument("--known-hands", action="store_true", help="write the dealt hands on each round line")
    parser.add_argument("--strategy", default="random",
                        help=f"one of {', '.join(STRATEGIES)}, or one per player separated by commas")
    parser.add_argument("--ace-high", action="store_true", help="the ace sits above the king")
    parser.add_argument("--hand-size", type=int, default=None, help="domino: cards dealt to each player")
    parser.add_argument("--count", type=int, default=1, help="how many matches (seeds SEED, SEED+1, ...)")
    parser.add_argument("--out", default=None, help="write the record to this file instead of stdout")
    parser.add_argument("--out-dir", default=None, help="write each record to DIR/<variant>-<seed>.jsonl")
    parser.set_defaults(run=run)
    return parser


def _fail(message: str) -> int:
    print(f"fantan simulate: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from scorekeeper.record import RecordError, check_match_start, write_record
    from scorekeeper.simulate import player_names, simulate_match
    from scorekeeper.events import MatchStart
    from scorekeeper.variants import Options, find_variant

    try:
        if args.players is None:
            players = player_names(find_variant(args.variant).default_players)
        elif args.players.strip().isdigit():
            players = player_names(int(args.players))
        else:
            players = tuple(p.strip() for p in args.players.split(","))
        strategy = args.strategy.split(",") if "," in args.strategy else args.strategy
        if args.count < 1:
            raise ValueError("--count must be at least 1")
        if args.count > 1 and not args.out_dir:
            raise ValueError("--count above 1 needs --out-dir (one record per file)")
        if args.out and args.out_dir:
            raise ValueError("give --out or --out-dir, not both")
        options = Options(ace_high=args.ace_high, hand_size=args.hand_size)
        rounds = args.rounds
        if rounds is None and args.target is None and find_variant(args.variant).default_target is None:
            rounds = 1
        check_match_start(MatchStart(args.variant, players, args.stakes, rounds, args.target, options))
    except (ValueError, RecordError) as exc:
        return _fail(str(exc).removeprefix("line 1: "))

    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    for k in range(args.count):
        seed = args.seed + k
        try:
            events = simulate_match(args.variant, players, seed, stakes=args.stakes, rounds=rounds,
                                    target=args.target, options=options, strategy=strategy,
                                    known_hands=args.known_hands)
        except ValueError as exc:
            return _fail(str(exc))
        text = write_record(events)
        if args.out_dir:
            path = os.path.join(args.out_dir, f"{args.variant}-{seed}.jsonl")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        elif args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)
    return 0
