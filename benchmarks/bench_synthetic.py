"""The recognizer on rendered scenes of deck designs it never trained on, by kind of scene.

This is the set to tune the recognizer on (thresholds, merging, the scale pyramid): the real
photographs (bench_real.py) only measure, and the figure that counts is a deck nobody here has seen.
Scenes come from the same generator as the training data (datasets/make.py) but with the held-out
deck designs (artwork split "val") and a seed no training set used, one fixed kind per group:

- table: a Fan Tan layout in play seen by a webcam; hands: hands laid down at the end of a round;
  rows: rows only; scatter: cards anywhere; closeup: one to three cards filling a phone photo.

A card is *there* when one of its corner indices is at least ``scene.MIN_VISIBLE`` visible (what the
training labels call readable); a card with an index only partly hidden (>= 25 % visible) may be
named or not without counting either way. Per picture: precision, recall, F1 of the set of cards
named, and whether any card named is not on the picture at all ("wrong card"). Close-ups also give
top-1: the most confident card is one that is there.

    python benchmarks/bench_synthetic.py                     # 30 scenes per kind, seed 9001
    python benchmarks/bench_synthetic.py --models /tmp/m --models models   # side by side
    python benchmarks/bench_synthetic.py --option containment=0 --option size_gate=0  # ablations

Pictures are rendered once into --cache (git-ignored data/) and reused.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KINDS = ("table", "hands", "rows", "scatter", "closeup")
MAYBE_VISIBLE = 0.25


def render_set(cache: Path, artwork: Path, seed: int, per_kind: int, kinds: tuple[str, ...]) -> list[dict]:
    """Render (or reuse) the scenes; returns [{path, kind, there, maybe}] ."""
    from datasets.make import _kit, make_scene
    from datasets.scene import MIN_VISIBLE

    cache.mkdir(parents=True, exist_ok=True)
    items = []
    todo = [(kind, i) for kind in kinds for i in range(per_kind)]
    for n, (kind, i) in enumerate(todo):
        stem = f"{seed}_{kind}_{i:03d}"
        img_path, truth_path = cache / f"{stem}.jpg", cache / f"{stem}.json"
        if not (img_path.exists() and truth_path.exists()):
            rng = np.random.default_rng([seed, KINDS.index(kind), i])
            scene, info = make_scene(rng, _kit(str(artwork), "val"), kind=kind)
            there = sorted({c.code for c in scene.cards if c.face_up
                            and any(x.visibility >= MIN_VISIBLE for x in c.indices)})
            maybe = sorted({c.code for c in scene.cards if c.face_up
                            and any(x.visibility >= MAYBE_VISIBLE for x in c.indices)} - set(there))
            q = int(rng.integers(45, 96))  # the camera's own JPEG, as in the training pictures
            cv2.imwrite(str(img_path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, q])
            truth_path.write_text(json.dumps({"kind": kind, "there": there, "maybe": maybe, "deck": info["deck"],
                                              "size": info["size"]}))
            print(f"\rrendered {n + 1}/{len(todo)}", end="", file=sys.stderr)
        items.append({"path": img_path, **json.loads(truth_path.read_text())})
    print(file=sys.stderr)
    return items


def measure(detector, items: list[dict]) -> dict:
    by_kind: dict[str, dict[str, list[float]]] = {}
    seconds = []
    for item in items:
        image = cv2.imread(str(item["path"]))
        t = time.perf_counter()
        found = detector.detect(image)
        seconds.append(time.perf_counter() - t)
        there, maybe = set(item["there"]), set(item["maybe"])
        named = {d.card for d in found} - maybe
        tp = len(named & there)
        p = tp / len(named) if named else 1.0
        r = tp / len(there) if there else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        k = by_kind.setdefault(item["kind"], {"p": [], "r": [], "f1": [], "wrong": [], "top1": []})
        k["p"].append(p)
        k["r"].append(r)
        k["f1"].append(f)
        k["wrong"].append(float(bool(named - there)))
        if item["kind"] == "closeup":
            k["top1"].append(float(bool(found) and found[0].card in there))
    out = {kind: {m: statistics.mean(v) for m, v in vals.items() if v} for kind, vals in by_kind.items()}
    out["_ms_median"] = 1000 * statistics.median(seconds)
    return out


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, action="append", help="model folder (repeat to compare; default models/)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a CardDetector keyword for an extra, changed configuration (repeat; JSON values)")
    ap.add_argument("--scenes", type=int, default=30, help="scenes per kind")
    ap.add_argument("--seed", type=int, default=9001, help="render seed (training sets used 1-3)")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--artwork", type=Path, default=ROOT / "data" / "artwork")
    ap.add_argument("--cache", type=Path, default=ROOT / "data" / "bench_synthetic")
    a = ap.parse_args(argv)

    from vision.detector import CardDetector

    kinds = tuple(k for k in a.kinds.split(",") if k)
    items = render_set(a.cache, a.artwork, a.seed, a.scenes, kinds)
    configs = [(str(m), m, {}) for m in (a.models or [ROOT / "models"])]
    if a.option:
        options = dict(_option(o) for o in a.option)
        configs.append((f"{configs[0][0]} {options}", configs[0][1], options))
    print(f"{len(items)} scenes of held-out decks, seed {a.seed}, {a.scenes} per kind")
    print(f"{'configuration':<48} {'kind':<8} {'P':>6} {'R':>6} {'F1':>6} {'wrong':>6} {'top1':>6}")
    for name, models, options in configs:
        figures = measure(CardDetector(models, **options), items)
        for kind in kinds:
            f = figures[kind]
            top1 = f"{f['top1']:.3f}" if "top1" in f else ""
            print(f"{name[-48:]:<48} {kind:<8} {f['p']:6.3f} {f['r']:6.3f} {f['f1']:6.3f} {f['wrong']:6.3f} {top1:>6}")
        print(f"{name[-48:]:<48} median {figures['_ms_median']:.0f} ms per picture")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
