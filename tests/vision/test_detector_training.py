"""Training stays offline and its exports are what the product loads.

Needs the training extra (torch, ultralytics: `.venv-train`); skipped without it. The tiny end-to-end
run (a few images, one epoch each, with every socket refused) is slow: `pytest -m slow`.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

needs_training = pytest.mark.skipif(
    importlib.util.find_spec("ultralytics") is None or importlib.util.find_spec("torch") is None,
    reason="training extra not installed (pip install '.[train]')",
)


@needs_training
def test_ultralytics_is_set_up_offline(tmp_path: Path) -> None:
    # in a fresh interpreter: the environment must be set before ultralytics is first imported
    code = (
        "from pathlib import Path; import sys; from vision import training; "
        "training.offline_ultralytics(Path(sys.argv[1])); training.assert_offline(); "
        "from ultralytics.utils import SETTINGS, is_online; "
        "assert not SETTINGS['sync'] and not is_online(); print('offline')"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "cfg")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "cfg" / "Ultralytics" / "Arial.ttf").exists()


@needs_training
def test_assert_offline_notices_a_missing_setting(tmp_path: Path) -> None:
    code = (
        "import os; from pathlib import Path; import sys; from vision import training; "
        "training.offline_ultralytics(Path(sys.argv[1])); os.environ['YOLO_OFFLINE'] = '0'; "
        "training.assert_offline()"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "cfg")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode != 0 and "YOLO_OFFLINE" in done.stderr


@pytest.mark.slow
@needs_training
@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert (librsvg2-bin) not installed")
def test_a_tiny_offline_training_resumes_from_models_and_exports_what_the_detector_loads(tmp_path: Path) -> None:
    # one session trains an epoch and stops; export keeps its last.pt in models/; a fresh checkout
    # (no runs/) resumes from that copy and finishes; the exported ONNX pair loads in the product.
    code = f"""
from pathlib import Path
from vision import starter_data, training
from vision.detector import CardDetector
tmp = Path({str(tmp_path)!r})
models = tmp / "models"
starter_data.write(tmp / "data", scenes=10, seed=5, val_fraction=0.3)

class SessionEnds(Exception):
    pass

def stop_after_first_epoch(trainer):
    if trainer.epoch == 0:
        raise SessionEnds

first = tmp / "session1"
try:
    training.train(training.DETECTOR, tmp / "data/detect/data.yaml", epochs=2, imgsz=64, batch=4,
                   project=first, cache=False, callbacks={{"on_model_save": stop_after_first_epoch}})
except SessionEnds:
    pass
training.export(first / "index_detector", training.DETECTOR_ONNX, training.DETECTOR_PT,
                training.DETECTOR_RESUME, models=models)
second = tmp / "session2"
det = training.train(training.DETECTOR, None, resume=True, project=second, cache=False, models=models)
import torch
ckpt = torch.load(det / "weights/last.pt", map_location="cpu", weights_only=False)
print("resumed to epoch", ckpt.get("epoch"))
cls = training.train(training.CLASSIFIER, tmp / "data/classify", epochs=1, imgsz=32, batch=16,
                     project=second, cache=False)
training.export(det, training.DETECTOR_ONNX, training.DETECTOR_PT, training.DETECTOR_RESUME, models=models)
training.export(cls, training.CLASSIFIER_ONNX, training.CLASSIFIER_PT, training.CLASSIFIER_RESUME, models=models)
with training.no_network():
    detector = CardDetector(models)
print("cards", len(detector.cards))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=3000,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "FANTAN_TRAIN_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "network access attempted" not in done.stderr
    assert "Resuming training" in done.stdout + done.stderr
    assert "cards " in done.stdout
