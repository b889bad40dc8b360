"""Time `fantan detect`'s work on a 1280x720 frame of a full table (all 52 cards), medians in ms.

Prints the shipped ONNX models on ONNX Runtime (what the product runs) and, beside it, the same two
stages on PyTorch through ultralytics (the .pt weights in models/), when the training extra is
installed. Both use 2 threads: the table laptop of the target is a 2-core CPU.

    python benchmarks/bench_speed.py [--runs 30] [--frame table.jpg] [--threads 2]

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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--frame", type=Path, help="a 1280x720 image (default: a rendered full table)")
    p.add_argument("--design", default="anglo", help="aisleriot design of the rendered table")
    p.add_argument("--models", type=Path, default=ROOT / "models")
    p.add_argument("--pyramid", choices=["default", "off", "always"], default="default",
                   help="the detector's scale pyramid: as shipped (only when the first pass finds few "
                        "indices), off, or on every frame")
    a = p.parse_args(argv)

    image, labels = frame(a.frame, a.design)
    truth = {code for code, _ in labels} if labels else None
    h, w = image.shape[:2]
    print(f"frame {w}x{h}, {len(truth) if truth else '?'} cards on the table, {a.threads} threads, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, median of {a.runs} runs "
          f"(after 3 warm-up runs)")

    from vision.detector import CardDetector, crop_index

    pyramid = {"default": {}, "off": {"pyramid": ()}, "always": {"pyramid_below": None}}[a.pyramid]
    det = CardDetector(a.models, threads=a.threads, **pyramid)
    when = "on every frame" if det.pyramid_below is None else f"when the first pass finds < {det.pyramid_below} indices"
    print(f"  scale pyramid {det.pyramid or 'off'} {when if det.pyramid else ''}")
    found = det.detect(image)
    indices = det.find_indices(image)
    if truth:
        hits = len({d.card for d in found} & truth)
        print(f"  found {len(found)} cards ({hits} right) from {len(indices)} corner indices")
    ort_total = median_ms(lambda: det.detect(image), a.runs)
    ort_stage1 = median_ms(lambda: det.find_indices(image), a.runs)
    ort_stage2 = median_ms(lambda: det.read_indices(image, indices), a.runs)
    print(f"ONNX Runtime  : {ort_total[0]:7.1f} ms/frame (p90 {ort_total[1]:.1f}, CPU {ort_total[2]:.1f} ms); "
          f"stage 1 {ort_stage1[0]:.1f} ms at {det._input_size(h, w)}, stage 2 {ort_stage2[0]:.1f} ms "
          f"for {len(indices)} crops")
    if labels:
        # what a frame costs when every visible index is found: stage 2 on the table's true index boxes
        from vision.detector import IndexBox

        true_boxes = [IndexBox(tuple(float(v) for v in box), 1.0) for _, box in labels]
        full2 = median_ms(lambda: det.read_indices(image, true_boxes), a.runs)
        print(f"ONNX Runtime, all {len(true_boxes)} indices read: stage 1 {ort_stage1[0]:.1f} + stage 2 "
              f"{full2[0]:.1f} = {ort_stage1[0] + full2[0]:.1f} ms/frame (CPU {ort_stage1[2] + full2[2]:.1f} ms)")

    import importlib.util

    if importlib.util.find_spec("ultralytics") is None:
        print("PyTorch       : not measured (ultralytics/torch not installed: pip install '.[train]')")
        return 0
    from vision.training import no_network, offline_ultralytics

    offline_ultralytics()
    import torch
    from ultralytics import YOLO

    with no_network():
        detector = YOLO(str(a.models / "index_detector.pt"), task="detect")
        classifier = YOLO(str(a.models / "index_classifier.pt"), task="classify")
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
