"""Measure the shipped recognizer on real photographs (never trained on; do not tune to them).

bidly_deals: 7 phone photos of bridge deals, 52 cards in overlapping fans, corner boxes labelled.
A card is *present* in a photo when at least one of its corner indices is labelled there; the
detector's cards (one entry per identity) are compared with that set: precision, recall and F1 per
photo, then averaged over the photos.

rdpong_pixel3: 51 photos of one card each on a wooden table. Top-1: the most confident card is the
one in the photo. Wrong extra: the photo's answer holds any card that is not there.

    python benchmarks/bench_real.py [--real ../shared/datasets/real] [--conf 0.3] [--models models]

Any other folder in either layout can be measured with --bidly DIR / --rdpong DIR (e.g. the held-out
deck). Prints per-photo lines, then the summary figures.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REAL = ROOT.parent / "shared" / "datasets" / "real"


def bidly(detector, folder: Path, verbose: bool) -> dict:
    import cv2

    classes = (folder / "classes.txt").read_text().split()
    f1s, ps, rs = [], [], []
    for image_path in sorted((folder / "images").glob("*.jpg")):
        labels = folder / "labels" / f"{image_path.stem}.txt"
        truth = {classes[int(line.split()[0])] for line in labels.read_text().splitlines() if line.strip()}
        image = cv2.imread(str(image_path))
        found = {d.card for d in detector.detect(image)}
        tp = len(found & truth)
        p = tp / len(found) if found else 0.0
        r = tp / len(truth) if truth else 1.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        ps.append(p)
        rs.append(r)
        f1s.append(f1)
        if verbose:
            missed = " ".join(sorted(truth - found))
            extra = " ".join(sorted(found - truth))
            print(f"  {image_path.name}: {len(truth)} cards, found {len(found)}, right {tp}: "
                  f"P {p:.3f} R {r:.3f} F1 {f1:.3f}  missed [{missed}] wrong [{extra}]")
    return {"photos": len(f1s), "precision": statistics.mean(ps), "recall": statistics.mean(rs),
            "f1": statistics.mean(f1s)}


def bidly_stages(detector, folder: Path) -> dict:
    """Each stage alone on the labelled corner boxes: how many the detector finds (IoU >= 0.5 with a
    found index), and how many the classifier names right when given the labelled box itself."""
    import cv2
    import numpy as np

    from vision.detector import IndexBox

    classes = (folder / "classes.txt").read_text().split()
    boxes_total = found = read_right = 0
    for image_path in sorted((folder / "images").glob("*.jpg")):
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]
        rows = [line.split() for line in (folder / "labels" / f"{image_path.stem}.txt").read_text().splitlines()
                if line.strip()]
        truth = [(classes[int(r[0])], ((float(r[1]) - float(r[3]) / 2) * w, (float(r[2]) - float(r[4]) / 2) * h,
                                        (float(r[1]) + float(r[3]) / 2) * w, (float(r[2]) + float(r[4]) / 2) * h))
                 for r in rows]
        seen = np.array([i.box for i in detector.find_indices(image)]).reshape(-1, 4)
        reads = detector.read_indices(image, [IndexBox(b, 1.0) for _, b in truth])
        for (card, box), (read, _) in zip(truth, reads):
            boxes_total += 1
            read_right += read == card
            if len(seen):
                ix = np.clip(np.minimum(box[2], seen[:, 2]) - np.maximum(box[0], seen[:, 0]), 0, None)
                iy = np.clip(np.minimum(box[3], seen[:, 3]) - np.maximum(box[1], seen[:, 1]), 0, None)
                inter = ix * iy
                union = (box[2] - box[0]) * (box[3] - box[1]) + (seen[:, 2] - seen[:, 0]) * (seen[:, 3] - seen[:, 1]) - inter
                found += (inter / union).max() >= 0.5
    return {"boxes": boxes_total, "detector_recall": found / boxes_total, "classifier_top1": read_right / boxes_total}


def rdpong(detector, folder: Path, verbose: bool) -> dict:
    import cv2

    with open(folder / "labels.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    top1 = extra = 0
    for row in rows:
        image = cv2.imread(str(folder / row["file"]) if (folder / row["file"]).exists() else str(folder / "images" / row["file"]))
        found = detector.detect(image)  # most confident first
        first = found[0].card if found else None
        wrong = sorted({d.card for d in found} - {row["card"]})
        top1 += first == row["card"]
        extra += bool(wrong)
        if verbose:
            print(f"  {row['file']}: {row['card']} -> {first} ({found[0].confidence:.2f})" if found else
                  f"  {row['file']}: {row['card']} -> nothing", f" wrong extra {wrong}" if wrong else "")
    n = len(rows)
    return {"photos": n, "top1": top1 / n, "wrong_extra": extra / n}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--real", type=Path, default=REAL)
    p.add_argument("--bidly", type=Path, help="a folder in bidly_deals' layout")
    p.add_argument("--rdpong", type=Path, help="a folder in rdpong_pixel3's layout")
    p.add_argument("--models", type=Path, default=ROOT / "models")
    p.add_argument("--conf", type=float, default=None, help="lowest confidence kept (default: the detector's)")
    p.add_argument("--quiet", action="store_true", help="summary only")
    p.add_argument("--no-pyramid", action="store_true",
                   help="detector looks at each photo once, at its pixel budget (as before the scale pyramid)")
    a = p.parse_args(argv)

    from vision.detector import CardDetector

    kwargs: dict = {} if a.conf is None else {"conf": a.conf}
    if a.no_pyramid:
        kwargs["pyramid"] = ()
    detector = CardDetector(a.models, **kwargs)
    print(f"models: {a.models.resolve()}  conf >= {detector.conf}  pyramid {detector.pyramid} "
          f"when the first pass finds < {detector.pyramid_below} indices")
    bidly_dir = a.bidly or a.real / "bidly_deals"
    rdpong_dir = a.rdpong or a.real / "rdpong_pixel3"
    t = time.perf_counter()
    if bidly_dir.exists():
        print(f"{bidly_dir.name}:")
        b = bidly(detector, bidly_dir, not a.quiet)
        print(f"{bidly_dir.name}: card-identity F1 {b['f1']:.3f} per photo on average "
              f"(precision {b['precision']:.3f}, recall {b['recall']:.3f}; {b['photos']} photos; target F1 >= 0.95)")
        st = bidly_stages(detector, bidly_dir)
        print(f"{bidly_dir.name} stages: detector finds {st['detector_recall']:.3f} of the {st['boxes']} labelled "
              f"corner indices (IoU >= 0.5); classifier names {st['classifier_top1']:.3f} of them right from the "
              f"labelled box")
    if rdpong_dir.exists():
        print(f"{rdpong_dir.name}:")
        r = rdpong(detector, rdpong_dir, not a.quiet)
        print(f"{rdpong_dir.name}: top-1 {r['top1']:.3f} (target >= 0.95), photos with a wrong extra card "
              f"{r['wrong_extra']:.3f} (target <= 0.02); {r['photos']} photos")
    print(f"({time.perf_counter() - t:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
