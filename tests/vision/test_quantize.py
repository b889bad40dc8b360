"""INT8 quantization of the recognizer's models (vision/quantize.py), on tiny models built here.

The tiny models have the shapes of the real ones (a classifier: crops in, class probabilities out; a
detector: a frame in, (1, 4 + classes, anchors) out), float16-stored weights like `fantan train
export` writes, and the product's node names for the parts that must stay float.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision import quantize  # noqa: E402
from vision.detector import CLASSIFIER_FILE, DETECTOR_FILE, CardDetector  # noqa: E402

CARDS = ("7d", "8d", "Ks", "none")


def _weights(rng, shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _conv_silu(nodes, inits, rng, name, src, cin, cout, stride=1):
    """Conv + SiLU (Sigmoid, Mul), as ultralytics exports each block."""
    inits += [numpy_helper.from_array(_weights(rng, (cout, cin, 3, 3), 1 / np.sqrt(cin * 9)), f"{name}.w"),
              numpy_helper.from_array(_weights(rng, (cout,), 0.1), f"{name}.b")]
    nodes += [helper.make_node("Conv", [src, f"{name}.w", f"{name}.b"], [f"{name}/conv"], name=f"{name}/conv/Conv",
                               pads=[1, 1, 1, 1], strides=[stride, stride]),
              helper.make_node("Sigmoid", [f"{name}/conv"], [f"{name}/sig"], name=f"{name}/act/Sigmoid"),
              helper.make_node("Mul", [f"{name}/conv", f"{name}/sig"], [f"{name}/out"], name=f"{name}/act/Mul")]
    return f"{name}/out"


def _half_weights(model):
    """Store float weights as float16 + Cast, as vision.training.store_weights_half does."""
    graph = model.graph
    casts, kept = [], []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT:
            kept.append(init)
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name + "__f16")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    return model


def _save(nodes, inits, out_name, meta: dict, path: Path) -> Path:
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, "height", "width"])],
        [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, ["batch", "values"] if "Softmax" in str(nodes[-1].op_type)
                                       else [1, 5, "anchors"])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for key, value in meta.items():
        model.metadata_props.add(key=key, value=value)
    model = _half_weights(model)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def tiny_classifier(path: Path, seed: int = 0) -> Path:
    """Crops (n, 3, 64, 64) -> probabilities of 4 cards: two conv blocks, pool, linear, softmax."""
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    x = _conv_silu(nodes, inits, rng, "/model.0", "images", 3, 16, stride=2)
    x = _conv_silu(nodes, inits, rng, "/model.1", x, 16, 16, stride=2)
    inits += [numpy_helper.from_array(_weights(rng, (16, len(CARDS)), 2.0), "fc.w"),
              numpy_helper.from_array(np.zeros(len(CARDS), np.float32), "fc.b")]
    nodes += [helper.make_node("GlobalAveragePool", [x], ["pooled"], name="/model.10/pool/GlobalAveragePool"),
              helper.make_node("Flatten", ["pooled"], ["flat"], name="/model.10/Flatten"),
              helper.make_node("Gemm", ["flat", "fc.w", "fc.b"], ["logits"], name="/model.10/linear/Gemm"),
              helper.make_node("Softmax", ["logits"], ["output0"], name="/model.10/Softmax", axis=1)]
    names = "{" + ", ".join(f"{i}: '{c}'" for i, c in enumerate(CARDS)) + "}"
    return _save(nodes, inits, "output0", {"task": "classify", "imgsz": "[64, 64]", "names": names}, path)


def tiny_detector(path: Path, seed: int = 1) -> Path:
    """A frame -> (1, 4 box values + 1 score, anchors): conv blocks, then a head whose box values
    (in pixels, up to hundreds) and scores (0-1) share one tensor, like the real detector's."""
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    x = _conv_silu(nodes, inits, rng, "/model.0", "images", 3, 8, stride=4)
    x = _conv_silu(nodes, inits, rng, "/model.1", x, 8, 8, stride=2)
    inits += [numpy_helper.from_array(_weights(rng, (5, 8, 1, 1), 0.5), "head.w"),
              numpy_helper.from_array(np.array([300, 300, 30, 30, 1], np.float32).reshape(5, 1), "box.scale"),
              numpy_helper.from_array(np.array([1, 5, -1], np.int64), "shape")]
    nodes += [helper.make_node("Conv", [x, "head.w"], ["raw"], name="/model.23/cv2.0/Conv"),
              helper.make_node("Reshape", ["raw", "shape"], ["flat"], name="/model.23/Reshape"),
              helper.make_node("Sigmoid", ["flat"], ["unit"], name="/model.23/Sigmoid"),
              helper.make_node("Mul", ["unit", "box.scale"], ["output0"], name="/model.23/Mul_5")]
    return _save(nodes, inits, "output0", {"task": "detect", "imgsz": "[320, 320]", "names": "{0: 'index'}",
                                           "stride": "32"}, path)


