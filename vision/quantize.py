"""Make the recognizer's two ONNX models run in 8-bit integers on a laptop CPU.

`fantan train export` writes float models (weights stored as float16, cast to float32 on load). This
module rewrites them with static INT8 quantization (ONNX Runtime's QDQ format: weights quantized
symmetrically per output channel, activations uint8 with ranges measured on calibration pictures),
which x86 CPUs run with their integer dot-product instructions. See docs/TRAINING.md, "Quantization",
for the speed and accuracy measured.

The weights are then stored as *uint8* (zero point 128: the same values, `unsigned_weights`), so that
ONNX Runtime runs uint8 x uint8 kernels. With int8 weights it runs uint8 x int8 ones, which on a CPU
without VNNI (AVX2 only, such as the AMD EPYC this project was measured on in session 22) sum pairs of
products in 16 bits and saturate: the shipped recognizer then read every seven as a jack or a queen
(docs/TRAINING.md, "Quantization: the CPUs without VNNI").

Calibration uses SYNTHETIC val data only (held-out deck designs: `fantan dataset make`'s val split),
fed exactly as the product feeds the models (vision.detector's letterbox and crops), never the real
photographs, which only measure.

Left in float: the detector's box decoding (pixel coordinates up to the input size sit in the same
tensor as 0-1 scores: one 8-bit range cannot carry both) and the classifier's last linear layer (a
tiny share of its work, the one that picks the card).

    >>> quantize_models(Path("models"), Path("data/cards_v2/detect"), Path("data/cards_v2/classify"))  # doctest: +SKIP
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from vision.detector import (
    CLASSIFIER_FILE,
    DETECTOR_FILE,
    QUANTIZED_KEY,
    WEIGHTS_NOTE,
    crop_index,
    input_size,
    letterbox,
)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
#: Node-name prefixes left in float in the detector: its head's decoding (anchors, DFL, box maths,
#: the final concat of boxes and scores). Its two conv branches (cv2 boxes, cv3 classes) are quantized.
DETECTOR_FLOAT = ("/model.23/",)
DETECTOR_QUANTIZED = ("/model.23/cv2", "/model.23/cv3")
#: ... and in the classifier: the final linear layer and softmax.
CLASSIFIER_FLOAT = ("/model.10/linear", "/model.10/Softmax")
# QUANTIZED_KEY (from vision.detector, which reads it) marks a quantized model, so a second `quantize`
# refuses instead of stacking; WEIGHTS_NOTE in its value says the weights are stored as uint8.


class QuantizeError(RuntimeError):
    """The models or the calibration data are not what quantization needs; says which and the fix."""


def float_weights(model):
    """The model with float16-stored weights (Cast nodes on initializers, vision.training
    store_weights_half) turned back into plain float32 initializers.

    The quantizer only quantizes weights it sees as float32 initializers of a Conv; behind a Cast it
    would leave them in float.
    """
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    inits = {init.name: init for init in graph.initializer}
    replaced: dict[str, object] = {}
    nodes = []
    for node in graph.node:
        src = node.input[0] if node.op_type == "Cast" and node.input else None
        to = next((a.i for a in node.attribute if a.name == "to"), None)
        if src in inits and to == TensorProto.FLOAT:
            arr = numpy_helper.to_array(inits[src]).astype(np.float32)
            replaced[node.output[0]] = numpy_helper.from_array(arr, node.output[0])
            continue
        nodes.append(node)
    if not replaced:
        return model
    used = {name for node in nodes for name in node.input} | {o.name for o in graph.output}
    kept = [init for init in graph.initializer if init.name in used] + list(replaced.values())
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return model


def fast_dfl(model) -> bool:
    """Rewrite the detector's box decoding (ultralytics' DFL) to take its softmax over the last axis.

    DFL reads each box side from 16 bins: reshape to (b, 4, 16, anchors), transpose to (b, 16, 4, a),
    softmax over the bins (axis 1), a 1x1 conv with weights 0..15 (the expected bin). ONNX Runtime
    runs a softmax over an inner axis by transposing there and back, which cost ~10 % of the quantized
    detector's time. Here: transpose to (b, 4, a, 16), softmax over the last axis, MatMul by 0..15 as
    a (16, 1) column: the same numbers (checked equal), ~7 ms less CPU per 640x384 frame.
    Returns whether the model had the DFL nodes (changed in place).
    """
    from onnx import helper, numpy_helper

    graph = model.graph
    nodes = {n.name: n for n in graph.node}
    transpose, softmax, conv = (nodes.get(f"/model.23/dfl/{n}") for n in ("Transpose", "Softmax", "conv/Conv"))
    inits = {i.name: i for i in graph.initializer}
    if not (transpose and softmax and conv) or conv.input[1] not in inits:
        return False
    weights = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float32)
    if weights.shape[0] != 1 or not all(a.name != "perm" or list(a.ints) == [0, 2, 1, 3] for a in transpose.attribute):
        return False
    for attribute in transpose.attribute:
        if attribute.name == "perm":
            attribute.ints[:] = [0, 1, 3, 2]
    for attribute in softmax.attribute:
        if attribute.name == "axis":
            attribute.i = 3
    column = numpy_helper.from_array(weights.reshape(-1, 1), conv.input[1] + "/column")
    graph.initializer.append(column)
    matmul = helper.make_node("MatMul", [conv.input[0], column.name], list(conv.output), name="/model.23/dfl/MatMul")
    where = list(graph.node).index(conv)
    graph.node.remove(conv)
    graph.node.insert(where, matmul)
    if not any(conv.input[1] in n.input for n in graph.node):
        graph.initializer.remove(inits[conv.input[1]])
    changed = {transpose.output[0], softmax.output[0], conv.output[0]}
    stale = [v for v in graph.value_info if v.name in changed]  # shapes recorded at export, now wrong
    for v in stale:
        graph.value_info.remove(v)
    return True


def _images(folder: Path, limit: int) -> list[Path]:
    paths = sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    if not paths:
        raise QuantizeError(f"no calibration pictures (.jpg/.png) in {folder}: make them with `fantan dataset make`")
    if len(paths) > limit:  # spread over the whole set (all kinds of scene / all cards), not its first files
        paths = [paths[i] for i in np.linspace(0, len(paths) - 1, limit).round().astype(int)]
    return paths


def detector_inputs(images: Path, limit: int = 64, pixels: int | None = None,
                    size: tuple[int, int] | None = None) -> Iterator[np.ndarray]:
    """Detector inputs as the product makes them: each picture letterboxed to its input size (or all
    to `size`, (h, w): the histogram calibrations need one shape)."""
    import cv2

    from vision.detector import INPUT_PIXELS

    for path in _images(images, limit):
        image = cv2.imread(str(path))
        if image is None:
            continue
        boxed, _, _ = letterbox(image, size or input_size(*image.shape[:2], pixels or INPUT_PIXELS))
        yield np.ascontiguousarray(boxed[..., ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0


def classifier_inputs(crops: Path, limit: int = 512, batch: int = 32, size: int = 64) -> Iterator[np.ndarray]:
    """Classifier inputs: batches of index crops (the dataset's crops, cut by vision.detector.crop_index)."""
    import cv2

    paths = _images(crops, limit)
    for start in range(0, len(paths), batch):
        images = [cv2.imread(str(p)) for p in paths[start:start + batch]]
        images = [im if im.shape[:2] == (size, size) else crop_index(im, (0, 0, im.shape[1], im.shape[0]), size, 0.0)
                  for im in images if im is not None]
        if images:
            x = np.stack(images)[..., ::-1].transpose(0, 3, 1, 2)
            yield np.ascontiguousarray(x, dtype=np.float32) / 255.0


class _Reader:
    """onnxruntime.quantization's CalibrationDataReader over an iterable of input arrays."""

    def __init__(self, name: str, inputs: Iterable[np.ndarray]) -> None:
        self.name, self.inputs = name, iter(inputs)

    def get_next(self) -> dict | None:
        x = next(self.inputs, None)
        return None if x is None else {self.name: x}


def unsigned_weights(model) -> int:
    """Store the symmetric int8 weights of a QDQ model (zero point 0) as uint8 with zero point 128,
    in place; returns how many weight tensors were rewritten.

    The values the model computes with are the same (q - zero point is unchanged), so the rewrite loses
    nothing; what changes is the kernel ONNX Runtime picks: uint8 x uint8, exact on every CPU, instead
    of uint8 x int8, which saturates on x86 CPUs without VNNI (VPMADDUBSW adds pairs of products in
    16 bits). Weights with another zero point, and the int32 biases, are left as they are.
    """
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    inits = {init.name: init for init in graph.initializer}
    zero_points: dict[str, str] = {}  # int8 zero-point tensor -> its uint8 twin
    rewritten = 0
    for node in graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in inits:
            continue
        weights = inits[node.input[0]]
        if weights.data_type != TensorProto.INT8:
            continue
        zp_name = node.input[2] if len(node.input) > 2 and node.input[2] else ""
        if zp_name and zp_name not in inits:
            continue
        zp = numpy_helper.to_array(inits[zp_name]) if zp_name else np.zeros((), np.int8)
        if np.any(zp != 0):
            continue
        values = numpy_helper.to_array(weights).astype(np.int16) + 128
        weights.CopyFrom(numpy_helper.from_array(values.astype(np.uint8), weights.name))
        key = zp_name or f"{weights.name}_zero_point"
        if key not in zero_points:
            zero_points[key] = f"{key}_uint8"
            graph.initializer.append(numpy_helper.from_array(np.full(zp.shape, 128, np.uint8), zero_points[key]))
        while len(node.input) < 3:
            node.input.append("")
        node.input[2] = zero_points[key]
        rewritten += 1
    used = {name for node in graph.node for name in node.input}
    unused = [init for init in graph.initializer if init.name not in used]
    for init in unused:  # the int8 zero points no weight uses any more
        graph.initializer.remove(init)
    return rewritten


def unsign_file(path: Path) -> int:
    """`unsigned_weights` on a quantized ONNX file, rewritten in place (its metadata says so)."""
    import onnx

    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    if QUANTIZED_KEY not in meta:
        raise QuantizeError(f"{path} is not a quantized model of `fantan train quantize`")
    count = unsigned_weights(model)
    if count and WEIGHTS_NOTE not in meta[QUANTIZED_KEY]:
        for prop in model.metadata_props:
            if prop.key == QUANTIZED_KEY:
                prop.value = f"{prop.value} {WEIGHTS_NOTE}"
    part = path.with_name(path.name + ".part")
    onnx.save(model, str(part))
    part.replace(path)
    return count


def unsign_models(models: Path, only: str | None = None) -> dict[str, int]:
    """Rewrite, in place, the models of a folder that were quantized with int8 weights (before
    session 22) so that they store them as uint8 (`unsign_file`); {file: weight tensors rewritten}."""
    import onnx

    done = {}
    for stage, name in (("detector", DETECTOR_FILE), ("classifier", CLASSIFIER_FILE)):
        path = models / name
        if (only and stage != only) or not path.exists():
            continue
        meta = {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}
        if QUANTIZED_KEY in meta and WEIGHTS_NOTE not in meta[QUANTIZED_KEY]:
            done[name] = unsign_file(path)
    return done


def _excluded(model, float_prefixes: tuple[str, ...], unless: tuple[str, ...]) -> list[str]:
    return [n.name for n in model.graph.node
            if n.name.startswith(float_prefixes) and not n.name.startswith(unless)]


def quantize_file(src: Path, dst: Path, inputs: Iterable[np.ndarray], *,
                  float_prefixes: tuple[str, ...] = (), unless: tuple[str, ...] = (),
                  method: str = "minmax", per_channel: bool = True, fmt: str = "qdq",
                  activations: str = "uint8") -> Path:
    """Static INT8 quantization of one ONNX model, calibrated on `inputs`.

    Nodes named with `float_prefixes` (but not `unless`) stay float. The model's metadata (class
    names, input size: what CardDetector reads) is kept, and QUANTIZED_KEY added.

    Defaults are the measured choice (docs/TRAINING.md): QDQ format, weights int8 per output channel
    (stored as uint8 with zero point 128: `unsigned_weights`),
    activations *uint8* with min-max ranges. With int8 activations ONNX Runtime 1.32 fused only 9 of
    the detector's 88 convolutions into integer kernels and the model ran 2x slower than float;
    with uint8 it fuses all of them (and the SiLU activations) and runs 1.5x faster.
    """
    import logging

    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    model = onnx.load(str(src))
    meta = {p.key: p.value for p in model.metadata_props}
    if QUANTIZED_KEY in meta:
        raise QuantizeError(f"{src} is already quantized; export the float model again with `fantan train export`")
    model = float_weights(model)
    fast_dfl(model)
    exclude = _excluded(model, float_prefixes, unless)
    methods = {"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
               "percentile": CalibrationMethod.Percentile}
    root = logging.getLogger()
    level = root.level
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "float.onnx"
        onnx.save(model, str(plain))
        out = Path(tmp) / "int8.onnx"
        root.setLevel(logging.ERROR)  # the quantizer's advice to pre-process: not needed, all ops fuse
        try:
            quantize_static(
                str(plain), str(out), _Reader(model.graph.input[0].name, inputs),
                quant_format=QuantFormat.QDQ if fmt == "qdq" else QuantFormat.QOperator,
                per_channel=per_channel,
                activation_type=QuantType.QInt8 if activations == "int8" else QuantType.QUInt8,
                weight_type=QuantType.QInt8,
                nodes_to_exclude=exclude, calibrate_method=methods[method],
                extra_options={"ActivationSymmetric": False, "WeightSymmetric": True},
            )
        finally:
            root.setLevel(level)
        quantized = onnx.load(str(out))
        unsigned_weights(quantized)
        del quantized.metadata_props[:]
        how = f"{fmt} {activations} per_channel={per_channel} {method} {WEIGHTS_NOTE}"
        for key, value in {**meta, QUANTIZED_KEY: how}.items():
            quantized.metadata_props.add(key=key, value=value)
        onnx.save(quantized, str(dst))
    return dst


def agreement(float_model: Path, int8_model: Path, inputs: Iterable[np.ndarray], task: str,
              score: float = 0.25) -> float:
    """How far the quantized model still says what the float one says, 0-1, on `inputs`.

    classify: the share of inputs given the same best class. detect: the share of the float model's
    confident anchors (class score >= `score`) that stay within 0.1 of their float score.
    """
    import onnxruntime as ort

    sessions = [ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (float_model, int8_model)]
    name = sessions[0].get_inputs()[0].name
    same = total = 0
    for x in inputs:
        a, b = (s.run(None, {name: x})[0] for s in sessions)
        if task == "classify":
            same += int((a.argmax(axis=1) == b.argmax(axis=1)).sum())
            total += len(a)
        else:
            sa, sb = a[:, 4:].max(axis=1), b[:, 4:].max(axis=1)  # (batch, anchors)
            sure = sa >= score
            same += int((np.abs(sa - sb)[sure] <= 0.1).sum())
            total += int(sure.sum())
    return same / total if total else 1.0


#: Below these agreements the quantized model is refused and the float one kept: something in the
#: model or the calibration data is off. Measured on the 2026-11-30 models: detector 0.998 (95 % of
#: confident anchors even within 0.05), classifier 0.976 on 1,024 val crops.
MIN_AGREEMENT = {"detector": 0.95, "classifier": 0.95}


def quantize_models(models: Path, detect_dir: Path, classify_dir: Path, *, out: Path | None = None,
                    detector_images: int = 150, classifier_crops: int = 512,
                    only: str | None = None) -> dict[str, tuple[Path, float]]:
    """Quantize index_detector.onnx and index_classifier.onnx of `models` in place (or into `out`).

    `detect_dir`, `classify_dir`: a `fantan dataset make` dataset's detect/ and classify/ folders;
    their val splits (synthetic, held-out decks) calibrate. Each model is checked against its float
    original (`agreement`, on a sample of the same pictures); both are written over the originals
    only when both agree (the float originals are re-made by `fantan train export`).
    Returns {stage: (file written, agreement)}.
    """
    out = out or models
    out.mkdir(parents=True, exist_ok=True)
    det_images = detect_dir / "images" / "val" if (detect_dir / "images" / "val").exists() else detect_dir
    cls_crops = classify_dir / "val" if (classify_dir / "val").exists() else classify_dir
    jobs = {
        "detector": (DETECTOR_FILE, "detect", lambda n: detector_inputs(det_images, n), detector_images,
                     DETECTOR_FLOAT, DETECTOR_QUANTIZED),
        "classifier": (CLASSIFIER_FILE, "classify", lambda n: classifier_inputs(cls_crops, n), classifier_crops,
                       CLASSIFIER_FLOAT, ()),
    }
    stages = [stage for stage in jobs if not only or stage == only]
    for stage in stages:  # everything needed is there before anything is touched
        if not (models / jobs[stage][0]).exists():
            raise QuantizeError(f"model file not found: {models / jobs[stage][0]} (export it with `fantan train export`)")
    if "detector" in stages:
        _images(det_images, 1)
    if "classifier" in stages:
        _images(cls_crops, 1)
    parts: dict[str, tuple[Path, float]] = {}
    written = {}
    try:
        for stage in stages:
            name, task, inputs, n, keep_float, unless = jobs[stage]
            part = out / (name + ".part")
            parts[stage] = (part, 0.0)
            quantize_file(models / name, part, inputs(n), float_prefixes=keep_float, unless=unless)
            check = agreement(models / name, part, inputs(max(8, n // 8 if task == "detect" else n // 2)), task)
            if check < MIN_AGREEMENT[stage]:
                raise QuantizeError(
                    f"the quantized {name} agrees with the float model on only {check:.1%} of the checks "
                    f"(at least {MIN_AGREEMENT[stage]:.0%} expected); kept the float models")
            parts[stage] = (part, check)
        for stage, (part, check) in parts.items():  # both or neither
            written[stage] = (part.replace(out / jobs[stage][0]), check)
    finally:
        for part, _ in parts.values():
            part.unlink(missing_ok=True)
    if out != models and (models / "thresholds.json").exists():
        shutil.copy2(models / "thresholds.json", out / "thresholds.json")
    return written
