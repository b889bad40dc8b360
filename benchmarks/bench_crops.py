"""The classifier alone on a dataset's val crops: top-1 for far tables, other scenes and `none`.

`fantan dataset make --far SHARE` makes some scenes far tables (small cards at 1280x720); the crops
do not say which scene kind they come from, but a scene's kind is the first draw of its own random
stream (`datasets.make.is_far_scene`), so it is drawn again here from the crop's file name
(`s<seed>_<scene>_<k>.jpg`, also under the prefixes `vision.training.mixed_classify` adds).

    python benchmarks/bench_crops.py data/mixed_classify/v4run/val --far 0.5 --models /tmp/prev --models models

Several `--models` are measured on the same crops, side by side.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAME = re.compile(r"(?:^|_)s(\d+)_(\d+)_\d+\.jpg$")


def scene_of(name: str) -> tuple[int, int] | None:
    m = NAME.search(name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def kind_of(name: str, truth: str, far: float) -> str:
    if truth == "none":
        return "none"
    from datasets.make import is_far_scene

    scene = scene_of(name)
    return "far" if scene is not None and is_far_scene(*scene, far) else "other"


def main(argv: list[str] | None = None) -> int:
    from vision.detector import CardDetector

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("val", type=Path, help="a classify split folder: <card>/*.jpg (and none/)")
    ap.add_argument("--far", type=float, default=0.5, help="the --far share the dataset was made with")
    ap.add_argument("--models", type=Path, action="append", help="model folder (repeat to compare; default models/)")
    a = ap.parse_args(argv)
    if not a.val.is_dir():
        print(f"bench_crops: no such folder: {a.val}", file=sys.stderr)
        return 2
    items = [(f, d.name) for d in sorted(a.val.iterdir()) if d.is_dir() for f in sorted(d.iterdir())]
    kinds = [kind_of(f.name, truth, a.far) for f, truth in items]
    print(f"{len(items)} crops: " + ", ".join(f"{k} {v}" for k, v in sorted(collections.Counter(kinds).items())))
    for folder in a.models or [ROOT / "models"]:
        det = CardDetector(folder, threads=2)
        name = det.classifier.get_inputs()[0].name
        tally: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        for k in range(0, len(items), 256):
            chunk = items[k:k + 256]
            x = np.stack([cv2.imread(str(f))[..., ::-1] for f, _ in chunk]).transpose(0, 3, 1, 2)
            probs = det.classifier.run(None, {name: np.ascontiguousarray(x, dtype=np.float32) / 255.0})[0]
            for (_f, truth), kind, row in zip(chunk, kinds[k:k + 256], probs):
                tally[kind][0] += det.cards[int(row.argmax())] == truth
                tally[kind][1] += 1
        ok, n = sum(v[0] for v in tally.values()), sum(v[1] for v in tally.values())
        print(f"{folder}: top-1 " + ", ".join(f"{k} {v[0]}/{v[1]} = {v[0] / v[1]:.3f}" for k, v in sorted(tally.items()))
              + f"; all {ok / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
