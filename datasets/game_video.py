"""Synthetic game videos: whole simulated rounds filmed by a tilted webcam, for end-to-end tests.

Why our own renderer: the camera pipeline needs *sequences* (an arm reaching in from the player's
seat, the card put down, the arm withdrawing, passes declared at known frames, hands laid down at the
end), with the truth of every frame, so that a reconstructed record can be compared with the record
the video was made from. Every state of the table is drawn once top-down on a "table canvas" (table
coordinates), arms are added per frame, and one perspective warp films it: cheap per frame and the
ground truth (each card's outline in the picture and how much of its corner index shows) falls out
of the same geometry.

Seats: the players sit clockwise in the order of the match line; the first player sits on the
camera's side of the table (the bottom of the picture), the next one to its left as seen from above
(the left of the picture), and so on round the table. vision.table uses the same convention.

Run: ``python -m datasets.game_video --record R.jsonl --out DIR --layout hoyle --seed 3 [--rounds 0]``
(``--rounds 0``: every round of the record, one after another, the cards gathered between) writes ``DIR/frames/000000.png ...``, ``DIR/passes.jsonl`` (for ``fantan watch --passes``),
``DIR/truth.jsonl`` (the record the video shows: the simulated record without the dealt hands, with
the `show` lines of the hands laid down) and ``DIR/cards.jsonl`` (per-frame ground truth).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import cv2
import numpy as np

RANKS = "A23456789TJQK"
SUITS = "cdhs"
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
LAYOUTS = ("spread", "fanned", "hoyle")

# Table canvas (top-down, "table pixels"); the camera films a window slightly inside it so that
# arms drawn from the canvas edge enter the picture from its border.
CANVAS_W, CANVAS_H = 1700, 1100
CARD_W, CARD_H = 90, 126
INDEX_W, INDEX_H = 24, 52  # the rank+suit block in the top-left corner of a face, in card pixels
ROW_PITCH = 140  # distance between suit rows
SPREAD_PITCH = 94
FAN_PITCH = 30
HAND_PITCH = 22
SEAT_RADIUS = (730, 450)  # where hands are laid down in front of each seat: ellipse radii about the centre

# real photographs (for measuring only), in the shared folder that sits beside this checkout
REAL_DECK = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "real" / "bidly_deals" / "card_crops"


def rank_of(code: str) -> int:
    return RANKS.index(code[0].upper()) + 1


def seat_angle(seat: int, n_players: int) -> float:
    """Direction (radians, picture convention: y grows downwards) from the table centre to a seat."""
    return math.pi / 2 + seat * 2 * math.pi / n_players


# --------------------------------------------------------------------------- decks


def _draw_pip(img: np.ndarray, suit: str, cx: int, cy: int, size: int, colour) -> None:
    """Suit symbols from plain shapes (OpenCV has no glyphs for them)."""
    s = size
    if suit == "d":
        pts = np.array([[cx, cy - s], [cx + int(0.7 * s), cy], [cx, cy + s], [cx - int(0.7 * s), cy]])
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "h":
        r = int(0.5 * s)
        cv2.circle(img, (cx - r, cy - r // 2), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, cy - r // 2), r, colour, -1, cv2.LINE_AA)
        pts = np.array([[cx - 2 * r, cy - r // 4], [cx + 2 * r, cy - r // 4], [cx, cy + s]])
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "s":
        r = int(0.5 * s)
        pts = np.array([[cx - 2 * r, cy + r // 4], [cx + 2 * r, cy + r // 4], [cx, cy - s]])
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        cv2.circle(img, (cx - r, cy + r // 3), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, cy + r // 3), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([[cx, cy], [cx - r, cy + s], [cx + r, cy + s]])], colour, cv2.LINE_AA)
    else:  # clubs
        r = int(0.42 * s)
        for dx, dy in ((0, -r), (-r, r // 2), (r, r // 2)):
            cv2.circle(img, (cx + dx, cy + dy), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([[cx, cy], [cx - r, cy + s], [cx + r, cy + s]])], colour, cv2.LINE_AA)


def drawn_deck(scale: int = 3) -> dict[str, np.ndarray]:
    """A plain deck drawn with OpenCV: index in two corners, big pip in the middle (no downloads)."""
    deck = {}
    w, h = CARD_W * scale, CARD_H * scale
    for code in CODES:
        rank, suit = code[0], code[1]
        img = np.full((h, w, 3), 246, np.uint8)
        cv2.rectangle(img, (2, 2), (w - 3, h - 3), (90, 90, 90), 2)
        colour = (30, 30, 200) if suit in "dh" else (25, 25, 25)
        label = "10" if rank == "T" else rank
        for flip in (False, True):
            tile = np.full((INDEX_H * scale, INDEX_W * scale, 3), 246, np.uint8)
            fs = 0.62 * scale if len(label) == 1 else 0.48 * scale
            cv2.putText(tile, label, (2, int(20 * scale)), cv2.FONT_HERSHEY_SIMPLEX, fs, colour, 2 * scale // 2 + 1, cv2.LINE_AA)
            _draw_pip(tile, suit, INDEX_W * scale // 2, int(36 * scale), int(8 * scale), colour)
            if flip:
                tile = cv2.rotate(tile, cv2.ROTATE_180)
                img[h - INDEX_H * scale - 4 : h - 4, w - INDEX_W * scale - 4 : w - 4] = tile
            else:
                img[4 : 4 + INDEX_H * scale, 4 : 4 + INDEX_W * scale] = tile
        _draw_pip(img, suit, w // 2, h // 2, int(18 * scale), colour)
        deck[code] = img
    return deck


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


def photo_deck(folder: Path = REAL_DECK) -> dict[str, np.ndarray]:
    """Real photographs of one physical deck, one rectified crop per card, upright, named by its
    code (``Ah.jpg``, ``Tc.png``, ... any of PHOTO_SUFFIXES; ``10c`` is read as ``Tc``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no folder of card photographs at {folder}")
    files: dict[str, Path] = {}
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in PHOTO_SUFFIXES:
            stem = "T" + f.stem[-1] if f.stem[:-1] == "10" else f.stem
            code = stem[:-1].upper() + stem[-1:].lower()
            files.setdefault(code, f)
    deck = {}
    for code in CODES:
        img = cv2.imread(str(files[code])) if code in files else None
        if img is None:
            raise FileNotFoundError(f"no readable photograph of {code} in {folder} "
                                    f"(expected {code}.jpg or .png, one per card)")
        deck[code] = img
    return deck


def artwork_deck(name: str, folder: Path = Path("data/artwork")) -> dict[str, np.ndarray]:
    """A deck rasterised by datasets.artwork (``fantan dataset artwork``), flattened onto white."""
    deck = {}
    for code in CODES:
        img = cv2.imread(str(folder / name / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise FileNotFoundError(f"deck {name!r} is not in {folder} (run `fantan dataset artwork`)")
        if img.shape[2] == 4:
            a = img[:, :, 3:4].astype(np.float32) / 255
            img = (img[:, :, :3] * a + 255 * (1 - a)).astype(np.uint8)
        deck[code] = img
    return deck


def load_deck(name: str) -> dict[str, np.ndarray]:
    """'drawn' (OpenCV), 'photo' (the real photographs in bidly_deals/card_crops), a folder of
    photographs of another deck (a path, see photo_deck), or an artwork deck (data/artwork/<name>)."""
    if name == "drawn":
        return drawn_deck()
    if name == "photo":
        return photo_deck()
    if "/" in name or "\\" in name or Path(name).is_dir():
        return photo_deck(Path(name))
    return artwork_deck(name)


def _fit(deck: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {c: cv2.resize(img, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA) for c, img in deck.items()}


# --------------------------------------------------------------------------- table layout


@dataclass(frozen=True)
class Placement:
    """Where a card lies on the table canvas: top-left corner, drawing order, and whose it is."""

    card: str
    x: int
    y: int
    z: float
    place: str  # 'row' or a player's name (a hand laid down)


def row_position(card: str, row_index: int, layout: str, centre: tuple[int, int]) -> tuple[int, int, float]:
    """Top-left corner and z of a played card in its suit row, for each of the three layouts."""
    r = rank_of(card)
    cx, cy = centre
    y = cy + int((row_index - 1.5) * ROW_PITCH) - CARD_H // 2
    if layout == "spread":
        x = cx + (r - 7) * SPREAD_PITCH - CARD_W // 2
        z = 0.0
    elif layout == "fanned":  # cards overlap left to right, only the left strip with the index shows
        x = cx + (r - 7) * FAN_PITCH - CARD_W // 2
        z = float(r)
    elif layout == "hoyle":  # sixes and below piled on the six, eights and up on the eight
        col = 0 if r == 7 else (-1 if r < 7 else 1)
        x = cx + col * SPREAD_PITCH - CARD_W // 2
        z = float(7 - r if r < 7 else r - 7)
    else:
        raise ValueError(f"unknown layout {layout!r}; use one of {', '.join(LAYOUTS)}")
    return x, y, z


def hand_positions(cards: Sequence[str], seat: int, n_players: int) -> list[tuple[int, int]]:
    """Top-left corners of a hand laid down fanned in front of a seat (lines of at most 9 cards)."""
    a = seat_angle(seat, n_players)
    hx = CANVAS_W // 2 + SEAT_RADIUS[0] * math.cos(a)
    hy = CANVAS_H // 2 + SEAT_RADIUS[1] * math.sin(a)
    per_line = 4 if abs(math.cos(a)) > 0.5 else 9
    out = []
    n_lines = (len(cards) + per_line - 1) // per_line
    for i, _ in enumerate(cards):
        line, k = divmod(i, per_line)
        in_line = min(per_line, len(cards) - line * per_line)
        width = CARD_W + (in_line - 1) * HAND_PITCH
        x = int(hx - width / 2 + k * HAND_PITCH)
        y = int(hy - (CARD_H + (n_lines - 1) * 60) / 2 + line * 60)
        x = min(max(x, 8), CANVAS_W - CARD_W - 8)
        y = min(max(y, 8), CANVAS_H - CARD_H - 8)
        out.append((x, y))
    return out


# --------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class Camera:
    """A webcam at an angle: the homography from table canvas to picture, and the picture size."""

    H: np.ndarray
    size: tuple[int, int]  # (width, height)

    @classmethod
    def tilted(cls, rng: np.random.Generator, size: tuple[int, int] = (1280, 720), tilt: float | None = None) -> "Camera":
        """The far edge of the table looks narrower (camera on the first player's side, looking down at an angle)."""
        w, h = size
        tilt = rng.uniform(0.12, 0.3) if tilt is None else tilt
        m = 0.03
        dst = np.float32([
            [-m * w + tilt * w, -m * h],
            [(1 + m) * w - tilt * w, -m * h],
            [(1 + m) * w, (1 + m) * h],
            [-m * w, (1 + m) * h],
        ])
        dst += rng.normal(0, 0.012 * w, dst.shape).astype(np.float32)
        src = np.float32([[0, 0], [CANVAS_W, 0], [CANVAS_W, CANVAS_H], [0, CANVAS_H]])
        return cls(cv2.getPerspectiveTransform(src, dst), (w, h))

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), self.H).reshape(-1, 2)


# --------------------------------------------------------------------------- frames


@dataclass(frozen=True)
class CardTruth:
    """What the picture really shows of one card."""

    card: str
    corners: tuple[tuple[float, float], ...]  # outline in picture pixels, clockwise from top-left
    box: tuple[float, float, float, float]
    index_visible: float  # share of its top-left index block not covered by other cards or an arm
    place: str  # 'row' or the name of the player whose hand it is


@dataclass
class VideoFrame:
    """One rendered frame with its truth."""

    index: int
    image: np.ndarray
    cards: list[CardTruth]
    covered: bool  # an arm is over the table
    arm_seat: int | None = None


@dataclass
class Arm:
    seat: int
    target: tuple[float, float]  # canvas point the hand reaches
    reach: float  # 0 (outside the table) .. 1 (hand on the target)
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


def _scaled(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(min(255, c * k)) for c in colour)  # type: ignore[return-value]


def _felt(rng: np.random.Generator) -> np.ndarray:
    """A table cloth: a colour with low-frequency shading and fine grain."""
    base = np.array(
        [rng.uniform(20, 90), rng.uniform(60, 140), rng.uniform(20, 90)] if rng.random() < 0.6 else
        [rng.uniform(40, 120), rng.uniform(60, 110), rng.uniform(90, 160)], np.float32)
    small = rng.normal(0, 10, (CANVAS_H // 100, CANVAS_W // 100, 1)).astype(np.float32)
    shade = cv2.resize(small, (CANVAS_W, CANVAS_H), interpolation=cv2.INTER_CUBIC)[:, :, None]
    grain = rng.normal(0, 5, (CANVAS_H, CANVAS_W, 1)).astype(np.float32)
    return np.clip(base + shade + grain, 0, 255).astype(np.uint8)


SKINS = [(185, 205, 240), (140, 170, 215), (95, 130, 185), (60, 90, 140), (45, 65, 100), (170, 195, 225)]


class TableRenderer:
    """Draws table states and films them. One instance per round (one camera, one cloth, one light)."""

    def __init__(self, deck: dict[str, np.ndarray], players: Sequence[str], layout: str, rng: np.random.Generator,
                 size: tuple[int, int] = (1280, 720), noise: float = 3.0):
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; use one of {', '.join(LAYOUTS)}")
        self.faces = _fit(deck)
        self.players = list(players)
        self.layout = layout
        self.rng = rng
        self.camera = Camera.tilted(rng, size)
        self.cloth = _felt(rng)
        self.centre = (CANVAS_W // 2 + int(rng.integers(-40, 40)), CANVAS_H // 2 + int(rng.integers(-30, 30)))
        self.row_of_suit = {s: i for i, s in enumerate(rng.permutation(list(SUITS)))}
        self.noise = noise
        w, h = size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = 1.0 - 0.25 * (((xx - w * rng.uniform(0.3, 0.7)) / w) ** 2 + ((yy - h * rng.uniform(0.2, 0.8)) / h) ** 2)
        self.light = (g * rng.uniform(0.8, 1.15))[:, :, None].astype(np.float32)
        self._light_mean = float(self.light.mean())
        self.skin = SKINS[int(rng.integers(len(SKINS)))]
        self.sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
        self.places: dict[str, Placement] = {}
        self._canvas: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._noise_pool: list[tuple[np.ndarray, np.ndarray]] = []
        self._ids: np.ndarray | None = None

    # --- state
    def put_in_row(self, card: str) -> tuple[float, float]:
        x, y, z = row_position(card, self.row_of_suit[card[1]], self.layout, self.centre)
        x += int(self.rng.integers(-2, 3))
        y += int(self.rng.integers(-2, 3))
        self.places[card] = Placement(card, x, y, z, "row")
        self._canvas = None
        return x + CARD_W / 2, y + CARD_H / 2

    def take_back(self, card: str) -> None:
        self.places.pop(card, None)
        self._canvas = None

    def lay_down_hand(self, player: str, cards: Sequence[str]) -> tuple[float, float]:
        seat = self.players.index(player)
        pos = hand_positions(cards, seat, len(self.players))
        for i, (c, (x, y)) in enumerate(zip(cards, pos)):
            self.places[c] = Placement(c, x, y, 100.0 + i, player)
        self._canvas = None
        xs = [p[0] for p in pos]
        ys = [p[1] for p in pos]
        return (min(xs) + max(xs) + CARD_W) / 2, (min(ys) + max(ys) + CARD_H) / 2

    def _ordered(self) -> list[Placement]:
        return sorted(self.places.values(), key=lambda p: (p.z, p.card))

    def _draw_state(self) -> None:
        canvas = self.cloth.copy()
        ids = np.full((CANVAS_H, CANVAS_W), -1, np.int16)
        for p in self._ordered():
            canvas[p.y:p.y + CARD_H, p.x:p.x + CARD_W] = self.faces[p.card]
            ids[p.y:p.y + CARD_H, p.x:p.x + CARD_W] = CODES.index(p.card)
        self._canvas, self._ids, self._still = canvas, ids, None

    # --- arms
    def arm_polygons(self, arm: Arm) -> list[tuple[np.ndarray, str]]:
        """The arm on the table canvas as polygons (sleeve, forearm, hand), from outside the seat's edge."""
        a = seat_angle(arm.seat, len(self.players))
        tx, ty = arm.target
        sx = CANVAS_W / 2 + 1400 * math.cos(a)
        sy = CANVAS_H / 2 + 1000 * math.sin(a)
        hx, hy = sx + (tx - sx) * arm.reach, sy + (ty - sy) * arm.reach
        d = max(math.hypot(hx - sx, hy - sy), 1.0)
        ux, uy = (hx - sx) / d, (hy - sy) / d
        nx, ny = -uy, ux

        def band(t0: float, t1: float, half: float) -> np.ndarray:
            p0 = (sx + ux * t0, sy + uy * t0)
            p1 = (sx + ux * t1, sy + uy * t1)
            return np.float32([[p0[0] + nx * half, p0[1] + ny * half], [p1[0] + nx * half, p1[1] + ny * half],
                               [p1[0] - nx * half, p1[1] - ny * half], [p0[0] - nx * half, p0[1] - ny * half]])

        cuff = max(d - 420, 0.0)
        hand = cv2.ellipse2Poly((int(hx), int(hy)), (85, 60), int(math.degrees(math.atan2(uy, ux))), 0, 360, 20)
        return [(band(0, cuff, 58), "sleeve"), (band(cuff, d, 46), "skin"), (hand.astype(np.float32), "hand")]

    def _draw_arm(self, img: np.ndarray, arm: Arm) -> None:
        """The forearm and sleeve in the picture, from the hand back out past the picture's edge.

        Drawn as a thick line through projected points (not a projected polygon): a polygon corner far
        off the table can fall behind the camera, where a homography folds it back into the picture."""
        a = seat_angle(arm.seat, len(self.players))
        tx, ty = arm.target
        sx, sy = CANVAS_W / 2 + 1400 * math.cos(a), CANVAS_H / 2 + 1000 * math.sin(a)
        hx, hy = sx + (tx - sx) * arm.reach, sy + (ty - sy) * arm.reach
        d = max(math.hypot(hx - sx, hy - sy), 1.0)
        ux, uy = (sx - hx) / d, (sy - hy) / d  # from the hand towards the seat
        w, h = self.camera.size
        Hm = self.camera.H
        t = np.arange(0, 80) * 30.0
        cx, cy = hx + ux * t, hy + uy * t
        ahead = Hm[2, 0] * cx + Hm[2, 1] * cy + Hm[2, 2] > 1e-6  # points behind the camera are dropped
        if not ahead.all():
            k = int(np.argmin(ahead))
            t, cx, cy = t[:k], cx[:k], cy[:k]
        if len(t) < 2:
            return
        pts = np.stack([np.stack([cx, cy], 1), np.stack([cx - uy * 46, cy + ux * 46], 1),
                        np.stack([cx + uy * 46, cy - ux * 46], 1)])
        proj = self.camera.project(pts.reshape(-1, 2)).reshape(3, -1, 2)
        centre = proj[0]
        width = np.linalg.norm(proj[1] - proj[2], axis=1)
        inside = (centre[:, 0] > -w * 0.3) & (centre[:, 0] < w * 1.3) & (centre[:, 1] > -h * 0.3) & (centre[:, 1] < h * 1.3)
        last = int(np.argmin(inside)) if not inside.all() else len(t) - 1
        for k in range(1, last + 1):
            colour = arm.skin if t[k] < 420 else arm.sleeve
            thick = max(2, int(width[k] * (1.0 if t[k] < 420 else 1.25)))
            cv2.line(img, (int(centre[k - 1, 0]), int(centre[k - 1, 1])), (int(centre[k, 0]), int(centre[k, 1])),
                     colour, thick, cv2.LINE_AA)

    def film(self, index: int, arm: Arm | None = None, blur: int = 0) -> VideoFrame:
        if self._canvas is None:
            self._draw_state()
        assert self._canvas is not None and self._ids is not None
        w, h = self.camera.size
        if self._still is None:  # the lit picture of this table state, made once
            still = cv2.warpPerspective(self._canvas, self.camera.H, (w, h), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)
            self._still = np.clip(still.astype(np.float32) * self.light, 0, 255).astype(np.uint8)
        img = self._still.copy()
        mask = None
        if arm is not None:
            lit = self._light_mean
            arm = Arm(arm.seat, arm.target, arm.reach, _scaled(arm.skin, lit), _scaled(arm.sleeve, lit))
            mask = np.zeros((CANVAS_H // 4, CANVAS_W // 4), np.uint8)
            for poly, part in self.arm_polygons(arm):
                cv2.fillPoly(mask, [np.round(poly / 4).astype(np.int32)], 1)
                if part == "hand":
                    cv2.fillPoly(img, [np.round(self.camera.project(poly)).astype(np.int32)], arm.skin, cv2.LINE_AA)
            self._draw_arm(img, arm)
        if blur:
            img = cv2.GaussianBlur(img, (0, 0), blur)
        if self.noise:  # sensor noise in 4x4 blocks, from a small pool made once (saturating adds: fast)
            if not self._noise_pool:
                for _ in range(6):
                    n = self.rng.normal(0, self.noise, (h // 4, w // 4)).astype(np.float32)
                    n = cv2.cvtColor(cv2.resize(n, (w, h), interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
                    self._noise_pool.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
            up, down = self._noise_pool[int(self.rng.integers(len(self._noise_pool)))]
            img = cv2.subtract(cv2.add(img, up), down)
        return VideoFrame(index, img, self._truth(mask), arm is not None, None if arm is None else arm.seat)

    def _truth(self, mask: np.ndarray | None) -> list[CardTruth]:
        out = []
        assert self._ids is not None
        for p in self.places.values():
            cid = CODES.index(p.card)
            ids = self._ids[p.y + 2:p.y + INDEX_H, p.x + 2:p.x + INDEX_W]
            vis = ids == cid
            if mask is not None:
                arm = cv2.resize(mask[p.y // 4:(p.y + INDEX_H) // 4 + 1, p.x // 4:(p.x + INDEX_W) // 4 + 1],
                                 None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
                arm = arm[(p.y + 2) - (p.y // 4) * 4:, (p.x + 2) - (p.x // 4) * 4:][:vis.shape[0], :vis.shape[1]]
                vis &= arm == 0
            corners = self.camera.project(np.float32([[p.x, p.y], [p.x + CARD_W, p.y], [p.x + CARD_W, p.y + CARD_H], [p.x, p.y + CARD_H]]))
            box = (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()), float(corners[:, 1].max()))
            out.append(CardTruth(p.card, tuple((float(x), float(y)) for x, y in corners), box, float(vis.mean()), p.place))
        return out


# --------------------------------------------------------------------------- whole rounds


@dataclass
class GameVideo:
    """A rendered round (or several: `render_night`): its frames (a generator), the passes declared, and the record it shows."""

    frames: Iterator[VideoFrame]
    passes: list[dict]  # {"frame": N, "player": name}, filled while frames are produced
    truth: list[dict]  # record lines (JSON objects) the video shows, filled while frames are produced
    size: tuple[int, int]


def _event_dicts(record_lines: Sequence[dict]) -> list[dict]:
    return [dict(e) for e in record_lines]


def render_round(record: Sequence[dict], layout: str, seed: int, deck: dict[str, np.ndarray] | None = None,
                 size: tuple[int, int] = (1280, 720), reach_frames: int = 3, still_frames: int = 4,
                 show_frames: int = 30) -> GameVideo:
    """Film the first round of a record whose `round` line carries the dealt hands.

    Each play: the arm comes in from the player's seat over `reach_frames`, the card is put down under
    the hand, the arm withdraws, then the table stands still for `still_frames`. A flagged illegal play
    (a card that does not fit) lies there for a while and is taken back. A pass is declared on the
    first of two still frames. At the end every player still holding cards lays them down fanned in
    front of their seat, clockwise from the winner's left (the order the `show` lines are written in).
    """
    return render_night(record, layout, seed, deck, size, reach_frames, still_frames, show_frames, rounds=1)


def render_night(record: Sequence[dict], layout: str, seed: int, deck: dict[str, np.ndarray] | None = None,
                 size: tuple[int, int] = (1280, 720), reach_frames: int = 3, still_frames: int = 4,
                 show_frames: int = 30, clear_frames: int = 30, rounds: int | None = None) -> GameVideo:
    """Film the rounds of a record one after another in one video: one evening at one table (one
    camera, one cloth, one light), each round as `render_round` films it. Between two rounds the
    dealer of the round just played reaches in and gathers every card (they go at once, under the
    hand), and the table then stands clear for `clear_frames` before the next round's first card.
    (The deal itself is not filmed: hands are dealt off the table's middle, face down.) `rounds`: film
    at most that many rounds (default: all). Every `round` line must carry the dealt hands."""
    rng = np.random.default_rng(seed)
    lines = _event_dicts(record)
    match = lines[0]
    if match.get("event") != "match":
        raise ValueError("a record starts with its match line")
    players = list(match["players"])
    starts = [i for i, e in enumerate(lines) if e.get("event") == "round"]
    if not starts:
        raise ValueError("the record has no round line")
    starts = starts[:rounds] if rounds is not None else starts
    if any(not lines[i].get("hands") for i in starts):
        raise ValueError("the record's round line must carry the dealt hands (simulate with known hands)")
    renderer = TableRenderer(deck if deck is not None else drawn_deck(), players, layout, rng, size)
    passes: list[dict] = []
    truth: list[dict] = [match]
    n = 0
    skin, sleeve = renderer.skin, renderer.sleeve
    ins = [(k + 1) / (reach_frames + 1) for k in range(reach_frames)]

    def reach(seat: int, target, steps) -> Iterator[VideoFrame]:
        nonlocal n
        for r in steps:
            frame = renderer.film(n, Arm(seat, target, r, skin, sleeve), blur=int(rng.random() < 0.3))
            n += 1
            yield frame

    def still(k: int) -> Iterator[VideoFrame]:
        nonlocal n
        for _ in range(k):
            yield renderer.film(n)
            n += 1

    def one_round(rnd_i: int) -> Iterator[VideoFrame]:
        hands = {p: list(cs) for p, cs in lines[rnd_i]["hands"].items()}
        truth.append({"event": "round", "dealer": lines[rnd_i]["dealer"]})
        body = []
        for e in lines[rnd_i + 1:]:
            if e.get("event") == "round":
                break
            body.append(e)
        yield from still(still_frames)
        table: set[str] = set()
        for e in body:
            kind = e.get("event")
            if kind == "play":
                p, c = e["player"], _canon(e["card"])
                seat = players.index(p)
                legal = _fits(c, table) and c in hands.get(p, [])
                x, y, _ = row_position(c, renderer.row_of_suit[c[1]], layout, renderer.centre)
                target = (x + CARD_W / 2, y + CARD_H / 2)
                yield from reach(seat, target, ins)
                renderer.put_in_row(c)
                yield from reach(seat, target, [1.0])
                yield from reach(seat, target, ins[::-1])
                yield from still(still_frames)
                truth.append({"event": "play", "player": p, "card": c})
                if legal:
                    table.add(c)
                    hands[p].remove(c)
                    if not hands[p]:
                        break
                else:  # an illegal card: it lies there a while, then its player takes it back
                    yield from still(2 * still_frames)
                    yield from reach(seat, target, ins + [1.0])
                    renderer.take_back(c)
                    yield from reach(seat, target, ins[::-1])
                    yield from still(still_frames)
            elif kind == "pass":
                passes.append({"frame": n, "player": e["player"]})
                truth.append({"event": "pass", "player": e["player"]})
                yield from still(2)
            elif kind == "end":
                break
        winner = next((p for p in players if not hands[p]), None)
        if winner is not None:
            start = (players.index(winner) + 1) % len(players)
            order = [players[(start + k) % len(players)] for k in range(len(players))]
            for p in order:
                if not hands[p]:
                    continue
                cards = sorted(hands[p], key=CODES.index)
                seat = players.index(p)
                x, y = hand_positions(cards, seat, len(players))[len(cards) // 2]
                target = (x + CARD_W / 2, y + CARD_H / 2)
                yield from reach(seat, target, ins + [1.0])
                renderer.lay_down_hand(p, cards)
                yield from reach(seat, target, ins[::-1])
                yield from still(still_frames)
                truth.append({"event": "show", "player": p, "cards": cards})
            yield from still(show_frames)
            truth.append({"event": "end"})

    def gen() -> Iterator[VideoFrame]:
        for k, rnd_i in enumerate(starts):
            if k:  # the last dealer gathers the cards; the table stands clear
                seat = players.index(lines[starts[k - 1]]["dealer"])
                yield from reach(seat, renderer.centre, ins + [1.0])
                for card in list(renderer.places):
                    renderer.take_back(card)
                yield from reach(seat, renderer.centre, ins[::-1])
                yield from still(clear_frames)
            yield from one_round(rnd_i)

    return GameVideo(gen(), passes, truth, size)


def _canon(code: str) -> str:
    code = code.strip()
    rank = code[:-1].upper().replace("10", "T")
    return rank + code[-1].lower()


def _fits(card: str, table: set[str]) -> bool:
    """Ace-low Fan Tan row rule, for telling the renderer that a card is put back (fan-tan family)."""
    r, s = rank_of(card), card[1]
    if card in table:
        return False
    if r == 7:
        return True
    have = [rank_of(c) for c in table if c[1] == s]
    if not have:
        return False
    return r == min(have) - 1 or r == max(have) + 1


# --------------------------------------------------------------------------- the oracle (tests only)


@dataclass(frozen=True)
class OracleDetection:
    """Same fields as vision.detector.Detection."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: tuple[tuple[float, float], ...] | None = None


def frame_key(image: np.ndarray) -> str:
    """A fingerprint of a frame's pixels, to find its truth again (all pixels: a card put exactly on a
    pile changes only a few of them)."""
    return hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).hexdigest()


class OracleDetector:
    """FOR TESTS AND BENCHMARKS ONLY: "detects" from the renderer's ground truth, with realistic noise.

    A card is reported only when most of its corner index shows (nothing under an arm or a pile);
    then it is still dropped now and then, its outline jittered, its confidence noisy, and once in a
    while a card is misread as another. It lets the stabiliser, table model and attribution be tested
    apart from the recogniser's quality. `learn(frame)` before `detect(frame.image)`.
    """

    def __init__(self, seed: int = 0, drop: float = 0.08, jitter: float = 1.5, misread: float = 0.01,
                 min_visible: float = 0.6):
        self.rng = np.random.default_rng(seed)
        self.drop, self.jitter, self.misread, self.min_visible = drop, jitter, misread, min_visible
        self._truth: dict[str, list[CardTruth]] = {}  # by fingerprint, for frames read back from files
        self._current: tuple[np.ndarray, list[CardTruth]] | None = None

    def learn(self, frame: VideoFrame) -> None:
        """The truth of the frame about to be detected (the same picture object: no fingerprint needed)."""
        self._current = (frame.image, frame.cards)

    @classmethod
    def from_folder(cls, folder: Path, **kwargs) -> "OracleDetector":
        """The oracle for a video written by `write_video` (its cards.jsonl)."""
        oracle = cls(**kwargs)
        for line in (Path(folder) / "cards.jsonl").read_text().splitlines():
            rec = json.loads(line)
            oracle._truth[rec["key"]] = [CardTruth(c["card"], tuple(tuple(p) for p in c["corners"]), tuple(c["box"]),
                                                   c["index_visible"], c["place"]) for c in rec["cards"]]
        return oracle

    def forget(self, frame: VideoFrame) -> None:
        self._current = None

    def detect(self, image: np.ndarray) -> list[OracleDetection]:
        if self._current is not None and image is self._current[0]:
            truth = self._current[1]
        else:
            truth = self._truth.get(frame_key(image))
        if truth is None:
            raise KeyError("the oracle knows nothing of this frame (call learn() first)")
        out: list[OracleDetection] = []
        present = {t.card for t in truth}
        for t in truth:
            if t.index_visible < self.min_visible or self.rng.random() < self.drop:
                continue
            card = t.card
            conf = float(np.clip(self.rng.normal(0.86, 0.08), 0.3, 0.999))
            others = [c for c in CODES if c not in present]
            if others and self.rng.random() < self.misread:
                card = others[int(self.rng.integers(len(others)))]
                conf = float(self.rng.uniform(0.4, 0.8))
            corners = np.asarray(t.corners) + self.rng.normal(0, self.jitter, (4, 2))
            box = (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()), float(corners[:, 1].max()))
            out.append(OracleDetection(card, conf, box, tuple((float(x), float(y)) for x, y in corners)))
        seen: dict[str, OracleDetection] = {}
        for d in out:  # one entry per card identity, like the real detector
            if d.card not in seen or d.confidence > seen[d.card].confidence:
                seen[d.card] = d
        return list(seen.values())


def write_video(video: GameVideo, out: Path, ext: str = "png") -> int:
    """Frames as numbered images, per-frame truth, passes and the truth record. Returns frames written."""
    frames_dir = out / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(out / "cards.jsonl", "w") as cards_file:
        for f in video.frames:
            cv2.imwrite(str(frames_dir / f"{f.index:06d}.{ext}"), f.image)
            cards_file.write(json.dumps({"frame": f.index, "key": frame_key(f.image), "covered": f.covered, "cards": [
                {"card": c.card, "corners": c.corners, "box": c.box, "index_visible": round(c.index_visible, 3), "place": c.place}
                for c in f.cards]}) + "\n")
            n += 1
    (out / "passes.jsonl").write_text("".join(json.dumps(p) + "\n" for p in video.passes))
    (out / "truth.jsonl").write_text("".join(json.dumps(e) + "\n" for e in video.truth))
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.game_video", description=__doc__.splitlines()[0])
    ap.add_argument("--record", required=True, type=Path, help="a record whose round line carries the hands (fantan simulate)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--layout", choices=LAYOUTS, default="spread")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deck", default="drawn",
                    help="drawn | photo | an artwork deck name | a folder of card photographs (Ah.jpg ...)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--ext", default="png", choices=["png", "jpg"])
    ap.add_argument("--rounds", type=int, default=1,
                    help="film this many rounds of the record one after another (0: all), the table gathered between")
    args = ap.parse_args(argv)
    try:
        record = [json.loads(line) for line in args.record.read_text().splitlines() if line.strip()]
        w, h = (int(v) for v in args.size.lower().split("x"))
        if args.rounds < 0:
            raise ValueError("--rounds takes 0 (all) or more")
        video = render_night(record, args.layout, args.seed, load_deck(args.deck), (w, h), rounds=args.rounds or None)
        n = write_video(video, args.out, args.ext)
    except (OSError, ValueError, KeyError) as exc:
        print(f"game_video: {exc}", file=sys.stderr)
        return 2
    print(f"{n} frames, {len(video.passes)} passes, {len(video.truth)} record lines -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
