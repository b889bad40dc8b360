"""Counting the banker's cut: face-down cards laid out in groups of four, counted from one picture.

In Chinese Fan-Tan the banker cuts the pack and counts the cut out in fours; what is left over wins.
At the table he lays each four as a small staggered spread, every card a little to one side of the
one below so that each card's edge shows, and the remainder as a last, smaller group. This module
counts those cards and says how sure it is; it knows nothing of betting (the dashboard turns the
count into the winning number with `scorekeeper.banking.winning_number` and asks the banker).

How, and why this way (measured on rendered cuts, benchmarks/bench_cut_count.py; the settings were
tuned on seeds 7, 11 and 13 and are measured on seeds 2026 and 4049):

1. *Finding the piles, several ways, and letting the cut say which worked* (`find_piles`). The
   frame's border is table (the cut lies in the middle). One reading learns the table's colours
   there (k-means in Lab) and calls every pixel far from all of them card. Others compare colour
   densities: a colour as common in the border as inside is table, one found inside but rarely in
   the border is card (`card_odds`: no guess of how varied the table is, so busy tables and cards
   near the table's colour keep apart); these are read at even odds, leniently, strictly, by hue
   alone, closed wide, kept near sharp edges, and with the light evened out (a median far wider than
   a pile is the table as lit there: glare and dim corners taken away). Each reading's blobs are
   scored by how much they look like a cut (`looks_like_a_cut`): fours of one back are one size
   once the camera's tilt is allowed for, one colour, solid, at least five piles, at most one
   smaller; a blob whose rim is far softer than the typical pile's is glare or table, no pile
   (`sharp_only`). The best-scoring reading gives the piles.
2. *Which way the edges run*: a pile's outline is made of card edges only, so the two dominant
   directions of its outline are the card's two sides (each found on its own: a tilted camera makes
   them not quite square).
3. *Counting edges, learned from the pile itself*: the strip just inside the outermost card's edge
   (the back's margin, the start of its pattern) is the template; every card's leading edge in a
   staggered spread shows over the card's full length, and the chain of matches in even steps is the
   count. One way of looking (card side, facing) is chosen for the whole cut: the banker spreads
   every pile alike.
4. *Reading the cut as the banker lays it* (`read_cut`): every pile is a four (two piles run
   together are eight) but at most one, the remainder, so only which pile is short and by how much is
   open. Each such reading (and "none is short") is scored by how likely it makes what was seen: each
   pile's edge count (trusted as far as the fours of this picture show their four edges), its size
   against a four's at the same place (`size_ratios`: log area fitted over the picture, leaving out
   the pile that stands apart), and its width across the edges in steps of the hand (a remainder of
   k is 4 - k steps short; a step is measured on the fours). The best reading is the count; how much
   it beats the others, times how well each pile's edges and width agree with it (to the fourth
   power: calibrated on the tuning seeds), is the confidence.
   No card size, deck or stagger has to be known beforehand.

Cards squared up exactly on each other show one edge and count as one: the banker must spread them.

    >>> result = count_cut(frame)                   # doctest: +SKIP
    >>> result.count, [g.cards for g in result.groups], round(result.confidence, 2)   # doctest: +SKIP
    (23, [4, 4, 4, 4, 4, 3], 0.93)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

WORK_WIDTH = 1280  # larger frames are shrunk to this first (a card is then ~100 px tall)
BORDER = 0.04  # of the frame's smaller side: the ring that is taken to be table
PERCENTILE = 99.5  # of the table ring's distances to its own colours: above it is not table
MATCH = 0.45  # normalised correlation of a strip with the pile's own edge, to be an edge at all
FLOOR = 0.3  # what a strip of the back's pattern alone typically reaches
WIDTH = 0.06  # of a pile's smaller size: how far into a card its edge template reaches
LOOSE = 0.2  # a short pile's size varies by this share of its steps (rounded corners, a soft rim)
ODD = 0.15  # the chance that a pile's size is off for another reason (a bad outline, glare)
SIGMA_MIN = 0.035  # the least scatter of log size among fours
LONE_ROW = 0.15  # how much a tilted camera may scale a row of one pile against the others (log size)
MAX_REL = 0.19  # the longest step of the hand against a four's width (steps of a third of a card)
PACK = 52  # a cut is part of one pack
SOFT = 0.45  # of the typical pile's outline sharpness: a softer blob is glare or table, not cards
SMALLEST = 0.4  # of a large pile's area: smaller blobs are specks, not a pile (one card is about half a four)


@dataclass(frozen=True)
class CutGroup:
    """One pile of the cut: how many cards, where (outline in frame pixels), how sure."""

    cards: int
    outline: np.ndarray  # (N, 2) float32, frame pixels
    confidence: float
    by_edges: int = 0  # the cards counted by their edges alone
    by_width: int | None = None  # ... by the pile's width against the fours of the same cut
    seen: int = 0  # what this pile alone looked like, before the cut was read as fours

    @property
    def box(self) -> tuple[float, float, float, float]:
        x0, y0 = self.outline.min(axis=0)
        x1, y1 = self.outline.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    def to_json(self) -> dict:
        return {"cards": self.cards, "confidence": round(self.confidence, 3),
                "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in self.outline],
                "box": [round(v, 1) for v in self.box]}


@dataclass(frozen=True)
class CutCount:
    """The count of a whole cut. `fits_fours`: the piles looked like fours and one remainder on
    their own; when some had to be read as fours, the confidence is lowered and `note` says so.
    `count_seen` is the sum of what each pile looked like alone."""

    count: int
    groups: tuple[CutGroup, ...]
    confidence: float
    fits_fours: bool
    width: int
    height: int
    note: str = ""
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def count_seen(self) -> int:
        return sum(g.seen for g in self.groups)

    @property
    def remainder_cards(self) -> int:
        """Cards in the smallest group: the number the banker reads off the table."""
        return min((g.cards for g in self.groups), default=0)

    def to_json(self) -> dict:
        return {"count": self.count, "confidence": round(self.confidence, 3), "fits_fours": self.fits_fours,
                "note": self.note, "width": self.width, "height": self.height,
                "groups": [g.to_json() for g in self.groups], "seconds": round(self.seconds, 3)}

    def draw(self, frame: np.ndarray) -> np.ndarray:
        """The frame with each group outlined and labelled with its count (for a saved overlay)."""
        out = frame.copy()
        scale = max(1.0, frame.shape[1] / 1280)
        for g in self.groups:
            colour = (60, 200, 60) if g.confidence >= 0.5 else (40, 160, 240)
            cv2.polylines(out, [np.round(g.outline).astype(np.int32)], True, colour, max(2, int(2 * scale)))
            x0, y0, _x1, _y1 = g.box
            cv2.putText(out, str(g.cards), (int(x0), max(int(y0) - 6, 20)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.9 * scale, colour, max(2, int(2 * scale)), cv2.LINE_AA)
        cv2.putText(out, f"{self.count} cards", (12, int(36 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    1.1 * scale, (255, 255, 255), max(2, int(3 * scale)), cv2.LINE_AA)
        return out


# --------------------------------------------------------------------------- table or card


def _not_table(small: np.ndarray) -> np.ndarray:
    """One pass: pixels far from every typical table colour of the frame's border (uint8 0/255)."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    b = max(2, int(BORDER * min(sh, sw)))
    ring = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                           lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    rng = np.random.default_rng(0)
    sample = ring[rng.choice(len(ring), size=min(len(ring), 6000), replace=False)]
    centres = table_colours(sample, 5)
    flat = lab.reshape(-1, 3)
    dist = np.full(len(flat), np.inf, np.float32)
    for c in centres:
        dist = np.minimum(dist, np.linalg.norm(flat - c, axis=1))
    dist = dist.reshape(sh, sw)
    ring_d = np.concatenate([dist[:b].ravel(), dist[-b:].ravel(), dist[:, :b].ravel(), dist[:, -b:].ravel()])
    thr = max(14.0, float(np.percentile(ring_d, PERCENTILE)) * 1.1)
    return (dist > thr).astype(np.uint8) * 255


