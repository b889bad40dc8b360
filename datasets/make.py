"""Make the recogniser's training data: seeded table scenes -> a detect set and a classify set.

    OUT/detect/images/{train,val}/*.jpg   OUT/detect/labels/{train,val}/*.txt   OUT/detect/data.yaml
    OUT/classify/{train,val}/<card code>/*.jpg                                  OUT/classify/classes.txt
    OUT/manifest.json   (seed, counts, which decks went to which split)

The detect set has one class, ``index`` (a printed corner index); a label is written only for an
index the camera really sees (``scene.MIN_VISIBLE`` of it uncovered and in frame). The classify set
holds 64x64 crops of those indices cut from the full-resolution picture (after JPEG), jittered in
size and place the way a detector's boxes are, by the same crop function the recogniser uses.

Val scenes use only the held-out deck designs (artwork.DECKS ``split="val"``), so val measures decks
the models never saw. Scene ``i`` of seed ``S`` depends on (S, i) only: any worker count gives the
same files.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.artwork import CODES, RANKS, SUITS, Deck, load_decks
from datasets.layouts import CARD_ASPECT, CardPose, fan, layout_hands, layout_rows
from datasets.scene import MIN_VISIBLE, Camera, Scene, arm_from_edge, camera_effects, chip, render
from datasets.tables import load_gimp_tiles, score_sheet, table_texture

DETECT_MAX_SIDE = 1280  # detect pictures are written no larger: the detector trains at ~416-640
MIN_LABEL_PX = 6  # an index smaller than this (longest side, written picture) is unreadable: no label
MIN_CROP_PX = 12  # classification crops only of indices at least this tall in the full picture
# "Far tables" (`--far SHARE`): a game table filmed from across the room by a 720p webcam, cards
# 55-100 px tall, so the far rows' indices are 10-18 px tall (5-9 px wide): the size at which the
# recogniser of the sixth export misreads most (6 and 8, 5 and 6, ten and queen; docs/CAMERA.md).
FAR_CARD_H = (55.0, 100.0)
FAR_MIN_CROP_PX = 10
CROP_JITTER_SIZE = 0.15
CROP_JITTER_SHIFT = 0.10

# picture sizes (rendered), with how often; 1920x1080 is written downscaled to 1280x720
SIZES = [((1280, 720), 0.45), ((640, 480), 0.12), ((1920, 1080), 0.12), ((1024, 768), 0.11), ((1080, 1080), 0.12), ((960, 1280), 0.08)]
KINDS = [("table", 0.42), ("hands", 0.2), ("scatter", 0.18), ("closeup", 0.1), ("rows", 0.1)]


def _choice(rng: np.random.Generator, items):
    p = np.array([w for _, w in items], float)
    return items[int(rng.choice(len(items), p=p / p.sum()))][0]


# --------------------------------------------------------------------------- game states


def random_rows(rng: np.random.Generator) -> dict[str, list[str]]:
    """Suit rows of a game in progress: each started suit is a run of cards through its 7."""
    rows: dict[str, list[str]] = {}
    for s in SUITS:
        if rng.random() < 0.2:
            continue
        lo = int(rng.integers(0, 7))  # how many below the 7
        hi = int(rng.integers(0, 7))
        rows[s] = [RANKS[r] + s for r in range(6 - lo, 7 + hi)]
    if not rows:
        rows["d"] = ["7d"]
    return rows


def deal_rest(rng: np.random.Generator, used: set[str], n_players: int) -> dict[int, list[str]]:
    """The cards not in the rows, dealt round the table (what players hold or lay down)."""
    rest = [c for c in CODES if c not in used]
    rng.shuffle(rest)
    hands: dict[int, list[str]] = {k: [] for k in range(n_players)}
    for i, c in enumerate(rest):
        hands[i % n_players].append(c)
    for k in hands:
        hands[k].sort(key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0])))
    return hands


# --------------------------------------------------------------------------- scenes


@dataclass
class Kit:
    """What every scene draws from: the decks of one split, table tiles, a fallback back."""

    decks: dict[str, Deck]
    tiles: list[np.ndarray]
    backs: list[Deck]  # decks with a back, for face-down cards of decks without one


def _scene_poses(rng: np.random.Generator, kind: str, W: int, H: int, far: bool = False) -> tuple[list[CardPose], float]:
    """Card poses for one scene and the typical card height (pixels); `far`: a table seen from afar."""
    unit = H / 720.0
    cx, cy = W / 2 + rng.normal(0, 0.05 * W), H / 2 + rng.normal(0, 0.05 * H)
    poses: list[CardPose] = []
    if kind in ("table", "rows"):
        rows = random_rows(rng)
        style = str(rng.choice(["spread", "fanned", "hoyle"], p=[0.35, 0.4, 0.25]))
        n_rows = len(rows)
        span = {"spread": 13 * 1.06 * CARD_ASPECT, "fanned": (2 + 10 * 0.28) * CARD_ASPECT, "hoyle": 3.3 * CARD_ASPECT}[style]
        vertical = rng.random() < 0.3
        across = n_rows * 1.15
        fit_w, fit_h = (W, H) if not vertical else (H, W)
        max_h = min(fit_w * rng.uniform(0.7, 1.3) / span, fit_h * rng.uniform(0.6, 1.2) / across)
        lo = 60 * unit if kind == "table" else 70 * unit
        card_h = float(np.clip(rng.uniform(lo, 250 * unit), lo, max(lo, max_h)))
        if kind == "table":
            card_h = min(card_h, rng.uniform(70, 140) * unit)
        if far:
            card_h = rng.uniform(*FAR_CARD_H) * unit
        angle = (90.0 if vertical else 0.0) + rng.normal(0, 4) + (180.0 if rng.random() < 0.3 else 0.0)
        poses += layout_rows(rows, style, (cx, cy), card_h, angle, overlap=rng.uniform(0.2, 0.34), jitter=rng.uniform(0, 1), rng=rng)
        if kind == "table":
            used = {c for r in rows.values() for c in r}
            n_players = int(rng.integers(3, 8))
            hands = deal_rest(rng, used, n_players)
            end_of_round = rng.random() < 0.5
            winner = int(rng.integers(n_players))
            radius = (W * rng.uniform(0.33, 0.48), H * rng.uniform(0.35, 0.5))
            if end_of_round:
                hands[winner] = []
                poses += layout_hands(
                    {k: v for k, v in hands.items() if v}, n_players, (cx, cy), radius, card_h * rng.uniform(0.9, 1.1),
                    step=rng.uniform(0.17, 0.3), spread_deg=rng.uniform(0, 6), start=rng.uniform(0, 360),
                )
            else:  # players hold their cards: face-down stacks in front of some seats
                for k, v in hands.items():
                    if v and rng.random() < 0.4:
                        a = math.radians(rng.uniform(0, 360))
                        x, y = cx + radius[0] * math.cos(a), cy + radius[1] * math.sin(a)
                        for j, c in enumerate(v[: int(rng.integers(1, 4))]):
                            poses.append(CardPose(c, x + rng.normal(0, 3), y + rng.normal(0, 3), rng.uniform(0, 360), card_h, 20000 + 10 * k + j, face_up=False))
        return poses, card_h
    if kind == "hands":  # dense fanned hands, like bridge hands laid on a board
        card_h = rng.uniform(70, 200) * unit
        codes = list(CODES)
        rng.shuffle(codes)
        n_hands = int(rng.integers(1, 5))
        z = 0
        for k in range(n_hands):
            n = int(rng.integers(5, 14))
            hand = codes[k * 13 : k * 13 + n]
            pos = (rng.uniform(0.15, 0.85) * W, rng.uniform(0.15, 0.85) * H)
            poses += fan(hand, pos, card_h, angle=rng.uniform(0, 360), spread_deg=rng.uniform(0, 8) if rng.random() < 0.5 else 0.0,
                         step=rng.uniform(0.12, 0.3), z0=z, curve=rng.uniform(0, 0.5))
            z += 100
        return poses, card_h
    if kind == "scatter":  # cards dropped anywhere, rotated, overlapping, some face down
        card_h = rng.uniform(60, 250) * unit
        n = int(rng.integers(3, 30))
        codes = list(rng.choice(CODES, size=n, replace=False))
        for j, c in enumerate(codes):
            poses.append(CardPose(str(c), rng.uniform(-0.05, 1.05) * W, rng.uniform(-0.05, 1.05) * H, rng.uniform(0, 360),
                                  card_h * rng.uniform(0.95, 1.05), j, face_up=bool(rng.random() > 0.12)))
        return poses, card_h
    # closeup: one to three cards filling much of the frame, like a phone photo of a card on a table
    card_h = rng.uniform(0.3, 0.75) * H
    n = int(rng.choice([1, 1, 1, 2, 3]))
    codes = list(rng.choice(CODES, size=n, replace=False))
    for j, c in enumerate(codes):
        poses.append(CardPose(str(c), cx + rng.normal(0, 0.12 * W), cy + rng.normal(0, 0.1 * H), rng.normal(0, 12) + (180 if rng.random() < 0.2 else 0), card_h, j))
    return poses, card_h


def make_scene(rng: np.random.Generator, kit: Kit, size: tuple[int, int] | None = None, kind: str | None = None,
               far: bool = False) -> tuple[Scene, dict]:
    """One random scene (picture after camera effects, before JPEG) and what was chosen for it.
    `far`: a game table at 1280x720 with small cards (`FAR_CARD_H`)."""
    if far:
        size, kind = size or (1280, 720), kind or "table"
    W, H = size or _choice(rng, SIZES)
    kind = kind or _choice(rng, KINDS)
    names = sorted(kit.decks)
    deck = names[int(rng.integers(len(names)))]
    poses, card_h = _scene_poses(rng, kind, W, H, far)
    if rng.random() < 0.15 and len(names) > 1:  # a few cards of another deck on the table
        poses = [p if rng.random() > 0.2 else CardPose(p.code, p.cx, p.cy, p.angle, p.height, p.z, p.face_up, names[int(rng.integers(len(names)))]) for p in poses]
    # the table: texture drawn at half size (detail is lost to the camera anyway), then the camera
    th, tw = H // 2, W // 2
    table = cv2.resize(table_texture(rng, th, tw, kit.tiles), (W, H), interpolation=cv2.INTER_LINEAR)
    tilt = rng.uniform(0, 0.4) if kind != "closeup" else rng.uniform(0, 0.25)
    camera = Camera.tilted(W, H, tilt=tilt, roll=rng.normal(0, 5), zoom=rng.uniform(0.9, 1.15),
                           shift=(rng.normal(0, 0.03 * W), rng.normal(0, 0.03 * H)), skew=rng.normal(0, 0.08))
    if kind in ("table", "rows", "scatter") and rng.random() < 0.25:
        score_sheet(rng, table, card_h * rng.uniform(0.9, 1.6))
    occluders = []
    if kind in ("table", "rows", "scatter") and rng.random() < 0.35:  # the pot and players' chips
        for _ in range(int(rng.integers(1, 12))):
            occluders += chip(rng, (rng.uniform(0, W), rng.uniform(0, H)), card_h * rng.uniform(0.18, 0.3))
    if kind in ("table", "rows", "hands", "scatter") and rng.random() < 0.4:
        for _ in range(int(rng.integers(1, 3))):
            occluders += arm_from_edge(rng, W, H, card_h * rng.uniform(0.8, 1.3))
    back = kit.backs[int(rng.integers(len(kit.backs)))].back if kit.backs else None
    scene = render(table, camera, poses, kit.decks, deck, occluders, shadow=rng.uniform(0.1, 0.45), back=back,
                   card_tint=_card_tint(rng))
    # far tables: a webcam standing still (heavy blur or a low-resolution sensor leave nothing of an
    # 8 px index for anyone to read, and a crop that shows nothing teaches nothing)
    scene.image = camera_effects(scene.image, rng, strength=rng.uniform(0.15, 0.5) if far else rng.uniform(0.3, 1.0))
    return scene, {"kind": "far" if far else kind, "deck": deck, "size": [W, H], "cards": len(poses), "occluders": len(occluders)}


def _card_tint(rng: np.random.Generator) -> tuple[float, float, float]:
    """Card stock is not pure white under a real lamp: cream, grey, a little blue."""
    base = rng.uniform(0.82, 1.0)
    return (base * rng.uniform(0.9, 1.0), base * rng.uniform(0.95, 1.0), base * rng.uniform(0.95, 1.02))


# --------------------------------------------------------------------------- writing


def jitter_box(rng: np.random.Generator, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A box as a detector might return it: size off by up to 15%, centre off by up to 10%."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-CROP_JITTER_SHIFT, CROP_JITTER_SHIFT) * w
    cy = (y0 + y1) / 2 + rng.uniform(-CROP_JITTER_SHIFT, CROP_JITTER_SHIFT) * h
    w *= 1 + rng.uniform(-CROP_JITTER_SIZE, CROP_JITTER_SIZE)
    h *= 1 + rng.uniform(-CROP_JITTER_SIZE, CROP_JITTER_SIZE)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def yolo_lines(scene: Scene, scale: float, out_w: int, out_h: int, min_visible: float = MIN_VISIBLE) -> list[str]:
    """YOLO label lines (class 0 = index) for the indices a camera can read, in the written picture."""
    lines = []
    for _code, (x0, y0, x1, y1) in scene.visible_indices(min_visible):
        x0, y0, x1, y1 = x0 * scale, y0 * scale, x1 * scale, y1 * scale
        if max(x1 - x0, y1 - y0) < MIN_LABEL_PX:
            continue
        lines.append(f"0 {(x0 + x1) / 2 / out_w:.6f} {(y0 + y1) / 2 / out_h:.6f} {(x1 - x0) / out_w:.6f} {(y1 - y0) / out_h:.6f}")
    return lines


_KIT: dict[str, Kit] = {}


def _kit(artwork: str, split: str) -> Kit:
    key = f"{artwork}:{split}"
    if key not in _KIT:
        decks = {d.name: d for d in load_decks(Path(artwork), split)}
        if not decks:
            raise RuntimeError(f"no {split} decks in {artwork}: run `fantan dataset artwork` first")
        backs = [d for d in load_decks(Path(artwork)) if d.back_path is not None]
        _KIT[key] = Kit(decks, load_gimp_tiles(), backs)
    return _KIT[key]


def _draw_far(rng: np.random.Generator, share: float) -> bool:
    """Is this scene a far table? The first draw of the scene's stream, and drawn only when asked
    for, so that a dataset made without far tables is the same as before."""
    return bool(share) and bool(rng.random() < share)


def is_far_scene(seed: int, i: int, share: float) -> bool:
    """Was scene `i` of a dataset made with `--seed seed --far share` a far table (from its files' names)?"""
    return _draw_far(np.random.default_rng([seed, i]), share)


def write_one(job: tuple) -> dict:
    """Render scene i and write its detect picture, labels and classification crops."""
    from vision.detector import CROP_SIZE, crop_index

    out, artwork, seed, i, split, crops_per_scene, far_share = job
    rng = np.random.default_rng([seed, i])
    t0 = time.perf_counter()
    far = _draw_far(rng, far_share)
    scene, info = make_scene(rng, _kit(artwork, split), far=far)
    t_render = time.perf_counter() - t0
    H, W = scene.image.shape[:2]
    # the camera's own compression, before anything is cut from the picture
    q = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, q])
    full = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    scale = min(1.0, DETECT_MAX_SIDE / max(W, H))
    ow, oh = round(W * scale), round(H * scale)
    det = full if scale == 1.0 else cv2.resize(full, (ow, oh), interpolation=cv2.INTER_AREA)
    stem = f"s{seed}_{i:06d}"
    out = Path(out)
    img_path = out / "detect" / "images" / split / f"{stem}.jpg"
    cv2.imwrite(str(img_path), det, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = yolo_lines(scene, scale, ow, oh)
    (out / "detect" / "labels" / split / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    # classification crops from the full-resolution picture
    least = FAR_MIN_CROP_PX if far else MIN_CROP_PX
    seen = [(c, b) for c, b in scene.visible_indices() if max(b[2] - b[0], b[3] - b[1]) >= least]
    order = rng.permutation(len(seen))[:crops_per_scene * (2 if far else 1)]
    for k in order:
        code, box = seen[int(k)]
        crop = crop_index(full, jitter_box(rng, box), CROP_SIZE)
        cv2.imwrite(str(out / "classify" / split / code / f"{stem}_{int(k):03d}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
    info.update({"i": i, "split": split, "labels": len(lines), "crops": len(order), "render_s": t_render})
    return info


MARK = ".fantan-dataset"  # names a folder this generator wrote, so that a rebuild may clear it


def _clear_previous(out: Path) -> None:
    """Rebuilding replaces a previous dataset in the same folder (else stale files of a bigger run
    would stay); any other non-empty folder is refused, so nothing of the user's is lost."""
    import shutil

    if out.exists() and any(out.iterdir()):
        if not (out / MARK).exists():
            raise ValueError(f"{out} is not empty and was not made by `fantan dataset make`: choose another --out")
        for sub in ("detect", "classify"):
            shutil.rmtree(out / sub, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARK).write_text("made by `fantan dataset make`; a rebuild clears detect/ and classify/ here\n")


def make_dataset(
    out: Path,
    images: int,
    seed: int,
    val_fraction: float = 0.15,
    workers: int = 1,
    artwork: Path = Path("data/artwork"),
    crops_per_scene: int = 16,
    progress: bool = True,
    far: float = 0.0,
) -> dict:
    """Write the whole dataset; returns the manifest. Scene i is val when i < round(images * val_fraction).
    `far`: the share of scenes that are far tables (small cards at 1280x720; twice the crops each)."""
    from tqdm import tqdm

    if images < 1:
        raise ValueError("--images must be at least 1")
    if not 0 <= val_fraction < 1:
        raise ValueError("--val-fraction must be in [0, 1)")
    if not 0 <= far <= 1:
        raise ValueError("--far must be in [0, 1]")
    out = Path(out)
    train_decks = [d.name for d in load_decks(artwork, "train")]
    val_decks = [d.name for d in load_decks(artwork, "val")]
    if not train_decks:
        raise RuntimeError(f"no decks cached in {artwork}: run `fantan dataset artwork` first")
    n_val = round(images * val_fraction) if val_decks else 0
    _clear_previous(out)
    for split in ("train", "val"):
        (out / "detect" / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "detect" / "labels" / split).mkdir(parents=True, exist_ok=True)
        for code in CODES:
            (out / "classify" / split / code).mkdir(parents=True, exist_ok=True)
    jobs = [(str(out), str(artwork), seed, i, "val" if i < n_val else "train", crops_per_scene, far) for i in range(images)]
    t0 = time.perf_counter()
    results: list[dict] = []
    bar = tqdm(total=images, desc="scenes", unit="scene", disable=not progress)
    if workers <= 1:
        for job in jobs:
            results.append(write_one(job))
            bar.update()
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
        with ctx.Pool(workers) as pool:
            for r in pool.imap_unordered(write_one, jobs, chunksize=4):
                results.append(r)
                bar.update()
    bar.close()
    wall = time.perf_counter() - t0
    (out / "detect" / "data.yaml").write_text(
        f"# made by `fantan dataset make --images {images} --seed {seed}{f' --far {far}' if far else ''}`\n"
        f"path: {out.resolve() / 'detect'}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n"
    )
    # ultralytics numbers classification folders in sorted order: classes.txt lists them in that order
    (out / "classify" / "classes.txt").write_text("\n".join(sorted(CODES)) + "\n")
    results.sort(key=lambda r: r["i"])
    renders = [r["render_s"] for r in results]
    manifest = {
        "seed": seed,
        "images": images,
        "val_images": n_val,
        "train_decks": train_decks,
        "val_decks": val_decks,
        "labels": sum(r["labels"] for r in results),
        "crops": sum(r["crops"] for r in results),
        "far": far,
        "kinds": {k: sum(1 for r in results if r["kind"] == k) for k, _ in KINDS + [("far", 0)]},
        "render_s_median": float(np.median(renders)),
        "wall_s": wall,
        "workers": workers,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest
