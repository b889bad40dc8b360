"""How well the recognizer names the corner indices of a game in play, by the index's size.

The watcher's misreadings come mostly from small far indices (docs/CAMERA.md, session 14: six read
as eight, five as six, ten as queen on kennard_4color). This benchmark films benchmark rounds as
`bench_watch.py` does (`datasets.game_video.render_night`, 1280x720, the round's own seed), looks at
every `--step`-th frame without an arm over the table, and matches each index the detector finds to
the nearest corner index of a card the renderer put there (where the deck's `deck.json` says its
indices lie, on two corners or four; within 0.15 of a card's width of the
index's centre; finds farther off, on pips or court art, are not counted). Per width of the found
box in frame pixels: how many indices were named right by the classifier's first reading (a
`none` reading counts as not named right), and which cards were taken for which.

    python benchmarks/bench_index_sizes.py --deck kennard_4color --rounds 63 64 65
    python benchmarks/bench_index_sizes.py --deck dondorf --rounds 0 1 2 --models /tmp/new --models models

Several `--models` are measured on the same frames, side by side (the machine is shared and noisy;
this counts, it does not time).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

WIDTHS = (0, 6, 8, 10, 13, 17, 1000)  # bucket edges, frame pixels of the found index's box width
CORNER = (12.0, 24.0)  # without deck.json (photo, drawn): an index's centre in card pixels (90x126)


def corner_centres(deck: str, artwork: Path = ROOT / "data" / "artwork") -> dict[str, list[tuple[float, float]]]:
    """Each card's corner index centres in the renderer's card pixels: from the deck's deck.json
    (`fantan dataset artwork`: the top-left index box, and how many corners carry one), else CORNER."""
    from datasets.artwork import CODES
    from datasets.game_video import CARD_H, CARD_W

    info_path = artwork / deck / "deck.json"
    out = {}
    info = json.loads(info_path.read_text()) if info_path.exists() else None
    for code in CODES:
        if info and code in info.get("index", {}):
            w, h = info["size"][code]
            x0, y0, x1, y1 = info["index"][code]
            cx, cy = (x0 + x1) / 2 * CARD_W / w, (y0 + y1) / 2 * CARD_H / h
            four = info.get("corners", 2) == 4
        else:
            (cx, cy), four = CORNER, False
        pts = [(cx, cy), (CARD_W - cx, CARD_H - cy)]
        if four:
            pts += [(CARD_W - cx, cy), (cx, CARD_H - cy)]
        out[code] = pts
    return out


def index_centres(card, centres: dict[str, list[tuple[float, float]]]) -> list[np.ndarray]:
    """The picture points of a rendered card's corner indices."""
    from datasets.game_video import CARD_H, CARD_W

    rect = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    warp = cv2.getPerspectiveTransform(rect, np.float32(card.corners))
    pts = np.float32(centres[card.card]).reshape(-1, 1, 2)
    return list(cv2.perspectiveTransform(pts, warp).reshape(-1, 2))


def frames(deck: str, rounds: list[int], step: int):
    """(round, frame) of every `step`-th uncovered frame of the benchmark rounds."""
    from bench_watch import round_plan
    from datasets.game_video import load_deck, render_night
    from scorekeeper.record import write_record
    from scorekeeper.simulate import simulate_match

    art = load_deck(deck)
    for rnd in rounds:
        plan = round_plan(rnd)
        events = simulate_match(plan["variant"], plan["players"], seed=plan["seed"], known_hands=True,
                                strategy=plan["strategy"], rounds=1)
        record = [json.loads(line) for line in write_record(events).splitlines()]
        video = render_night(record, plan["layout"], plan["seed"], deck=art, size=(1280, 720))
        for vf in video.frames:
            if not vf.covered and vf.index % step == 0:
                yield rnd, vf


def measure(detector, vf, centres, tally, confused) -> None:
    targets = []
    for c in vf.cards:
        width = float(np.linalg.norm(np.float32(c.corners[1]) - np.float32(c.corners[0])))
        targets += [(p, c.card, width) for p in index_centres(c, centres)]
    found = detector.find_indices(vf.image)
    for ib, top in zip(found, detector.read_top(vf.image, found, 1)):
        x1, y1, x2, y2 = ib.box
        centre = np.float32([(x1 + x2) / 2, (y1 + y2) / 2])
        dist, card, width = min(((float(np.linalg.norm(p - centre)), c, w) for p, c, w in targets), key=lambda t: t[0])
        if dist > 0.15 * width:
            continue
        b = max(i for i, edge in enumerate(WIDTHS) if x2 - x1 >= edge)
        read = top[0][0]
        tally[b][1] += 1
        if read == card:
            tally[b][0] += 1
        else:
            confused[(card, read)] += 1


def main(argv: list[str] | None = None) -> int:
    from vision.detector import CardDetector

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", default="kennard_4color", help="a design in data/artwork, or photo")
    ap.add_argument("--rounds", type=int, nargs="+", default=[63, 64, 65])
    ap.add_argument("--step", type=int, default=7, help="look at every STEP-th uncovered frame")
    ap.add_argument("--models", type=Path, action="append", help="model folder (repeat to compare; default models/)")
    ap.add_argument("--top", type=int, default=12, help="most frequent confusions to print")
    a = ap.parse_args(argv)
    folders = a.models or [ROOT / "models"]
    detectors = [CardDetector(m, threads=1, watching=True) for m in folders]
    tallies = [collections.defaultdict(lambda: [0, 0]) for _ in folders]
    confusions = [collections.Counter() for _ in folders]
    centres = corner_centres(a.deck)
    n = 0
    for _rnd, vf in frames(a.deck, a.rounds, a.step):
        n += 1
        for det, tally, confused in zip(detectors, tallies, confusions):
            measure(det, vf, centres, tally, confused)
    print(f"{a.deck}, rounds {' '.join(map(str, a.rounds))}: {n} frames")
    print("index width (px) | " + " | ".join(str(m) for m in folders))
    for b in range(len(WIDTHS) - 1):
        label = f"{WIDTHS[b]}-{WIDTHS[b + 1] - 1}" if WIDTHS[b + 1] < 1000 else f"{WIDTHS[b]}+"
        cells = [f"{t[b][0]}/{t[b][1]} = {t[b][0] / t[b][1]:.3f}" if t[b][1] else "-" for t in tallies]
        print(f"{label:>16} | " + " | ".join(cells))
    for folder, t, confused in zip(folders, tallies, confusions):
        ok, total = sum(v[0] for v in t.values()), sum(v[1] for v in t.values())
        print(f"{folder}: {ok}/{total} = {ok / max(total, 1):.3f} named right; most taken for another: "
              + ", ".join(f"{c}->{r} {k}" for (c, r), k in confused.most_common(a.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