def card_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels that are not table (bool), holes filled, at the frame's size."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 1.2)
    sh, sw = small.shape[:2]
    unit = max(3, int(min(sh, sw) * 0.006)) | 1
    mask = _not_table(small)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (unit, unit)))
    big = max(5, int(min(sh, sw) * 0.012)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (big, big)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return cv2.resize(filled, (w, h), interpolation=cv2.INTER_LINEAR) > 127


def table_colours(sample: np.ndarray, k: int, rounds: int = 12) -> np.ndarray:
    """k typical colours of the table (a small k-means), started from evenly spaced lightness
    quantiles so that the same picture always gives the same answer."""
    order = np.argsort(sample[:, 0], kind="stable")
    centres = sample[order[np.linspace(0, len(order) - 1, k).astype(int)]].astype(np.float32)
    for _ in range(rounds):
        d = ((sample[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        nearest = d.argmin(axis=1)
        for j in range(k):
            members = sample[nearest == j]
            if len(members):
                centres[j] = members.mean(axis=0)
    return centres


ODDS_BINS = (16, 24, 24)  # Lab histogram bins (lightness, a, b) of the two-sample colour odds


def _blur_bins(h: np.ndarray, sigma: float = 1.0) -> np.ndarray:
    """A colour histogram smoothed over neighbouring bins (separable Gaussian, numpy only), so that a
    colour seen a few times in the border still counts for its neighbours."""
    r = int(np.ceil(2.5 * sigma))
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    k /= k.sum()
    for ax in range(h.ndim):
        pad = [(0, 0)] * h.ndim
        pad[ax] = (r, r)
        hp = np.pad(h, pad)
        out = np.zeros_like(h)
        for j, wgt in enumerate(k):
            sl = [slice(None)] * h.ndim
            sl[ax] = slice(j, j + h.shape[ax])
            out += wgt * hp[tuple(sl)]
        h = out
    return h


def card_odds(small: np.ndarray, bins: tuple[int, int, int] = ODDS_BINS) -> np.ndarray:
    """Per pixel, how likely its colour is card rather than table (0..1, float32).

    The border ring is table only; the inside is table and cards. A colour as common in the ring as
    inside is table; a colour found inside but rarely in the ring is card: P(card) = 1 - d_ring/d_in
    (the two colour densities). Unlike a distance threshold around the table's colours, this needs no
    guess of how varied the table is, so busy tables and cards close to the table's colour keep apart."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sh, sw = lab.shape[:2]
    b = max(2, int(1.5 * BORDER * min(sh, sw)))
    ring = np.zeros((sh, sw), bool)
    ring[:b] = ring[-b:] = True
    ring[:, :b] = ring[:, -b:] = True
    nl, na, nb = bins
    idx = ((lab[..., 0].astype(np.int32) * nl // 256) * na + (lab[..., 1].astype(np.int32) * na // 256)) * nb \
        + lab[..., 2].astype(np.int32) * nb // 256
    n = nl * na * nb
    h_ring = np.bincount(idx[ring], minlength=n).astype(np.float32).reshape(bins)
    h_in = np.bincount(idx[~ring], minlength=n).astype(np.float32).reshape(bins)
    d_ring = _blur_bins(h_ring) / max(1, int(ring.sum()))
    d_in = _blur_bins(h_in) / max(1, int((~ring).sum()))
    p = np.clip(1.0 - d_ring / np.maximum(d_in, 1e-12), 0.0, 1.0)
    return p.reshape(-1)[idx].astype(np.float32)


def _solid(mask: np.ndarray, close: float) -> np.ndarray:
    """Specks opened away, gaps closed (`close`: of the smaller side), holes filled (uint8 0/255)."""
    sh, sw = mask.shape
    unit = max(3, int(min(sh, sw) * 0.006)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (unit, unit)))
    big = max(5, int(min(sh, sw) * close)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (big, big)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def odds_masks(frame: np.ndarray) -> dict[str, np.ndarray]:
    """Card masks (bool, frame size) from the colour odds, read a few ways: at even odds, leniently,
    strictly, by colour alone without lightness (a light falling off across the table), with wide
    closing (a back in the table's colour shows only its margins), and kept near sharp edges
    (a lamp's glare has none)."""
    h, w = frame.shape[:2]
    small = cv2.GaussianBlur(cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    sh, sw = small.shape[:2]
    odds = cv2.blur(card_odds(small), (5, 5))
    chroma = cv2.blur(card_odds(small, (4, 32, 32)), (5, 5))
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    g = np.hypot(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    hi = max(40.0, float(np.percentile(g, 90)))
    edges = cv2.Canny(gray, hi * 0.5, hi)
    near_edge = cv2.distanceTransform((edges == 0).astype(np.uint8), cv2.DIST_L2, 3) < 0.06 * min(sh, sw)
    # the light evened out: a lamp's glare and a dim corner are smooth, wider than any pile, so a
    # median over a window twice a pile's size is the table as lit there; take it away
    quarter = cv2.resize(small, (sw // 2, sh // 2), interpolation=cv2.INTER_AREA)
    k = max(3, int(0.3 * min(sh, sw) / 2)) | 1
    lit = cv2.resize(cv2.medianBlur(quarter, k), (sw, sh), interpolation=cv2.INTER_LINEAR).astype(np.int16)
    even = np.clip(small.astype(np.int16) - lit + lit.reshape(-1, 3).mean(axis=0).astype(np.int16), 0, 255).astype(np.uint8)
    evened = cv2.blur(card_odds(even), (5, 5))
    raw = {
        "odds": (_solid((odds > 0.5).astype(np.uint8) * 255, 0.012)),
        "odds, light evened": _solid((evened > 0.5).astype(np.uint8) * 255, 0.012),
        "odds, light evened, lenient": _solid((evened > 0.3).astype(np.uint8) * 255, 0.012),
        "table distance, light evened": _solid(_not_table(even), 0.012),
        "odds lenient": _solid((odds > 0.3).astype(np.uint8) * 255, 0.012),
        "odds strict": _solid((odds > 0.7).astype(np.uint8) * 255, 0.012),
        "odds colour": _solid((chroma > 0.5).astype(np.uint8) * 255, 0.012),
        "odds closed": _solid((odds > 0.4).astype(np.uint8) * 255, 0.03),
        "odds near edges": _solid(((odds > 0.5) & near_edge).astype(np.uint8) * 255, 0.012),
    }
    return {k: cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR) > 127 for k, m in raw.items()}


def looks_like_a_cut(contours: list[np.ndarray], frame: np.ndarray) -> tuple[float, list[str]]:
    """How much a set of blobs looks like a cut laid out in fours (higher is better), and why not.

    The banker's piles are fours of one back: about the same size once the camera's tilt is allowed
    for (log area fitted as a plane over the picture), the same colour, solid (a staggered pile fills
    its convex hull), and at most one smaller pile, the remainder. Glare, table pattern and piles
    run together break one of these."""
    if not contours:
        return -1e9, ["nothing"]
    areas = np.array([cv2.contourArea(c) for c in contours])
    la = np.log(np.maximum(areas, 1.0))
    centres = np.array([c.reshape(-1, 2).mean(axis=0) for c in contours]) / np.array(frame.shape[1::-1], float)
    A = np.column_stack([np.ones(len(la)), centres])
    if len(la) >= 5:
        keep = np.ones(len(la), bool)
        for _ in range(3):
            coef, *_ = np.linalg.lstsq(A[keep], la[keep], rcond=None)
            res = la - A @ coef
            mid = np.median(res[keep])
            worst = int(np.argmax(np.where(keep, np.abs(res - mid), -1)))
            if abs(res[worst] - mid) < 0.15 or keep.sum() <= 4:
                break
            keep[worst] = False  # a remainder or two piles run together: not part of the fit
        res = la - A @ coef
        ratio = np.exp(res - np.median(res[keep]))
    else:
        ratio = areas / float(np.median(areas))
    quarter = cv2.resize(frame, (max(1, frame.shape[1] // 4), max(1, frame.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(quarter, cv2.COLOR_BGR2LAB).astype(np.float32)
    colours = []
    for c in contours:
        m = np.zeros(lab.shape[:2], np.uint8)
        cv2.drawContours(m, [(c // 4).astype(np.int32)], -1, 1, cv2.FILLED)
        colours.append(lab[m > 0].mean(axis=0) if m.any() else np.zeros(3, np.float32))
    typical = np.median(np.array(colours), axis=0)
    good = bad = short = 0
    why = []
    for c, a, r, colour in zip(contours, areas, ratio, colours):
        solidity = a / max(cv2.contourArea(cv2.convexHull(c)), 1.0)
        if solidity < 0.8:
            bad += 1
            why.append("ragged")
        elif np.linalg.norm((colour - typical)[1:]) > 22 or abs(colour[0] - typical[0]) > 70:
            # (lightness is let vary more: glare and a dim corner change it, not the hue)
            bad += 1
            why.append("other colour")
        elif 0.78 <= r <= 1.28:
            good += 1
        elif 0.3 <= r < 0.78:
            short += 1
        else:
            bad += 1
            why.append(f"{r:.1f} piles' size")
    bad += max(0, short - 1)
    if len(contours) < 5:  # a cut is 18 cards or more: five piles at least
        bad += 5 - len(contours)
        why.append("too few piles")
    return float(good + min(short, 1) - 2 * bad), why


def outline_contrast(contours: list[np.ndarray], gray: np.ndarray) -> np.ndarray:
    """How sharp each blob's outline is: the mean brightness gradient along it. A pile's outline is
    card edges, a step in brightness; the rim of a lamp's glare or of a patch of table is soft."""
    g = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
    mag = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    mag = cv2.dilate(mag, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))  # the mask's rim may sit a little off
    h, w = gray.shape
    out = []
    for c in contours:
        pts = c.reshape(-1, 2)
        out.append(float(mag[np.clip(pts[:, 1], 0, h - 1), np.clip(pts[:, 0], 0, w - 1)].mean()) if len(pts) else 0.0)
    return np.array(out)


def sharp_only(contours: list[np.ndarray], gray: np.ndarray) -> list[np.ndarray]:
    """The blobs whose outline is about as sharp as the typical pile's (at least SOFT of it)."""
    if len(contours) < 3:
        return contours
    contrast = outline_contrast(contours, gray)
    typical = float(np.median(contrast))
    return [c for c, k in zip(contours, contrast) if k >= SOFT * typical]


def find_piles(frame: np.ndarray) -> tuple[np.ndarray, list[np.ndarray], str]:
    """The card mask, the piles (contours) and which reading of the colours found them: the one of
    several (distance from the table's colours, colour odds read several ways) whose blobs look most
    like a cut laid out in fours. No one reading suits every table and light; the cut's own structure
    says which did."""
    options = {"table distance": lambda: card_mask(frame)}
    odds = None

    def odds_option(key: str):
        def get() -> np.ndarray:
            nonlocal odds
            if odds is None:
                odds = odds_masks(frame)
            return odds[key]
        return get

    for key in ("odds", "odds lenient", "odds strict", "odds colour", "odds closed", "odds near edges", "odds, light evened",
                "odds, light evened, lenient", "table distance, light evened"):
        options[key] = odds_option(key)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    best: tuple[float, np.ndarray, list[np.ndarray], str] | None = None
    for name, make in options.items():
        mask = make()
        contours = sharp_only(groups_of(mask), gray)
        score, _why = looks_like_a_cut(contours, frame)
        if best is None or score > best[0]:
            best = (score, mask, contours, name)
    assert best is not None
    return best[1], best[2], best[3]


def groups_of(mask: np.ndarray) -> list[np.ndarray]:
    """The blobs that can be piles of cards (contours), largest first; specks and slivers dropped."""
    contours, _ = cv2.findContours(mask.astype(np.uint8) * 255, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    h, w = mask.shape
    areas = [cv2.contourArea(c) for c in contours]
    if not areas:
        return []
    top = sorted(areas, reverse=True)[: max(1, len(areas) // 4 + 1)]
    floor = max(0.0015 * h * w, SMALLEST * float(np.median(top)))
    out = []
    for c, a in sorted(zip(contours, areas), key=lambda t: -t[1]):
        if a < floor:
            continue
        (_cx, _cy), (rw, rh), _ang = cv2.minAreaRect(c)
        if min(rw, rh) < 0.2 * max(rw, rh):  # a sliver (a shadow line, a table seam), not cards
            continue
        out.append(c)
    return out


# --------------------------------------------------------------------------- card sides


def side_angles(contour: np.ndarray) -> tuple[float, float]:
    """The directions (degrees, 0..180) of a group's two card sides, from its outline's straight runs."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, 0.008 * peri), True).reshape(-1, 2).astype(np.float64)
    seg = np.roll(poly, -1, axis=0) - poly
    length = np.hypot(seg[:, 0], seg[:, 1])
    ang = np.degrees(np.arctan2(seg[:, 1], seg[:, 0])) % 180.0
    hist = np.zeros(180)
    for a, l in zip(ang, length):
        hist[int(round(a)) % 180] += l
    smooth = sum(np.roll(hist, s) * wgt for s, wgt in ((-2, 0.5), (-1, 1), (0, 1.5), (1, 1), (2, 0.5)))
    a1 = int(np.argmax(smooth))
    window = [(a1 + d) % 180 for d in range(60, 121)]
    a2 = max(window, key=lambda a: smooth[a])
    # refine each to the length-weighted mean of the segments near it
    def refine(a0: int) -> float:
        d = (ang - a0 + 90) % 180 - 90
        near = np.abs(d) <= 4
        if not near.any():
            return float(a0)
        return float((a0 + np.average(d[near], weights=length[near])) % 180)
    return refine(a1), refine(a2)


def _upright(frame: np.ndarray, mask: np.ndarray, contour: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The group's crop turned so that card edges running at `angle` stand vertical."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = int(0.15 * max(w, h)) + 4
    H, W = mask.shape
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
    img = frame[y0:y1, x0:x1]
    own = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(own, [(contour - [x0, y0]).astype(np.int32)], -1, 255, cv2.FILLED)
    ch, cw = own.shape
    centre = (cw / 2, ch / 2)
    M = cv2.getRotationMatrix2D(centre, angle - 90.0, 1.0)
    cos, sin = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(ch * sin + cw * cos) + 2, int(ch * cos + cw * sin) + 2
    M[0, 2] += nw / 2 - centre[0]
    M[1, 2] += nh / 2 - centre[1]
    rot = cv2.warpAffine(img, M, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    m = cv2.warpAffine(own, M, (nw, nh), flags=cv2.INTER_NEAREST) > 127
    return rot, m


def _edge_run(m: np.ndarray) -> tuple[int, int, np.ndarray] | None:
    """The longest straight run of the group's left outline (rows y0..y1 and the outline's column in
    each): the whole left edge of the card lying furthest left, corners included."""
    rows = np.flatnonzero(m.any(axis=1))
    if len(rows) < 8:
        return None
    cols = m[rows].argmax(axis=1).astype(np.float32)
    breaks = np.flatnonzero((np.abs(np.diff(cols)) > 2) | (np.diff(rows) > 1)) + 1
    best = None
    for seg in np.split(np.arange(len(rows)), breaks):
        if len(seg) and (best is None or len(seg) > len(best)):
            best = seg
    # the rounded corners bend the outline away at both ends of the run: extend over them
    y0, y1 = int(rows[best[0]]), int(rows[best[-1]])
    return y0, y1, cols[best]


def count_edges(img: np.ndarray, m: np.ndarray, side: str, width: int) -> tuple[int, list[float], float, float]:
    """Card edges facing `side` ('left' or 'right') in an upright crop: (how many, each one's match).

    The template is the whole edge of the outermost card: a strip `width` pixels into the card (its
    margin, the start of its pattern) along its full length with both rounded corners. Every card of
    a staggered pile shows that same edge somewhere; the back's pattern alone does not end in corners."""
    if side == "right":
        img, m = img[:, ::-1], m[:, ::-1]
    run = _edge_run(m)
    if run is None:
        return 0, [], 0.0, 0.0
    y0, y1, cols = run
    length = y1 - y0 + 1
    if length < 3 * width:
        return 0, [], 0.0, 0.0
    out_px = 2
    x = int(np.median(cols))
    pad = max(2, int(0.04 * length))
    ty0, ty1 = max(0, y0 - pad), min(m.shape[0], y1 + 1 + pad)
    tx0, tx1 = x - out_px, x + width
    if tx0 < 0 or tx1 > m.shape[1]:
        return 0, [], 0.0, 0.0
    f = img.astype(np.float32)
    template = f[ty0:ty1, tx0:tx1]
    if float(template.std()) < 4.0:
        return 0, [], 0.0, 0.0
    R = cv2.matchTemplate(f, template, cv2.TM_CCOEFF_NORMED)  # top-left of the window
    R = np.nan_to_num(R, nan=0.0)
    th, tw = template.shape[:2]
    sep = max(3, int(round(width * 0.6)))
    peaks = R == cv2.dilate(R, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * sep + 1, max(3, (th // 3) | 1))))
    ys, xs = np.nonzero(peaks & (R > FLOOR * 0.8))
    # an edge lies on the cards: the strip it matched must be inside the group
    found = []
    for py, px in sorted(zip(ys, xs), key=lambda t: -R[t[0], t[1]]):
        cy, cx = py + th // 2, px + out_px + width // 2
        if not m[min(cy, m.shape[0] - 1), min(cx, m.shape[1] - 1)]:
            continue
        if any(abs(px - qx) < sep and abs(py - qy) < th // 3 for qy, qx, _ in found):
            continue
        found.append((py, px, float(R[py, px])))
    scores = sorted((s for _, _, s in found), reverse=True)
    cover = m.sum(axis=0)
    wide = np.flatnonzero(cover >= 0.3 * cover.max())
    n, step = evenly_spread(found, max_step=0.5 * float(wide[-1] - wide[0] + 1), min_step=float(width))
    return n, scores, step, float(length)


def evenly_spread(found: list[tuple[int, int, float]], max_step: float = float("inf"),
                  min_step: float = 0.0) -> tuple[int, float]:
    """How many cards a pile holds, from its edge matches (y, x, match; the template's own edge is
    the best). A banker's hand pushes each card about as far as the last, so the edges of one pile
    lie on a line at about even steps from the outermost one; the back's pattern can match here
    and there, but rarely strongly and in step. The chain of strong matches in step wins. Cards
    overlap, so a step is at most `max_step` (half the pile's width): a longer one is the far
    margin of the same card, whose inner edge looks like an edge too. A step shorter than
    `min_step` (the template's width) is the back's own fine pattern repeating, not a card."""
    if not found:
        return 0, 0.0
    y0, x0, _ = found[0]
    strong = [(y, x, s) for y, x, s in found[1:] if s >= MATCH and x > x0]
    best_value, best_len, best_step = 0.0, 0, 0.0
    for y1, x1, s1 in strong:
        vy, vx = y1 - y0, x1 - x0
        if vx > max_step or vx < min_step:
            continue
        reach = 0.35 * float(np.hypot(vx, vy)) + 2.0
        members = [s1]
        cy, cx = y1, x1
        last_x = x1
        while True:
            ty, tx = cy + vy, cx + vx
            near = [(abs(y - ty) + abs(x - tx), y, x, s) for y, x, s in strong if abs(y - ty) <= reach and abs(x - tx) <= reach]
            if not near:
                break
            _, cy, cx, s = min(near)
            members.append(s)
            last_x = cx
        value = sum(m - MATCH for m in members)
        if value > best_value:
            best_value, best_len, best_step = value, len(members), (last_x - x0) / len(members)
    return 1 + best_len, float(best_step)


@dataclass(frozen=True)
class EdgeCount:
    """What one way of looking at a pile found: along which card side (its direction in the frame,
    degrees), facing which way, how many edges, and how clearly they stood out (0..1)."""

    angle: float
    side: str
    edges: int
    clarity: float
    step: float = 0.0  # how far apart its edges lie (pixels, across the edges)
    extent: float = 0.0  # how wide the pile is across those edges (pixels)
    length: float = 0.0  # how long the outermost edge is (pixels): the card's size here, for scale


def look_at_group(frame: np.ndarray, mask: np.ndarray, contour: np.ndarray) -> list[EdgeCount]:
    """Count one pile's edges four ways: along both card sides, facing both ways."""
    out = []
    for angle in side_angles(contour):
        img, m = _upright(frame, mask, contour, angle)
        cols = np.flatnonzero(m.any(axis=0))
        rows = np.flatnonzero(m.any(axis=1))
        if len(cols) < 4 or len(rows) < 4:
            out += [EdgeCount(angle, "left", 0, 0.0), EdgeCount(angle, "right", 0, 0.0)]
            continue
        width = int(np.clip(round(WIDTH * min(len(cols), len(rows))), 4, 16))
        cover = m.sum(axis=0)
        wide = np.flatnonzero(cover >= 0.3 * cover.max())
        extent = float(wide[-1] - wide[0] + 1)
        for side in ("left", "right"):
            n, scores, step, length = count_edges(img, m, side, width)
            weakest = min(scores[:n]) if n else 0.0
            best_rejected = max(scores[n:]) if len(scores) > n else 0.0
            clarity = float(np.clip((weakest - best_rejected) / 0.25, 0.0, 1.0)) if n > 1 else float(np.clip((MATCH - best_rejected) / 0.15, 0.0, 1.0))
            out.append(EdgeCount(angle, side, n, clarity, step, extent, length))
    return out


def _turn(a: float, b: float) -> float:
    """How far apart two line directions are (degrees, 0..90)."""
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def choose_view(looks: list[list[EdgeCount]]) -> list[EdgeCount]:
    """One way of looking for the whole cut. The banker spreads every pile the same way, so the
    direction and facing in which the piles show their cards is one for all of them: the one in
    which most piles show four cards (the rule), then the clearest. Returns that view per pile."""
    if not looks:
        return []
    ref = looks[0][0].angle
    views: dict[tuple[int, str], list[EdgeCount]] = {}
    for pile in looks:
        for side in ("left", "right"):
            for axis in (0, 1):
                options = [e for e in pile if e.side == side]
                options.sort(key=lambda e: _turn(e.angle, ref + 90 * axis))
                views.setdefault((axis, side), []).append(options[0])

    def score(v: list[EdgeCount]) -> tuple:
        return (sum(e.edges == 4 for e in v), -sum(e.edges > 4 for e in v), sum(e.clarity for e in v))

    return max(views.values(), key=score)


def combine(edges: int, width: int | None) -> int:
    """One pile's cards from its edges and its width, measured on 80 rendered cuts (docs/BANKING.md):
    both agree almost always when right. A full pile's width is the steadier of the two; a short
    pile's edges are, except that a lone card's back often matches its own edge once more."""
    if width is None or width == edges:
        return edges
    if max(width, edges) >= 4:
        return width
    if width == 1 and edges == 2:
        return 1
    return edges


def by_width(view: list[EdgeCount], centres: np.ndarray) -> list[int | None]:
    """Each pile's cards from its width across the counted edges, measured against the piles of
    four in the same cut: every card past the first widens a pile by one step of the banker's hand.
    A tilted camera shows far piles smaller, so the width of a four is fitted as a plane over the
    picture (x, y) before comparing. None for all when too few piles were counted as fours."""
    full = [k for k, e in enumerate(view) if e.edges == 4 and e.step > 0]
    if len(full) < 3:
        return [None] * len(view)
    ext = np.array([view[k].extent for k in full])
    A = np.column_stack([np.ones(len(full)), centres[full]])
    keep = np.ones(len(full), bool)
    coef = np.array([float(np.median(ext)), 0.0, 0.0])
    if len(full) >= 5:  # enough piles to see the tilt; drop the worst fit once (a miscounted pile)
        for _ in range(2):
            coef, *_ = np.linalg.lstsq(A[keep], ext[keep], rcond=None)
            resid = np.abs(A @ coef - ext)
            if keep.sum() <= 4:
                break
            worst = int(np.argmax(np.where(keep, resid, -1)))
            keep[worst] = False
    steps = np.array([view[k].step for k in full])
    rel_step = float(np.median(steps / np.maximum(A @ coef, 1.0)))
    if rel_step > MAX_REL:  # two steps: an edge missed all along (see read_cut)
        rel_step /= 2
    out: list[int | None] = []
    for k, e in enumerate(view):
        four = float(np.array([1.0, *centres[k]]) @ coef)
        step = rel_step * four
        out.append(max(1, 4 + int(round((e.extent - four) / step))) if step > 0 else None)
    return out


def size_ratios(contours: list[np.ndarray], width: int, height: int) -> np.ndarray:
    """Each pile's area against a four's at the same place in the picture (1.0: a four's size).

    A tilted camera shows far piles smaller, so the log area of the fours is fitted over the
    picture: a plane with seven piles or more, a slope from top to bottom with four or more (the
    tilt is mostly that), a constant below. At most one pile is the remainder and piles run together
    are twice a four, so the fit leaves out each pile in turn and keeps the fit that suits the rest
    best; a least-squares fit over all would bend towards the remainder and hide it."""
    areas = np.array([cv2.contourArea(c) for c in contours], float)
    centres = np.array([c.reshape(-1, 2).mean(axis=0) for c in contours]).reshape(-1, 2)
    return against_fours(areas, centres / np.array([width, height], float) - 0.5)


def against_fours(values: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """`values` (a size per pile, > 0) against a four's at the same place (`centres`: the piles'
    centres, frame fractions from the middle); see `size_ratios`."""
    values = np.asarray(values, float)
    if len(values) == 0:
        return values
    la = np.log(np.maximum(values, 1e-6))
    if len(la) == 1:
        return np.ones(1)
    top = float(np.median(la))
    usable = np.abs(la - top) < np.log(1.6)  # not piles run together, not specks
    if len(la) >= 7:
        A = np.column_stack([np.ones(len(la)), centres])
    elif len(la) >= 4:
        A = np.column_stack([np.ones(len(la)), centres[:, 1]])
    else:
        A = np.ones((len(la), 1))
    best: tuple[float, np.ndarray] | None = None
    for drop in [-1, *range(len(la))]:
        keep = usable.copy()
        if drop >= 0:
            keep[drop] = False
        if keep.sum() < A.shape[1] + 1:
            continue
        # a slope is held back gently (ridge), so that a row of one pile cannot set it on its own
        prior = np.sqrt(0.02) * np.eye(A.shape[1])[1:]
        coef, *_ = np.linalg.lstsq(np.vstack([A[keep], prior]), np.concatenate([la[keep], np.zeros(len(prior))]), rcond=None)
        spread = float(np.mean(np.abs(la[keep] - A[keep] @ coef)))
        spread += 0.004 * (drop >= 0)  # leave one out only when it really stands apart
        if best is None or spread < best[0]:
            best = (spread, coef)
    if best is None:
        return np.exp(la - la.max())
    return np.exp(la - A @ best[1])


def alone_in_row(centres: np.ndarray, areas: np.ndarray) -> list[bool]:
    """Piles with no other pile beside them (none whose centre is within half a pile's size up or
    down; `centres` and `areas` in the same pixels). How a tilted camera scales a row holding one
    pile cannot be told from the other piles, so that pile's size is trusted less."""
    centres = np.asarray(centres, float).reshape(-1, 2)
    size = float(np.sqrt(np.median(areas))) if len(areas) else 0.0
    return [not any(j != i and abs(centres[j, 1] - centres[i, 1]) < 0.5 * size for j in range(len(centres)))
            for i in range(len(centres))]


@dataclass(frozen=True)
class Reading:
    """The whole cut read as the banker lays it: every pile a four (or, two piles run together,
    fours) but at most one, the remainder. `posterior`: how much the evidence favours this reading
    over all the others (0..1)."""

    cards: list[int]
    posterior: float
    per_pile: list[float]


def _log_count(seen: int | None, k: int, trust: float) -> float:
    """log P(a reading of `seen` | the pile holds k): right with probability `trust`, else off by one
    (mostly) or anything."""
    if seen is None:
        return 0.0
    trust = float(np.clip(trust, 0.3, 0.95))
    if seen == k:
        return float(np.log(trust))
    if abs(seen - k) == 1:
        return float(np.log((1 - trust) * 0.35))
    return float(np.log((1 - trust) * 0.1))


def read_cut(edges: list[int], widths: list[int | None], ratios: np.ndarray, fours: list[int],
             rel_step: float, extents: np.ndarray | None = None, step_spread: float = 1.0,
             alone: list[bool] | None = None) -> Reading:
    """The most likely reading of the cut, given each pile's edge count, its count by width, and its
    size against a four's (`ratios`); `fours[i]` is 1 for a single pile, m for m piles run together.

    The rule of fours fixes almost everything: only which pile is the remainder, and how many it
    holds, is open (or none is: the cut divides by four). Each reading is scored by how likely it
    makes what was seen. How far each kind of evidence is trusted is measured on the picture itself:
    the share of piles that look like four cards by their edges (or width), since most piles are
    fours. A remainder of k cards is smaller than a four by (4 - k) steps of the hand (`rel_step`: a
    step against a four's width)."""
    n = len(edges)
    if n == 0:
        return Reading([], 0.0, [])
    single = [i for i in range(n) if fours[i] == 1]
    share_e = sum(edges[i] == 4 for i in single) / max(1, len(single))
    # when most fours show their four edges, the remainder's edges are right about nine times in
    # ten; when few do, about one in three (rendered cuts, seeds 7, 11, 13)
    trust_e = 0.35 + 0.57 * float(np.clip((share_e - 0.4) / 0.2, 0.0, 1.0))
    known = [i for i in single if widths[i] is not None]
    trust_w = sum(widths[i] == 4 for i in known) / max(1, len(known)) if known else 0.0
    lr = np.log(np.maximum(ratios, 1e-3))
    big = [lr[i] for i in single]
    sigma = 0.06
    if len(big) >= 4:
        mid = float(np.median(big))
        sigma = float(np.clip(1.4826 * np.median(np.abs(np.array(big) - mid)) * 1.5, SIGMA_MIN, 0.12))
    # a banker's step is at most about a third of a card (else the cards hardly overlap), which is
    # 0.17 of a four's width; a longer step measured is two steps, an edge missed all along (on
    # rendered cuts such steps were 2.3 times the true one)
    rel = float(rel_step / 2 if rel_step > MAX_REL else rel_step)
    rel = float(np.clip(rel, 0.05, MAX_REL))
    rel_doubt = float(np.clip(step_spread, 0.1, 0.35))
    le = np.log(np.maximum(extents, 1e-3)) if extents is not None else None
    measured = le is not None and step_spread < 0.15 and share_e >= 0.6

    def ll(i: int, k: int) -> float:
        out = _log_count(edges[i], k, trust_e)
        if widths[i] is not None and not measured:  # the same width, read coarsely: not twice
            out += _log_count(widths[i], k, trust_w)
        # the size: a four is a four's size (within the scatter of the fours); a pile alone in its
        # row may be scaled by the camera's tilt beyond that
        tilt = LONE_ROW if alone is not None and alone[i] else 0.0
        if k == 4:
            sd = float(np.hypot(sigma, tilt))
            dens = np.exp(-0.5 * (lr[i] / sd) ** 2) / (sd * 2.5066)
        else:
            # smaller by (4 - k) steps; how well the step is known: from its spread over the fours
            expect = np.log(max(0.1, 1.0 - (4 - k) * rel))
            sd = float(np.sqrt(sigma ** 2 + (LOOSE * (4 - k) * rel) ** 2 + ((4 - k) * rel * rel_doubt) ** 2 + tilt ** 2))
            dens = np.exp(-0.5 * ((lr[i] - expect) / sd) ** 2) / (sd * 2.5066)
        out += float(np.log((1 - ODD) * dens + ODD))
        if measured:
            # the hand's step was measured alike on the fours: the width across the edges then says
            # how many steps short a pile is
            expect = np.log(max(0.1, 1.0 - (4 - k) * rel))
            # a mask's soft rim and the card's rounded corners make short piles look a little wider
            # than their steps: the further from a four, the looser the expectation
            sd = float(np.hypot(sigma, 0.25 * (4 - k) * rel))
            dens = np.exp(-0.5 * ((le[i] - expect) / sd) ** 2) / (sd * 2.5066)
            out += float(np.log((1 - ODD) * dens + ODD))
        return out

    as_four = [ll(i, 4) if fours[i] == 1 else 0.0 for i in range(n)]
    base = sum(as_four)
    hyps: list[tuple[float, int, int]] = [(base, -1, 4)]
    for i in single:
        for k in (1, 2, 3):
            hyps.append((base - as_four[i] + ll(i, k), i, k))
    scores = np.array([h[0] for h in hyps])
    post = np.exp(scores - scores.max())
    post /= post.sum()
    best = int(np.argmax(post))
    _, j, k = hyps[best]
    cards = [4 * fours[i] for i in range(n)]
    if j >= 0:
        cards[j] = k
    per_pile = []
    for i in range(n):
        agree = sum(p for p, (_, jj, kk) in zip(post, hyps) if (kk if jj == i else 4 * fours[i]) == cards[i])
        per_pile.append(float(agree))
    return Reading(cards, float(post[best]), per_pile)


# --------------------------------------------------------------------------- the whole cut


def count_cut(frame: np.ndarray) -> CutCount:
    """Count the face-down cards of a cut laid out in groups (BGR frame, any size)."""
    import time

    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < 64:
        raise ValueError("a cut is counted from a colour picture (BGR, at least 64 x 64 pixels)")
    t0 = time.perf_counter()
    H, W = frame.shape[:2]
    scale = 1.0
    work = frame
    if W > WORK_WIDTH:
        scale = WORK_WIDTH / W
        work = cv2.resize(frame, (WORK_WIDTH, int(round(H * scale))), interpolation=cv2.INTER_AREA)
    mask, contours, how = find_piles(work)
    _plausible, doubts = looks_like_a_cut(contours, work)
    looks = [look_at_group(work, mask, c) for c in contours]
    view = choose_view(looks)
    centres = np.array([c.reshape(-1, 2).mean(axis=0) for c in contours]).reshape(-1, 2)
    widths = by_width(view, centres)
    ratios = size_ratios(contours, work.shape[1], work.shape[0])
    # two piles laid too close are one blob: about twice a pile's area, read as that many fours
    fours = [max(1, int(round(r))) if r > 1.6 and len(contours) >= 3 else 1 for r in ratios]
    steps = [e.step / e.extent for e in view if e.edges == 4 and e.extent > 0 and e.step > 0]
    rel_step = float(np.median(steps)) if steps else 0.12
    spread = float(np.median(np.abs(np.array(steps) - rel_step)) / rel_step) if len(steps) >= 3 else 1.0
    # each pile's width across its edges in units of its own card length (the outermost edge): the
    # camera's tilt scales both alike, so no fit over the picture is needed
    extents = against_fours(np.array([e.extent / e.length if e.length > 0 else 1e-3 for e in view]),
                            np.zeros_like(centres))
    edge_counts = [max(1, e.edges) for e in view]
    areas = np.array([cv2.contourArea(c) for c in contours], float)
    reading = read_cut(edge_counts, widths, ratios, fours, rel_step, extents, spread, alone_in_row(centres, areas))
    groups = []
    for contour, e, w, m, final, sure in zip(contours, view, widths, fours, reading.cards, reading.per_pile):
        outline = contour.reshape(-1, 2).astype(np.float32) / scale
        seen = 4 * m if m > 1 else combine(max(1, e.edges), w)
        groups.append(CutGroup(final, outline, sure, e.edges, w, seen))
    # the banker's laying order: rows from the top, left to right within a row
    groups.sort(key=lambda g: (round(g.box[1] / max(1.0, H * 0.12)), g.box[0]))
    count = sum(g.cards for g in groups)
    fits = bool(groups) and all(g.cards == g.seen for g in groups)
    notes = []
    if not groups:
        notes.append("No cards found: lay the cut out in fours on a clear part of the table.")
    elif doubts:
        notes.append("Some blobs did not look like piles of cards (" + ", ".join(sorted(set(doubts))) + "): check the piles.")
    elif not fits:
        notes.append("Some piles did not look like four cards and were read as fours: check them.")
    # sure when the rule of fours left one clear reading and each pile's edges and width agree with
    # it; the power is set so that "sure" (0.8 and up) was right 99 times in 100 on the tuning seeds
    # (600 pictures: 122 of 123), to stay at 97 or more on pictures not tuned to
    agree = [((g.by_edges == g.cards) + (g.by_width == g.cards)) / 2 for g in groups]
    confidence = reading.posterior * (float(np.mean(agree)) ** 4 if agree else 0.0)
    if doubts:
        confidence *= 0.5
    if all(w is None for w in widths):
        confidence *= 0.5  # no piles of four to measure the others against
    if count > PACK:
        confidence = 0.0
        notes.append(f"{count} cards is more than a pack: something on the table was taken for cards.")
    return CutCount(count, tuple(groups), float(confidence), fits, W, H, " ".join(notes),
                    time.perf_counter() - t0, {"piles found by": how, "posterior": reading.posterior, "doubts": doubts})
