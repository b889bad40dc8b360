"""`fantan dataset`: make the card recogniser's training data from deck artwork packages ship.

    fantan dataset artwork                      # rasterise the decks once into data/artwork/
    fantan dataset make --images 3000 --seed 1  # table scenes -> data/cards/{detect,classify}
    fantan dataset preview --seed 1 --out p.png # a few scenes with their labels drawn, to look at

See datasets/README.md (what is made and why) and datasets/DECKS.md (decks and licences).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("dataset", help="make the card recogniser's synthetic training data")
    sub = parser.add_subparsers(dest="dataset_command", metavar="ACTION")

    art = sub.add_parser("artwork", help="rasterise the installed decks into the artwork cache")
    art.add_argument("--artwork", type=Path, default=Path("data/artwork"), help="cache folder (default data/artwork)")
    art.add_argument("--npm-prefix", type=Path, default=Path("data/npm"), help="where the npm decks are installed")
    art.add_argument("--deck", action="append", help="only this deck (repeatable)")
    art.add_argument("--reindex", action="store_true", help="only find the index boxes again on the cached decks")

    make = sub.add_parser("make", help="render scenes and write the detect and classify datasets")
    make.add_argument("--images", type=int, required=True, help="number of scenes (detect pictures)")
    make.add_argument("--seed", type=int, default=1, help="the same seed gives the same files")
    make.add_argument("--out", type=Path, default=Path("data/cards"), help="output folder (default data/cards)")
    make.add_argument("--val-fraction", type=float, default=0.15, help="share of scenes drawn with the held-out decks")
    make.add_argument("--workers", type=int, default=1, help="processes (the result does not depend on it)")
    make.add_argument("--crops-per-scene", type=int, default=16, help="most classification crops cut from one scene")
    make.add_argument("--far", type=float, default=0.0,
                      help="share of scenes that are far tables: 1280x720, cards 55-100 px tall, crops of indices from 10 px")
    make.add_argument("--artwork", type=Path, default=Path("data/artwork"))

    prev = sub.add_parser("preview", help="draw a few scenes with their index labels (green seen, red hidden)")
    prev.add_argument("--seed", type=int, default=1)
    prev.add_argument("--count", type=int, default=6)
    prev.add_argument("--out", type=Path, default=Path("data/cards-preview.png"))
    prev.add_argument("--split", choices=["train", "val"], default="train")
    prev.add_argument("--artwork", type=Path, default=Path("data/artwork"))

    parser.set_defaults(run=run, _parser=parser)


def _artwork(args) -> int:
    from datasets.artwork import build_cache, install_hint, missing_pip, missing_sources, reindex_deck

    if args.reindex:
        dirs = [d for d in sorted(args.artwork.glob("*")) if (d / "deck.json").exists() and (not args.deck or d.name in args.deck)]
        for d in dirs:
            reindex_deck(d)
        print(f"index boxes found again on {len(dirs)} decks in {args.artwork}")
        return 0 if dirs else 1
    apt, npm = missing_sources(args.npm_prefix)
    pip = missing_pip()
    if apt or npm or pip:
        print("Some deck artwork is not installed; decks from it are skipped. To install it:", file=sys.stderr)
        print(install_hint(apt, npm, args.npm_prefix, pip), file=sys.stderr)
        if "librsvg2-bin" in apt:
            return 1
    done = build_cache(args.artwork, args.npm_prefix, only=args.deck)
    if not done:
        print("no deck could be rasterised", file=sys.stderr)
        return 1
    print(f"{len(done)} decks in {args.artwork}: {', '.join(done)}")
    print(f"check the index boxes on {args.artwork}/<deck>/contact.png")
    return 0


def _make(args) -> int:
    from datasets.make import make_dataset

    try:
        m = make_dataset(args.out, args.images, args.seed, args.val_fraction, args.workers, args.artwork, args.crops_per_scene,
                         far=args.far)
    except (ValueError, RuntimeError) as exc:
        print(f"fantan dataset make: {exc}", file=sys.stderr)
        return 1
    print(
        f"{m['images']} scenes ({m['val_images']} val) -> {args.out}: {m['labels']} index labels, {m['crops']} crops; "
        f"render median {m['render_s_median']:.3f} s/scene, wall {m['wall_s']:.0f} s"
    )
    print(f"train decks: {', '.join(m['train_decks'])}")
    print(f"val decks (unseen in training): {', '.join(m['val_decks'])}")
    return 0


def _preview(args) -> int:
    import cv2
    import numpy as np

    from datasets.make import _kit, make_scene

    try:
        kit = _kit(str(args.artwork), args.split)
    except RuntimeError as exc:
        print(f"fantan dataset preview: {exc}", file=sys.stderr)
        return 1
    tiles = []
    for i in range(args.count):
        scene, _ = make_scene(np.random.default_rng([args.seed, i]), kit)
        im = scene.image.copy()
        for c in scene.cards:
            for it in c.indices:
                x0, y0, x1, y1 = (int(round(v)) for v in it.box)
                cv2.rectangle(im, (x0, y0), (x1, y1), (0, 220, 0) if it.visibility >= 0.6 else (0, 0, 255), 2)
        h, w = im.shape[:2]
        s = 480 / max(h, w)
        tile = np.full((480, 480, 3), 40, np.uint8)
        small = cv2.resize(im, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        tile[: small.shape[0], : small.shape[1]] = small
        tiles.append(tile)
    while len(tiles) % 3:
        tiles.append(np.full((480, 480, 3), 40, np.uint8))
    sheet = np.vstack([np.hstack(tiles[i : i + 3]) for i in range(0, len(tiles), 3)])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet)
    print(f"wrote {args.out}")
    return 0


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "dataset_command", None)
    if action == "artwork":
        return _artwork(args)
    if action == "make":
        return _make(args)
    if action == "preview":
        return _preview(args)
    args._parser.print_help()
    return 2
