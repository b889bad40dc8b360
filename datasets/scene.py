"""Render a table scene as a camera sees it, with ground truth for every card and corner index.

The renderer takes a table texture, a camera (a homography from the table plane to the picture: tilt,
roll, zoom), card poses (datasets/layouts.py) and optional occluders (hands and arms), and returns the
picture plus, per card, its quad in image pixels and each corner index's box and *visibility*: the
fraction of the index's pixels that the camera really sees, computed from the z-ordered card masks,
the occluders and the frame edge. Training labels keep only indices seen well enough (``MIN_VISIBLE``).

Example:

    >>> from datasets.layouts import layout_rows
    >>> poses = layout_rows({"h": ["6h", "7h", "8h"]}, "fanned", (320, 240), 110)   # doctest: +SKIP
    >>> scene = render(table, Camera.flat(640, 480), poses, decks, "anglo")        # doctest: +SKIP
    >>> [(c.code, [round(i.visibility, 2) for i in c.indices]) for c in scene.cards]  # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.artwork import Deck, corner_boxes
from datasets.layouts import CardPose

MIN_VISIBLE = 0.6  # an index counts as seen when at least this fraction of it is uncovered and in frame


# --------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class Camera:
    """Maps the table plane (pixels) to the picture; ``width`` x ``height`` is the picture size."""

    width: int
    height: int
    homography: np.ndarray  # 3x3, table -> image

    @classmethod
    def flat(cls, width: int, height: int) -> "Camera":
        """Straight down on the table: table pixels are image pixels."""
        return cls(width, height, np.eye(3))

    @classmethod
    def tilted(
        cls, width: int, height: int, tilt: float = 0.0, roll: float = 0.0, zoom: float = 1.0, shift=(0.0, 0.0), skew: float = 0.0
    ) -> "Camera":
        """A camera looking at the table at an angle: ``tilt`` (0..0.45) narrows the far (top) side of
        the table by that fraction, ``roll`` turns the picture (degrees), ``zoom`` scales about the
        centre, ``skew`` narrows the left (negative) or right (positive) side for a camera off to one side."""
        w, h = float(width), float(height)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dx = tilt * w / 2
        dy = abs(skew) * h / 2
        dst = np.float32([[dx, 0], [w - dx, 0], [w, h], [0, h]])
        if skew > 0:
            dst[1, 1] += dy
            dst[2, 1] -= dy
        elif skew < 0:
            dst[0, 1] += dy
            dst[3, 1] -= dy
        H = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
        c = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], float)
        t = math.radians(roll)
        rz = np.array(
            [[zoom * math.cos(t), zoom * math.sin(t), 0], [-zoom * math.sin(t), zoom * math.cos(t), 0], [0, 0, 1]]
        )
        back = np.array([[1, 0, w / 2 + shift[0]], [0, 1, h / 2 + shift[1]], [0, 0, 1]], float)
        return cls(width, height, back @ rz @ c @ H)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table points (N, 2) to image points (N, 2)."""
        p = np.hstack([pts, np.ones((len(pts), 1))]) @ self.homography.T
        return p[:, :2] / p[:, 2:3]


# --------------------------------------------------------------------------- occluders


@dataclass(frozen=True)
class Occluder:
    """Something between the camera and the cards (a hand, an arm, a sleeve): a polygon in image
    pixels, filled with ``colour`` and shaded; ``softness`` blurs its edge (motion, focus)."""

    polygon: np.ndarray  # (N, 2) image pixels
    colour: tuple[int, int, int]
    softness: float = 1.5
    shade: float = 0.25  # darkening towards the edges, for a rounded look


SKIN = [(60, 90, 140), (80, 120, 180), (100, 145, 205), (120, 165, 225), (45, 70, 110), (140, 180, 230)]
SLEEVES = [(40, 40, 40), (120, 60, 30), (30, 30, 140), (200, 200, 200), (60, 110, 60), (90, 90, 90), (20, 20, 90)]


