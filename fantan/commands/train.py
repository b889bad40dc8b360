"""`fantan train detector|classifier|export|calibrate|quantize`: train the card recognizer offline, ship it to models/.

Needs the training extra (`pip install '.[train]'`: torch, ultralytics, onnx); the table laptop does
not. Long CPU runs are spread over sessions with `--resume`, which continues the run's last
checkpoint (kept in models/ by `export`, so a fresh checkout can go on). See docs/TRAINING.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

DEFAULT_DATA = {
    "detector": Path("data/cards/detect/data.yaml"),
    "classifier": Path("data/cards/classify"),
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train the card recognizer (needs the [train] extra)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("stage", choices=["detector", "classifier", "export", "calibrate", "quantize"],
                        help="detector: corner indices; classifier: 52 cards from index crops; "
                             "export: copy the best weights of both runs into models/ (ONNX + .pt); "
                             "calibrate: choose models/thresholds.json on a dataset's (synthetic) val split; "
                             "quantize: rewrite the models/ ONNX files in INT8 (1.5x faster on CPU; export "
                             "makes the float ones again)")
    parser.add_argument("--data", type=Path, help="dataset (detector: data.yaml; classifier: folder "
                        "with train/ and val/); default: the generator's data/cards/...")
    parser.add_argument("--epochs", type=int, help="epochs for a new run (recipe default otherwise)")
    parser.add_argument("--imgsz", type=int, help="input size for a new run")
    parser.add_argument("--batch", type=int, help="batch size")
    parser.add_argument("--resume", action="store_true",
                        help="continue the unfinished run from its last checkpoint (runs/ or models/)")
    parser.add_argument("--from", dest="start_from", type=Path,
                        help="start a new run from these weights (fine-tune on new data / more epochs)")
    parser.add_argument("--fraction", type=float, default=1.0, help="use this fraction of the training images")
    parser.add_argument("--lr0", type=float, default=None,
                        help="classifier: initial learning rate of a new run (recipe default otherwise; a short fine-tuning "
                             "run from shipped weights does better with a fifth of it)")
    parser.add_argument("--runs", type=Path, default=None, help="folder for training runs (default runs/)")
    parser.add_argument("--only", choices=["detector", "classifier"], help="export, quantize: only this stage")
    parser.add_argument("--models", type=Path, default=None, help="quantize: the models folder (default models/)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import importlib.util

    if args.stage == "quantize":
        return _quantize(args)

    if args.lr0 is not None and (args.lr0 <= 0 or args.stage != "classifier"):
        print("fantan train: --lr0 takes a rate above 0, for the classifier only (the detector's optimizer "
              "is ultralytics' automatic choice, which sets its own rate)", file=sys.stderr)
        return 2
    # Only look: importing ultralytics here would happen before vision.training sets it offline.
    missing = [name for name in ("torch", "ultralytics", "onnx") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"fantan train: {', '.join(missing)} missing; training needs the extra: pip install '.[train]'",
              file=sys.stderr)
        return 2
    from vision import training

    project = args.runs or training.RUNS
    if args.stage == "calibrate":
        root = args.data or Path("data/cards")
        if not (root / "detect").exists() or not (root / "classify").exists():
            print(f"fantan train calibrate: --data must be a `fantan dataset make` folder (detect/, classify/): {root}",
                  file=sys.stderr)
            return 2
        chosen = training.calibrate(training.MODELS, root / "detect", root / "classify")
        for key, value in chosen.items():
            print(f"{key}: {value}")
        return 0
    if args.stage == "export":
        stages = [args.only] if args.only else ["detector", "classifier"]
        for stage in stages:
            recipe = training.DETECTOR if stage == "detector" else training.CLASSIFIER
            names = ((training.DETECTOR_ONNX, training.DETECTOR_PT, training.DETECTOR_RESUME)
                     if stage == "detector" else
                     (training.CLASSIFIER_ONNX, training.CLASSIFIER_PT, training.CLASSIFIER_RESUME))
            try:
                written = training.export(project / recipe.name, *names)
            except FileNotFoundError as exc:
                print(f"fantan train export: {exc}", file=sys.stderr)
                return 2
            for kind, path in written.items():
                print(f"{stage} {kind}: {path} ({path.stat().st_size / 1e6:.1f} MB)")
        return 0

    recipe = training.DETECTOR if args.stage == "detector" else training.CLASSIFIER
    if args.lr0 is not None:
        recipe = dataclasses.replace(recipe, extra={**recipe.extra, "lr0": args.lr0})
    data = args.data or (None if args.resume else DEFAULT_DATA[args.stage])
    if data is not None and not Path(data).exists():
        print(f"fantan train: dataset not found: {data} (make it with `fantan dataset make`)", file=sys.stderr)
        return 2
    try:
        run_dir = training.train(
            recipe, data, epochs=args.epochs, imgsz=args.imgsz, batch=args.batch, resume=args.resume,
            start_from=args.start_from, project=project, fraction=args.fraction,
        )
    except (FileNotFoundError, training.OfflineError) as exc:
        print(f"fantan train: {exc}", file=sys.stderr)
        return 2
    print(f"weights: {run_dir / 'weights'}; ship them with `fantan train export`")
    return 0


def _quantize(args: argparse.Namespace) -> int:
    """INT8 models (vision.quantize): needs onnx + onnxruntime only, not torch."""
    import importlib.util

    if importlib.util.find_spec("onnx") is None:
        print("fantan train quantize: the onnx package is missing: pip install onnx (or '.[train]')", file=sys.stderr)
        return 2
    from vision import quantize
    from vision.detector import MODELS

    # models quantized before session 22 (int8 weights: misread on CPUs without VNNI) need no data
    # to be mended: their weights are stored again as uint8, the same values
    mended = quantize.unsign_models(args.models or MODELS, only=args.only)
    for name, count in mended.items():
        print(f"{name}: already quantized with int8 weights; {count} weight tensors stored again as uint8 "
              f"(the same values; exact on CPUs without VNNI)")
    if mended:
        return 0
    root = args.data or Path("data/cards")
    if not (root / "detect").exists() or not (root / "classify").exists():
        print(f"fantan train quantize: --data must be a `fantan dataset make` folder (detect/, classify/): {root}",
              file=sys.stderr)
        return 2
    try:
        written = quantize.quantize_models(args.models or MODELS, root / "detect", root / "classify", only=args.only)
    except quantize.QuantizeError as exc:
        print(f"fantan train quantize: {exc}", file=sys.stderr)
        return 2
    for stage, (path, agreement) in written.items():
        print(f"{stage} int8: {path} ({path.stat().st_size / 1e6:.1f} MB), agrees with the float model on "
              f"{agreement:.1%} of the checks")
    return 0
