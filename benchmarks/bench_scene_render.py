"""How fast the synthetic table scenes render (target: under 0.2 s a 1280x720 scene on one core).

    .venv/bin/python benchmarks/bench_scene_render.py [--scenes 40] [--artwork data/artwork]

Prints the median and 90th percentile per scene kind, in wall time and in CPU time of this process
(on a shared, busy machine the CPU time is the fairer figure), and how the time splits between the
table texture, the card rendering and the camera effects. Needs the artwork cache
(`fantan dataset artwork`).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

cv2.setNumThreads(1)

from datasets import make, scene  # noqa: E402
from datasets.make import KINDS, _kit, make_scene  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=40, help="scenes per kind")
    ap.add_argument("--artwork", default="data/artwork")
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args()
    W, H = (int(v) for v in args.size.split("x"))
    kit = _kit(args.artwork, "train")
    # warm up: read every deck's card images once, as a long run does
    for d in kit.decks.values():
        for code in d.index:
            d.images[code]
    stage: dict[str, list[float]] = defaultdict(list)

    def timed(name, fn):
        def wrapper(*a, **k):
            t = time.process_time()
            r = fn(*a, **k)
            stage[name].append(time.process_time() - t)
            return r

        return wrapper

    make.render = timed("cards (render)", scene.render)
    make.camera_effects = timed("camera effects", scene.camera_effects)
    make.table_texture = timed("table texture", make.table_texture)
    print(f"{W}x{H}, one thread, {args.scenes} scenes per kind")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    allt, allc = [], []
    for kind, _ in KINDS:
        ts, cs, n_cards = [], [], []
        for i in range(args.scenes):
            t, c = time.perf_counter(), time.process_time()
            sc, info = make_scene(np.random.default_rng([99, i]), kit, size=(W, H), kind=kind)
            ts.append(time.perf_counter() - t)
            cs.append(time.process_time() - c)
            n_cards.append(info["cards"])
        allt += ts
        allc += cs
        print(f"  {kind:8s} wall median {np.median(ts):.3f} s p90 {np.percentile(ts, 90):.3f} s | "
              f"cpu median {np.median(cs):.3f} s p90 {np.percentile(cs, 90):.3f} s  ({np.mean(n_cards):.0f} cards)")
    print(f"  all      wall median {np.median(allt):.3f} s p90 {np.percentile(allt, 90):.3f} s | "
          f"cpu median {np.median(allc):.3f} s p90 {np.percentile(allc, 90):.3f} s")
    for name, v in stage.items():
        print(f"  stage {name:16s} cpu median {np.median(v) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
