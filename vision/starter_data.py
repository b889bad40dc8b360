"""A small stand-in training set of card corner indices, made from the Debian deck artwork.

Why this exists: the project's real generator (`fantan dataset make`, datasets/) makes the training
data; this quick one lets the training machinery, the tests and a first detector run start before
that data exists, and writes the same layout:

    OUT/detect/images/{train,val}/*.jpg, OUT/detect/labels/{train,val}/*.txt, OUT/detect/data.yaml
    OUT/classify/{train,val}/<card>/*.jpg, OUT/classify/classes.txt

Each scene is a table top (noise, gradients, a GIMP pattern tile when installed) with loose cards,
overlapping rows and fans at any angle; a corner index counts as seen when most of it is uncovered.
Where the index sits on each design is found from the artwork itself (ink in the top-left corner of
the low cards), so no hand-made boxes are needed.

    python -m vision.starter_data data/starter --scenes 600
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

RANKS = "A23456789TJQK"
SUITS = "cdhs"  # rows of the aisleriot sheet: clubs, diamonds, hearts, spades
CODES = [r + s for s in SUITS for r in RANKS]  # suit-major, as the real data's classes.txt

#: aisleriot designs with English indices (see shared/notes/recognizer.md for the ones left out).
DESIGNS = (
    "anglo", "anglo_modern", "anglo_poker", "bellot", "bonded", "dondorf", "gnomangelo",
    "neoclassical", "orell", "ornamental", "paris", "plastic", "simplistic", "tango", "tigullio",
)
#: designs printing an index in all four corners (seen on the rendered sheets).
FOUR_INDEX = {"bonded", "dondorf"}
ARTWORK = Path("/usr/share/aisleriot/cards")
PATTERNS = Path("/usr/share/gimp/2.0/patterns")


@dataclass
class Card:
    """One rendered card face (RGBA) and its index boxes in card pixels: (x1, y1, x2, y2)."""

    code: str
    image: np.ndarray
    indices: list[tuple[float, float, float, float]]


def render_deck(design: str, width: int = 4680) -> list[Card]:
    """Rasterise one aisleriot deck and locate each card's corner indices."""
    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "sheet.png"
        subprocess.run(
            ["rsvg-convert", "-w", str(width), "-a", str(ARTWORK / f"{design}.svgz"), "-o", str(png)],
            check=True,
        )
        sheet = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    h, w = sheet.shape[:2]
    cw, ch = w / 13, h / 5
    faces = {}
    for si, suit in enumerate(SUITS):
        for ri, rank in enumerate(RANKS):
            cell = sheet[int(si * ch) : int((si + 1) * ch), int(ri * cw) : int((ri + 1) * cw)]
            ys, xs = np.nonzero(cell[..., 3] > 20)
            faces[rank + suit] = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()
    low = [faces[r + s] for r in "A23" for s in SUITS]
    box = _deck_index_box(low)
    x1, y1, x2, y2 = box
    four = design in FOUR_INDEX
    cards = []
    for code, face in faces.items():
        fh, fw = face.shape[:2]
        x1, y1, x2, y2 = box
        wide = 1.35 if code[0] == "T" else 1.0  # "10" is the widest index
        x2 = x1 + (x2 - x1) * wide
        boxes = [(x1 * fw, y1 * fh, x2 * fw, y2 * fh), ((1 - x2) * fw, (1 - y2) * fh, (1 - x1) * fw, (1 - y1) * fh)]
        if four:
            boxes += [((1 - x2) * fw, y1 * fh, (1 - x1) * fw, y2 * fh), (x1 * fw, (1 - y2) * fh, x2 * fw, (1 - y1) * fh)]
        cards.append(Card(code, face, boxes))
    return cards


