"""How well the camera counts the banker's cut: rendered pictures of face-down cards in fours.

Each picture is a random cut (18..52 cards) laid out in piles of four plus the remainder, with a
random deck's back (the artwork cache), table, stagger, camera tilt, light, blur and noise
(datasets/cut_scenes.py). Prints the exact-count rate, the rate of right winning numbers (the
proposal the banker confirms), the rate of right pile counts, a breakdown by how the piles were
spread, how the confidence separates right from wrong, and the time per picture.

    .venv/bin/python benchmarks/bench_cut_count.py               # 200 pictures, seed 2026
    .venv/bin/python benchmarks/bench_cut_count.py --seed 4049   # the second held-out seed
    .venv/bin/python benchmarks/bench_cut_count.py --n 50 --save-wrong /tmp/wrong

The counter's settings were tuned on seeds 7, 11 and 13 only; seeds 2026 (the default) and 4049
are held out, so a figure on them was not tuned to.
The set of decks is whatever `fantan dataset artwork` has cached: it is printed, so that a figure
can be matched to the decks it was measured on.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.cut_scenes import artwork_backs, make_cut_scene, plain_back, table_tiles  # noqa: E402
from scorekeeper.banking import is_fair_cut, winning_number  # noqa: E402
from vision.cut_count import count_cut  # noqa: E402

SURE = 0.8  # a confidence the page shows as "sure"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="pictures (default 200)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--artwork", type=Path, default=Path("data/artwork"))
    ap.add_argument("--save-wrong", type=Path, default=None, help="write miscounted pictures with their overlay here")
    args = ap.parse_args(argv)

    backs = artwork_backs(args.artwork)
    if not backs:
        print(f"no card backs under {args.artwork} (run `fantan dataset artwork`): using a drawn back")
        backs = {"plain": plain_back()}
    tiles = table_tiles()
    names = sorted(backs)
    print(f"decks ({len(names)}): {' '.join(names)}")
    print(f"table tiles from gimp-data: {len(tiles)}; pictures: {args.n}; seed {args.seed}")
    if args.save_wrong:
        args.save_wrong.mkdir(parents=True, exist_ok=True)

    exact = number = piles = 0
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_deck: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sure_right = sure_all = unsure_right = unsure_all = 0
    seconds: list[float] = []
    render_s: list[float] = []
    for i in range(args.n):
        rng = np.random.default_rng([args.seed, i])
        name = names[int(rng.integers(len(names)))]
        t0 = time.perf_counter()
        scene = make_cut_scene(rng, backs[name], tiles)
        render_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = count_cut(scene.image)
        seconds.append(time.perf_counter() - t0)
        right = result.count == scene.count
        proposal = winning_number(result.count) if is_fair_cut(result.count) else None
        exact += right
        number += proposal == winning_number(scene.count)
        piles += len(result.groups) == len(scene.groups)
        kind = scene.style["stagger"]
        by_kind[kind][0] += right
        by_kind[kind][1] += 1
        by_deck[name][0] += right
        by_deck[name][1] += 1
        if result.confidence >= SURE:
            sure_all += 1
            sure_right += right
        else:
            unsure_all += 1
            unsure_right += right
        if not right and args.save_wrong:
            cv2.imwrite(str(args.save_wrong / f"{i:04d}_{name}_{scene.count}_got{result.count}.jpg"), result.draw(scene.image))
    n = max(args.n, 1)
    print(f"exact count:             {exact}/{args.n} = {exact / n:.1%}")
    print(f"right winning number:    {number}/{args.n} = {number / n:.1%}")
    print(f"right number of piles:   {piles}/{args.n} = {piles / n:.1%}")
    for kind, (r, t) in sorted(by_kind.items()):
        print(f"  spread {kind:<9} exact {r}/{t} = {r / max(t, 1):.1%}")
    print(f"confidence >= {SURE}: {sure_all} pictures, exact {sure_right / max(sure_all, 1):.1%};"
          f" below: {unsure_all} pictures, exact {unsure_right / max(unsure_all, 1):.1%}")
    worst = sorted(by_deck.items(), key=lambda kv: kv[1][0] / kv[1][1])[:5]
    print("hardest decks: " + ", ".join(f"{d} {r}/{t}" for d, (r, t) in worst))
    print(f"time per picture (1280x720): median {np.median(seconds) * 1000:.0f} ms, "
          f"95th percentile {np.percentile(seconds, 95) * 1000:.0f} ms; rendering took median "
          f"{np.median(render_s) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
