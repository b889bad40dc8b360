"""Training recipes for the two-stage card recognizer, on ultralytics, fully offline.

Stage 1 finds card corner indices (the rank + suit block printed in a card's corner: one class,
"index"); stage 2 names the card from a 64x64 crop of one index (52 cards + "none"). Both are built
from the ultralytics model yaml (no hub weights exist on this machine and none may be fetched).

Why a module of its own: torch and ultralytics are the *training* extra (`pip install .[train]`); the
product at the table runs the exported ONNX files on ONNX Runtime (vision/detector.py). Nothing here is
imported by `fantan detect`.

Offline means offline: `offline_ultralytics()` sets the environment *before* ultralytics is imported
(it phones home at import, at plotting for its Arial font, and for pip auto-installs), and every recipe
runs inside `no_network()`, which turns any connection attempt into an error instead of a silent hang
or download.

Example (what `fantan train classifier --data data/mixed_classify/run --epochs 40` does):

    >>> from vision.training import CLASSIFIER, train                   # doctest: +SKIP
    >>> train(CLASSIFIER, "data/mixed_classify/run", epochs=40)         # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.detector import NOT_AN_INDEX  # one name for "no index here" on both sides

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
RUNS = ROOT / "runs"
CONFIG_DIR = ROOT / ".cache" / "ultralytics"

#: model yaml per stage; "n" is the smallest scale: the product runs on a 2-core laptop.
DETECTOR_YAML = "yolo11n.yaml"
CLASSIFIER_YAML = "yolo11n-cls.yaml"

#: file names under models/ (the ONNX pair is what the product loads; the .pt files are where
#: training resumes or fine-tunes from).
DETECTOR_ONNX = "index_detector.onnx"
CLASSIFIER_ONNX = "index_classifier.onnx"
DETECTOR_PT = "index_detector.pt"
CLASSIFIER_PT = "index_classifier.pt"
DETECTOR_RESUME = "index_detector_last.pt"
CLASSIFIER_RESUME = "index_classifier_last.pt"

#: torch threads for training: 2 on the 2-core machine when it is ours alone; FANTAN_TRAIN_THREADS=1
#: when it is shared (two threads of one job then wait on each other behind other jobs' threads).
THREADS = int(os.environ.get("FANTAN_TRAIN_THREADS", "2"))


class OfflineError(RuntimeError):
    """Something tried to reach the network during training or export."""


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Fail loudly on any outgoing connection or DNS lookup made inside the block.

    Ultralytics quietly downloads fonts, weights and pip packages when it believes it is online; a
    table laptop or CI box without network would then hang. This guard turns such a try into an
    `OfflineError` that names the address, so an offline set-up that regressed is noticed at once.
    """
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo
    real_create = socket.create_connection

    def refuse(*args: object, **kwargs: object) -> None:
        target = args[1] if len(args) > 1 else args[0] if args else kwargs
        raise OfflineError(f"network access attempted during offline training: {target!r}")

    def refuse_unix_ok(sock: socket.socket, address: object) -> None:
        if sock.family == getattr(socket, "AF_UNIX", None):  # local IPC is not the network
            return real_connect(sock, address)
        refuse(sock, address)

    def refuse_unix_ok_ex(sock: socket.socket, address: object) -> int:
        if sock.family == getattr(socket, "AF_UNIX", None):
            return real_connect_ex(sock, address)
        refuse(sock, address)
        return 1

    socket.socket.connect = refuse_unix_ok  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse_unix_ok_ex  # type: ignore[method-assign]
    socket.getaddrinfo = refuse  # type: ignore[assignment]
    socket.create_connection = refuse  # type: ignore[assignment]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = real_getaddrinfo  # type: ignore[assignment]
        socket.create_connection = real_create  # type: ignore[assignment]


