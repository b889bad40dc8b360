"""Card artwork: find the decks that Debian and npm packages ship, rasterise each once into a cache.

Why a cache: rasterising an SVG deck takes about a second, a scene needs a few dozen cards; scenes
sample from ``data/artwork/<deck>/<code>.png`` (RGBA, about 540 px tall) and ``back.png``.
Each deck folder also holds ``deck.json``: where every card's corner index (the rank+suit block in
the top-left corner) lies in card pixels, found automatically from the ink and checked on a contact
sheet. The bottom-right index is that box turned 180 degrees about the card centre.

Licences and which decks are in or out (and why) are in datasets/DECKS.md.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

RANKS = "A23456789TJQK"
SUITS = "cdhs"
#: canonical card codes, suit-major: Ac 2c ... Kc Ad ... Ks
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)

CARD_HEIGHT = 540  # cache resolution: enough for a close-up phone photo of one card in 720p
AISLERIOT = Path("/usr/share/aisleriot/cards")
KDE = Path("/usr/share/carddecks")
NPM_DIR = Path("data/npm/node_modules")

APT_PACKAGES = [
    "gnome-cards-data", "aisleriot", "kdegames-card-data-kf5", "gimp-data", "librsvg2-bin", "fonts-dejavu-core", "fonts-liberation",
]
NPM_PACKAGES = ["@heruka_urgyen/react-playing-cards", "cardsJS", "svg-cards"]


@dataclass(frozen=True)
class DeckSource:
    """One deck design and where its artwork comes from."""

    name: str
    kind: str  # "sheet" (aisleriot 13x5 grid svgz), "svgdir" (one svg per card), "kde" (QSvgRenderer)
    path: str  # svgz file, or folder (relative folders are under the npm prefix)
    licence: str
    package: str
    split: str = "train"  # "train" or "val": val decks are never seen in training
    corners: int = 2  # how many corner indices the design prints (tango_nuevo: 1)
    pattern: str = "{rank}{suit}.svg"  # svgdir file names; rank T or 10, suit C/D/H/S
    ten: str = "T"
    back: str | None = None  # svgdir: file of the back
    extra: dict = field(default_factory=dict)


_GNOME = "Debian gnome-cards-data (aisleriot card themes)"
_SHEETS = [
    # name, licence, split, corners
    ("anglo", "GPL-3+", "train", 2),
    ("anglo_bitmap", "GPL-3+", "train", 2),
    ("anglo_modern", "GPL-3+", "train", 2),
    ("anglo_modern_4_color", "GPL-3+", "train", 2),
    ("anglo_poker", "GPL-3+", "train", 2),
    ("atlasnye", "GPL-3+", "train", 2),
    ("bellot", "GPL-3+ (Debian); LGPL-2.1 upstream (svg-cards)", "train", 2),
    ("dondorf", "GPL-3+", "val", 4),
    ("gnomangelo", "GPL-3+", "train", 2),
    ("gnomangelo_bitmap", "GPL-3+", "train", 2),
    ("neoclassical", "GPL-3+", "train", 2),
    ("neoclassical_4_color", "GPL-3+", "train", 2),
    ("orell", "GPL-3+", "train", 2),
    ("ornamental", "GPL-3+", "val", 2),
    ("paris", "GPL-3+", "train", 2),
    ("plastic", "GPL-3+", "train", 2),
    ("simplistic", "GPL-3+", "train", 2),
    ("tango", "GPL-3+", "train", 2),
    ("tigullio", "GPL-3+", "val", 2),
]

DECKS: list[DeckSource] = [
    DeckSource(n, "sheet", str(AISLERIOT / f"{n}.svgz"), lic, _GNOME, split, corners)
    for n, lic, split, corners in _SHEETS
] + [
    DeckSource("bonded", "sheet", str(AISLERIOT / "bonded.svgz"), "GPL-3+", "Debian aisleriot", corners=4),
    DeckSource(
        "kennard_2color", "svgdir", "@heruka_urgyen/react-playing-cards/src/images/2color",
        "CC0", "npm @heruka_urgyen/react-playing-cards", pattern="{rank}{suit}.svg",
    ),
    DeckSource(
        "kennard_4color_big", "svgdir", "@heruka_urgyen/react-playing-cards/src/images/4color-bf",
        "CC0", "npm @heruka_urgyen/react-playing-cards", pattern="{rank}{suit}.svg",
    ),
    DeckSource(
        "kennard_4color", "svgdir", "@heruka_urgyen/react-playing-cards/src/images/4color",
        "CC0", "npm @heruka_urgyen/react-playing-cards", pattern="{rank}{suit}.svg",
    ),
    DeckSource(
        "kennard_2color_big", "svgdir", "@heruka_urgyen/react-playing-cards/src/images/2color-bf",
        "CC0", "npm @heruka_urgyen/react-playing-cards", pattern="{rank}{suit}.svg",
    ),
    DeckSource(
        "vectorized", "svgdir", "cardsJS/cards", "LGPL-3+", "npm cardsJS (Vectorized Playing Cards 1.3)",
        split="val", pattern="{rank}{suit}.svg", ten="10", back="Blue_Back.svg",
    ),
]


_KDE_NOTE = "Debian kdegames-card-data-kf5 (KDE card decks; rasterised with PySide6 QSvgRenderer)"
_KDE = [
    # name, folder/file, licence, split, corners
    ("kde_jolly_royal", "svg-jolly-royal/jolly-royal.svgz", "GPL-2+", "train", 2),
    ("kde_nicu_white", "svg-nicu-white/white.svgz", "GPL-2+", "val", 2),  # same art as ornamental
    ("kde_penguins", "svg-penguins/penguins.svgz", "GPL-3+", "train", 2),
    ("kde_standard", "svg-standard/standard.svgz", "GPL-2+", "train", 2),
    ("kde_tigullio_international", "svg-tigullio-international/tigullio-international.svgz", "LGPL-2+", "val", 2),
]
DECKS += [DeckSource(n, "kde", str(KDE / f), lic, _KDE_NOTE, split, corners) for n, f, lic, split, corners in _KDE]


# Decks printed from the fonts Debian ships (fonts-dejavu-core, fonts-liberation): the same card
# layout in eight typefaces, so the classifier meets index prints beyond the dozen drawn designs.
FONTS = Path("/usr/share/fonts/truetype")
_FONT_DECKS = [
    # name, rank font, licence
    ("print_dejavu_sans", "dejavu/DejaVuSans.ttf", "Bitstream Vera / DejaVu (free)"),
    ("print_dejavu_sans_bold", "dejavu/DejaVuSans-Bold.ttf", "Bitstream Vera / DejaVu (free)"),
    ("print_dejavu_serif", "dejavu/DejaVuSerif.ttf", "Bitstream Vera / DejaVu (free)"),
    ("print_dejavu_condensed_bold", "dejavu/DejaVuSansCondensed-Bold.ttf", "Bitstream Vera / DejaVu (free)"),
    ("print_liberation_serif_bold", "liberation/LiberationSerif-Bold.ttf", "SIL OFL 1.1"),
    ("print_liberation_narrow_bold", "liberation/LiberationSansNarrow-Bold.ttf", "SIL OFL 1.1"),
    ("print_liberation_mono_bold", "liberation/LiberationMono-Bold.ttf", "SIL OFL 1.1"),
    ("print_liberation_sans", "liberation/LiberationSans-Regular.ttf", "SIL OFL 1.1"),
]
DECKS += [
    DeckSource(n, "font", str(FONTS / f), lic, "Debian fonts-dejavu-core / fonts-liberation, printed by datasets/artwork.py", extra={"seed": k})
    for k, (n, f, lic) in enumerate(_FONT_DECKS)
]


def deck_by_name(name: str) -> DeckSource:
    for d in DECKS:
        if d.name == name:
            return d
    raise KeyError(f"unknown deck {name!r}; known: {', '.join(d.name for d in DECKS)}")


def missing_pip() -> list[str]:
    """PyPI packages the KDE decks need (optional)."""
    import importlib.util

    return [] if importlib.util.find_spec("PySide6") else ["PySide6-Essentials"]


def missing_sources(npm_prefix: Path = Path("data/npm")) -> tuple[list[str], list[str]]:
    """Which Debian and npm packages are missing, for a clear message to the user."""
    apt: list[str] = []
    if not (AISLERIOT / "anglo.svgz").exists():
        apt.append("gnome-cards-data")
    if not (AISLERIOT / "bonded.svgz").exists():
        apt.append("aisleriot")
    if shutil.which("rsvg-convert") is None:
        apt.append("librsvg2-bin")
    if not Path("/usr/share/gimp/2.0/patterns").exists():
        apt.append("gimp-data")
    if not KDE.exists():
        apt.append("kdegames-card-data-kf5")
    if not (FONTS / "dejavu/DejaVuSans.ttf").exists():
        apt.append("fonts-dejavu-core")
    if not (FONTS / "liberation/LiberationSans-Regular.ttf").exists():
        apt.append("fonts-liberation")
    npm = [p for p in NPM_PACKAGES if not (npm_prefix / "node_modules" / p).exists()]
    return apt, npm


def install_hint(apt: list[str], npm: list[str], npm_prefix: Path = Path("data/npm"), pip: list[str] = ()) -> str:
    """The commands that install what is missing, to print for the user."""
    lines = []
    if apt:
        lines.append("apt-get update && apt-get install -y --no-install-recommends " + " ".join(apt))
    if npm:
        lines.append(f"npm install --prefix {npm_prefix} " + " ".join(npm))
    if pip:
        lines.append("pip install " + " ".join(pip) + "   # or: pip install -e '.[artwork]'")
    return "\n".join(lines)


# --------------------------------------------------------------------------- rasterising


def _rsvg(src: Path, out: Path, width: int | None = None, height: int | None = None) -> None:
    cmd = ["rsvg-convert", "-a"]
    if width:
        cmd += ["-w", str(width)]
    if height:
        cmd += ["-h", str(height)]
    cmd += [str(src), "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True)


def _read_rgba(path: Path) -> np.ndarray:
    import cv2

    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if im is None:
        raise ValueError(f"cannot read image {path}")
    if im.ndim == 2:
        im = cv2.cvtColor(im, cv2.COLOR_GRAY2BGRA)
    elif im.shape[2] == 3:
        im = cv2.cvtColor(im, cv2.COLOR_BGR2BGRA)
    return im


def trim_alpha(card: np.ndarray) -> np.ndarray:
    """Cut a card image to the bounding box of its opaque pixels."""
    a = card[:, :, 3] > 32
    ys, xs = np.nonzero(a)
    if len(xs) == 0:
        raise ValueError("card image is fully transparent")
    return card[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _to_height(card: np.ndarray, height: int = CARD_HEIGHT) -> np.ndarray:
    import cv2

    h, w = card.shape[:2]
    if h == height:
        return card
    new_w = max(1, round(w * height / h))
    interp = cv2.INTER_AREA if h > height else cv2.INTER_CUBIC
    return cv2.resize(card, (new_w, height), interpolation=interp)


def rasterise_sheet(deck: DeckSource, tmp: Path) -> dict[str, np.ndarray]:
    """An aisleriot theme: the whole deck on a 13x5 grid (suits c, d, h, s; then jokers and back)."""
    sheet_png = tmp / f"{deck.name}.png"
    _rsvg(Path(deck.path), sheet_png, width=13 * 380)
    sheet = _read_rgba(sheet_png)
    H, W = sheet.shape[:2]
    cw, ch = W / 13, H / 5
    cards: dict[str, np.ndarray] = {}

    def cell(col: int, row: int) -> np.ndarray:
        return sheet[round(row * ch) : round((row + 1) * ch), round(col * cw) : round((col + 1) * cw)]

    for si, s in enumerate(SUITS):
        for ri, r in enumerate(RANKS):
            cards[r + s] = _to_height(trim_alpha(cell(ri, si)))
    cards["back"] = _to_height(trim_alpha(cell(2, 4)))
    return cards


def rasterise_svgdir(deck: DeckSource, tmp: Path, npm_prefix: Path) -> dict[str, np.ndarray]:
    folder = Path(deck.path)
    if not folder.is_absolute():
        folder = npm_prefix / "node_modules" / folder
    cards: dict[str, np.ndarray] = {}
    for code in CODES:
        r, s = code
        rank = deck.ten if r == "T" else r
        src = folder / deck.pattern.format(rank=rank, suit=s.upper())
        out = tmp / f"{deck.name}_{code}.png"
        _rsvg(src, out, height=CARD_HEIGHT + 8)
        cards[code] = _to_height(trim_alpha(_read_rgba(out)))
    if deck.back:
        out = tmp / f"{deck.name}_back.png"
        _rsvg(folder / deck.back, out, height=CARD_HEIGHT + 8)
        cards["back"] = _to_height(trim_alpha(_read_rgba(out)))
    return cards


_QT_APP = None
_KDE_RANK = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_KDE_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}


def rasterise_kde(deck: DeckSource) -> dict[str, np.ndarray]:
    """A KDE deck: cards are SVG elements ``<rank>_<suit>`` placed freely; librsvg cannot cut one
    element at the right size, Qt's SVG renderer can (``QT_QPA_PLATFORM=offscreen``, no display)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtCore import QByteArray, QRectF
        from PySide6.QtGui import QGuiApplication, QImage, QPainter
        from PySide6.QtSvg import QSvgRenderer
    except ImportError as exc:  # optional: the KDE decks only
        raise RuntimeError("KDE decks need PySide6: pip install PySide6-Essentials") from exc
    global _QT_APP
    _QT_APP = QGuiApplication.instance() or QGuiApplication([])  # text in SVGs needs an application
    renderer = QSvgRenderer(QByteArray(gzip.decompress(Path(deck.path).read_bytes())))
    if not renderer.isValid():
        raise ValueError(f"{deck.path}: not a readable SVG")

    def draw(element: str) -> np.ndarray:
        rect = renderer.transformForElement(element).mapRect(renderer.boundsOnElement(element))
        if rect.height() <= 0:
            raise ValueError(f"{deck.path}: no element {element}")
        scale = (CARD_HEIGHT + 8) / rect.height()
        w, h = max(1, round(rect.width() * scale)), CARD_HEIGHT + 8
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.fill(0)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter, element, QRectF(0, 0, w, h))
        painter.end()
        arr = np.frombuffer(img.constBits(), np.uint8).reshape(h, img.bytesPerLine() // 4, 4)[:, :w]
        return _to_height(trim_alpha(arr.copy()))  # ARGB32 in memory is B, G, R, A: OpenCV's BGRA

    cards = {code: draw(f"{_KDE_RANK.get(code[0], code[0])}_{_KDE_SUIT[code[1]]}") for code in CODES}
    for back_id in ("back", "card_back"):
        if renderer.elementExists(back_id):
            cards["back"] = draw(back_id)
            break
    return cards


_PIPS = {  # pip centres as fractions of the card (x, y); those below the middle are printed upside down
    "2": [(0.5, 0.2), (0.5, 0.8)],
    "3": [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    "4": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    "5": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "6": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "7": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "8": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8), (0.7, 0.8)],
    "9": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6), (0.3, 0.8), (0.7, 0.8)],
    "T": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6), (0.5, 0.7), (0.3, 0.8), (0.7, 0.8)],
}
_SUIT_GLYPH = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def rasterise_font_deck(deck: DeckSource) -> tuple[dict[str, np.ndarray], dict[str, tuple[int, int, int, int]]]:
    """A deck printed with a Debian font: rank over suit in two corners, pips, court cards with a
    framed letter. Returns the cards and their top-left index boxes, known from the drawing itself."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtCore import QPointF, QRectF, Qt
        from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QImage, QPainter, QPen
    except ImportError as exc:
        raise RuntimeError("printed decks need PySide6: pip install PySide6-Essentials") from exc
    global _QT_APP
    _QT_APP = QGuiApplication.instance() or QGuiApplication([])
    if not Path(deck.path).exists():
        raise RuntimeError(f"font {deck.path} not installed (Debian fonts-dejavu-core / fonts-liberation)")
    suit_file = FONTS / "dejavu/DejaVuSans.ttf"
    fams = [QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(str(f))) for f in (deck.path, suit_file)]
    if not fams[0] or not fams[1]:
        raise RuntimeError(f"cannot load font {deck.path}")
    rank_family, suit_family = fams[0][0], fams[1][0]
    rng = np.random.default_rng(1000 + int(deck.extra.get("seed", 0)))
    W, H = 380, CARD_HEIGHT
    red = QColor(*[int(v) for v in rng.choice([[200, 20, 30], [220, 40, 40], [170, 10, 40], [230, 60, 20]])])
    black = QColor(*[int(v) for v in rng.choice([[10, 10, 10], [30, 30, 40], [20, 20, 60]])])
    four = rng.random() < 0.25
    ink = {"s": black, "h": red, "c": QColor(20, 120, 40) if four else black, "d": QColor(20, 60, 190) if four else red}
    paper = QColor(int(rng.integers(244, 253)), int(rng.integers(240, 251)), int(rng.integers(228, 249)))  # white to cream
    rank_px = int(H * rng.uniform(0.09, 0.13))
    suit_px = int(rank_px * rng.uniform(0.65, 0.9))
    margin = int(W * rng.uniform(0.04, 0.07))
    border = rng.random() < 0.5

    def font(family: str, px: int) -> QFont:
        f = QFont(family)
        f.setPixelSize(px)
        return f

    def text_at(p: QPainter, txt: str, fnt: QFont, cx: float, cy: float, colour: QColor, flip: bool = False) -> None:
        p.save()
        p.translate(cx, cy)
        if flip:
            p.rotate(180)
        p.setFont(fnt)
        p.setPen(colour)
        p.drawText(QRectF(-W, -H, 2 * W, 2 * H), int(Qt.AlignmentFlag.AlignCenter), txt)
        p.restore()

    def new_image() -> tuple[QImage, QPainter]:
        img = QImage(W, H, QImage.Format.Format_ARGB32)
        img.fill(0)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        return img, p

    def to_array(img: QImage) -> np.ndarray:
        return np.frombuffer(img.constBits(), np.uint8).reshape(H, img.bytesPerLine() // 4, 4)[:, :W].copy()

    cards: dict[str, np.ndarray] = {}
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for code in CODES:
        r, s_ = code
        label = "10" if r == "T" else r
        colour = ink[s_]
        # the index alone first, to know its box exactly
        img, p = new_image()
        rf, sf = font(rank_family, rank_px), font(suit_family, suit_px)
        cx = margin + rank_px * 0.42
        text_at(p, label, rf, cx, margin + rank_px * 0.55, colour)
        text_at(p, _SUIT_GLYPH[s_], sf, cx, margin + rank_px * 1.05 + suit_px * 0.5, colour)
        p.end()
        alpha = to_array(img)[:, :, 3]
        ys, xs = np.nonzero(alpha > 100)
        boxes[code] = (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
        # the whole card
        img, p = new_image()
        p.setPen(QPen(QColor(120, 120, 120), 2) if border else Qt.PenStyle.NoPen)
        p.setBrush(paper)
        p.drawRoundedRect(QRectF(1, 1, W - 2, H - 2), W * 0.06, W * 0.06)
        for flip in (False, True):
            p.save()
            if flip:
                p.translate(W, H)
                p.rotate(180)
            text_at(p, label, rf, cx, margin + rank_px * 0.55, colour)
            text_at(p, _SUIT_GLYPH[s_], sf, cx, margin + rank_px * 1.05 + suit_px * 0.5, colour)
            p.restore()
        pip = font(suit_family, int(H * (0.13 if r != "A" else 0.32)))
        if r in _PIPS or r == "A":
            for fx, fy in _PIPS.get(r, [(0.5, 0.5)]):
                text_at(p, _SUIT_GLYPH[s_], pip, W * (0.05 + 0.9 * fx), H * (0.05 + 0.9 * fy), colour, flip=fy > 0.5)
        else:  # a court card: a coloured frame with the letter and a suit sign, mirrored
            fr = QRectF(W * 0.24, H * 0.12, W * 0.52, H * 0.76)
            p.setPen(QPen(colour, 3))
            p.setBrush(QColor(int(rng.integers(150, 255)), int(rng.integers(150, 255)), int(rng.integers(120, 230))))
            p.drawRect(fr)
            big = font(rank_family, int(H * 0.2))
            text_at(p, label, big, W * 0.5, H * 0.33, colour)
            text_at(p, label, big, W * 0.5, H * 0.67, colour, flip=True)
            text_at(p, _SUIT_GLYPH[s_], font(suit_family, int(H * 0.08)), W * 0.5, H * 0.5, colour)
        p.end()
        cards[code] = to_array(img)
    img, p = new_image()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(int(rng.integers(20, 200)), int(rng.integers(20, 120)), int(rng.integers(20, 200))))
    p.drawRoundedRect(QRectF(1, 1, W - 2, H - 2), W * 0.06, W * 0.06)
    p.setPen(QPen(QColor(240, 240, 240), 3))
    for k in range(-H, W + H, 18):  # a lattice back
        p.drawLine(QPointF(k, 0), QPointF(k + H, H))
        p.drawLine(QPointF(k + H, 0), QPointF(k, H))
    p.end()
    cards["back"] = to_array(img)
    return cards, boxes


# --------------------------------------------------------------------------- corner index


def _paper_colour(card: np.ndarray) -> np.ndarray:
    """The card stock's colour: the median of a band just inside the border."""
    h, w = card.shape[:2]
    band = np.concatenate(
        [
            card[int(0.03 * h) : int(0.06 * h), int(0.3 * w) : int(0.7 * w), :3].reshape(-1, 3),
            card[int(0.3 * h) : int(0.7 * h), int(0.03 * w) : int(0.05 * w), :3].reshape(-1, 3),
        ]
    )
    return np.median(band, axis=0)


