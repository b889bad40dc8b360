"""How long the end-of-night settle-up takes, and how often its answer is proven the fewest.

    .venv/bin/python benchmarks/bench_settle.py [--trials 7] [--seed 1]

For each table size, random nights: every player's net chips drawn uniformly from -S..S, one
player's adjusted so the night sums to zero. Two spreads: S=100 (a club night in small chips)
and S=100000 (large, all different amounts: few players cancel out, the hard case). Prints the
median and worst wall time of `settle` (after one warm-up call that imports numpy), the median CPU
time of this process (the wall time grows when the machine is shared), how many of the trials were
proven minimal, and the median number of payments against n - 1.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from scorekeeper.settle import settle


def random_night(players: int, spread: int, rnd: random.Random) -> dict[str, int]:
    chips = [rnd.randint(-spread, spread) for _ in range(players - 1)]
    chips.append(-sum(chips))
    return {f"P{i:02d}": c for i, c in enumerate(chips)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="8,12,20,30,40")
    parser.add_argument("--spreads", default="100,100000")
    args = parser.parse_args()

    settle({"warm": 1, "up": -1})  # import numpy once, outside the timings
    settle(random_night(20, 100, random.Random(0)))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'players':>7} {'spread':>7} {'median s':>9} {'worst s':>8} {'cpu s':>6} {'proven':>7} {'payments':>9} {'n-1':>4}")
    for spread in (int(s) for s in args.spreads.split(",")):
        for players in (int(n) for n in args.sizes.split(",")):
            rnd = random.Random(f"{args.seed}-{players}-{spread}")
            times, cpu, proven, counts = [], [], 0, []
            for _ in range(args.trials):
                night = random_night(players, spread, rnd)
                start, start_cpu = time.perf_counter(), time.process_time()
                result = settle(night)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                proven += result.proven_minimal
                counts.append(len(result.payments))
            print(
                f"{players:>7} {spread:>7} {statistics.median(times):>9.3f} {max(times):>8.3f} "
                f"{statistics.median(cpu):>6.3f} "
                f"{proven:>3}/{args.trials:<3} {statistics.median(counts):>9.0f} {players - 1:>4}",
                flush=True,
            )


if __name__ == "__main__":
    main()