def offline_ultralytics(config_dir: Path = CONFIG_DIR):
    """Import ultralytics configured to never touch the network, and return the module.

    Must run before anything else imports ultralytics (its settings and online check are read at
    import). The font it insists on for plots is matplotlib's own DejaVuSans under the names it looks
    for, so no Arial download is attempted.
    """
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ.setdefault("MPLBACKEND", "Agg")
    fonts = Path(config_dir) / "Ultralytics"
    fonts.mkdir(parents=True, exist_ok=True)
    import matplotlib

    dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (fonts / name).exists():
            shutil.copyfile(dejavu, fonts / name)

    import ultralytics
    from ultralytics.utils import SETTINGS

    SETTINGS.update(sync=False, hub=False) if "hub" in SETTINGS else SETTINGS.update(sync=False)
    return ultralytics


def assert_offline() -> None:
    """Raise `OfflineError` unless ultralytics is set up to stay offline (see `offline_ultralytics`)."""
    from ultralytics.utils import SETTINGS, USER_CONFIG_DIR, is_online

    problems = []
    if os.environ.get("YOLO_OFFLINE") != "1":
        problems.append("YOLO_OFFLINE is not 1")
    if os.environ.get("YOLO_AUTOINSTALL", "").lower() != "false":
        problems.append("YOLO_AUTOINSTALL is not False")
    if SETTINGS.get("sync"):
        problems.append("ultralytics settings sync=True (sends analytics)")
    if is_online():
        problems.append("ultralytics believes it is online")
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (Path(USER_CONFIG_DIR) / name).exists():
            problems.append(f"font {name} missing from {USER_CONFIG_DIR} (would be downloaded)")
    if problems:
        raise OfflineError("ultralytics is not configured offline: " + "; ".join(problems))


def _use_both_cores(trainer: object) -> None:
    """Undo ultralytics' one-thread default on CPU: 1.7x faster training on 2 cores."""
    import torch

    torch.set_num_threads(THREADS)


@dataclass(frozen=True)
class Recipe:
    """One stage's training settings, written down so a resumed run is the same run."""

    name: str
    yaml: str
    imgsz: int
    epochs: int
    batch: int
    extra: dict


#: The detector: one class, corner indices. No left-right flip (a mirrored "7" is no index);
#: small rotations only, the generator already turns cards every way; mosaic for varied scale.
DETECTOR = Recipe(
    name="index_detector",
    yaml=DETECTOR_YAML,
    imgsz=320,
    epochs=60,
    batch=16,
    extra=dict(fliplr=0.0, degrees=5.0, scale=0.5, mosaic=1.0, close_mosaic=5, hsv_h=0.01),
)

#: The classifier: 64x64 index crops. No flips (they make other glyphs), mild crop jitter (the
#: detector's boxes are not exact), random erasing for fingers and neighbouring cards, and hue kept
#: almost fixed: red versus black is half of telling a suit. AdamW at 1e-3: ultralytics' "auto"
#: picks 1.75e-4 for 53 classes, which left the model at chance after 4 epochs (measured).
CLASSIFIER = Recipe(
    name="index_classifier",
    yaml=CLASSIFIER_YAML,
    imgsz=64,
    epochs=20,
    batch=64,
    extra=dict(fliplr=0.0, flipud=0.0, scale=0.25, erasing=0.2, hsv_h=0.005, hsv_s=0.4, hsv_v=0.4,
               auto_augment=None, optimizer="AdamW", lr0=0.001),
)