def crops(n: int, seed: int = 2) -> np.ndarray:
    """Index-like crops: a dark glyph on light card stock, in a few places and colours."""
    rng = np.random.default_rng(seed)
    out = np.full((n, 64, 64, 3), 235, np.uint8)
    for image in out:
        x, y = rng.integers(8, 40, 2)
        colour = (20, 20, 200) if rng.random() < 0.5 else (20, 20, 20)
        cv2.putText(image, str(rng.integers(2, 10)), (int(x), int(y) + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 2)
    return out


def as_input(images: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(images[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def test_float_weights_turns_half_weights_back_into_plain_float32(tmp_path):
    model = onnx.load(str(tiny_classifier(tmp_path / "c.onnx")))
    assert any(n.op_type == "Cast" for n in model.graph.node)
    plain = quantize.float_weights(model)
    assert not any(n.op_type == "Cast" for n in plain.graph.node)
    assert all(i.data_type == TensorProto.FLOAT for i in plain.graph.initializer if i.name.endswith(".w"))
    x = as_input(crops(8))
    a = ort.InferenceSession(str(tmp_path / "c.onnx"), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    b = ort.InferenceSession(plain.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    np.testing.assert_array_equal(a, b)  # the same float32 values, only stored differently


def test_quantized_classifier_reads_crops_as_the_float_one_does(tmp_path):
    src = tiny_classifier(tmp_path / "float.onnx")
    dst = quantize.quantize_file(src, tmp_path / "int8.onnx", (as_input(crops(16, seed=s)) for s in range(8)),
                                 float_prefixes=quantize.CLASSIFIER_FLOAT)
    x = as_input(crops(64, seed=99))  # crops the calibration never saw
    a = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    b = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    assert np.abs(a - b).max() < 0.05
    assert (a.argmax(axis=1) == b.argmax(axis=1)).mean() >= 0.95
    assert quantize.agreement(src, dst, [x], "classify") >= 0.95

    model = onnx.load(str(dst))
    weights = [i for i in model.graph.initializer if i.data_type == TensorProto.UINT8 and len(i.dims) == 4]
    assert len(weights) >= 2  # both convolutions' weights, stored unsigned (unsigned_weights)
    assert not [i for i in model.graph.initializer if i.data_type == TensorProto.INT8]
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["task"] == "classify" and "'Ks'" in meta["names"] and quantize.QUANTIZED_KEY in meta
    last = [n for n in model.graph.node if n.name == "/model.10/linear/Gemm"]
    assert last and not any(n.op_type == "QuantizeLinear" and n.input[0] == "logits" for n in model.graph.node)


def test_onnx_runtime_runs_the_convolutions_in_integers(tmp_path):
    """Why activations are uint8: ONNX Runtime then fuses each conv (and SiLU) into integer kernels."""
    dst = quantize.quantize_file(tiny_classifier(tmp_path / "float.onnx"), tmp_path / "int8.onnx",
                                 [as_input(crops(16))], float_prefixes=quantize.CLASSIFIER_FLOAT)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(tmp_path / "optimised.onnx")
    ort.InferenceSession(str(dst), options, providers=["CPUExecutionProvider"])
    ops = [n.op_type for n in onnx.load(str(tmp_path / "optimised.onnx")).graph.node]
    assert ops.count("QLinearConv") == 2 and "Conv" not in ops
    assert "QLinearSigmoid" in ops and "QLinearMul" in ops


def _int8_weighted(src, dst, crops_in):
    """A quantized model as ONNX Runtime's quantizer leaves it (int8 weights, zero point 0)."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    plain = dst.with_name("plain.onnx")
    onnx.save(quantize.float_weights(onnx.load(str(src))), str(plain))
    quantize_static(str(plain), str(dst), quantize._Reader("images", crops_in), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    extra_options={"ActivationSymmetric": False, "WeightSymmetric": True})
    return dst


def test_weights_stored_unsigned_compute_the_same_values(tmp_path):
    """The rewrite that keeps CPUs without VNNI from saturating loses nothing: run unfused (each
    DequantizeLinear in float), the int8-weighted and the uint8-weighted models give the same numbers."""
    src = tiny_classifier(tmp_path / "float.onnx")
    signed = _int8_weighted(src, tmp_path / "signed.onnx", [as_input(crops(16))])
    model = onnx.load(str(signed))
    signed_weights = [i for i in model.graph.initializer if i.data_type == TensorProto.INT8 and len(i.dims) >= 2]
    assert len(signed_weights) >= 2  # both convolutions' weights (and the last layer's)
    assert quantize.unsigned_weights(model) == len(signed_weights)
    onnx.save(model, str(tmp_path / "unsigned.onnx"))
    assert not [i for i in model.graph.initializer if i.data_type == TensorProto.INT8]
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    x = as_input(crops(32, seed=7))
    a, b = (ort.InferenceSession(str(p), options, providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
            for p in (signed, tmp_path / "unsigned.onnx"))
    assert np.array_equal(a, b)
    assert quantize.unsigned_weights(model) == 0  # a second time finds nothing to do


def test_unsign_file_rewrites_a_quantized_file_and_says_so_in_its_metadata(tmp_path):
    src = tiny_classifier(tmp_path / "float.onnx")
    signed = _int8_weighted(src, tmp_path / "model.onnx", [as_input(crops(16))])
    with pytest.raises(quantize.QuantizeError, match="not a quantized model"):
        quantize.unsign_file(signed)  # no QUANTIZED_KEY: not ours
    model = onnx.load(str(signed))
    model.metadata_props.add(key=quantize.QUANTIZED_KEY, value="qdq uint8")
    onnx.save(model, str(signed))
    assert quantize.unsign_file(signed) >= 2
    meta = {p.key: p.value for p in onnx.load(str(signed)).metadata_props}
    assert meta[quantize.QUANTIZED_KEY] == f"qdq uint8 {quantize.WEIGHTS_NOTE}"


def test_the_shipped_models_store_their_weights_unsigned():
    """A model shipped with int8 weights reads sevens as jacks on CPUs without VNNI (session 22)."""
    from vision.detector import MODELS

    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        model = onnx.load(str(MODELS / name))
        assert not [i.name for i in model.graph.initializer if i.data_type == TensorProto.INT8], name
        meta = {p.key: p.value for p in model.metadata_props}
        assert quantize.WEIGHTS_NOTE in meta[quantize.QUANTIZED_KEY], name


def test_a_quantized_model_is_not_quantized_again(tmp_path):
    dst = quantize.quantize_file(tiny_classifier(tmp_path / "float.onnx"), tmp_path / "int8.onnx",
                                 [as_input(crops(8))])
    with pytest.raises(quantize.QuantizeError, match="already quantized"):
        quantize.quantize_file(dst, tmp_path / "again.onnx", [as_input(crops(8))])


def _dataset(root: Path) -> Path:
    """A `fantan dataset make`-like folder: detect/images/val frames, classify/val/<card> crops."""
    rng = np.random.default_rng(5)
    (root / "detect" / "images" / "val").mkdir(parents=True)
    for i in range(4):
        frame = rng.integers(0, 255, (180, 320, 3), dtype=np.uint8)
        cv2.imwrite(str(root / "detect" / "images" / "val" / f"f{i}.jpg"), frame)
    for card in CARDS[:3]:
        (root / "classify" / "val" / card).mkdir(parents=True)
        for i, crop in enumerate(crops(6, seed=len(card) + i)):
            cv2.imwrite(str(root / "classify" / "val" / card / f"{i}.png"), crop)
    return root


def _models(folder: Path) -> Path:
    folder.mkdir()
    tiny_detector(folder / DETECTOR_FILE)
    tiny_classifier(folder / CLASSIFIER_FILE)
    (folder / "thresholds.json").write_text('{"conf": 0.2, "index_conf": 0.3}')
    return folder


def test_quantize_models_rewrites_a_models_folder_that_the_detector_then_loads(tmp_path):
    data, models = _dataset(tmp_path / "data"), _models(tmp_path / "models")
    frame = cv2.imread(str(next((data / "detect" / "images" / "val").glob("*.jpg"))))
    before = CardDetector(models).find_indices(frame)

    written = quantize.quantize_models(models, data / "detect", data / "classify")

    assert set(written) == {"detector", "classifier"}
    for path, agreement in written.values():
        assert path.parent == models and agreement >= 0.95
        meta = {p.key: p.value for p in onnx.load(str(path)).metadata_props}
        assert quantize.QUANTIZED_KEY in meta
    assert not list(models.glob("*.part"))
    after = CardDetector(models)  # loads unchanged: same files, metadata, thresholds
    assert after.cards == list(CARDS) and after.conf == 0.2
    assert abs(len(after.find_indices(frame)) - len(before)) <= max(2, len(before) // 10)
    after.detect(frame)


def test_the_command_quantizes_and_refuses_a_second_time(tmp_path, capsys):
    from fantan.cli import main

    data, models = _dataset(tmp_path / "data"), _models(tmp_path / "models")
    args = ["train", "quantize", "--models", str(models), "--data", str(data), "--only", "classifier"]
    assert main(args) == 0
    assert "classifier int8" in capsys.readouterr().out
    float_detector = (models / DETECTOR_FILE).read_bytes()
    assert main(args) == 2
    assert "already quantized" in capsys.readouterr().err
    assert (models / DETECTOR_FILE).read_bytes() == float_detector  # --only: the detector left alone


def test_the_command_names_a_missing_dataset(tmp_path, capsys):
    from fantan.cli import main

    assert main(["train", "quantize", "--models", str(tmp_path), "--data", str(tmp_path / "nowhere")]) == 2
    assert "fantan dataset make" in capsys.readouterr().err


def test_box_decoding_rewritten_to_a_last_axis_softmax_gives_the_same_boxes():
    """ultralytics' DFL: each box side is the expected bin (0..15) of a softmax over 16 bins."""
    bins = numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1), "dfl.w")
    shapes = [numpy_helper.from_array(np.array(s, np.int64), n) for s, n in (([1, 4, 16, -1], "s4"), ([1, 4, -1], "s3"))]
    nodes = [helper.make_node("Reshape", ["x", "s4"], ["r"], name="/model.23/dfl/Reshape"),
             helper.make_node("Transpose", ["r"], ["t"], name="/model.23/dfl/Transpose", perm=[0, 2, 1, 3]),
             helper.make_node("Softmax", ["t"], ["p"], name="/model.23/dfl/Softmax", axis=1),
             helper.make_node("Conv", ["p", "dfl.w"], ["e"], name="/model.23/dfl/conv/Conv"),
             helper.make_node("Reshape", ["e", "s3"], ["box"], name="/model.23/dfl/Reshape_1")]
    graph = helper.make_graph(nodes, "dfl", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, "anchors"])],
                              [helper.make_tensor_value_info("box", TensorProto.FLOAT, [1, 4, "anchors"])],
                              [bins, *shapes])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    x = (np.random.default_rng(3).standard_normal((1, 64, 300)) * 3).astype(np.float32)
    before = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

    assert quantize.fast_dfl(model)
    ops = {n.name: n.op_type for n in model.graph.node}
    assert ops["/model.23/dfl/MatMul"] == "MatMul" and "Conv" not in ops.values()
    after = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-4)
    assert 0 <= after.min() and after.max() <= 15
    assert not quantize.fast_dfl(model)  # nothing left to rewrite