def _capsule(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float, n: int = 10) -> np.ndarray:
    """A tapered stroke from p0 to p1 with rounded ends, as a polygon."""
    d = p1 - p0
    a = math.atan2(d[1], d[0])
    pts = []
    for k in range(n + 1):
        t = a + math.pi / 2 + math.pi * k / n
        pts.append(p0 + r0 * np.array([math.cos(t), math.sin(t)]))
    for k in range(n + 1):
        t = a - math.pi / 2 + math.pi * k / n
        pts.append(p1 + r1 * np.array([math.cos(t), math.sin(t)]))
    return np.array(pts, np.float32)


def arm_from_edge(rng: np.random.Generator, width: int, height: int, scale: float, side: int | None = None) -> list[Occluder]:
    """A player's arm reaching in from one side of the picture to a point on the table, ending in a
    hand with fingers; the forearm may wear a sleeve. ``scale`` is about a card's height in pixels."""
    side = int(rng.integers(4)) if side is None else side
    w, h = width, height
    if side == 0:  # bottom
        p0 = np.array([rng.uniform(0.1, 0.9) * w, h + scale * 0.5])
    elif side == 1:  # right
        p0 = np.array([w + scale * 0.5, rng.uniform(0.1, 0.9) * h])
    elif side == 2:  # top
        p0 = np.array([rng.uniform(0.1, 0.9) * w, -scale * 0.5])
    else:
        p0 = np.array([-scale * 0.5, rng.uniform(0.1, 0.9) * h])
    target = np.array([rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h])
    d = target - p0
    L = float(np.hypot(*d))
    u = d / L
    reach = rng.uniform(0.45, 1.0)
    wrist = p0 + u * L * reach
    arm_r = scale * rng.uniform(0.35, 0.5)
    skin = SKIN[int(rng.integers(len(SKIN)))]
    skin = tuple(int(np.clip(c + rng.normal(0, 8), 0, 255)) for c in skin)
    out: list[Occluder] = []
    sleeve_frac = rng.uniform(0.0, 0.8)
    elbow = p0 + (wrist - p0) * sleeve_frac
    out.append(Occluder(_capsule(p0, wrist, arm_r * 1.1, arm_r * 0.85), skin, softness=rng.uniform(1, 4)))
    if sleeve_frac > 0.1:
        col = SLEEVES[int(rng.integers(len(SLEEVES)))]
        out.append(Occluder(_capsule(p0, elbow, arm_r * 1.35, arm_r * 1.25), col, softness=rng.uniform(1, 3)))
    # the hand: a palm and four or five fingers, spread a little
    palm_c = wrist + u * arm_r * 1.3
    out.append(Occluder(_capsule(wrist, palm_c, arm_r * 0.95, arm_r * 1.05), skin, softness=1.5))
    perp = np.array([-u[1], u[0]])
    n_f = int(rng.integers(3, 6))
    curl = rng.uniform(0.5, 1.2)
    for k in range(n_f):
        off = (k - (n_f - 1) / 2) / max(n_f - 1, 1)
        base = palm_c + perp * off * arm_r * 1.5 + u * arm_r * 0.6
        dirv = u + perp * off * rng.uniform(0.2, 0.6)
        dirv /= np.hypot(*dirv)
        tip = base + dirv * arm_r * rng.uniform(1.2, 2.0) * curl
        out.append(Occluder(_capsule(base, tip, arm_r * 0.24, arm_r * 0.2, 6), skin, softness=1.2))
    if rng.random() < 0.7:  # the thumb
        base = palm_c - perp * arm_r * 0.9 * rng.choice([-1, 1])
        tip = base + (u * 0.6 + (base - palm_c) / (np.hypot(*(base - palm_c)) + 1e-6)) * arm_r * 1.1
        out.append(Occluder(_capsule(base, tip, arm_r * 0.28, arm_r * 0.22, 6), skin, softness=1.2))
    return out


CHIP_COLOURS = [(40, 40, 200), (200, 80, 30), (40, 150, 40), (30, 30, 30), (230, 230, 230), (40, 170, 230), (150, 50, 140)]


