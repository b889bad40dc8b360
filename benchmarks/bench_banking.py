"""How fast the banking engine replays a long night (prints figures; not a test).

    .venv/bin/python benchmarks/bench_banking.py [--hands 20000]
"""

from __future__ import annotations

import argparse
import time

from scorekeeper.banking import BankGame, Limits, check_record, write_record
from scorekeeper.banking.simulate import simulate_session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    args = parser.parse_args()
    events = simulate_session(("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"), seed=1, hands=args.hands,
                              limits=Limits(1, 25), hands_per_bank=4, mischief=0.05)
    text = write_record(events)
    t0 = time.perf_counter()
    g = BankGame(events[0])
    for e in events[1:]:
        g.push(e)
    t1 = time.perf_counter()
    verdict = check_record(text)
    t2 = time.perf_counter()
    lines = len(events)
    print(f"{args.hands} hands, {lines} lines, {len(g.flags)} flags, {len(g.banks)} banks")
    print(f"push: {lines / (t1 - t0):,.0f} lines/s ({(t1 - t0) * 1e6 / lines:.1f} us a line)")
    print(f"check_record (read + replay + verdict + settle-up): {t2 - t1:.2f} s")
    print(f"conserved: {sum(verdict['balances'].values()) == 0}")


if __name__ == "__main__":
    main()
