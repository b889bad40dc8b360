"""`fantan bank`: Chinese Fan-Tan, the banking game (docs/BANKING.md).

  fantan bank simulate [--seed S] [--hands N] [--players A,B,C] [--min 1] [--max 10]
                       [--hands-per-bank 3] [--mischief 0.05] [--out FILE]
      write a random night's record (stdout unless --out)
  fantan bank check RECORD [--json]
      replay a banking record and print its verdict (what `fantan check` does for this variant);
      exit 0 when readable, 2 with one line on stderr when not
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("bank", help="Chinese Fan-Tan, the banking game: simulate or check a night",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="bank_command", metavar="ACTION")
    sim = sub.add_parser("simulate", help="write a random night's record")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--hands", type=int, default=20, help="settled hands in the night (default 20)")
    sim.add_argument("--players", default="Anna,Ben,Cleo,Dan", help="names in clockwise order")
    sim.add_argument("--min", type=int, default=1, help="smallest bet (default 1)")
    sim.add_argument("--max", type=int, default=10, help="largest bet (default 10)")
    sim.add_argument("--hands-per-bank", type=int, default=3)
    sim.add_argument("--mischief", type=float, default=0.05, help="share of faulty lines (default 0.05)")
    sim.add_argument("--out", type=Path, help="write the record here instead of stdout")
    chk = sub.add_parser("check", help="replay a banking record and print its verdict")
    chk.add_argument("record", type=Path)
    chk.add_argument("--json", action="store_true", help="the verdict as JSON")
    parser.set_defaults(run=run, bank_parser=parser)


def run(args) -> int:
    if args.bank_command == "simulate":
        return _simulate(args)
    if args.bank_command == "check":
        return _check(args)
    args.bank_parser.print_help()
    return 2


def _simulate(args) -> int:
    from scorekeeper.banking import BankMatch, Limits, write_record
    from scorekeeper.banking.simulate import simulate_session

    players = tuple(p.strip() for p in args.players.split(","))
    try:
        BankMatch(players, args.hands_per_bank, Limits(args.min, args.max))
        if args.hands < 0 or not 0 <= args.mischief <= 1:
            raise ValueError("--hands must be >= 0 and --mischief between 0 and 1")
    except ValueError as exc:
        print(f"fantan bank simulate: {exc}", file=sys.stderr)
        return 2
    events = simulate_session(players, args.seed, args.hands, Limits(args.min, args.max),
                              args.hands_per_bank, args.mischief)
    text = write_record(events)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _check(args) -> int:
    from scorekeeper.banking import RecordError, check_record, format_verdict

    try:
        data = args.record.read_bytes()
    except OSError as exc:
        print(f"fantan bank check: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        verdict = check_record(data)
    except RecordError as exc:
        print(f"{args.record}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(verdict, indent=1, ensure_ascii=False))
    else:
        sys.stdout.write(format_verdict(verdict))
    return 0