def test_a_model_that_disagrees_leaves_both_float_models_in_place(tmp_path, monkeypatch):
    data, models = _dataset(tmp_path / "data"), _models(tmp_path / "models")
    before = {p.name: p.read_bytes() for p in models.glob("*.onnx")}
    monkeypatch.setitem(quantize.MIN_AGREEMENT, "classifier", 1.01)  # the detector passes, then this fails
    with pytest.raises(quantize.QuantizeError, match="kept the float models"):
        quantize.quantize_models(models, data / "detect", data / "classify")
    assert {p.name: p.read_bytes() for p in models.glob("*.onnx")} == before
    assert not list(models.glob("*.part"))


def test_missing_calibration_pictures_are_named_before_anything_is_touched(tmp_path):
    data, models = _dataset(tmp_path / "data"), _models(tmp_path / "models")
    for crop in (data / "classify" / "val").rglob("*.png"):
        crop.unlink()
    before = (models / DETECTOR_FILE).read_bytes()
    with pytest.raises(quantize.QuantizeError, match="no calibration pictures"):
        quantize.quantize_models(models, data / "detect", data / "classify")
    assert (models / DETECTOR_FILE).read_bytes() == before


def test_train_refuses_a_learning_rate_it_cannot_use(capsys):
    from fantan.cli import main

    assert main(["train", "detector", "--lr0", "0.001"]) == 2
    assert "classifier only" in capsys.readouterr().err
    assert main(["train", "classifier", "--lr0", "0"]) == 2
    assert "above 0" in capsys.readouterr().err