def _ink(face: np.ndarray) -> np.ndarray:
    rgb = face[..., :3].astype(np.int16)
    paper = np.median(rgb[face.shape[0] // 2 - 3 : face.shape[0] // 2 + 3, 2:6].reshape(-1, 3), axis=0)
    return (np.abs(rgb - paper).max(axis=2) > 60) & (face[..., 3] > 128)


def _deck_index_box(low_cards: list[np.ndarray]) -> tuple[float, float, float, float]:
    """Fractional box of the top-left index, from the ink near the corner of low cards."""
    boxes = []
    for face in low_cards:
        fh, fw = face.shape[:2]
        ink = _ink(face)
        m = int(0.035 * fw)  # skip the printed border line
        region = ink[m : int(0.30 * fh), m : int(0.24 * fw)].astype(np.uint8)
        region = cv2.dilate(region, np.ones((int(0.03 * fh) | 1, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(region)
        if n < 2:
            continue
        best = min(range(1, n), key=lambda i: stats[i, 0] + stats[i, 1])  # nearest the corner
        x, y, bw, bh, _ = stats[best]
        boxes.append(((x + m) / fw, (y + m) / fh, (x + m + bw) / fw, (y + m + bh) / fh))
    arr = np.array(boxes)
    x1, y1 = np.median(arr[:, 0]), np.median(arr[:, 1])
    x2, y2 = np.percentile(arr[:, 2], 80), np.percentile(arr[:, 3], 80)
    pad = 0.012
    return (max(0.0, x1 - pad), max(0.0, y1 - pad), x2 + pad, y2 + pad)


def _background(rng: random.Random, h: int, w: int, patterns: list[Path]) -> np.ndarray:
    kind = rng.random()
    if kind < 0.35 and patterns:
        tile = _read_pattern(rng.choice(patterns))
        if tile is not None:
            reps = (h // tile.shape[0] + 1, w // tile.shape[1] + 1, 1)
            bg = np.tile(tile, reps)[:h, :w].astype(np.float32)
            return bg
    base = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
    if kind < 0.6:
        base = base * rng.uniform(0.2, 0.7)  # felt and dark wood are common table tops
    bg = np.ones((h, w, 3), np.float32) * base
    noise = cv2.resize(np.random.default_rng(rng.randint(0, 10**9)).normal(0, rng.uniform(3, 25), (h // 8 + 1, w // 8 + 1, 3)).astype(np.float32), (w, h))
    bg += noise + np.random.default_rng(rng.randint(0, 10**9)).normal(0, rng.uniform(0, 8), (h, w, 3)).astype(np.float32)
    return np.clip(bg, 0, 255)


def _read_pattern(path: Path) -> np.ndarray | None:
    """A GIMP .pat tile: big-endian header (size, version, w, h, bytes per pixel, ...), name, pixels."""
    data = path.read_bytes()
    hs, _, w, h, bpp = (int.from_bytes(data[i : i + 4], "big") for i in range(0, 20, 4))
    px = np.frombuffer(data[hs : hs + w * h * bpp], np.uint8)
    if px.size != w * h * bpp or bpp not in (1, 3, 4):
        return None
    px = px.reshape(h, w, bpp)
    rgb = np.repeat(px, 3, axis=2) if bpp == 1 else px[..., :3]
    return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)


def _layout(rng: random.Random, n: int, w: int, h: int, card_h: float) -> list[tuple[float, float, float]]:
    """Centres and angles for n cards: loose, in a row (a Sevens suit row), or a hand's fan."""
    style = rng.random()
    out = []
    if style < 0.35:
        for _ in range(n):
            out.append((rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 360)))
    elif style < 0.7:
        ang = rng.uniform(0, 360)
        step = card_h * rng.uniform(0.12, 0.35)
        dx, dy = np.cos(np.radians(ang)) * step, np.sin(np.radians(ang)) * step
        x = rng.uniform(0.2 * w, 0.8 * w) - dx * (n - 1) / 2  # the row's middle on the table
        y = rng.uniform(0.2 * h, 0.8 * h) - dy * (n - 1) / 2
        base = ang + rng.choice([90, -90, 0, 180]) + rng.uniform(-8, 8)
        for i in range(n):
            out.append((x + dx * i, y + dy * i, base + rng.uniform(-3, 3)))
    else:
        cx, cy, ang = rng.uniform(0.15 * w, 0.85 * w), rng.uniform(0.15 * h, 0.85 * h), rng.uniform(0, 360)
        spread = rng.uniform(4, 12)
        for i in range(n):
            a = ang + (i - n / 2) * spread
            r = card_h * 0.6
            out.append((cx + r * np.sin(np.radians(a)), cy - r * np.cos(np.radians(a)), a))
    return out


def make_scene(rng: random.Random, decks: list[list[Card]], patterns: list[Path], w: int = 960, h: int = 720):
    """One table image with its visible index boxes: (image, [(code, (x1, y1, x2, y2))])."""
    img = _background(rng, h, w, patterns)
    owner = np.full((h, w), -1, np.int32)
    deck = rng.choice(decks)
    n = rng.choice([1, 2, 4, 6, 8, 10, 13, 16, 20])
    codes = rng.sample(range(52), n)
    card_h = h * rng.choice([rng.uniform(0.1, 0.2), rng.uniform(0.18, 0.35), rng.uniform(0.3, 0.6)])
    placed = []
    for k, ((cx, cy, ang), ci) in enumerate(zip(_layout(rng, n, w, h, card_h), codes)):
        card = deck[ci]
        fh, fw = card.image.shape[:2]
        s = card_h / fh
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), ang, s)
        m[:, 2] += (cx - fw / 2, cy - fh / 2)
        face = card.image.astype(np.float32)
        tint = np.array([rng.uniform(0.85, 1.05) for _ in range(3)], np.float32)
        warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3:] / 255.0
        img = img * (1 - alpha) + warped[..., :3] * tint * alpha
        owner[alpha[..., 0] > 0.5] = k
        quads = []
        for x1, y1, x2, y2 in card.indices:
            pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ m.T
            quads.append(pts)
        placed.append((card.code, quads))
    labels = []
    for k, (code, quads) in enumerate(placed):
        for pts in quads:
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, pts.astype(np.int32), 1)
            area = mask.sum()
            if area < 12:
                continue
            full = cv2.contourArea(pts.astype(np.float32))
            seen = (mask.astype(bool) & (owner == k)).sum()
            if seen < 0.7 * max(full, 1):
                continue  # covered by a later card or off the table
            x1, y1 = pts.min(axis=0)
            x2, y2 = pts.max(axis=0)
            labels.append((code, (max(0, x1), max(0, y1), min(w, x2), min(h, y2))))
    img = _light(rng, img)
    return img, labels


def full_table(deck: list[Card], width: int = 1280, height: int = 720, card_h: float = 100.0, seed: int = 0):
    """A finished Sevens table: the four suit rows, A to K, each card beside the next and slightly
    overlapped, as a webcam above the table sees it. Returns (image, [(code, box)]) like `make_scene`.
    """
    rng = random.Random(seed)
    img = _background(rng, height, width, [])
    by_code = {c.code: c for c in deck}
    fh, fw = deck[0].image.shape[:2]
    s = card_h / fh
    step = min(fw * s * 1.02, (width - 40) / 13.5)
    labels = []
    for row, suit in enumerate(SUITS):
        cy = height / 2 + (row - 1.5) * card_h * 1.12
        for col, rank in enumerate(RANKS):
            card = by_code[rank + suit]
            cx = width / 2 + (col - 6) * step
            ang = rng.uniform(-3, 3)
            m = cv2.getRotationMatrix2D((fw / 2, fh / 2), ang, s)
            m[:, 2] += (cx - fw / 2, cy - fh / 2)
            warped = cv2.warpAffine(card.image.astype(np.float32), m, (width, height), flags=cv2.INTER_AREA,
                                    borderValue=(0, 0, 0, 0))
            alpha = warped[..., 3:] / 255.0
            img = img * (1 - alpha) + warped[..., :3] * alpha
            for x1, y1, x2, y2 in card.indices[:2]:
                pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ m.T
                labels.append((card.code, (*pts.min(axis=0), *pts.max(axis=0))))
    return _light(rng, img), labels


def _light(rng: random.Random, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    gx = np.linspace(rng.uniform(0.6, 1.1), rng.uniform(0.8, 1.25), w, dtype=np.float32)
    gy = np.linspace(rng.uniform(0.7, 1.1), rng.uniform(0.8, 1.2), h, dtype=np.float32)
    img = img * (gy[:, None] * gx[None, :])[..., None] * rng.uniform(0.7, 1.2) + rng.uniform(-20, 20)
    if rng.random() < 0.3:
        k = rng.choice([3, 5])
        img = cv2.GaussianBlur(img, (k, k), 0)
    img = img + np.random.default_rng(rng.randint(0, 10**9)).normal(0, rng.uniform(0, 6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def index_crop(image: np.ndarray, box: tuple[float, float, float, float], size: int = 64, margin: float = 0.15) -> np.ndarray:
    """The classifier's input: the index box grown by `margin`, made square, cut, resized.

    Kept in step with vision.detector.crop_index (the same cut at training and at the table).
    """
    from vision.detector import crop_index

    return crop_index(image, box, size=size, margin=margin)


def write(out: Path, scenes: int, seed: int = 0, val_fraction: float = 0.1, jitter: float = 0.08) -> None:
    """Write the detector and classifier sets under `out`."""
    rng = random.Random(seed)
    decks = [render_deck(d) for d in DESIGNS if (ARTWORK / f"{d}.svgz").exists()]
    patterns = sorted(PATTERNS.rglob("*.pat")) if PATTERNS.exists() else []
    det, cls = out / "detect", out / "classify"
    for split in ("train", "val"):
        (det / "images" / split).mkdir(parents=True, exist_ok=True)
        (det / "labels" / split).mkdir(parents=True, exist_ok=True)
        for code in CODES:
            (cls / split / code).mkdir(parents=True, exist_ok=True)
    (cls / "classes.txt").write_text("\n".join(CODES) + "\n")
    (det / "data.yaml").write_text(f"path: {det.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")
    for i in range(scenes):
        split = "val" if i % round(1 / val_fraction) == 0 else "train"
        img, labels = make_scene(rng, decks, patterns)
        h, w = img.shape[:2]
        name = f"s{seed}_{i:05d}"
        cv2.imwrite(str(det / "images" / split / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 95)])
        lines = []
        for j, (code, (x1, y1, x2, y2)) in enumerate(labels):
            lines.append(f"0 {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
            bw, bh = x2 - x1, y2 - y1
            jx = [rng.uniform(-jitter, jitter) * bw, rng.uniform(-jitter, jitter) * bh]
            jb = (x1 + jx[0], y1 + jx[1], x2 + jx[0] + rng.uniform(-jitter, jitter) * bw, y2 + jx[1] + rng.uniform(-jitter, jitter) * bh)
            crop = index_crop(img, jb)
            cv2.imwrite(str(cls / split / code / f"{name}_{j}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (det / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--scenes", type=int, default=600)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    write(a.out, a.scenes, a.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
