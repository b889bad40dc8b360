"""The recognizer's reading check picture (vision/assets/reading_check.png), made again from the artwork.

Eight cards of the kennard_4color design (CC0; `fantan dataset artwork` rasterises it into
data/artwork/kennard_4color/), 100 px wide, side by side on green cloth: the four sevens (the cards a
saturating INT8 kernel read as jacks in session 22), the jack of diamonds, the queen of clubs, the king
of hearts and the eight of diamonds. `vision.detector.CardDetector.check_reading` reads it.

    .venv/bin/python -m datasets.reading_check            # writes vision/assets/reading_check.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.artwork import _read_rgba
from vision.detector import READING_CHECK, READING_CHECK_CARDS

CLOTH = (40, 110, 40)  # BGR


def reading_check(artwork: Path, width: int = 100, gap: int = 20) -> np.ndarray:
    """The picture: READING_CHECK_CARDS from `artwork` (a deck folder of <code>.png), left to right."""
    height = int(width * 1.4)
    picture = np.empty((height + 2 * gap, (width + gap) * len(READING_CHECK_CARDS) + gap, 3), np.uint8)
    picture[:] = CLOTH
    for k, code in enumerate(READING_CHECK_CARDS):
        card = cv2.resize(_read_rgba(artwork / f"{code}.png"), (width, height), interpolation=cv2.INTER_AREA)
        alpha = card[..., 3:] / 255.0
        spot = picture[gap:gap + height, gap + k * (width + gap):gap + k * (width + gap) + width]
        spot[:] = (card[..., :3] * alpha + spot * (1 - alpha)).astype(np.uint8)
    return picture


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--artwork", type=Path, default=Path("data/artwork/kennard_4color"))
    parser.add_argument("--out", type=Path, default=READING_CHECK)
    args = parser.parse_args(argv)
    if not (args.artwork / f"{READING_CHECK_CARDS[0]}.png").exists():
        parser.error(f"no artwork at {args.artwork}: run `fantan dataset artwork` first (make artwork)")
    cv2.imwrite(str(args.out), reading_check(args.artwork))
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
