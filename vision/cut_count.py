"""Counting the banker's cut: face-down cards laid out in groups of four, counted from one picture.

In Chinese Fan-Tan the banker cuts the pack and counts the cut out in fours; what is left over wins.
At the table he lays each four as a small staggered spread, every card a little to one side of the
one below so that each card's edge shows, and the remainder as a last, smaller group. This module
counts those cards and says how sure it is; it knows nothing of betting (the dashboard turns the
count into the winning number with `scorekeeper.banking.winning_number` and asks the banker).

How, and why this way:

1. *Table or card*: the frame's border is table (the cut lies in the middle), so the table's colours
   are learned there (k-means in Lab) and every pixel far from all of them is card. Closing and hole
   filling make each group one solid blob; blobs are the groups.
2. *Which way the edges run*: a group's outline is made of card edges only, so the two dominant
   directions of its outline are the card's two sides (not quite 90 degrees apart under a tilted
   camera, so each is found on its own).
3. *Counting edges, learned from the group itself*: all cards share one back design, and the strip
   just inside a card's edge (the back's margin, the start of its pattern) looks the same on every
   card. The strip inside the group's outline is such a sample, so it becomes the template; every
   card's leading edge in a staggered spread is visible over the card's full length, and the template
   finds each of them. Cards pushed to the right show their left edges (and vice versa), so left- and
   right-facing edges are counted separately, along both card sides; the largest count is the cards.
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


def natural_break(scores: list[float]) -> int:
    """How many of the matches (best first; the first is the template's own edge) are card edges:
    they stand apart from the back's pattern, so cut the list where it drops the most, among
    matches of at least `MATCH`. The match strength of a real edge varies with the light and what
    lies next to it, so a fixed threshold alone splits piles wrongly."""
    if not scores:
        return 0
    rest = [s for s in scores[1:]]
    strong = [s for s in rest if s >= MATCH]
    if not strong:
        return 1
    tail = rest[len(strong)] if len(rest) > len(strong) else FLOOR
    values = strong + [min(tail, strong[-1])]
    gaps = [values[i] - values[i + 1] for i in range(len(strong))]
    return 2 + int(np.argmax(gaps))


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


def read_as_fours(seen: list[int], lone: list[bool] | None = None) -> list[int]:
    """The banker lays fours and one last pile of what is left over: read the piles that way.

    A single pile (`lone`: not two piles touching, which are found by their area and come here as
    eight or more) seen as more than four is a four seen a step or more too wide; when several
    piles look short, the one that looks shortest is the remainder and the others are fours whose
    edges were missed. The caller lowers its confidence for every pile changed here, so the banker
    knows to look."""
    lone = [True] * len(seen) if lone is None else lone
    out = [4 if n > 4 and alone else n for n, alone in zip(seen, lone)]
    short = [k for k, n in enumerate(out) if n < 4]
    if len(short) > 1:
        keep = min(short, key=lambda k: out[k])
        for k in short:
            if k != keep:
                out[k] = 4
    return out


def by_area(areas: np.ndarray, lone: list[bool]) -> list[int]:
    """A rough reading from areas alone, for when the edges tell little: piles about as large as
    the typical one are fours; a smaller one holds fewer, assuming a typical spread (each card
    past the first adds a fifth of a card). Its confidence is nil: the banker must look."""
    typical = float(np.median(areas)) if len(areas) else 0.0
    out = []
    for a, alone in zip(areas, lone):
        if not alone or typical <= 0:
            out.append(4 * max(1, int(round(a / max(typical, 1.0)))))
            continue
        ratio = a / typical
        out.append(4 if ratio > 0.94 else 3 if ratio > 0.81 else 2 if ratio > 0.69 else 1)
    return out


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
    out: list[int | None] = []
    for k, e in enumerate(view):
        four = float(np.array([1.0, *centres[k]]) @ coef)
        step = rel_step * four
        out.append(max(1, 4 + int(round((e.extent - four) / step))) if step > 0 else None)
    return out


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
    mask = card_mask(work)
    contours = groups_of(mask)
    looks = [look_at_group(work, mask, c) for c in contours]
    view = choose_view(looks)
    centres = np.array([c.reshape(-1, 2).mean(axis=0) for c in contours]).reshape(-1, 2)
    widths = by_width(view, centres)
    seen = []
    for e, w in zip(view, widths):
        cards = combine(max(1, e.edges), w)
        sure = e.clarity if e.edges else 0.0
        if w is not None and w != e.edges:
            sure *= 0.5
        seen.append((cards, sure))
    # two piles laid too close are one blob: about twice a pile's area, read as that many fours
    areas = np.array([cv2.contourArea(c) for c in contours])
    typical = float(np.median(areas)) if len(areas) else 0.0
    merged = [int(round(a / typical)) if len(areas) >= 3 and a > 1.6 * typical else 1 for a in areas]
    seen = [(4 * k, sure * 0.5) if k > 1 else (n, sure) for (n, sure), k in zip(seen, merged)]
    lone = [k == 1 for k in merged]
    if all(w is None for w in widths) and sum(n == 4 for n, _ in seen) * 2 < len(seen):
        # the edges told little (a back without a margin, a blurred picture): fall back on areas
        seen = [(n, 0.0) for n in by_area(areas, lone)]
    read = read_as_fours([c for c, _ in seen], lone)
    groups = []
    for contour, e, w, (cards, sure), final in zip(contours, view, widths, seen, read):
        outline = contour.reshape(-1, 2).astype(np.float32) / scale
        groups.append(CutGroup(final, outline, sure if final == cards else sure * 0.5, e.edges, w, cards))
    # the banker's laying order: rows from the top, left to right within a row
    groups.sort(key=lambda g: (round(g.box[1] / max(1.0, H * 0.12)), g.box[0]))
    count = sum(g.cards for g in groups)
    fits = bool(groups) and all(g.cards == g.seen for g in groups)
    notes = []
    if not groups:
        notes.append("No cards found: lay the cut out in fours on a clear part of the table.")
    elif not fits:
        notes.append("Some piles did not look like four cards and were read as fours: check them.")
    # sure when every pile was read the same by its edges, by its width and by the rule of fours
    agree = [g.by_edges == g.seen == g.cards and g.by_width in (None, g.cards) for g in groups]
    confidence = (sum(agree) / len(agree)) ** 2 if groups else 0.0
    if all(g.by_width is None for g in groups):
        confidence *= 0.5  # no piles of four to measure the others against
    return CutCount(count, tuple(groups), float(confidence), fits, W, H, " ".join(notes),
                    time.perf_counter() - t0)
