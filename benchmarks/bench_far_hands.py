"""The hands laid down at the end of a round, read by the closer look with and without its second look
at the frame's far side (`CardDetector.far_side`), side by side on the same frames.

For each benchmark round (the rounds of bench_watch.py: same numbers, same seeds, layouts, variants and
table sizes) the round is filmed as bench_watch films it and its last frame is kept: every hand still
held lies there, laid down in front of its seat. Both looks read that frame; printed per round and in
all: the hand cards read (anywhere in the frame: the rows hold other cards), the cards read that are
nowhere on the table, and the time each look took. One frame per round: the watcher looks at a
hand's cards for about twenty frames, so this is a floor, not what the record gets.

    python benchmarks/bench_far_hands.py --deck photo --start 190 --rounds 12
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_watch import round_plan  # noqa: E402
from datasets.game_video import load_deck, render_night  # noqa: E402
from scorekeeper.record import write_record  # noqa: E402
from scorekeeper.simulate import simulate_match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="photo", help="drawn, photo, or an artwork deck name (as bench_watch.py)")
    ap.add_argument("--start", type=int, default=190)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--only", type=int, nargs="*", help="only these round numbers")
    ap.add_argument("--models", type=Path, default=None, help="model folder (default: the shipped models/)")
    args = ap.parse_args(argv)

    from vision.detector import CardDetector

    looks = {"whole frame": CardDetector(args.models, watching=True, far_side=None),
             "and far side": CardDetector(args.models, watching=True)}
    deck = load_deck(args.deck)
    totals = {name: [0, 0, 0, 0.0] for name in looks}
    for i in range(args.start, args.start + args.rounds):
        if args.only and i not in args.only:
            continue
        plan = round_plan(i)
        events = simulate_match(plan["variant"], plan["players"], seed=plan["seed"], known_hands=True,
                                strategy=plan["strategy"], rounds=1)
        record = [json.loads(line) for line in write_record(events).splitlines()]
        held = [c for e in record if e.get("event") == "show" for c in e["cards"]]
        if not held:
            continue
        played = {e["card"] for e in record if e.get("event") == "play"}
        last = None
        for last in render_night(record, plan["layout"], plan["seed"], deck=deck).frames:
            pass
        parts = [f"{args.deck} {i} {plan['layout']:6s} {len(held):2d} hand cards:"]
        for name, detector in looks.items():
            t = time.perf_counter()
            read = {d.card for d in detector.detect_closely(last.image)}
            took = time.perf_counter() - t
            missed = sorted(set(held) - read)
            nowhere = sorted(read - played - set(held))
            total = totals[name]
            total[0] += len(held) - len(missed)
            total[1] += len(held)
            total[2] += len(nowhere)
            total[3] += took
            parts.append(f"{name}: {len(held) - len(missed)} (missed {' '.join(missed) or '-'}; "
                         f"not there {' '.join(nowhere) or '-'}) {took * 1000:.0f} ms")
        print(" | ".join(parts), flush=True)
    for name, (found, n, nowhere, took) in totals.items():
        print(f"closer look, {name}: hand cards read {found}/{n}, cards read that are not on the table "
              f"{nowhere}, {took:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
