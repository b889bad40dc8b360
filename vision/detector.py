"""Recognise playing cards in a still frame: which cards are seen, where, how sure.

Two small ONNX models run on ONNX Runtime (no torch at the table):

1. the *index detector* finds every corner index (the rank + suit block printed in a card's corner)
   in a letterboxed copy of the frame;
2. the *index classifier* names each index from a 64x64 crop cut from the full-resolution frame, so
   a small index in a 1280x720 frame is read at the detail the camera saw, not at the detector's size.

A card shows up to two (on some designs four) indices; all indices that read as the same card are one
card, since a deck holds each card once. Its box is the union of its index boxes.

Example:

    >>> import cv2                                              # doctest: +SKIP
    >>> detector = CardDetector()                               # the shipped models/
    >>> [d.card for d in detector.detect(cv2.imread("table.jpg"))]
    ['7d', '8d', 'Ks']
"""

from __future__ import annotations

import ast
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parents[1] / "models"
#: A picture of eight cards (kennard_4color artwork, CC0: the four sevens, the jack of diamonds, the
#: queen of clubs, the king of hearts, the eight of diamonds; 100 px wide) that any working recognizer
#: reads exactly; `CardDetector.check_reading` reads it before a game is watched. Made from the deck's
#: artwork by `python -m datasets.reading_check`; see docs/TRAINING.md.
READING_CHECK = Path(__file__).resolve().parent / "assets" / "reading_check.png"
READING_CHECK_CARDS = ("7d", "7c", "7h", "7s", "Jd", "Qc", "Kh", "8d")
#: Metadata key that marks a model quantized by `fantan train quantize` (vision/quantize.py), and what
#: its value says of one whose INT8 weights are stored as uint8 (exact on CPUs without VNNI).
QUANTIZED_KEY = "fantan_quantized"
WEIGHTS_NOTE = "weights=uint8"
DETECTOR_FILE = "index_detector.onnx"
CLASSIFIER_FILE = "index_classifier.onnx"

#: Crop protocol shared with the training data: box grown by this fraction of its size on each side.
CROP_MARGIN = 0.15
CROP_SIZE = 64
#: The classifier's class for "no corner index here" (a false find of stage 1 is dropped).
NOT_AN_INDEX = "none"
#: How many readings of each card a Detection keeps (Detection.alternatives).
ALTERNATIVES = 3


class ModelError(RuntimeError):
    """A model file is missing, unreadable or not the model expected: names the file and the fix."""


class ModelWarning(UserWarning):
    """A model that loads but may read wrongly on this machine: names the file and the fix."""


#: Used when the models come without a thresholds.json (written by `fantan train calibrate`).
DEFAULT_CONF = 0.3
DEFAULT_INDEX_CONF = 0.25
THRESHOLDS_FILE = "thresholds.json"


def _thresholds(folder: Path) -> dict:
    """The thresholds chosen for these models on synthetic val data (vision.training.calibrate)."""
    import json

    path = folder / THRESHOLDS_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        return {k: float(data[k]) for k in ("conf", "index_conf") if k in data}
    except (ValueError, TypeError) as exc:
        raise ModelError(f"{path} is not the thresholds file `fantan train calibrate` writes: {exc}") from exc


