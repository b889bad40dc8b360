"""How many random legal rounds the engine replays per second.

A replay pushes every event of a simulated one-round match through `Match` (what `fantan check`, the
dashboard and the property tests do) and asks for the verdict.  The rounds are simulated first, so
only the replay is timed.

    .venv/bin/python benchmarks/bench_replay.py [--rounds 2000] [--variant fan-tan] [--strategy random]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scorekeeper.match import replay  # noqa: E402
from scorekeeper.simulate import simulate_match  # noqa: E402
from scorekeeper.variants import Options, VARIANTS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per variant (default 2000)")
    parser.add_argument("--variant", action="append", help="variant(s) to time (default: all)")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--known-hands", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings (default 3)")
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    print(f"python {sys.version.split()[0]}, {args.rounds} rounds per variant, strategy {args.strategy}, "
          f"hands {'known' if args.known_hands else 'unknown'}, best of {args.repeat}")
    total_rounds = total_time = 0.0
    for variant in variants:
        players = 2 if variant == "domino" else 4
        records = [simulate_match(variant, players, seed, strategy=args.strategy, known_hands=args.known_hands,
                                  options=Options(hand_size=7) if variant == "domino" else Options())
                   for seed in range(args.rounds)]
        lines = sum(len(r) for r in records)
        best = best_wall = float("inf")
        for _ in range(args.repeat):
            c0, t0 = time.process_time(), time.perf_counter()
            for events in records:
                replay(events).verdict()
            best = min(best, time.process_time() - c0)
            best_wall = min(best_wall, time.perf_counter() - t0)
        total_rounds += len(records)
        total_time += best
        print(f"{variant:>11}: {len(records) / best:9.0f} rounds/s  {lines / best:10.0f} lines/s  "
              f"({lines / len(records):.0f} lines per round; wall clock {len(records) / best_wall:.0f} rounds/s)")
    print(f"{'all':>11}: {total_rounds / total_time:9.0f} rounds/s (per second of CPU time: the figure that "
          f"does not depend on what else the machine runs)")


if __name__ == "__main__":
    main()
