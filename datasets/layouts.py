"""Where cards lie on a Fan Tan table: card poses from a table state.

A *pose* says where one card lies on the table plane (in table pixels, before the camera's
perspective) and which card lies on top of which (``z``). The renderer (datasets/scene.py) turns poses
into an image and per-card ground truth; the synthetic game videos reuse both.

The three ways players lay out the suit rows (rules: ../shared/rules/RULES.md):

* ``"spread"``  each card beside the next, nothing covered;
* ``"fanned"``  cards overlap so that only each card's corner index strip shows;
* ``"hoyle"``   the 7 alone, lower cards piled on the 6 and higher cards on the 8: only the tops show.

Example:

    >>> poses = layout_rows({"d": ["6d", "7d", "8d"]}, style="fanned", centre=(640, 360), card_h=110)
    >>> [p.code for p in sorted(poses, key=lambda p: p.z)]
    ['6d', '7d', '8d']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

RANK_ORDER = "A23456789TJQK"
CARD_ASPECT = 0.69  # width / height of a standard (poker) card; bridge cards are ~0.64


@dataclass(frozen=True)
class CardPose:
    """One card on the table plane. ``angle`` in degrees, counter-clockwise as seen from above;
    ``height`` the card's long side in table pixels; larger ``z`` lies on top."""

    code: str
    cx: float
    cy: float
    angle: float
    height: float
    z: int
    face_up: bool = True
    deck: str | None = None  # None: the scene's deck


def _rank(code: str) -> int:
    return RANK_ORDER.index(code[0])


def _place(code: str, ox: float, oy: float, along: float, across: float, angle: float, h: float, z: int) -> CardPose:
    """A card at `along` (row direction) / `across` offsets from an origin, the row turned by angle."""
    t = math.radians(angle)
    ux, uy = math.cos(t), -math.sin(t)  # row direction on screen (y grows downwards)
    vx, vy = math.sin(t), math.cos(t)  # across the row
    return CardPose(code, ox + along * ux + across * vx, oy + along * uy + across * vy, angle, h, z)


def layout_rows(
    rows: dict[str, list[str]],
    style: str = "spread",
    centre: tuple[float, float] = (640.0, 360.0),
    card_h: float = 100.0,
    angle: float = 0.0,
    row_gap: float = 0.12,
    overlap: float = 0.28,
    jitter: float = 0.0,
    rng=None,
) -> list[CardPose]:
    """The suit rows in the middle of the table, one row per suit, sevens in one column.

    ``rows`` maps a suit letter to the cards of that row (any order; a row holds a run through the 7).
    ``overlap`` (fanned) is the visible fraction of a card's width under the next one.
    ``jitter`` moves and turns each card a little, as real hands place them (needs ``rng``).
    """
    if style not in ("spread", "fanned", "hoyle"):
        raise ValueError(f"unknown row style {style!r}: use spread, fanned or hoyle")
    w = card_h * CARD_ASPECT
    suits = [s for s in "cdhs" if s in rows]
    pitch_across = card_h * (1 + row_gap)
    poses: list[CardPose] = []
    z = 0
    for i, s in enumerate(suits):
        across = (i - (len(suits) - 1) / 2) * pitch_across
        cards = sorted(rows[s], key=_rank)
        low = [c for c in cards if _rank(c) < 6][::-1]  # 6, 5, ... outwards
        high = [c for c in cards if _rank(c) > 6]  # 8, 9, ... outwards
        seven = [c for c in cards if _rank(c) == 6]
        placed: list[tuple[str, float, int]] = []  # code, along, z
        if seven:
            placed.append((seven[0], 0.0, 100))
        if style == "spread":
            step = w * 1.06
            placed += [(c, -(k + 1) * step, 100) for k, c in enumerate(low)]
            placed += [(c, (k + 1) * step, 100) for k, c in enumerate(high)]
        elif style == "fanned":
            # higher cards go on top, each shifted right so the one below keeps its top-left index;
            # lower cards go underneath, shifted left so their own top-left index shows.
            step = w * overlap
            placed += [(c, -w * 1.0 - k * step, 99 - k) for k, c in enumerate(low)]
            placed += [(c, w * 1.0 + k * step, 101 + k) for k, c in enumerate(high)]
        else:  # hoyle piles on the 6 and the 8
            placed += [(c, -w * 1.08, 99 + k) for k, c in enumerate(low)]
            placed += [(c, w * 1.08, 101 + k) for k, c in enumerate(high)]
        for code, along, zz in placed:
            jx = jy = ja = 0.0
            if jitter and rng is not None:
                jx, jy = rng.normal(0, jitter * w * 0.15, 2)
                ja = rng.normal(0, jitter * 4)
            p = _place(code, centre[0], centre[1], along + jx, across + jy, angle + ja, card_h, z + zz)
            poses.append(p)
        z += 1000
    return poses


def seat_positions(n_seats: int, centre: tuple[float, float], radius: tuple[float, float], start: float = 90.0) -> list[tuple[float, float, float]]:
    """Seats evenly round an oval table: (x, y, angle) where angle turns a card to face that seat's
    player (the player's cards read upright for them)."""
    out = []
    for k in range(n_seats):
        a = math.radians(start + 360.0 * k / n_seats)
        x = centre[0] + radius[0] * math.cos(a)
        y = centre[1] + radius[1] * math.sin(a)
        # a seat below the centre (a = 90 deg) reads cards upright: angle 0
        out.append((x, y, math.degrees(a) - 90.0))
    return out


def fan(
    codes: list[str],
    centre: tuple[float, float],
    card_h: float,
    angle: float = 0.0,
    spread_deg: float = 0.0,
    step: float = 0.22,
    z0: int = 0,
    curve: float = 0.0,
) -> list[CardPose]:
    """A hand laid down: cards overlapping left to right, each next one on top, so each keeps its
    top-left index visible. ``spread_deg`` turns the cards like a hand fanned in the fingers;
    ``step`` is the visible fraction of card width between neighbours."""
    n = len(codes)
    w = card_h * CARD_ASPECT
    poses = []
    for k, code in enumerate(codes):
        f = k - (n - 1) / 2
        along = f * step * w
        a = -f * spread_deg
        across = curve * card_h * (f / max(n, 1)) ** 2
        p = _place(code, centre[0], centre[1], along, across, angle, card_h, z0 + k)
        poses.append(replace(p, angle=angle + a))
    return poses


def layout_hands(
    hands: dict[int, list[str]],
    n_seats: int,
    centre: tuple[float, float] = (640.0, 360.0),
    radius: tuple[float, float] = (420.0, 250.0),
    card_h: float = 100.0,
    step: float = 0.22,
    spread_deg: float = 0.0,
    start: float = 90.0,
) -> list[CardPose]:
    """Hands laid down face up at the end of a round, fanned in front of each seat.

    ``hands`` maps a seat index (0 .. n_seats-1; with the default ``start`` seat 0 is nearest the
    camera, at the bottom of the picture, and the others follow clockwise as the picture shows them)
    to that player's cards.
    """
    seats = seat_positions(n_seats, centre, radius, start)
    poses: list[CardPose] = []
    for seat, codes in sorted(hands.items()):
        if not 0 <= seat < n_seats:
            raise ValueError(f"seat {seat} is not at a table of {n_seats}")
        x, y, a = seats[seat]
        poses += fan(codes, (x, y), card_h, angle=-a, spread_deg=spread_deg, step=step, z0=10000 * (seat + 1))
    return poses