@dataclass(frozen=True)
class Detection:
    """One card seen in a frame.

    `box` is (x1, y1, x2, y2) in pixels of the input image around what was seen of the card (the union
    of its visible corner indices); `corners` is the card's outline when known; `indices` keeps the
    boxes of the corner indices that were read as this card.
    """

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: tuple[tuple[float, float], ...] | None = None
    indices: tuple[tuple[float, float, float, float], ...] = field(default=(), compare=False)
    #: the classifier's best readings of this card's surest index, most likely first, as
    #: (card code, probability): the first is `card`; a caller that knows which cards can be there
    #: (the watcher knows the legal plays) can weigh the others
    alternatives: tuple[tuple[str, float], ...] = field(default=(), compare=False)

    def to_json(self) -> dict:
        """The entry of `fantan detect --json` (spec: cli.md)."""
        out: dict = {
            "card": self.card,
            "confidence": round(float(self.confidence), 4),
            "box": [round(float(v), 1) for v in self.box],
        }
        if self.corners is not None:
            out["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]
        return out


@dataclass(frozen=True)
class IndexBox:
    """A corner index found by stage 1, before it is read."""

    box: tuple[float, float, float, float]
    score: float


def _session(path: Path, threads: int | None):
    import onnxruntime as ort

    if not path.exists():
        raise ModelError(
            f"model file not found: {path}. Restore the shipped models/ folder from the project "
            f"(git checkout -- models/) or export trained weights with `fantan train export`."
        )
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    options.log_severity_level = 3
    # No busy-waiting between operators: on a laptop that also runs the camera and the dashboard,
    # spinning threads doubled the CPU time of each frame and made it slower (measured under load).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises several private exception types
        raise ModelError(
            f"cannot load model {path}: {exc}. The file is damaged or not an ONNX model; restore it "
            f"(git checkout -- models/) or export it again with `fantan train export`."
        ) from exc


def _metadata(session, path: Path) -> dict:
    raw = session.get_modelmeta().custom_metadata_map
    meta = {}
    for key, value in raw.items():
        try:
            meta[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            meta[key] = value
    if "names" not in meta or "imgsz" not in meta:
        raise ModelError(f"{path} lacks the class names / image size metadata that `fantan train export` writes")
    return meta


#: Pixels the detector looks at per frame: 640x384 for a 16:9 webcam frame, 480x480 for a square
#: photo. About what a 480x480 square costs, but a wide frame is not shrunk to 480 across: its corner
#: indices stay a third larger.
INPUT_PIXELS = 640 * 384

#: Pixels the detector looks at when asked to look closer (`CardDetector.detect_closely`): 960x544
#: for a webcam frame, about twice the usual budget. The hands laid down at the end of a round lie at
#: the table's edges, the far ones a third smaller than the rows: their indices (about 8 px in a
#: 1280x720 frame) shrink to 4 px at the usual budget, below what the detector learnt (`LEARNT_SIZES`),
#: and most are missed; at this budget they are found (measured on the last frame of benchmark round
#: 33, kennard_4color: 3 of Dan's 3 and 4 of Cleo's 5 far hand cards found, against 0 and 3).
CLOSER_PIXELS = 960 * 544
#: A closer look also looks at the picture's far side again on its own: the top `FAR_SIDE` of the
#: frame (a webcam looks down at the table at an angle, so the far seats lie at the top), at the
#: `closer_pixels` budget, which for a 1280x720 frame is a little over its full resolution (its top
#: half goes in at 1344x384, enlarged 1.05 times). A far seat's hand laid down fans its cards so
#: tightly that their indices are a few pixels apart, and at the closer look's three quarters of the
#: resolution some are never found (the last frames of 24 benchmark rounds, both decks,
#: `benchmarks/bench_far_hands.py`: 147 of 160 hand cards read against 138, none read that is not on
#: the table; photo deck round 271's aces of spades and hearts, missed by every look, read). None:
#: the whole frame only.
FAR_SIDE = 0.5

#: Two indices read as one card are its two corners only within this many index sizes (the longer
#: side of the larger index box) of each other, centre to centre: a card is 2.5 to 4.5 index heights
#: tall and narrower than tall, so its farthest corners lie at most about 6 apart (the stabiliser
#: pairs corners up to 5 heights down and 3.5 across), however it is turned.
CARD_REACH = 7.0

#: Extra detector passes on smaller copies of the frame, as fractions of the first pass's side length.
#: The detector learnt indices of a webcam table (6-29 px at its input, 5th-95th percentile of the
#: training tiles); a card photographed close up shows indices several times larger (60-90 px), which
#: it misses at full size but finds once the frame is shrunk so they fall in the learnt range.
#: Halving the side quarters the pixels, so the two extra passes cost about a third of the first one.
PYRAMID = (0.5, 0.25)
#: The extra passes run only when the first finds fewer indices than this (None: always). A close-up
#: shows one to three cards, and the first pass misses most of their large indices: it found fewer
#: than 8 in 67 of 80 synthetic close-ups of unseen decks, but 8 or more in 65 of 74 other scenes.
#: A table frame full of small indices so does not pay for them (always: +25 % CPU per frame on the
#: full-table test frame) nor risk their misplaced small boxes (at 16, a find on the 1/4 copy of the
#: 8-card test scene was misread as a ninth card).
PYRAMID_BELOW = 8
#: Index sizes (longest side, detector input pixels) the detector learnt: 5th and 99th percentile of
#: the training tiles' labels (data/tiles v2: 5.7 and 40.2 px). When the frame is looked at more than
#: once, an index is taken from a pass where its size lies in this range: a larger find on a larger
#: copy (a close-up card's index, or its pips and court figure, at several times the learnt size) is
#: left to the smaller copy, which sees it at a learnt size, and a tiny find on a smaller copy is left
#: to the larger one. A frame looked at once keeps every find.
LEARNT_SIZES = (6.0, 40.0)
#: When the frame was looked at more than once, two finds of which the smaller lies this much inside
#: the larger are one index seen twice (a part of it on one pass, the whole on another). Not applied
#: to a single pass: in a tight fan, one card's index box can lie mostly inside a neighbour's
#: (measured: recall on laid-down hands fell 0.770 -> 0.744 with it on every frame).
CONTAINED = 0.7


def input_size(height: int, width: int, pixels: int = INPUT_PIXELS, stride: int = 32) -> tuple[int, int]:
    """The detector input (h, w) for a frame: its aspect ratio kept, sides in multiples of `stride`,
    at most `pixels` in all, as large as that allows."""
    long_side, short_side = max(height, width), min(height, width)
    best = (stride, stride)
    for side in range(stride, 4097, stride):
        other = int(np.ceil(short_side * side / long_side / stride)) * stride
        if side * other > pixels:
            break
        best = (side, other)
    side, other = best
    return (side, other) if height >= width else (other, side)


def letterbox(image: np.ndarray, size: int | tuple[int, int]) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to `size` ((h, w) or a square side) with grey, as
    ultralytics does in training."""
    th, tw = (size, size) if isinstance(size, int) else size
    h, w = image.shape[:2]
    r = min(th / h, tw / w)
    nw, nh = round(w * r), round(h * r)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
    px, py = (tw - nw) / 2, (th - nh) / 2
    top, left = round(py - 0.1), round(px - 0.1)
    out = cv2.copyMakeBorder(
        resized, top, th - nh - top, left, tw - nw - left, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    return out, r, (left, top)


def crop_index(
    image: np.ndarray, box: tuple[float, float, float, float], size: int = CROP_SIZE, margin: float = CROP_MARGIN
) -> np.ndarray:
    """Cut one index for the classifier: the box grown by `margin`, made square around its centre.

    Parts outside the frame are filled by repeating the edge, so an index at the border keeps its
    shape. The same function cuts the training crops (datasets/make.py, vision/starter_data.py), so
    the classifier sees at the table exactly what it learnt from.
    """
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1) * (1 + 2 * margin)
    side = max(side, 4.0)
    a, b = int(round(cx - side / 2)), int(round(cy - side / 2))
    s = int(round(side))
    h, w = image.shape[:2]
    ca, cb, cc, cd = max(a, 0), max(b, 0), min(a + s, w), min(b + s, h)
    if cc <= ca or cd <= cb:
        return np.full((size, size, 3), 114, np.uint8)
    patch = image[cb:cd, ca:cc]
    patch = cv2.copyMakeBorder(patch, cb - b, b + s - cd, ca - a, a + s - cc, cv2.BORDER_REPLICATE)
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA if s > size else cv2.INTER_LINEAR)


def _nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    if len(boxes) == 0:
        return np.zeros(0, int)
    xywh = np.column_stack([boxes[:, 0], boxes[:, 1], boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]])
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), 0.0, iou)
    return np.array(keep, int).reshape(-1)


def _drop_contained(boxes: np.ndarray, scores: np.ndarray, kept: np.ndarray, share: float) -> np.ndarray:
    """Of finds that lie inside one another (the smaller's area `share` or more inside the larger),
    keep the most confident: one index seen whole on one pass and in part on another."""
    order = kept[np.argsort(-scores[kept], kind="stable")]
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    out: list[int] = []
    for i in order:
        b = boxes[i]
        inside = False
        for j in out:
            c = boxes[j]
            ix = max(0.0, min(b[2], c[2]) - max(b[0], c[0]))
            iy = max(0.0, min(b[3], c[3]) - max(b[1], c[1]))
            if ix * iy >= share * max(min(area[i], area[j]), 1e-9):
                inside = True
                break
        if not inside:
            out.append(int(i))
    return np.array(out, int)


def _two_cards(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Two index boxes that cannot be corners of one card: more than `CARD_REACH` index sizes apart
    (the longer side of the larger box), however the card lies (photo deck round 339, session 29: a
    hand's three of spades joined to the three of clubs in the rows, read as the three of spades
    too, thirteen index sizes off, the clubs' index a little wider than tall); or both upright
    (taller than wide) and level with each other and more than five index heights apart (two cards
    side by side; a design's two top corners lie closer), or one up and to the right of the other (an
    upright card's corners lie on its down-right diagonal; a four-cornered design's other diagonal is
    still joined through its other corners)."""
    def upright(box):
        return box[3] - box[1] >= 1.3 * (box[2] - box[0])

    dx = ((a[0] + a[2]) - (b[0] + b[2])) / 2
    dy = ((a[1] + a[3]) - (b[1] + b[3])) / 2
    size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
    if math.hypot(dx, dy) > CARD_REACH * size:
        return True
    if not (upright(a) and upright(b)):
        return False
    h = max(a[3] - a[1], b[3] - b[1])
    if abs(dy) < 0.5 * abs(dx) and abs(dx) > 5 * h:
        return True
    return dx * dy < 0 and abs(dx) > 1.5 * h and abs(dy) > 1.5 * h


def _one_card_groups(seen: list) -> list[list]:
    """The reads of one name split into groups that can each be one card (`_two_cards` parts them),
    surest group first (by the sum of its reads' confidences)."""
    groups: list[list] = []
    for read in seen:
        joined = [g for g in groups if any(not _two_cards(read[0].box, other[0].box) for other in g)]
        merged = [read] + [r for g in joined for r in g]
        groups = [g for g in groups if not any(g is j for j in joined)] + [merged]
    return sorted(groups, key=lambda g: -sum(r[1] for r in g))


def _part_one_card_groups(by_card: dict[str, list]) -> list[tuple[str, tuple]]:
    """Keep, for each name, only its surest group of reads (`_one_card_groups`), in place; returns the
    others under their next reading, which is then their first choice: [(card, read), ...]."""
    moved = []
    for card, seen in by_card.items():
        if len(seen) < 2:
            continue
        first, *others = _one_card_groups(seen)
        seen[:] = first
        for index, _, alts in (r for g in others for r in g):
            nxt = next(((c, q) for c, q in alts if c != card), None)
            if nxt is not None:
                moved.append((nxt[0], (index, nxt[1] * index.score, (nxt, *(a for a in alts if a != nxt)))))
    return moved


def merge_by_card(reads: list[tuple[IndexBox, str, float]], conf: float,
                  alternatives: list[tuple[tuple[str, float], ...]] | None = None) -> list[Detection]:
    """One Detection per card identity: its indices' boxes joined, its best reading's confidence.

    A deck holds each card once, so two indices read as the same card are that card's two corners,
    unless they cannot be (`_two_cards`): then the reads that make the surer card are it, and the
    others a neighbour misread as it (an eight read as the six beside it, session 22), taken for their
    next reading instead (once; dropped if that clashes too).
    `alternatives` (one per read, as `CardDetector.read_top` gives them) go with the
    card's surest index.
    """
    by_card: dict[str, list[tuple[IndexBox, float, tuple]]] = {}
    for k, (index, card, p) in enumerate(reads):
        if card == NOT_AN_INDEX:
            continue
        alts = tuple(a for a in alternatives[k] if a[0] != NOT_AN_INDEX) if alternatives else ()  # never a card
        by_card.setdefault(card, []).append((index, p * index.score, alts))
    for card, read in _part_one_card_groups(by_card):
        by_card.setdefault(card, []).append(read)
    _part_one_card_groups(by_card)  # a read that clashes again under its next reading is dropped
    out = []
    for card, seen in by_card.items():
        best = max(c for _, c, _ in seen)
        if best < conf:
            continue
        boxes = np.array([i.box for i, _, _ in seen])
        box = (float(boxes[:, 0].min()), float(boxes[:, 1].min()), float(boxes[:, 2].max()), float(boxes[:, 3].max()))
        alts = max(seen, key=lambda s: s[1])[2]
        out.append(Detection(card, float(best), box, None, tuple(i.box for i, _, _ in seen), alts))
    out.sort(key=lambda d: (-d.confidence, d.card))
    return out


class CardDetector:
    """The two-stage recognizer on ONNX Runtime.

    `model` (or `model_dir`) is a folder holding index_detector.onnx and index_classifier.onnx
    (default: the shipped models/), or the detector .onnx file with the classifier beside it.
    The thresholds are the calibrated ones of thresholds.json unless given; `watching=True` (a game
    watched over many frames) lowers the index score floor to the card floor.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        model_dir: str | Path | None = None,
        conf: float | None = None,
        index_conf: float | None = None,
        iou: float = 0.5,
        threads: int | None = None,
        input_pixels: int = INPUT_PIXELS,
        closer_pixels: int = CLOSER_PIXELS,
        far_side: float | None = FAR_SIDE,
        pyramid: tuple[float, ...] = PYRAMID,
        pyramid_below: int | None = PYRAMID_BELOW,
        learnt_sizes: tuple[float, float] | None = LEARNT_SIZES,
        contained: float | None = CONTAINED,
        crop_margins: tuple[float, ...] = (CROP_MARGIN,),
        watching: bool = False,
    ) -> None:
        chosen = model if model is not None else model_dir
        path = Path(chosen) if chosen is not None else MODELS
        if path.suffix == ".onnx":
            det_path, cls_path = path, path.with_name(CLASSIFIER_FILE)
        else:
            det_path, cls_path = path / DETECTOR_FILE, path / CLASSIFIER_FILE
        self.detector = _session(det_path, threads)
        self.classifier = _session(cls_path, threads)
        det_meta, cls_meta = _metadata(self.detector, det_path), _metadata(self.classifier, cls_path)
        if det_meta.get("task", "detect") != "detect" or cls_meta.get("task", "classify") != "classify":
            raise ModelError(f"{det_path} must be a detect model and {cls_path} a classify model")
        for meta, where in ((det_meta, det_path), (cls_meta, cls_path)):
            how = str(meta.get(QUANTIZED_KEY, ""))
            if how and WEIGHTS_NOTE not in how:
                warnings.warn(f"{where} stores its INT8 weights signed: on a CPU without VNNI (AVX2 only) "
                              f"it misreads cards (sevens as jacks); `fantan train quantize --models "
                              f"{where.parent}` stores them as uint8, the same values", ModelWarning, stacklevel=2)
        self.imgsz = int(np.max(det_meta["imgsz"]))
        self.crop_size = int(np.max(cls_meta["imgsz"]))
        names = cls_meta["names"]
        self.cards = [str(names[i]) for i in range(len(names))]
        chosen = _thresholds(det_path.parent)
        self.conf = conf if conf is not None else chosen.get("conf", DEFAULT_CONF)
        self.index_conf = index_conf if index_conf is not None else chosen.get("index_conf", DEFAULT_INDEX_CONF)
        if watching and index_conf is None:
            # a card's confidence is its index's score times the classifier's probability, so an index
            # scoring below the card floor can never make a card, and one scoring above it can:
            # watching a game, where a card must be read steadily and fit the rules to count, stage 1
            # passes on every index that can count (a court card of an unseen design scores low)
            self.index_conf = min(self.index_conf, self.conf)
        self.iou = iou
        self.input_pixels = input_pixels
        self.closer_pixels = closer_pixels
        if far_side is not None and not 0 < far_side <= 1:
            raise ValueError(f"far_side is the share of the frame's height looked at again (0 < far_side <= 1): {far_side}")
        self.far_side = far_side
        if any(not 0 < f < 1 for f in pyramid):
            raise ValueError(f"pyramid scales must lie between 0 and 1 (fractions of the frame's side): {pyramid}")
        self.pyramid = tuple(pyramid)
        self.pyramid_below = pyramid_below
        self.learnt_sizes = tuple(learnt_sizes) if learnt_sizes else None
        self.contained = contained
        self.crop_margins = tuple(crop_margins)

    def _input_size(self, height: int, width: int, scale: float = 1.0,
                    pixels: int | None = None) -> tuple[int, int] | None:
        """The detector input (h, w) for a pass at `scale` of the side length of the `pixels` budget
        (default `input_pixels`), or None for a model exported with a fixed size (it can only look
        at the frame once, at that size)."""
        shape = self.detector.get_inputs()[0].shape
        if isinstance(shape[2], int) and isinstance(shape[3], int):
            return (shape[2], shape[3]) if scale == 1.0 else None
        return input_size(height, width, int((pixels or self.input_pixels) * scale * scale))

    def _find_at(self, image_bgr: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """One detector pass on the frame letterboxed to `size`: boxes in frame pixels, scores."""
        boxed, r, (left, top) = letterbox(image_bgr, size)
        x = np.ascontiguousarray(boxed[..., ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        pred = self.detector.run(None, {self.detector.get_inputs()[0].name: x})[0][0]  # (4 + nc, N)
        scores = pred[4:].max(axis=0)
        keep = scores > self.index_conf
        cx, cy, w, h = pred[:4, keep]
        boxes = np.column_stack([cx - w / 2 - left, cy - h / 2 - top, cx + w / 2 - left, cy + h / 2 - top]) / r
        return boxes.reshape(-1, 4), scores[keep]

    def find_indices(self, image_bgr: np.ndarray, pixels: int | None = None,
                     far_side: float | None = None) -> list[IndexBox]:
        """Stage 1: the corner indices in the frame, in frame pixels.

        The frame is looked at at the detector's pixel budget and, when that finds fewer than
        `pyramid_below` indices (indices too large for the detector may be there), on the smaller
        copies of `pyramid` too; each pass keeps the finds of a size it learnt (`learnt_sizes`),
        the boxes of all passes are mapped back to the frame, and finds of one index are merged:
        overlapping ones (non-maximum suppression) and ones lying inside another (`contained`).
        `pixels` is the first pass's budget (default `input_pixels`). `far_side`: the frame's top
        share of that height is looked at again on its own, at the same budget (so more closely),
        and its finds added: one cut by the strip's lower edge is left to the whole frame's, and two
        finds of one index are one, as across the pyramid's passes.
        """
        ih, iw = image_bgr.shape[:2]
        first_size = self._input_size(ih, iw, pixels=pixels)
        boxes, scores = self._find_at(image_bgr, first_size)
        first = len(_nms(boxes, scores, self.iou))
        sizes = [self._input_size(ih, iw, scale, pixels) for scale in self.pyramid] \
            if self.pyramid_below is None or first < self.pyramid_below else []
        sizes = [s for s in sizes if s is not None]
        if sizes:
            lo, hi = self.learnt_sizes if self.learnt_sizes else (0.0, float("inf"))
            passes = [first_size] + sizes
            found = []
            for k, size in enumerate(passes):
                b, sc = (boxes, scores) if k == 0 else self._find_at(image_bgr, size)
                # the find's longest side as this pass's input saw it
                longest = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) * min(size[0] / ih, size[1] / iw)
                keep = (longest >= (lo if k > 0 else 0.0)) & (longest <= (hi if k < len(passes) - 1 else np.inf))
                found.append((b[keep], sc[keep]))
            boxes = np.concatenate([b for b, _ in found])
            scores = np.concatenate([s for _, s in found])
        kept = self._one_find_per_index(boxes, scores, several_passes=bool(sizes))
        if far_side is not None and far_side < 1:
            cut = int(round(ih * far_side))
            far = [i for i in self.find_indices(image_bgr[:cut], pixels) if i.box[3] < cut - 2]
            if far:
                boxes = np.concatenate([boxes[kept], np.array([i.box for i in far], float).reshape(-1, 4)])
                scores = np.concatenate([scores[kept], np.array([i.score for i in far], float)])
                kept = self._one_find_per_index(boxes, scores, several_passes=True)
        out = []
        for (x1, y1, x2, y2), s in zip(boxes[kept], scores[kept]):
            bx = (max(0.0, x1), max(0.0, y1), min(float(iw), x2), min(float(ih), y2))
            if bx[2] > bx[0] and bx[3] > bx[1]:
                out.append(IndexBox(tuple(float(v) for v in bx), float(s)))
        return out

    def _one_find_per_index(self, boxes: np.ndarray, scores: np.ndarray, several_passes: bool) -> np.ndarray:
        """Which finds to keep: overlapping ones are one (non-maximum suppression), and, when the
        frame was looked at more than once, one lying inside another too (`contained`)."""
        kept = _nms(boxes, scores, self.iou)
        if several_passes and self.contained is not None and len(kept) > 1:
            kept = _drop_contained(boxes, scores, kept, self.contained)
        return kept

    def read_indices(self, image_bgr: np.ndarray, indices: list[IndexBox]) -> list[tuple[str, float]]:
        """Stage 2: name each index from its crop of the full-resolution frame."""
        return [top[0] for top in self.read_top(image_bgr, indices, 1)]

    def read_top(self, image_bgr: np.ndarray, indices: list[IndexBox], k: int) -> list[tuple[tuple[str, float], ...]]:
        """Stage 2 with the `k` likeliest readings of each index, most likely first."""
        if not indices:
            return []
        margins = self.crop_margins
        crops = np.stack([crop_index(image_bgr, i.box, size=self.crop_size, margin=m) for m in margins for i in indices])
        x = np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
        probs = self.classifier.run(None, {self.classifier.get_inputs()[0].name: x})[0]
        if not np.allclose(probs.sum(axis=1), 1.0, atol=1e-3):
            e = np.exp(probs - probs.max(axis=1, keepdims=True))
            probs = e / e.sum(axis=1, keepdims=True)
        probs = probs.reshape(len(margins), len(indices), -1).mean(axis=0)
        order = np.argsort(-probs, axis=1, kind="stable")[:, :k]
        return [tuple((self.cards[j], float(probs[i, j])) for j in row) for i, row in enumerate(order)]

    def check_reading(self, picture: str | Path = READING_CHECK,
                      cards: tuple[str, ...] = READING_CHECK_CARDS) -> list[str]:
        """Read a picture whose cards are known and raise ModelError if this machine reads it wrongly.

        Why: the same INT8 files compute differently on different CPUs (ONNX Runtime's integer
        kernels): models shipped with signed weights read every seven as a jack on CPUs without VNNI,
        silently. Eight clear cards are read right by a working recognizer with a wide margin (0.7-0.8
        each); one card missed or one read that is not there is let pass. Returns the cards read.
        """
        image = cv2.imread(str(picture), cv2.IMREAD_COLOR)
        if image is None:
            raise ModelError(f"the reading check's picture is missing or unreadable: {picture}")
        read = [d.card for d in self.detect(image)]
        missed, extra = set(cards) - set(read), set(read) - set(cards)
        if len(missed) > 1 or len(extra) > 1:
            raise ModelError(
                f"the recognizer reads its check picture wrongly on this machine (missed "
                f"{', '.join(sorted(missed)) or 'none'}; read {', '.join(sorted(extra)) or 'nothing'} "
                f"that is not there). Models quantized with signed INT8 weights do this on CPUs without "
                f"VNNI: `fantan train quantize --models FOLDER` stores them as uint8; else restore the "
                f"shipped models/ (git checkout -- models/).")
        return read

    def detect(self, image_bgr: np.ndarray) -> list[Detection]:
        """All cards seen in a BGR frame, one Detection per card identity, most confident first."""
        return self._detect(image_bgr, None)

    def detect_closely(self, image_bgr: np.ndarray) -> list[Detection]:
        """`detect` at the larger pixel budget `closer_pixels`, and the far side of the frame
        (`far_side`) looked at again on its own at that budget (together 1.6-1.9 times the time of
        the whole frame's closer look alone): small indices far off, such as a far seat's hand laid
        down, are found. For the moments that need it."""
        return self._detect(image_bgr, self.closer_pixels, self.far_side)

    def _detect(self, image_bgr: np.ndarray, pixels: int | None, far_side: float | None = None) -> list[Detection]:
        if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
            raise ValueError("expected a BGR colour image (H x W x 3)")
        indices = self.find_indices(image_bgr, pixels, far_side)
        tops = self.read_top(image_bgr, indices, ALTERNATIVES)
        return merge_by_card([(i, *top[0]) for i, top in zip(indices, tops)], self.conf, tops)