def background_crops(detect_dir: Path, out_dir: Path, per_image: int = 2, seed: int = 0) -> int:
    """Cut `per_image` index-sized crops per detect picture where no labelled index is, into
    `out_dir/<split>/none/`. Returns how many were written.

    They are the classifier's 53rd class: table, pips and court art that are no corner index, so a
    false find of the detector is dropped instead of named as some card.

    Sizes and shapes are drawn from the picture's own index boxes, so the crops look like what a
    detector could mistake for an index at that scale (pips, court-card detail, card edges, cloth).
    """
    import cv2
    import numpy as np

    from vision.detector import CROP_SIZE, crop_index

    rng = np.random.default_rng(seed)
    written = 0
    for split in ("train", "val"):
        images = sorted((detect_dir / "images" / split).glob("*.jpg"))
        target = out_dir / split / NOT_AN_INDEX
        target.mkdir(parents=True, exist_ok=True)
        for path in images:
            label = detect_dir / "labels" / split / f"{path.stem}.txt"
            rows = [list(map(float, line.split()[1:])) for line in label.read_text().splitlines() if line.strip()] \
                if label.exists() else []
            image = cv2.imread(str(path))
            if image is None:
                continue
            h, w = image.shape[:2]
            boxes = np.array([[(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
                              for cx, cy, bw, bh in rows]).reshape(-1, 4)
            sizes = (boxes[:, 2:] - boxes[:, :2]) if len(boxes) else np.array([[0.04 * w, 0.06 * h]])
            for k in range(per_image):
                for _ in range(20):  # a few tries to land off every index
                    j = rng.integers(len(sizes))
                    bw, bh = sizes[j] * rng.uniform(0.7, 1.4)
                    if len(boxes) and k % 2 == 0:  # next to an index: on its card (pips, art, edges)
                        a, d = rng.uniform(0, 2 * np.pi), rng.uniform(1.1, 3.5)
                        x1 = boxes[j, 0] + np.cos(a) * d * bw
                        y1 = boxes[j, 1] + np.sin(a) * d * bh
                        x1, y1 = float(np.clip(x1, 0, max(1.0, w - bw))), float(np.clip(y1, 0, max(1.0, h - bh)))
                    else:
                        x1, y1 = rng.uniform(0, max(1.0, w - bw)), rng.uniform(0, max(1.0, h - bh))
                    box = np.array([x1, y1, x1 + bw, y1 + bh])
                    if len(boxes):
                        ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
                        iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
                        if ((ix * iy) / (bw * bh)).max() > 0.15:
                            continue
                    crop = crop_index(image, tuple(box), CROP_SIZE)
                    cv2.imwrite(str(target / f"{path.stem}_bg{k}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
                    written += 1
                    break
    return written


def tile_detect(src: Path, out: Path, tile: int = 640, overlap: int = 160, keep_empty: float = 0.05,
                max_tiles: int = 2, seed: int = 0) -> Path:
    """Cut a detect dataset's pictures into `tile`-pixel squares (labels clipped to each), for training
    at imgsz = tile / 2.

    Why: the product runs the detector on a 1280x720 frame at 640x384, i.e. at half size. Training
    at imgsz 640 on whole frames would match that but costs 4x the CPU of imgsz 320; training at 320
    on 640-pixel tiles shows the indices at the same half size for the cost of 320. Tiles without
    any index (bare table) are mostly left out. An index cut by a tile edge is kept when most of it
    is inside (as the camera's frame edge is treated), else dropped.
    """
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for path in sorted((src / "images" / split).glob("*.jpg")):
            image = cv2.imread(str(path))
            if image is None:
                continue
            h, w = image.shape[:2]
            label = src / "labels" / split / f"{path.stem}.txt"
            rows = [list(map(float, line.split()[1:])) for line in label.read_text().splitlines() if line.strip()] \
                if label.exists() else []
            boxes = np.array([[(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
                              for cx, cy, bw, bh in rows]).reshape(-1, 4)
            xs = _starts(w, tile, overlap)
            ys = _starts(h, tile, overlap)
            tiles = []
            for ty in ys:
                for tx in xs:
                    tw, th = min(tile, w), min(tile, h)
                    lines = []
                    if len(boxes):
                        c = boxes - [tx, ty, tx, ty]
                        cl = np.clip(c, 0, [tw, th, tw, th])
                        area = (c[:, 2] - c[:, 0]) * (c[:, 3] - c[:, 1])
                        inside = (cl[:, 2] - cl[:, 0]).clip(0) * (cl[:, 3] - cl[:, 1]).clip(0)
                        for b, full, seen in zip(cl, area, inside):
                            if seen >= 0.6 * full and seen > 0:
                                lines.append(f"0 {(b[0] + b[2]) / 2 / tw:.6f} {(b[1] + b[3]) / 2 / th:.6f} "
                                             f"{(b[2] - b[0]) / tw:.6f} {(b[3] - b[1]) / th:.6f}")
                    if not lines and rng.random() > keep_empty:
                        continue
                    tiles.append((len(lines) + rng.random(), tx, ty, tw, th, lines))
            # the tiles holding the most indices: neighbours overlap, and CPU time is the budget
            for _, tx, ty, tw, th, lines in sorted(tiles, key=lambda t: -t[0])[:max_tiles]:
                name = f"{path.stem}_{tx}_{ty}"
                cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), image[ty:ty + th, tx:tx + tw],
                            [cv2.IMWRITE_JPEG_QUALITY, 92])
                (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (out / "data.yaml").write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")
    return out


def _starts(length: int, tile: int, overlap: int) -> list[int]:
    import numpy as np

    if length <= tile:
        return [0]
    n = int(np.ceil((length - overlap) / (tile - overlap)))
    return [round(i * (length - tile) / (n - 1)) for i in range(n)] if n > 1 else [0]


def mixed_classify(out: Path, train_from: list[Path], val_from: list[Path]) -> Path:
    """A classify folder (train/, val/) of links to the crops of several datasets, without copying."""
    for split, sources in (("train", train_from), ("val", val_from)):
        for src in sources:
            for folder in sorted(p for p in (src / split).iterdir() if p.is_dir()):
                dst = out / split / folder.name
                dst.mkdir(parents=True, exist_ok=True)
                for f in folder.iterdir():
                    link = dst / f"{src.parent.name}_{src.name}_{f.name}"
                    if not link.exists():
                        link.symlink_to(f.resolve())
    return out


def mixed_detect(out_yaml: Path, train_from: list[Path], val_from: list[Path]) -> Path:
    """A data.yaml training on the pictures of several detect datasets (each a folder with images/)."""
    listed = lambda dirs, split: "\n".join(f"  - {(d / 'images' / split).resolve()}" for d in dirs)  # noqa: E731
    out_yaml.parent.mkdir(parents=True, exist_ok=True)
    out_yaml.write_text(f"train:\n{listed(train_from, 'train')}\nval:\n{listed(val_from, 'val')}\n"
                        "names:\n  0: index\n")
    return out_yaml


def _run_dir(recipe: Recipe, project: Path) -> Path:
    return project / recipe.name


def train(
    recipe: Recipe,
    data: str | Path,
    *,
    epochs: int | None = None,
    imgsz: int | None = None,
    batch: int | None = None,
    resume: bool = False,
    start_from: str | Path | None = None,
    project: Path = RUNS,
    cache: str | bool = "ram",
    fraction: float = 1.0,
    models: Path = MODELS,
    callbacks: dict | None = None,
) -> Path:
    """Train one stage and return its run folder (weights in `<run>/weights/{last,best}.pt`).

    `resume=True` continues the unfinished run from its `last.pt` (in runs/, or else the copy kept
    in models/ so a later session on a fresh checkout can go on). `start_from` fine-tunes a new run
    from earlier weights (for a new dataset, or more epochs after a run has finished).
    """
    offline_ultralytics()
    from ultralytics import YOLO

    assert_offline()
    run_dir = _run_dir(recipe, project)
    last = run_dir / "weights" / "last.pt"
    with no_network():
        if resume:
            if not last.exists():
                kept = models / (DETECTOR_RESUME if recipe.name == DETECTOR.name else CLASSIFIER_RESUME)
                if not kept.exists():
                    raise FileNotFoundError(
                        f"nothing to resume: neither {last} nor {kept} exists; start a run without --resume"
                    )
                last.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(kept, last)
            model = YOLO(str(last))
            model.add_callback("on_train_start", _use_both_cores)
            for event, fn in (callbacks or {}).items():
                model.add_callback(event, fn)
            overrides: dict = dict(resume=True, workers=0, device="cpu", cache=cache, save_dir=str(run_dir))
            if data:
                overrides["data"] = str(data)
            model.train(**overrides)
            return run_dir
        extra = dict(recipe.extra)
        n_epochs = epochs or recipe.epochs
        if "close_mosaic" in extra:  # the last quarter at most without mosaic, as a short run needs it
            extra["close_mosaic"] = min(extra["close_mosaic"], max(1, n_epochs // 4))
        # ultralytics warms up for 3 epochs: most of a short run. A tenth of the run, at most 3.
        # From earlier weights, a short warm-up is enough.
        extra.setdefault("warmup_epochs", 0.5 if start_from else min(3.0, max(0.3, n_epochs / 10)))
        model = YOLO(str(start_from) if start_from else recipe.yaml)
        model.add_callback("on_train_start", _use_both_cores)
        for event, fn in (callbacks or {}).items():
            model.add_callback(event, fn)
        model.train(
            data=str(data),
            epochs=n_epochs,
            imgsz=imgsz or recipe.imgsz,
            batch=batch or recipe.batch,
            workers=0,
            device="cpu",
            amp=False,
            cache=cache,
            fraction=fraction,
            project=str(project),
            name=recipe.name,
            exist_ok=True,
            pretrained=bool(start_from),
            seed=0,
            deterministic=False,
            plots=True,
            verbose=False,
            **extra,
        )
    return run_dir


def export(run_dir: Path, onnx_name: str, pt_name: str, resume_name: str, *, models: Path = MODELS) -> dict:
    """Copy a run's best weights into models/ as ONNX (for the product) and .pt (to fine-tune from).

    The run's `last.pt` (with optimizer state) is kept too, replacing the previous one, so a later
    session can `--resume` the same run. Returns the paths written.
    """
    offline_ultralytics()
    from ultralytics import YOLO

    weights = run_dir / "weights"
    best = weights / "best.pt"
    if not best.exists():
        best = weights / "last.pt"
    if not best.exists():
        raise FileNotFoundError(f"no weights in {weights}: train first")
    models.mkdir(parents=True, exist_ok=True)
    written: dict = {}
    with no_network():
        model = YOLO(str(best))
        task = model.task
        # Both dynamic: the classifier takes all crops of a frame at once; the detector gets each
        # frame at its own aspect ratio (vision.detector.input_size), not a square letterbox.
        onnx = model.export(
            format="onnx",
            imgsz=model.overrides.get("imgsz") or (64 if task == "classify" else 320),
            dynamic=True,
            simplify=True,
            opset=17,
            device="cpu",
        )
    store_weights_half(Path(onnx), models / onnx_name)
    written["onnx"] = models / onnx_name
    _strip_to_weights(best, models / pt_name)
    written["pt"] = models / pt_name
    last = weights / "last.pt"
    if last.exists():
        _compact_checkpoint(last, models / resume_name)
        written["resume"] = models / resume_name
    return written


def _compact_checkpoint(src: Path, dst: Path) -> None:
    """Copy a resumable checkpoint with the optimizer's moments stored as bfloat16: ~40 % smaller.

    torch casts them back to the parameters' float32 on resume; bfloat16 keeps float32's exponent
    range, so Adam's tiny second moments do not underflow to zero as they would in float16.
    """
    import torch

    ckpt = torch.load(src, map_location="cpu", weights_only=False)
    optimizer = ckpt.get("optimizer") if isinstance(ckpt, dict) else None
    if optimizer and "state" in optimizer:
        for state in optimizer["state"].values():
            for key, value in state.items():
                if torch.is_tensor(value) and value.is_floating_point() and value.numel() > 1:
                    state[key] = value.to(torch.bfloat16)
    torch.save(ckpt, dst)


def store_weights_half(src: Path, dst: Path) -> None:
    """Write the ONNX model with its weights stored as float16 and cast back to float32 on load
    (and the detector's box decoding in its faster form, `vision.quantize.fast_dfl`).

    Halves the file (the product ships a few MB) without changing the arithmetic: ONNX Runtime folds
    the casts into float32 constants when the session starts, so inference runs as fast as before,
    and the rounding of weights to float16 moves outputs by ~1e-3 at most (checked at export).
    """
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from vision.quantize import fast_dfl

    model = onnx.load(str(src))
    fast_dfl(model)  # the detector's box decoding, same numbers, ~7 ms less CPU per frame (checked below)
    graph = model.graph
    casts, kept = [], []
    for init in graph.initializer:
        if init.data_type == TensorProto.FLOAT and np.prod(init.dims) >= 64:
            arr = numpy_helper.to_array(init).astype(np.float16)
            half = numpy_helper.from_array(arr, init.name + "__f16")
            kept.append(half)
            casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT))
        else:
            kept.append(init)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))
    _check_same_outputs(src, dst)


def _check_same_outputs(a: Path, b: Path, tolerance: float = 0.02) -> None:
    import numpy as np
    import onnxruntime as ort

    sa = ort.InferenceSession(str(a), providers=["CPUExecutionProvider"])
    sb = ort.InferenceSession(str(b), providers=["CPUExecutionProvider"])
    inp = sa.get_inputs()[0]
    size = 64 if sa.get_modelmeta().custom_metadata_map.get("task") == "classify" else 320
    shape = [d if isinstance(d, int) else s for d, s in zip(inp.shape, (1, 3, size, size))]
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    ya, yb = sa.run(None, {inp.name: x})[0], sb.run(None, {inp.name: x})[0]
    scale = max(float(np.abs(ya).max()), 1.0)
    if float(np.abs(ya - yb).max()) > tolerance * scale:
        raise RuntimeError(f"float16 weights changed the outputs of {a.name} too much")


def _strip_to_weights(src: Path, dst: Path) -> None:
    """Save a checkpoint without optimizer state (half precision): a few MB to ship and fine-tune from."""
    from ultralytics.utils.torch_utils import strip_optimizer

    strip_optimizer(f=str(src), s=str(dst))


def average_weights(checkpoints: list[Path], out_run: Path) -> Path:
    """Average the weights of checkpoints of one architecture (a "model soup") into `out_run`/weights/
    best.pt, for `export` to ship like a run's best. Averaging a fine-tuned model with the one it
    started from often keeps most of what each does well (session 15's second candidate classifier:
    the sixth export's averaged with its fine-tuning on far tables; models/MODEL_CARD.md). The first
    checkpoint gives everything but the weights (class names, training arguments); optimizer state
    is dropped."""
    import copy

    import torch

    offline_ultralytics()
    if len(checkpoints) < 2:
        raise ValueError("average_weights needs two checkpoints or more")
    loaded = [torch.load(str(c), map_location="cpu", weights_only=False) for c in checkpoints]
    models = [ck.get("ema") or ck["model"] for ck in loaded]
    states = [m.state_dict() for m in models]
    keys = list(states[0])
    if any(list(st) != keys or any(st[k].shape != states[0][k].shape for k in keys) for st in states[1:]):
        raise ValueError("average_weights: the checkpoints are not of one architecture")
    mean = {k: (sum(st[k].float() for st in states) / len(states)).to(states[0][k].dtype)
            if states[0][k].is_floating_point() else states[0][k] for k in keys}
    out = copy.deepcopy(loaded[0])
    out["model"] = copy.deepcopy(models[0])
    out["model"].load_state_dict(mean)
    out["ema"] = None
    out["optimizer"] = None
    best = out_run / "weights" / "best.pt"
    best.parent.mkdir(parents=True, exist_ok=True)
    torch.save(out, str(best))
    return best


def calibrate(models: Path, detect_dir: Path, classify_dir: Path, *, images: int = 150,
              precision_target: float = 0.95) -> dict:
    """Choose the product's two thresholds on SYNTHETIC val data and write models/thresholds.json.

    * index_conf: the detector score that maximises index-level F1 (IoU >= 0.5) on whole val
      pictures, run exactly as the product runs them (vision.detector.CardDetector.find_indices).
    * conf: index_conf x the lowest classifier probability at which the val crops it accepts are
      named right at least `precision_target` of the time (a wrong card costs more than a missed one).

    An undertrained detector scores its finds low, so fixed thresholds would hide what it does find;
    choosing them on the generator's unseen-design val split (never on the real photos) keeps the
    real-photo figures honest.
    """
    import json
    import time

    import cv2
    import numpy as np

    from vision.detector import CardDetector

    det = CardDetector(models, index_conf=0.01, conf=0.0)
    scores, hits, n_truth = [], [], 0
    for path in sorted((detect_dir / "images" / "val").glob("*.jpg"))[:images]:
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        label = detect_dir / "labels" / "val" / f"{path.stem}.txt"
        rows = [list(map(float, line.split()[1:])) for line in label.read_text().splitlines() if line.strip()]
        truth = np.array([[(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
                          for cx, cy, bw, bh in rows]).reshape(-1, 4)
        n_truth += len(truth)
        used = np.zeros(len(truth), bool)
        for found in sorted(det.find_indices(image), key=lambda i: -i.score):
            ok = False
            if len(truth):
                b = np.array(found.box)
                ix = np.clip(np.minimum(b[2], truth[:, 2]) - np.maximum(b[0], truth[:, 0]), 0, None)
                iy = np.clip(np.minimum(b[3], truth[:, 3]) - np.maximum(b[1], truth[:, 1]), 0, None)
                inter = ix * iy
                iou = inter / ((b[2] - b[0]) * (b[3] - b[1]) + (truth[:, 2] - truth[:, 0]) * (truth[:, 3] - truth[:, 1]) - inter)
                iou[used] = 0
                j = int(iou.argmax())
                if iou[j] >= 0.5:
                    used[j] = ok = True
            scores.append(found.score)
            hits.append(ok)
    order = np.argsort(scores)[::-1]
    tp = np.cumsum(np.array(hits)[order])
    k = np.arange(1, len(order) + 1)
    f1 = 2 * tp / (k + n_truth)
    best = int(f1.argmax()) if len(f1) else 0
    index_conf = float(np.array(scores)[order][best]) if len(f1) else 0.25

    crops, truth_codes = [], []
    for folder in sorted(p for p in (classify_dir / "val").iterdir() if p.is_dir()):
        for f in sorted(folder.glob("*.jpg"))[:40]:
            crops.append(cv2.imread(str(f)))
            truth_codes.append(folder.name)
    x = np.stack(crops)[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    probs = np.concatenate([det.classifier.run(None, {det.classifier.get_inputs()[0].name: x[i:i + 256]})[0]
                            for i in range(0, len(x), 256)])
    read = [det.cards[i] for i in probs.argmax(axis=1)]
    p = probs.max(axis=1)
    named = np.array([r != "none" for r in read])
    right = np.array([r == t for r, t in zip(read, truth_codes)])
    p_floor = 1.0
    for t in np.sort(np.unique(np.round(p[named], 3))):
        accepted = named & (p >= t)
        if accepted.sum() >= 20 and right[accepted].mean() >= precision_target:
            p_floor = float(t)
            break
    result = {
        "index_conf": round(index_conf, 4),
        "conf": round(index_conf * p_floor, 4),
        "classifier_p_floor": round(p_floor, 4),
        "index_f1_at_index_conf": round(float(f1[best]) if len(f1) else 0.0, 4),
        "index_precision": round(float(tp[best] / k[best]) if len(f1) else 0.0, 4),
        "index_recall": round(float(tp[best] / max(n_truth, 1)) if len(f1) else 0.0, 4),
        "classifier_val_top1": round(float(right.mean()), 4),
        "chosen_on": f"{images} val pictures of {detect_dir} and {len(crops)} val crops of {classify_dir} "
                     f"(synthetic, unseen deck designs)",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    (models / "thresholds.json").write_text(json.dumps(result, indent=1) + "\n")
    return result
