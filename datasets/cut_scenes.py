"""Pictures of a banker's cut, counted out face down in groups of four (Chinese Fan-Tan).

The banker cuts 18 to 52 cards and lays them out in fours; the last group holds what is left over
(1 to 4 cards). Each group is a small staggered spread: every card lies a little to one side of the
one below, so that each card's edge shows. How far, which way (along the card's width, its length
or diagonally), and how neatly varies from picture to picture; so do the table, the camera angle, the
light, blur and noise. The scene renderer (datasets/scene.py), table textures (datasets/tables.py)
and card backs (datasets/artwork.py, ``data/artwork/<deck>/back.png``) are the ones the recognizer is
trained on; this module only places the cards.

    >>> rng = np.random.default_rng(1)
    >>> cut = make_cut_scene(rng, back, table_tiles=[])     # doctest: +SKIP
    >>> cut.count, cut.groups                                # doctest: +SKIP
    (23, [4, 4, 4, 4, 4, 3])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.artwork import Deck, load_decks
from datasets.layouts import CardPose
from datasets.scene import Camera, camera_effects, render
from datasets.tables import load_gimp_tiles, table_texture

MIN_CUT, MAX_CUT = 18, 52  # scorekeeper.banking.layout: a third of the pack to the whole pack
SIZE = (1280, 720)
#: how the cards of a group are pushed apart: along the card's width, its length, or both
STAGGERS = ("across", "along", "diagonal")


@dataclass
class CutScene:
    """A rendered cut: the picture and the truth (group sizes in laying order, card quads)."""

    image: np.ndarray  # BGR uint8
    count: int
    groups: list[int]
    quads: list[list[np.ndarray]] = field(default_factory=list)  # per group, per card: (4, 2) image px
    style: dict = field(default_factory=dict)


def group_sizes(count: int) -> list[int]:
    """Fours, then the remainder as a last, smaller group (none when the count divides by four)."""
    if not MIN_CUT <= count <= MAX_CUT:
        raise ValueError(f"a cut holds {MIN_CUT} to {MAX_CUT} cards, not {count}")
    sizes = [4] * (count // 4)
    if count % 4:
        sizes.append(count % 4)
    return sizes


def _group_poses(rng: np.random.Generator, n: int, cx: float, cy: float, angle: float, card_h: float,
                 aspect: float, step: tuple[float, float], z0: int, neat: float) -> list[CardPose]:
    """`n` cards, each pushed by `step` (card-axis units: x across the width, y along the length) from
    the one below and laid on top of it; `neat` (0..1) scales the hand's wobble."""
    w = card_h * aspect
    t = math.radians(angle)
    ux, uy = math.cos(t), -math.sin(t)  # the card's width direction on the table (y down)
    vx, vy = math.sin(t), math.cos(t)  # its length direction
    sx, sy = step[0] * w, step[1] * card_h
    poses = []
    for k in range(n):
        a = (k - (n - 1) / 2) * sx + rng.normal(0, 0.12 * abs(sx) + 0.004 * w) * (1 - neat)
        b = (k - (n - 1) / 2) * sy + rng.normal(0, 0.12 * abs(sy) + 0.004 * card_h) * (1 - neat)
        turn = rng.normal(0, 2.0) * (1 - neat)
        poses.append(CardPose("As", cx + a * ux + b * vx, cy + a * uy + b * vy, angle + turn, card_h,
                              z0 + k, face_up=False))
    return poses