def _signed_as_before(path: Path) -> None:
    """Turn a quantized model back into what `quantize` wrote before session 22: int8 weights with
    zero point 0, no WEIGHTS_NOTE (the inverse of unsigned_weights)."""
    model = onnx.load(str(path))
    inits = {i.name: i for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "DequantizeLinear" and inits.get(node.input[0]) is not None \
                and inits[node.input[0]].data_type == TensorProto.UINT8 and len(inits[node.input[0]].dims) >= 2:
            w = numpy_helper.to_array(inits[node.input[0]]).astype(np.int16) - 128
            inits[node.input[0]].CopyFrom(numpy_helper.from_array(w.astype(np.int8), node.input[0]))
            zp = numpy_helper.to_array(inits[node.input[2]])
            name = node.input[2] + "_int8"
            if name not in inits:
                inits[name] = numpy_helper.from_array(np.zeros(zp.shape, np.int8), name)
                model.graph.initializer.append(inits[name])
            node.input[2] = name
    for prop in model.metadata_props:
        if prop.key == quantize.QUANTIZED_KEY:
            prop.value = prop.value.replace(f" {quantize.WEIGHTS_NOTE}", "")
    onnx.save(model, str(path))


def test_models_quantized_with_signed_weights_warn_and_the_command_mends_them_without_data(tmp_path, capsys):
    """Before session 22 the weights were stored int8: such models warn when loaded, and `fantan
    train quantize` stores them again as uint8 (the same values; no calibration data needed)."""
    from fantan.cli import main
    from vision.detector import ModelWarning

    data, models = _dataset(tmp_path / "data"), _models(tmp_path / "models")
    quantize.quantize_models(models, data / "detect", data / "classify")
    frame = cv2.imread(str(next((data / "detect" / "images" / "val").glob("*.jpg"))))
    new = CardDetector(models).find_indices(frame)
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        _signed_as_before(models / name)
    with pytest.warns(ModelWarning, match="without VNNI"):
        CardDetector(models)

    assert main(["train", "quantize", "--models", str(models)]) == 0  # no --data: none needed
    assert "stored again as uint8" in capsys.readouterr().out
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ModelWarning)
        mended = CardDetector(models)
    assert mended.find_indices(frame) == new
    assert quantize.unsign_models(models) == {}  # nothing left to mend
