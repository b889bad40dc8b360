"""Time `fantan detect`'s work on a 1280x720 frame of a full table (all 52 cards), medians in ms.

Prints the shipped ONNX models on ONNX Runtime (what the product runs) and, beside it, the same two
stages on PyTorch through ultralytics (the .pt weights in models/), when the training extra is
installed. Both use 2 threads: the table laptop of the target is a 2-core CPU.

    python benchmarks/bench_speed.py [--runs 30] [--frame table.jpg] [--threads 2]
    python benchmarks/bench_speed.py --models models --models /tmp/int8   # side by side

With several --models folders (e.g. float and quantized models), their runs are interleaved (one
frame of each in turn), so a load that comes and goes on a shared machine weighs on all alike.

The frame is rendered (vision.starter_data.full_table: four suit rows A-K, cards ~100 px tall), or
pass your own with --frame. Needs rsvg-convert and the aisleriot card artwork to render.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def frame(path: Path | None, design: str):
    import cv2

    if path is not None:
        image = cv2.imread(str(path))
        if image is None:
            raise SystemExit(f"cannot read {path}")
        return image, None
    from vision.starter_data import full_table, render_deck

    image, labels = full_table(render_deck(design), 1280, 720, card_h=100, seed=3)
    return image, labels


def median_ms(fn, runs: int, warmup: int = 3) -> tuple[float, float, float]:
    """Wall-clock median and p90, and the median CPU time of this process (all its threads), in ms.

    On a machine that other jobs keep busy, wall time grows with their load; CPU time much less so,
    which is why both are printed (with the load average) rather than one figure that hides it.
    """
    for _ in range(warmup):
        fn()
    times, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], statistics.median(cpu)


def interleaved_ms(fns: list, runs: int, warmup: int = 3) -> list[tuple[float, float, float]]:
    """median_ms of several functions measured in turn, run by run (one of each, then again)."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    cpu: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for k, fn in enumerate(fns):
            t, c = time.perf_counter(), time.process_time()
            fn()
            times[k].append((time.perf_counter() - t) * 1000)
            cpu[k].append((time.process_time() - c) * 1000)
    out = []
    for t, c in zip(times, cpu):
        t.sort()
        out.append((statistics.median(t), t[int(0.9 * (len(t) - 1))], statistics.median(c)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--frame", type=Path, help="a 1280x720 image (default: a rendered full table)")
    p.add_argument("--design", default="anglo", help="aisleriot design of the rendered table")
    p.add_argument("--models", type=Path, action="append",
                   help="model folder (repeat to compare, runs interleaved; default models/)")
    p.add_argument("--pyramid", choices=["default", "off", "always"], default="default",
                   help="the detector's scale pyramid: as shipped (only when the first pass finds few "
                        "indices), off, or on every frame")
    a = p.parse_args(argv)

    folders = a.models or [ROOT / "models"]
    image, labels = frame(a.frame, a.design)
    truth = {code for code, _ in labels} if labels else None
    h, w = image.shape[:2]
    print(f"frame {w}x{h}, {len(truth) if truth else '?'} cards on the table, {a.threads} threads, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, median of {a.runs} runs "
          f"(after 3 warm-up runs)")

    from vision.detector import CardDetector, crop_index

    pyramid = {"default": {}, "off": {"pyramid": ()}, "always": {"pyramid_below": None}}[a.pyramid]
    dets = [CardDetector(folder, threads=a.threads, **pyramid) for folder in folders]
    det = dets[0]
    when = "on every frame" if det.pyramid_below is None else f"when the first pass finds < {det.pyramid_below} indices"
    print(f"  scale pyramid {det.pyramid or 'off'} {when if det.pyramid else ''}")
    found_indices = []
    for folder, d in zip(folders, dets):
        found = d.detect(image)
        found_indices.append(d.find_indices(image))
        if truth:
            hits = len({x.card for x in found} & truth)
            print(f"  {folder}: found {len(found)} cards ({hits} right) from {len(found_indices[-1])} corner indices")
    totals = interleaved_ms([lambda d=d: d.detect(image) for d in dets], a.runs)
    stage1s = interleaved_ms([lambda d=d: d.find_indices(image) for d in dets], a.runs)
    stage2s = interleaved_ms([lambda d=d, i=i: d.read_indices(image, i) for d, i in zip(dets, found_indices)], a.runs)
    if labels:
        # what a frame costs when every visible index is found: stage 2 on the table's true index boxes
        from vision.detector import IndexBox

        true_boxes = [IndexBox(tuple(float(v) for v in box), 1.0) for _, box in labels]
        full2s = interleaved_ms([lambda d=d: d.read_indices(image, true_boxes) for d in dets], a.runs)
    for k, (folder, d) in enumerate(zip(folders, dets)):
        ort_total, ort_stage1, ort_stage2, indices = totals[k], stage1s[k], stage2s[k], found_indices[k]
        name = "ONNX Runtime" if len(folders) == 1 else f"ONNX Runtime {folder}"
        print(f"{name:14s}: {ort_total[0]:7.1f} ms/frame (p90 {ort_total[1]:.1f}, CPU {ort_total[2]:.1f} ms); "
              f"stage 1 {ort_stage1[0]:.1f} ms (CPU {ort_stage1[2]:.1f}) at {d._input_size(h, w)}, "
              f"stage 2 {ort_stage2[0]:.1f} ms (CPU {ort_stage2[2]:.1f}) for {len(indices)} crops")
        if labels:
            full2 = full2s[k]
            print(f"{name}, all {len(true_boxes)} indices read: stage 1 {ort_stage1[0]:.1f} + stage 2 "
                  f"{full2[0]:.1f} = {ort_stage1[0] + full2[0]:.1f} ms/frame (CPU {ort_stage1[2] + full2[2]:.1f} ms)")

    import importlib.util

    pt_folder = next((f for f in folders if (f / "index_detector.pt").exists()), None)
    if pt_folder is None:
        print("PyTorch       : not measured (no index_detector.pt in the --models folders)")
        return 0
    if importlib.util.find_spec("ultralytics") is None:
        print("PyTorch       : not measured (ultralytics/torch not installed: pip install '.[train]')")
        return 0
    from vision.training import no_network, offline_ultralytics

    offline_ultralytics()
    import torch
    from ultralytics import YOLO

    with no_network():
        detector = YOLO(str(pt_folder / "index_detector.pt"), task="detect")
        classifier = YOLO(str(pt_folder / "index_classifier.pt"), task="classify")
    torch.set_num_threads(a.threads)
    size = det._input_size(h, w)

    true_xyxy = [box for _, box in labels] if labels else []

    def torch_frame(all_indices: bool = False) -> None:
        r = detector.predict(image, imgsz=list(size), conf=det.index_conf, iou=det.iou, device="cpu",
                             verbose=False, rect=False)[0]
        boxes = true_xyxy if all_indices else r.boxes.xyxy.numpy()
        if len(boxes):
            crops = [crop_index(image, tuple(b), size=det.crop_size) for b in boxes]
            classifier.predict(crops, imgsz=det.crop_size, device="cpu", verbose=False)  # BGR arrays

    torch_total = median_ms(torch_frame, a.runs)
    print(f"PyTorch (ultralytics .pt): {torch_total[0]:7.1f} ms/frame (p90 {torch_total[1]:.1f}, "
          f"CPU {torch_total[2]:.1f} ms), same input size and crops")
    if true_xyxy:
        torch_full = median_ms(lambda: torch_frame(True), a.runs)
        print(f"PyTorch, all {len(true_xyxy)} indices read: {torch_full[0]:.1f} ms/frame (CPU {torch_full[2]:.1f} ms)")
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