def cut_poses(rng: np.random.Generator, count: int, width: int, height: int, aspect: float,
              stagger: str | None = None) -> tuple[list[CardPose], list[int], dict]:
    """Card poses of a cut laid out in rows of groups, as a banker counts it out on the table.
    `stagger` (one of STAGGERS) fixes which way the cards of a pile are pushed; None: random."""
    sizes = group_sizes(count)
    kind = STAGGERS[int(rng.integers(len(STAGGERS)))]
    if stagger is not None:
        if stagger not in STAGGERS:
            raise ValueError(f"stagger is one of {STAGGERS}, not {stagger!r}")
        kind = stagger
    amount = rng.uniform(0.1, 0.32)  # of the card's width (or length) between neighbours
    if kind == "across":
        step = (amount, 0.0)
    elif kind == "along":
        step = (0.0, amount * 0.75)
    else:
        step = (amount * 0.8, amount * 0.55)
    step = (step[0] * rng.choice([-1, 1]), step[1] * rng.choice([-1, 1]))
    angle = rng.normal(0, 8) + (90 if rng.random() < 0.2 else 0)
    # the size of one group on the table, then as many per row as fit; shrink the cards until it fits
    card_h = rng.uniform(105, 150)
    for _ in range(20):
        w = card_h * aspect
        # a pile's footprint plus a clear gap to the next: the banker keeps the piles apart to count them
        pw = w + 3 * abs(step[0]) * w
        ph = card_h + 3 * abs(step[1]) * card_h
        c, si = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
        gw = pw * c + ph * si + 0.3 * w  # the turned pile's width on the table, and a gap
        gh = pw * si + ph * c + 0.25 * card_h
        per_row = max(1, int(width * 0.9 // gw))
        rows = math.ceil(len(sizes) / per_row)
        if rows * gh <= height * 0.88:
            break
        card_h *= 0.92
    gap = rng.uniform(0.0, 0.5)
    pitch_x = gw * (1 + gap * 0.3)
    pitch_y = gh * (1 + gap * 0.2)  # the wobble below stays well inside the gap
    per_row = max(1, min(per_row, int(width * 0.92 // pitch_x)))
    rows = math.ceil(len(sizes) / per_row)
    poses: list[CardPose] = []
    z = 0
    for g, n in enumerate(sizes):
        r, c = divmod(g, per_row)
        in_row = min(per_row, len(sizes) - r * per_row)
        cx = width / 2 + (c - (in_row - 1) / 2) * pitch_x + rng.uniform(-0.03, 0.03) * w
        cy = height / 2 + (r - (rows - 1) / 2) * pitch_y + rng.uniform(-0.03, 0.03) * card_h
        poses += _group_poses(rng, n, cx, cy, angle + rng.normal(0, 3), card_h, aspect, step, z,
                              neat=rng.uniform(0.3, 1.0))
        z += 10
    style = {"stagger": kind, "step": [round(float(s), 3) for s in step], "card_h": round(card_h, 1),
             "angle": round(float(angle), 1)}
    return poses, sizes, style


def _one_card_deck(back: np.ndarray) -> dict[str, Deck]:
    """A deck whose every card is face down with `back` (BGRA): all a cut needs."""
    deck = Deck(name="cut", split="val", corners=2, images={"As": back}, index={"As": (0, 0, 1, 1)})
    deck._back = back
    return {"cut": deck}


def make_cut_scene(rng: np.random.Generator, back: np.ndarray, table_tiles: list[np.ndarray] | None = None,
                   count: int | None = None, size: tuple[int, int] = SIZE, effects: bool = True,
                   tilt: float | None = None, stagger: str | None = None,
                   table: np.ndarray | None = None) -> CutScene:
    """One picture of a cut of `count` cards (random 18..52 when None) with the card back `back`
    (BGRA or BGR), on a random table (or `table`, BGR) seen by a random camera."""
    if back.ndim == 3 and back.shape[2] == 3:
        back = cv2.cvtColor(back, cv2.COLOR_BGR2BGRA)
    W, H = size
    count = int(rng.integers(MIN_CUT, MAX_CUT + 1)) if count is None else count
    aspect = back.shape[1] / back.shape[0]
    poses, sizes, style = cut_poses(rng, count, W, H, aspect, stagger)
    if table is None:
        table = table_texture(rng, H // 2, W // 2, table_tiles or [])
    table = cv2.resize(table, (W, H), interpolation=cv2.INTER_LINEAR)
    tilt = rng.uniform(0, 0.3) if tilt is None else tilt
    camera = Camera.tilted(W, H, tilt=tilt, roll=rng.normal(0, 4), zoom=rng.uniform(0.92, 1.05),
                           shift=(rng.normal(0, 0.02 * W), rng.normal(0, 0.02 * H)), skew=rng.normal(0, 0.05))
    base = rng.uniform(0.82, 1.0)
    tint = (base * rng.uniform(0.9, 1.0), base * rng.uniform(0.95, 1.0), base * rng.uniform(0.95, 1.02))
    scene = render(table, camera, poses, _one_card_deck(back), "cut", shadow=rng.uniform(0.1, 0.45), card_tint=tint)
    image = camera_effects(scene.image, rng, strength=rng.uniform(0.3, 0.9)) if effects else scene.image
    quads: list[list[np.ndarray]] = []
    k = 0
    for n in sizes:
        quads.append([scene.cards[k + j].quad for j in range(n)])
        k += n
    style["tilt"] = round(float(tilt), 3)
    return CutScene(image, count, sizes, quads, style)


def artwork_backs(artwork: Path = Path("data/artwork")) -> dict[str, np.ndarray]:
    """deck name -> its back (BGRA) from the artwork cache (`fantan dataset artwork` makes it)."""
    out = {}
    for deck in load_decks(artwork):
        if deck.back is not None:
            out[deck.name] = deck.back
    return out


def table_tiles() -> list[np.ndarray]:
    """GIMP's pattern tiles when Debian's gimp-data is installed (else procedural tables only)."""
    return load_gimp_tiles()


def plain_back(height: int = 360, colour: tuple[int, int, int] = (150, 60, 30), seed: int = 0) -> np.ndarray:
    """A simple card back drawn here (BGRA): a white margin, a coloured field with a lattice and
    rounded corners. For tests and demos that must not need the artwork cache."""
    w = int(round(height * 0.69))
    rng = np.random.default_rng(seed)
    img = np.full((height, w, 3), 250, np.uint8)
    m = max(3, int(0.06 * w))
    cv2.rectangle(img, (m, m), (w - 1 - m, height - 1 - m), colour, cv2.FILLED)
    light = tuple(int(min(255, c + 70)) for c in colour)
    step = max(6, int(0.12 * w))
    for k in range(-height, w + height, step):
        cv2.line(img, (m + k, m), (m + k + height, m + height), light, max(1, height // 120))
        cv2.line(img, (m + k, m), (m + k - height, m + height), light, max(1, height // 120))
    img[:m] = 250
    img[-m:] = 250
    img[:, :m] = 250
    img[:, -m:] = 250
    img = np.clip(img.astype(np.int16) + rng.integers(-3, 4, img.shape), 0, 255).astype(np.uint8)
    alpha = np.zeros((height, w), np.uint8)
    r = max(2, int(0.05 * w))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, height - 1), 255, cv2.FILLED)
    cv2.rectangle(alpha, (0, r), (w - 1, height - 1 - r), 255, cv2.FILLED)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, height - 1 - r), (w - 1 - r, height - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, cv2.FILLED, cv2.LINE_AA)
    return np.dstack([img, alpha])