def chip(rng: np.random.Generator, centre: tuple[float, float], radius: float) -> list[Occluder]:
    """A gambling chip (Fan Tan is played for chips): a coloured disc with white edge spots and an
    inner ring. Drawn over the cards, so a chip on a card hides what is under it."""
    cx, cy = centre
    col = CHIP_COLOURS[int(rng.integers(len(CHIP_COLOURS)))]
    t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    sq = rng.uniform(0.8, 1.0)  # seen a little from the side
    disc = np.stack([cx + radius * np.cos(t), cy + radius * sq * np.sin(t)], 1).astype(np.float32)
    out = [Occluder(disc, col, softness=0.8, shade=0.15)]
    for k in range(6):  # edge spots
        a0 = 2 * np.pi * k / 6
        a = np.linspace(a0, a0 + 0.35, 5)
        r0, r1 = radius * 0.72, radius * 0.98
        poly = np.concatenate([np.stack([cx + r1 * np.cos(a), cy + r1 * sq * np.sin(a)], 1),
                               np.stack([cx + r0 * np.cos(a[::-1]), cy + r0 * sq * np.sin(a[::-1])], 1)])
        out.append(Occluder(poly.astype(np.float32), (235, 235, 235), softness=0.6, shade=0.0))
    inner = np.stack([cx + radius * 0.55 * np.cos(t), cy + radius * 0.55 * sq * np.sin(t)], 1).astype(np.float32)
    out.append(Occluder(inner, tuple(int(c * 0.8) for c in col), softness=0.6, shade=0.1))
    return out


# --------------------------------------------------------------------------- ground truth


@dataclass
class IndexTruth:
    """One printed corner index as the camera sees it."""

    corner: int  # 0 top-left, 1 bottom-right (180 deg), 2 top-right, 3 bottom-left
    quad: np.ndarray  # (4, 2) image pixels
    box: tuple[float, float, float, float]  # axis-aligned, clipped to the frame (x0, y0, x1, y1)
    visibility: float  # fraction of its pixels that are in frame and uncovered


@dataclass
class CardTruth:
    code: str
    deck: str
    face_up: bool
    z: int
    quad: np.ndarray  # (4, 2) image pixels: top-left, top-right, bottom-right, bottom-left of the card
    indices: list[IndexTruth] = field(default_factory=list)
    visible_fraction: float = 0.0  # of the whole card


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    cards: list[CardTruth]

    def visible_indices(self, min_visible: float = MIN_VISIBLE) -> list[tuple[str, tuple[float, float, float, float]]]:
        """(card code, box) for every index a camera can read: the training labels."""
        out = []
        for c in self.cards:
            for i in c.indices:
                if i.visibility >= min_visible:
                    out.append((c.code, i.box))
        return out


# --------------------------------------------------------------------------- rendering


class _Mips:
    """Pre-shrunk copies of card images so that strong downscaling does not alias."""

    def __init__(self) -> None:
        self._cache: dict[int, list[np.ndarray]] = {}

    def get(self, image: np.ndarray, target_h: float) -> tuple[np.ndarray, float]:
        key = id(image)
        levels = self._cache.get(key)
        if levels is None or levels[0] is not image:
            if len(self._cache) > 3000:  # transient images (resized backs) must not pile up
                self._cache.clear()
            levels = [image]
            while levels[-1].shape[0] > 80:
                levels.append(cv2.resize(levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
            self._cache[key] = levels
        for lv in reversed(levels):
            if lv.shape[0] >= 1.4 * target_h:
                return lv, image.shape[0] / lv.shape[0]
        return levels[0], 1.0


_MIPS = _Mips()


def _card_matrix(pose: CardPose, w: int, h: int) -> np.ndarray:
    """Card pixels -> table pixels: scale to the pose's height, turn, move to its centre."""
    s = pose.height / h
    t = math.radians(pose.angle)
    c, si = math.cos(t), math.sin(t)
    # counter-clockwise on screen (y down): x' = c x + s y, y' = -s x + c y
    R = np.array([[c, si, 0], [-si, c, 0], [0, 0, 1]])
    S = np.diag([s, s, 1.0])
    T0 = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], float)
    T1 = np.array([[1, 0, pose.cx], [0, 1, pose.cy], [0, 0, 1]], float)
    return T1 @ R @ S @ T0


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def _draw_occluders(image: np.ndarray, occ_mask: np.ndarray, occluders: list[Occluder]) -> None:
    H, W = image.shape[:2]
    for oc in occluders:
        poly = np.round(oc.polygon).astype(np.int32)
        x0, y0 = np.maximum(poly.min(axis=0) - 8, 0)
        x1, y1 = np.minimum(poly.max(axis=0) + 8, [W - 1, H - 1])
        if x1 <= x0 or y1 <= y0:
            continue
        m = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
        cv2.fillPoly(m, [poly - [x0, y0]], 255, lineType=cv2.LINE_AA)
        occ_mask[y0 : y1 + 1, x0 : x1 + 1] |= m > 127
        # shading: darker towards the outline, like a rounded limb under a lamp
        dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 3)
        dmax = float(dist.max()) or 1.0
        shade = 1.0 - oc.shade * (1.0 - np.clip(dist / dmax, 0, 1)) ** 2
        a = m.astype(np.float32) / 255.0
        if oc.softness > 0:
            a = cv2.GaussianBlur(a, (0, 0), oc.softness)
        roi = image[y0 : y1 + 1, x0 : x1 + 1].astype(np.float32)
        col = np.array(oc.colour, np.float32)[None, None, :] * shade[..., None]
        roi = roi * (1 - a[..., None]) + col * a[..., None]
        image[y0 : y1 + 1, x0 : x1 + 1] = np.clip(roi, 0, 255).astype(np.uint8)


