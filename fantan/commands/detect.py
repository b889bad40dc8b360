"""`fantan detect IMAGE... [--json] [--model PATH] [--conf X]`: name the cards seen in still images.

Contract: ../shared/spec/cli.md. One entry per card identity (a card's two corner indices are one
card). An unreadable image is reported on its own line and the run goes on; the exit code is 0
unless no image at all could be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("detect", help="recognise the cards in still images", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", nargs="+", metavar="IMAGE", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON object per image on stdout")
    parser.add_argument("--model", type=Path, help="folder with index_detector.onnx and index_classifier.onnx "
                        "(or the detector .onnx); default: the shipped models/")
    parser.add_argument("--conf", type=float, default=None,
                        help="lowest confidence reported (default: the models' thresholds.json, else 0.3)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.detector import CardDetector, ModelError

    try:
        detector = CardDetector(args.model, conf=args.conf)
        detector.check_reading()
    except ModelError as exc:
        print(f"fantan detect: {exc}", file=sys.stderr)
        return 2
    read_any = False
    for path in args.images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            why = "no such file" if not path.exists() else "not a readable image"
            _emit(args, {"image": str(path), "error": f"{why}: {path}"})
            continue
        read_any = True
        cards = detector.detect(image)
        h, w = image.shape[:2]
        _emit(args, {"image": str(path), "width": w, "height": h, "cards": [d.to_json() for d in cards]})
    return 0 if read_any else 1


def _emit(args: argparse.Namespace, entry: dict) -> None:
    if args.json:
        print(json.dumps(entry), flush=True)
        return
    if "error" in entry:
        print(f"{entry['image']}: ERROR {entry['error']}", flush=True)
        return
    cards = entry["cards"]
    listed = " ".join(f"{c['card']}({c['confidence']:.2f})" for c in cards) or "no cards"
    print(f"{entry['image']} [{entry['width']}x{entry['height']}]: {len(cards)} cards: {listed}", flush=True)
