"""Table tops for the scenes: felt, wood, cloth, laminate, cork, and GIMP's pattern tiles.

Why a mix: a recogniser that only ever saw green felt fails on a kitchen table. GIMP's ``.pat`` tiles
(Debian ``gimp-data``, GPL-3+) add real photographed wood, burlap, leather, marble, paper; the
procedural ones add felt, wood grain, woven cloth and plain laminate in any colour.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")
# tiles that look like something a card table could be made of or covered with
GIMP_USE = (
    "Wood", "Fabric", "Paper", "Animal/leather.pat", "Stone/marble1.pat", "Stone/marble2.pat",
    "Stone/marble3.pat", "Stone/granite1.pat", "Stone/slate.pat", "Stone/pink_marble.pat",
    "Legacy/fibers.pat", "Legacy/blue.pat", "Legacy/pastel.pat", "Stone/terra.pat", "Food/java.pat",
)


def read_pat(path: Path) -> np.ndarray:
    """A GIMP pattern file: a big-endian header (size, version, width, height, bytes per pixel,
    'GPAT', name) then raw pixels. Returns BGR."""
    data = path.read_bytes()
    header_size, version, w, h, bpp = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT" or bpp not in (1, 2, 3, 4):
        raise ValueError(f"{path} is not a GIMP pattern")
    px = np.frombuffer(data[header_size : header_size + w * h * bpp], np.uint8).reshape(h, w, bpp)
    if bpp in (1, 2):
        return cv2.cvtColor(px[:, :, 0], cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(px[:, :, :3], cv2.COLOR_RGB2BGR)


def load_gimp_tiles(root: Path = GIMP_PATTERNS) -> list[np.ndarray]:
    tiles = []
    if not root.exists():
        return tiles
    for p in sorted(root.rglob("*.pat")):
        rel = p.relative_to(root).as_posix()
        if any(rel == u or rel.startswith(u + "/") for u in GIMP_USE):
            try:
                tiles.append(read_pat(p))
            except (ValueError, struct.error):
                continue
    return tiles


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth value noise in [0, 1] with features about `scale` pixels across."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.random((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = [(40, 110, 30), (35, 90, 20), (110, 60, 20), (40, 40, 130), (60, 60, 60), (20, 70, 90), (90, 40, 70)]
    col = np.array(base[int(rng.integers(len(base)))], np.float32) * rng.uniform(0.7, 1.3)
    fine = rng.normal(0, rng.uniform(4, 12), (h, w, 1)).astype(np.float32)
    blot = (_noise(rng, h, w, rng.uniform(40, 200)) - 0.5)[..., None] * rng.uniform(10, 40)
    return np.clip(col[None, None, :] + fine + blot, 0, 255).astype(np.uint8)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Wood grain: long thin streaks along the boards, gently wavy rings, plank joints."""
    long_ = max(h, w)
    n = max(8, long_ // 2)
    # streaks: noise stretched a lot along the grain
    streak = cv2.resize(rng.random((n, max(2, long_ // 120))).astype(np.float32), (long_, long_), interpolation=cv2.INTER_CUBIC)
    warp = _noise(rng, long_, long_, rng.uniform(150, 400)) * rng.uniform(20, 80)
    yy = np.mgrid[0:long_, 0:long_][0].astype(np.float32)
    rings = np.sin((yy + warp) * rng.uniform(0.03, 0.12)) * 0.5 + 0.5
    g = 0.55 * streak + 0.45 * rings ** rng.uniform(1, 3)
    r = rng.uniform(120, 240)  # wood hues: red >= green >= blue (pine, oak, walnut, cherry)
    gr = r * rng.uniform(0.55, 0.85)
    light = np.array([gr * rng.uniform(0.45, 0.85), gr, r], np.float32)
    dark = light * rng.uniform(0.45, 0.8)
    img = dark[None, None, :] + (light - dark)[None, None, :] * g[..., None]
    if rng.random() < 0.6:  # plank joints
        pw = int(rng.uniform(0.12, 0.35) * long_)
        for y in range(int(rng.integers(pw)), long_, pw):
            img[y : y + 2] *= 0.55
    if rng.random() < 0.5:
        img = np.ascontiguousarray(np.rot90(img))
    y0, x0 = int(rng.integers(long_ - h + 1)), int(rng.integers(long_ - w + 1))
    return np.clip(img[y0 : y0 + h, x0 : x0 + w], 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = rng.uniform(2.5, 7)
    weave = (np.sin(xx * np.pi / p) * np.sin(yy * np.pi / p)) * rng.uniform(8, 25)
    col = rng.uniform(40, 230, 3).astype(np.float32)
    img = col[None, None, :] + weave[..., None] + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    if rng.random() < 0.35:  # checks or stripes of a table cloth
        q = rng.uniform(25, 90)
        band = ((np.floor(xx / q) + np.floor(yy / q) * (rng.random() < 0.6)) % 2)[..., None]
        col2 = rng.uniform(40, 240, 3).astype(np.float32)
        img = img * (1 - band) + (col2[None, None, :] + weave[..., None]) * band
    return np.clip(img, 0, 255).astype(np.uint8)


def laminate(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    col = rng.uniform(30, 235, 3).astype(np.float32)
    speck = rng.normal(0, rng.uniform(1, 6), (h, w, 1)).astype(np.float32)
    grad = (_noise(rng, h, w, max(h, w) / 2) - 0.5)[..., None] * 20
    return np.clip(col[None, None, :] + speck + grad, 0, 255).astype(np.uint8)


def cork(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    col = np.array([rng.uniform(60, 110), rng.uniform(110, 150), rng.uniform(160, 200)], np.float32)
    n = _noise(rng, h, w, 2.5)[..., None] - 0.5
    n2 = _noise(rng, h, w, 6)[..., None] - 0.5
    return np.clip(col[None, None, :] * (1 + 0.35 * n + 0.25 * n2), 0, 255).astype(np.uint8)


PROCEDURAL = (felt, wood, cloth, laminate, cork)


def tiled(tile: np.ndarray, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Repeat a small tile over the table, at a random scale and colour shift."""
    s = rng.uniform(0.8, 2.5)
    t = cv2.resize(tile, None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        t = cv2.flip(t, int(rng.integers(-1, 2)))
    reps = (h // t.shape[0] + 2, w // t.shape[1] + 2, 1)
    big = np.tile(t, reps)
    y, x = int(rng.integers(t.shape[0])), int(rng.integers(t.shape[1]))
    out = big[y : y + h, x : x + w].astype(np.float32)
    out = out * rng.uniform(0.7, 1.2) + rng.normal(0, 12, 3)[None, None, :]
    return np.clip(out, 0, 255).astype(np.uint8)


def table_texture(rng: np.random.Generator, h: int, w: int, tiles: list[np.ndarray]) -> np.ndarray:
    """One table top, BGR uint8, h x w."""
    if tiles and rng.random() < 0.4:
        return tiled(tiles[int(rng.integers(len(tiles)))], rng, h, w)
    fn = PROCEDURAL[int(rng.integers(len(PROCEDURAL)))]
    return fn(rng, h, w)


def score_sheet(rng: np.random.Generator, table: np.ndarray, scale: float) -> None:
    """A paper score sheet with handwritten-looking names and numbers, drawn onto the table in place.

    Why: digits and letters that are not card indices, where a card game really has them, teach the
    detector that a "7" on paper is not a card."""
    H, W = table.shape[:2]
    w, h = int(scale * rng.uniform(1.2, 2.2)), int(scale * rng.uniform(1.5, 2.8))
    paper = rng.uniform(215, 250)
    sheet = np.full((h, w, 3), (int(paper * rng.uniform(0.85, 1.0)), int(paper), int(paper)), np.uint8)
    ink = (int(rng.uniform(20, 120)), int(rng.uniform(10, 60)), int(rng.uniform(0, 40)))
    font = int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN]))
    fs = scale / 160
    y = int(scale * 0.25)
    while y < h - 5:
        text = " ".join(
            "".join(rng.choice(list("0123456789AKQJ+-=" if rng.random() < 0.7 else "abcdehkmnorstu"), size=int(rng.integers(1, 4))))
            for _ in range(int(rng.integers(1, 4)))
        )
        cv2.putText(sheet, text, (int(scale * 0.1), y), font, fs * rng.uniform(0.8, 1.4), ink, max(1, int(fs * 2)), cv2.LINE_AA)
        y += int(scale * rng.uniform(0.18, 0.3))
    M = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(0, 360), 1.0)
    cos, sin = abs(M[0, 0]), abs(M[0, 1])
    bw, bh = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
    M[0, 2] += bw / 2 - w / 2
    M[1, 2] += bh / 2 - h / 2
    rot = cv2.warpAffine(sheet, M, (bw, bh), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0)).astype(np.float32)
    mask = cv2.warpAffine(np.ones((h, w), np.float32), M, (bw, bh), flags=cv2.INTER_LINEAR)
    x0, y0 = int(rng.uniform(-bw / 3, W - bw * 2 / 3)), int(rng.uniform(-bh / 3, H - bh * 2 / 3))
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + bw, W), min(y0 + bh, H)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    m = mask[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0, None]
    roi = table[ay0:ay1, ax0:ax1].astype(np.float32)
    table[ay0:ay1, ax0:ax1] = (roi * (1 - m) + rot[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0] * m).astype(np.uint8)