def render(
    table: np.ndarray,
    camera: Camera,
    poses: list[CardPose],
    decks: dict[str, Deck],
    deck: str,
    occluders: list[Occluder] | None = None,
    shadow: float = 0.3,
    back: np.ndarray | None = None,
    card_tint: tuple[float, float, float] | None = None,
) -> Scene:
    """Draw the cards in z order on the table as the camera sees it; return picture and ground truth.

    ``table`` is the table texture in table-plane pixels (warped by the camera; areas beyond it repeat
    it). ``deck`` names the deck of poses that give none; ``back`` is the back used for face-down
    cards of a deck that has none. ``card_tint`` multiplies the card pixels (B, G, R): card stock
    under a real lamp.
    """
    W, Hh = camera.width, camera.height
    Hc = camera.homography
    image = cv2.warpPerspective(table, Hc, (W, Hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    owner = np.full((Hh, W), -1, np.int32)
    truths: list[CardTruth] = []
    order = sorted(range(len(poses)), key=lambda i: poses[i].z)
    index_masks: list[tuple[int, int, tuple[np.ndarray, int, int]]] = []
    for slot, i in enumerate(order):
        pose = poses[i]
        dk = decks[pose.deck or deck]
        face = dk.images[pose.code]
        ch, cw = face.shape[:2]
        art = face if pose.face_up else (dk.back if dk.back is not None else back)
        if art is None:
            raise ValueError(f"deck {dk.name} has no back and no fallback back was given")
        if art.shape[:2] != face.shape[:2]:
            art = cv2.resize(art, (cw, ch), interpolation=cv2.INTER_AREA)
        M = Hc @ _card_matrix(pose, cw, ch)
        quad = _apply(M, np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], float))
        truth = CardTruth(pose.code, dk.name, pose.face_up, pose.z, quad)
        if pose.face_up:
            for k, b in enumerate(corner_boxes(dk.index[pose.code], cw, ch, dk.corners)):
                x0, y0, x1, y1 = b
                q = _apply(M, np.array([[x0, y0], [x1 + 1, y0], [x1 + 1, y1 + 1], [x0, y1 + 1]], float))
                truth.indices.append(IndexTruth(k, q, (0.0, 0.0, 0.0, 0.0), 0.0))
                index_masks.append((len(truths), len(truth.indices) - 1, _index_mask(M, b)))
        truths.append(truth)
        # the card's pixels in the picture
        bx0, by0 = np.floor(quad.min(axis=0)).astype(int) - 1
        bx1, by1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        rx0, ry0, rx1, ry1 = max(bx0, 0), max(by0, 0), min(bx1, W), min(by1, Hh)
        if rx1 <= rx0 or ry1 <= ry0:
            continue
        on_screen_h = float(np.hypot(*(quad[3] - quad[0])))
        lv, f = _MIPS.get(art, on_screen_h)
        Mroi = np.array([[1, 0, -rx0], [0, 1, -ry0], [0, 0, 1]], float) @ M @ np.diag([f, f, 1.0])
        warped = cv2.warpPerspective(lv, Mroi, (rx1 - rx0, ry1 - ry0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        a = warped[:, :, 3].astype(np.float32) / 255.0
        roi = image[ry0:ry1, rx0:rx1].astype(np.float32)
        if shadow > 0:  # a soft shadow below and to the right of the card
            off = max(1, int(round(on_screen_h * 0.015)))
            sh = np.zeros_like(a)
            sh[off:, off:] = a[:-off, :-off]
            sh = cv2.GaussianBlur(sh, (0, 0), max(0.8, on_screen_h * 0.01))
            roi *= (1.0 - shadow * sh)[..., None]
        fg = warped[:, :, :3].astype(np.float32)
        if card_tint is not None:
            fg *= np.asarray(card_tint, np.float32)[None, None, :]
        roi = roi * (1 - a[..., None]) + fg * a[..., None]
        image[ry0:ry1, rx0:rx1] = np.clip(roi, 0, 255).astype(np.uint8)
        owner[ry0:ry1, rx0:rx1][a > 0.5] = slot
    occ = np.zeros((Hh, W), bool)
    if occluders:
        _draw_occluders(image, occ, occluders)
    # visibility from the final masks
    for slot, t in enumerate(truths):
        n_card = _poly_pixels(t.quad)
        t.visible_fraction = min(1.0, _poly_pixels(t.quad, owner, slot, occ) / max(n_card, 1))
    for slot, k, (m, mx, my) in index_masks:
        it = truths[slot].indices[k]
        it.visibility = _seen_fraction(m, mx, my, owner, slot, occ)
    for t in truths:
        for it in t.indices:
            x0, y0 = np.clip(it.quad.min(axis=0), 0, [W, Hh])
            x1, y1 = np.clip(it.quad.max(axis=0), 0, [W, Hh])
            it.box = (float(x0), float(y0), float(x1), float(y1))
    return Scene(image, truths)


def _index_mask(M: np.ndarray, box: tuple[int, int, int, int]) -> tuple[np.ndarray, int, int]:
    """An index's pixels in the picture, drawn exactly as its card's pixels are (same warp, same
    threshold), over its whole extent even beyond the frame: (mask, x, y of the mask's corner)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0 + 1, y1 - y0 + 1
    Mb = M @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], float)
    q = _apply(Mb, np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], float))
    mx, my = np.floor(q.min(axis=0)).astype(int) - 1
    ex, ey = np.ceil(q.max(axis=0)).astype(int) + 1
    src = np.full((bh, bw), 255, np.uint8)
    T = np.array([[1, 0, -mx], [0, 1, -my], [0, 0, 1]], float) @ Mb
    m = cv2.warpPerspective(src, T, (int(ex - mx), int(ey - my)), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return m > 127, int(mx), int(my)


def _seen_fraction(m: np.ndarray, mx: int, my: int, owner: np.ndarray, slot: int, occ: np.ndarray) -> float:
    """Share of a mask's pixels that are in the frame, on top (card ``slot``) and not occluded."""
    total = int(m.sum())
    if total == 0:
        return 0.0
    H, W = owner.shape
    h, w = m.shape
    cx0, cy0, cx1, cy1 = max(mx, 0), max(my, 0), min(mx + w, W), min(my + h, H)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    sub = m[cy0 - my : cy1 - my, cx0 - mx : cx1 - mx]
    seen = (owner[cy0:cy1, cx0:cx1] == slot) & ~occ[cy0:cy1, cx0:cx1] & sub
    return float(seen.sum()) / total


def _poly_pixels(quad: np.ndarray, owner: np.ndarray | None = None, slot: int = -1, occ: np.ndarray | None = None) -> int:
    """Pixels inside a polygon: all of them (owner None; off-frame parts included), or those in frame
    where card ``slot`` is on top and no occluder covers it."""
    q = np.round(quad).astype(np.int32)
    x0, y0 = q.min(axis=0)
    x1, y1 = q.max(axis=0)
    if owner is None:
        m = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
        cv2.fillPoly(m, [q - [x0, y0]], 1)
        return int(m.sum())
    H, W = owner.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, W - 1), min(y1, H - 1)
    if cx1 < cx0 or cy1 < cy0:
        return 0
    m = np.zeros((cy1 - cy0 + 1, cx1 - cx0 + 1), np.uint8)
    cv2.fillPoly(m, [q - [cx0, cy0]], 1)
    seen = owner[cy0 : cy1 + 1, cx0 : cx1 + 1] == slot
    if occ is not None:
        seen &= ~occ[cy0 : cy1 + 1, cx0 : cx1 + 1]
    return int((m.astype(bool) & seen).sum())


# --------------------------------------------------------------------------- camera effects


def camera_effects(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """What a real webcam or phone does to the picture: uneven light and colour cast, glare, focus or
    motion blur, low resolution, sensor noise. JPEG comes when the file is written.

    The light is smooth, so it is computed on a small grid and scaled up (fast: ~25 ms at 720p)."""
    H, W = image.shape[:2]
    gh, gw = max(2, H // 8), max(2, W // 8)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    yy /= gh
    xx /= gw
    # uneven light: a smooth gradient plus a vignette, and a colour cast (warm lamp / cool daylight)
    gx, gy = rng.normal(0, 0.35 * strength, 2)
    light = 1.0 + gx * (xx - 0.5) + gy * (yy - 0.5)
    r2 = ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) / 0.5
    light *= 1.0 - rng.uniform(0, 0.45 * strength) * r2
    light *= rng.uniform(0.55, 1.25) if rng.random() < 0.8 else 1.0
    cast = np.array([1 + rng.normal(0, 0.08), 1 + rng.normal(0, 0.04), 1 + rng.normal(0, 0.08)], np.float32)
    cast = cast * strength + (1 - strength)
    gain = light[..., None] * cast[None, None, :]
    # glare: one or two bright soft spots (a lamp's reflection on glossy cards)
    add = np.zeros((gh, gw), np.float32)
    for _ in range(int(rng.integers(1, 3)) if rng.random() < 0.45 * strength else 0):
        cx, cy = rng.uniform(0, 1), rng.uniform(0, 1)
        sx, sy = rng.uniform(0.03, 0.2), rng.uniform(0.03, 0.2)
        add += rng.uniform(40, 140) * np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2)
    gain = cv2.resize(gain.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    img = image.astype(np.float32)
    cv2.multiply(img, gain, dst=img)
    if add.any():
        addf = cv2.resize(add.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
        cv2.add(img, cv2.merge([addf, addf, addf]), dst=img)
    out = np.clip(img, 0, 255).astype(np.uint8)
    # blur: defocus or motion (a player's bump, a slow shutter)
    r = rng.random()
    if r < 0.25 * strength:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.6, 2.0))
    elif r < 0.4 * strength:
        k = int(rng.integers(3, 10))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kern = cv2.warpAffine(kern, rot, (k, k))
        kern /= kern.sum() or 1.0
        out = cv2.filter2D(out, -1, kern)
    # a cheap sensor: lower resolution scaled back up
    if rng.random() < 0.25 * strength:
        f = rng.uniform(0.45, 0.8)
        small = cv2.resize(out, (max(1, int(W * f)), max(1, int(H * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
    # sensor noise, stronger in dim light; grey or per colour
    sigma = float(rng.uniform(0, 9) * strength)
    if sigma > 0.5:
        bank = _noise_bank()
        y, x = int(rng.integers(bank.shape[0] - H + 1)), int(rng.integers(bank.shape[1] - W + 1))
        noise = bank[y : y + H, x : x + W]
        if rng.random() < 0.5:  # grey noise rather than per colour
            noise = np.repeat(noise[:, :, :1], 3, axis=2)
        out = cv2.addWeighted(out.astype(np.float32), 1.0, noise, sigma, 0.0).clip(0, 255).astype(np.uint8)
    return out


_BANK: list[np.ndarray] = []


def _noise_bank() -> np.ndarray:
    """Unit Gaussian noise for the largest picture, made once per process; scenes take shifted
    windows of it (drawing fresh noise for every 1080p picture cost more than the rest of a scene)."""
    if not _BANK:
        _BANK.append(np.random.default_rng(12345).standard_normal((1300, 2000, 3), dtype=np.float32))
    return _BANK[0]