def ink_mask(card: np.ndarray) -> np.ndarray:
    """Pixels that differ clearly from the card stock: print, not paper."""
    paper = _paper_colour(card).astype(np.float32)
    diff = np.linalg.norm(card[:, :, :3].astype(np.float32) - paper, axis=2)
    return (diff > 70) & (card[:, :, 3] > 128)


def _runs(profile: np.ndarray, start: int, max_gap: int) -> tuple[int, int] | None:
    """First run of nonzero entries from `start`, bridging gaps up to max_gap."""
    nz = np.nonzero(profile[start:])[0]
    if len(nz) == 0:
        return None
    a = start + nz[0]
    b = a
    for i in nz[1:]:
        i = start + i
        if i - b - 1 > max_gap:
            break
        b = i
    return int(a), int(b)


def find_index_box(card: np.ndarray) -> tuple[int, int, int, int] | None:
    """The top-left corner index (rank above suit) as (x0, y0, x1, y1) in card pixels, inclusive.

    Why from the ink: each deck places its index differently, and we need the box a camera can see.
    Glyphs are connected blobs of ink: start from the blob nearest the corner (the rank, or the "1"
    of a ten), add blobs beside it of the same height (the "0"), then the first blob below it (the
    suit). Pips and court frames are left out because they are bigger or further away.
    """
    import cv2

    h, w = card.shape[:2]
    ink = ink_mask(card)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    big = (stats[:, cv2.CC_STAT_WIDTH] > 0.45 * w) | (stats[:, cv2.CC_STAT_HEIGHT] > 0.4 * h)
    big[0] = False
    if big.any():
        # a glyph printed against the border ring joins it into one huge blob: cut the ring's band
        # along the card edge away and look again, so the glyph comes loose (penguins)
        band = max(3, round(0.03 * w))
        edge = np.zeros_like(ink)
        edge[:band, :] = edge[-band:, :] = True
        edge[:, :band] = edge[:, -band:] = True
        ink = ink & ~(big[lab] & edge)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    m = max(2, round(0.012 * w))
    blobs = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if bw > 0.45 * w or bh > 0.4 * h:  # border ring, court frame
            continue
        if x + bw <= m or y + bh <= m or area < 0.00004 * w * h:  # corner antialiasing, specks
            continue
        if x > 0.3 * w or y > 0.35 * h:
            continue
        blobs.append([int(x), int(y), int(x + bw - 1), int(y + bh - 1)])
    if not blobs:
        return None
    # the rank: among blobs starting in the top-left fifth, the one nearest the corner
    cands = [b for b in blobs if b[0] < 0.2 * w and b[1] < 0.2 * h and (b[3] - b[1]) > 0.02 * h]
    if not cands:
        return None
    seed = min(cands, key=lambda b: b[0] + b[1])
    x0, y0, x1, y1 = seed
    rh = y1 - y0 + 1
    # parts of the rank beside it (the 0 of 10) or inside it (bits of a broken glyph)
    changed = True
    while changed:
        changed = False
        for b in blobs:
            if b[0] >= x0 and b[2] <= x1 and b[1] >= y0 and b[3] <= y1:
                continue
            same_line = abs(b[1] - y0) < 0.2 * rh and abs((b[3] - b[1] + 1) - rh) < 0.25 * rh
            near = b[0] - x1 - 1 < 0.45 * rh and b[2] > x0
            inside = b[0] >= x0 - 2 and b[2] <= x1 + 2 and b[1] >= y0 - 2 and b[3] <= y1 + 2
            if (same_line and near) or inside:
                x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
                changed = True
    rank_box = (x0, y0, x1, y1)
    rw = x1 - x0 + 1
    # the suit: the nearest blob below whose centre lies under the rank
    below = [
        b
        for b in blobs
        if b[1] > rank_box[3] - 0.1 * rh
        and b[1] - rank_box[3] < 0.9 * rh
        and x0 - 0.5 * rw <= (b[0] + b[2]) / 2 <= x1 + 0.5 * rw
        and (b[2] - b[0]) < 2.2 * max(rw, 0.6 * rh)
    ]
    if not below:
        # no separate suit blob: it may hang on a decorative line (jolly-royal). Take the first rows
        # under the rank, within its columns, that hold ink as wide as a suit sign, not a thin line
        band = ink[:, max(0, x0 - rw // 4) : x1 + rw // 4 + 1]
        widths = band.sum(axis=1)
        wide = widths > max(3, 0.3 * rw)
        y = y1 + 1
        while y < min(h, y1 + int(0.9 * rh)) and not wide[y]:
            y += 1
        if y < min(h, y1 + int(0.9 * rh)):
            ys = y
            while y < h and y - ys < 1.3 * rh and (wide[y] or (y + 2 < h and wide[y + 1 : y + 3].any())):
                y += 1
            cols = np.nonzero(band[ys:y].any(axis=0))[0]
            if len(cols) and y - ys > 0.25 * rh:
                below = [[max(0, x0 - rw // 4) + int(cols[0]), ys, max(0, x0 - rw // 4) + int(cols[-1]), y - 1]]
    if below:
        suit = min(below, key=lambda b: b[1])
        x0, y0, x1, y1 = min(x0, suit[0]), min(y0, suit[1]), max(x1, suit[2]), max(y1, suit[3])
        # a suit sign may come in pieces (antialiased stems): take blobs inside its band
        sb = suit
        for b in blobs:
            if b[1] >= sb[1] - 2 and b[3] <= sb[3] + 2 and b[0] >= sb[0] - 2 and b[2] <= sb[2] + 2:
                x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    return (x0, y0, x1, y1)


def regularise_boxes(boxes: dict[str, tuple[int, int, int, int] | None]) -> dict[str, list[int]]:
    """Court cards and aces can swallow their frame or a big pip; clamp outliers to the deck's norm.

    The norm is the median index box of the pip cards 2-9, which every deck prints the same way;
    tens (two digits, wider) are held to the median of the four tens.
    """
    pip = [b for c, b in boxes.items() if b and c[0] in "23456789"]
    if not pip:
        raise ValueError("no index found on any pip card")
    med_all = np.median(np.array(pip, dtype=float), axis=0)
    tens = [b for c, b in boxes.items() if b and c[0] == "T"]
    med_ten = np.median(np.array(tens, dtype=float), axis=0) if len(tens) >= 2 else None
    out: dict[str, list[int]] = {}
    for code, b in boxes.items():
        med = med_ten if code[0] == "T" and med_ten is not None else med_all
        mw, mh = med[2] - med[0], max(med[3] - med[1], med_all[3] - med_all[1])
        if b is None:
            b = tuple(int(v) for v in med)
        x0, y0, x1, y1 = b
        if x1 - x0 > 1.5 * mw or x0 > med[0] + 0.5 * mw:
            x0, x1 = int(med[0]), int(max(med[2], min(x1, med[0] + 1.3 * mw)))
        if y1 - y0 > 1.35 * mh or y0 > med[1] + 0.5 * mh:
            y0, y1 = int(med[1]), int(med[3])
        if y1 - y0 < 0.85 * mh:  # lost (part of) the suit below the rank
            y1 = int(y0 + mh)
        out[code] = [int(x0), int(y0), int(x1), int(y1)]
    return out


def corner_boxes(
    box: tuple[int, int, int, int], w: int, h: int, corners: int = 2
) -> list[tuple[int, int, int, int]]:
    """Every printed index of a card from its top-left one: the bottom-right is the same box turned
    180 degrees about the card centre; decks with four indices (dondorf) mirror it to the other two."""
    x0, y0, x1, y1 = box
    out = [(x0, y0, x1, y1)]
    if corners >= 2:
        out.append((w - 1 - x1, h - 1 - y1, w - 1 - x0, h - 1 - y0))
    if corners >= 4:
        out.append((w - 1 - x1, y0, w - 1 - x0, y1))
        out.append((x0, h - 1 - y1, x1, h - 1 - y0))
    return out


# --------------------------------------------------------------------------- the cache


def rasterise_deck(deck: DeckSource, out_dir: Path, npm_prefix: Path = Path("data/npm")) -> dict:
    """Rasterise one deck into out_dir/<deck>/ and write its deck.json; returns the json."""
    import cv2

    dest = out_dir / deck.name
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        if deck.kind == "sheet":
            cards = rasterise_sheet(deck, tmp)
        elif deck.kind == "svgdir":
            cards = rasterise_svgdir(deck, tmp, npm_prefix)
        elif deck.kind == "kde":
            cards = rasterise_kde(deck)
        elif deck.kind == "font":
            cards, known = rasterise_font_deck(deck)
        else:
            raise ValueError(f"deck kind {deck.kind!r} not supported")
    if deck.kind == "font":  # drawn by us: the boxes are known, not searched for
        raw = {c: known[c] for c in CODES}
        boxes = {c: list(b) for c, b in known.items()}
    else:
        raw = {c: find_index_box(cards[c]) for c in CODES}
        boxes = regularise_boxes(raw)
    for code, im in cards.items():
        cv2.imwrite(str(dest / f"{code}.png"), im)
    info = {
        "name": deck.name,
        "kind": deck.kind,
        "licence": deck.licence,
        "package": deck.package,
        "split": deck.split,
        "corners": deck.corners,
        "has_back": "back" in cards,
        "size": {c: [int(cards[c].shape[1]), int(cards[c].shape[0])] for c in CODES},
        "index": boxes,
        "index_raw": {c: (list(b) if b else None) for c, b in raw.items()},
    }
    (dest / "deck.json").write_text(json.dumps(info, indent=1))
    return info


def reindex_deck(deck_dir: Path) -> dict:
    """Find the index boxes again on a cached deck (after the finder changed), without rasterising."""
    import cv2

    info = json.loads((deck_dir / "deck.json").read_text())
    if info.get("kind") == "font":  # printed by us: its boxes are known exactly
        return info
    cards = {c: cv2.imread(str(deck_dir / f"{c}.png"), cv2.IMREAD_UNCHANGED) for c in CODES}
    raw = {c: find_index_box(im) for c, im in cards.items()}
    info["index"] = regularise_boxes(raw)
    info["index_raw"] = {c: (list(b) if b else None) for c, b in raw.items()}
    (deck_dir / "deck.json").write_text(json.dumps(info, indent=1))
    cv2.imwrite(str(deck_dir / "contact.png"), contact_sheet(deck_dir))
    return info


def contact_sheet(deck_dir: Path, scale: float = 0.35) -> np.ndarray:
    """All 52 cards of a cached deck with their index boxes drawn (green: top-left, red: bottom-right)."""
    import cv2

    info = json.loads((deck_dir / "deck.json").read_text())
    tiles = []
    for code in CODES:
        im = cv2.imread(str(deck_dir / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        bgr = im[:, :, :3].copy()
        bgr[im[:, :, 3] < 128] = (90, 90, 90)
        x0, y0, x1, y1 = info["index"][code]
        h, w = bgr.shape[:2]
        cv2.rectangle(bgr, (x0, y0), (x1, y1), (0, 200, 0), 2)
        for i, (a0, b0, a1, b1) in enumerate(corner_boxes((x0, y0, x1, y1), w, h, info["corners"])):
            if i:
                cv2.rectangle(bgr, (a0, b0), (a1, b1), (0, 0, 230), 2)
        bgr = cv2.resize(bgr, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        tiles.append(bgr)
    th = max(t.shape[0] for t in tiles)
    tw = max(t.shape[1] for t in tiles)
    grid = np.full((4 * th, 13 * tw, 3), 60, np.uint8)
    for i, t in enumerate(tiles):
        r, c = divmod(i, 13)
        grid[r * th : r * th + t.shape[0], c * tw : c * tw + t.shape[1]] = t
    return grid


class _LazyCards(dict):
    """Card images read from the cache on first use: a scene needs one deck of the twenty."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def __missing__(self, code: str) -> np.ndarray:
        import cv2

        im = cv2.imread(str(self.folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        if im is None:
            raise ValueError(f"missing card image {self.folder / code}.png; run `fantan dataset artwork`")
        if im.ndim == 2 or im.shape[2] != 4:
            raise ValueError(f"{self.folder / code}.png has no alpha channel; run `fantan dataset artwork`")
        self[code] = im
        return im


@dataclass
class Deck:
    """A cached deck: card images (BGRA, read when first used) and their top-left index boxes."""

    name: str
    split: str
    corners: int
    images: dict[str, np.ndarray]
    index: dict[str, tuple[int, int, int, int]]
    back_path: Path | None = None
    _back: np.ndarray | None = None

    @property
    def back(self) -> np.ndarray | None:
        if self._back is None and self.back_path is not None:
            import cv2

            self._back = cv2.imread(str(self.back_path), cv2.IMREAD_UNCHANGED)
        return self._back

    @classmethod
    def load(cls, deck_dir: Path) -> "Deck":
        info = json.loads((deck_dir / "deck.json").read_text())
        missing = [c for c in CODES if c not in info["index"]]
        if missing:
            raise ValueError(f"{deck_dir}/deck.json lacks index boxes for {missing}")
        back_path = deck_dir / "back.png"
        return cls(
            name=info["name"],
            split=info["split"],
            corners=int(info["corners"]),
            images=_LazyCards(deck_dir),
            index={c: tuple(v) for c, v in info["index"].items()},
            back_path=back_path if back_path.exists() else None,
        )


def load_decks(artwork_dir: Path, split: str | None = None) -> list[Deck]:
    """All cached decks (optionally only those of one split), sorted by name for determinism."""
    decks = []
    for d in sorted(artwork_dir.iterdir()) if artwork_dir.exists() else []:
        if (d / "deck.json").exists():
            deck = Deck.load(d)
            if split is None or deck.split == split:
                decks.append(deck)
    return decks


def build_cache(
    out_dir: Path = Path("data/artwork"),
    npm_prefix: Path = Path("data/npm"),
    only: list[str] | None = None,
    contact: bool = True,
    progress: bool = True,
) -> list[str]:
    """Rasterise every available deck; returns the names written. Skips decks whose source is missing."""
    import cv2
    from tqdm import tqdm

    todo = [d for d in DECKS if only is None or d.name in only]
    done = []
    for deck in tqdm(todo, desc="decks", unit="deck", disable=not progress):
        src = Path(deck.path)
        if deck.kind == "svgdir" and not src.is_absolute():
            src = npm_prefix / "node_modules" / src
        if not src.exists():
            tqdm.write(f"skip {deck.name}: {src} not found")
            continue
        try:
            rasterise_deck(deck, out_dir, npm_prefix)
        except RuntimeError as exc:  # an optional rasteriser is missing (PySide6 for the KDE decks)
            tqdm.write(f"skip {deck.name}: {exc}")
            continue
        if contact:
            cv2.imwrite(str(out_dir / deck.name / "contact.png"), contact_sheet(out_dir / deck.name))
        done.append(deck.name)
    return done
