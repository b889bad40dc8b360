"""`vision.training.average_weights`: a model soup of checkpoints (needs the train extra: torch)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


def _checkpoint(path, model, **extra):
    torch.save({"model": model, "ema": None, "optimizer": {"state": 1}, "train_args": {"imgsz": 64}, **extra}, str(path))
    return path


def test_the_average_of_two_checkpoints_has_the_mean_weights(tmp_path):
    from vision.training import average_weights

    torch.manual_seed(0)
    a, b = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2)), torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    b[1].num_batches_tracked += 7  # integer buffers are taken from the first checkpoint, not averaged
    best = average_weights([_checkpoint(tmp_path / "a.pt", a), _checkpoint(tmp_path / "b.pt", b)], tmp_path / "soup")
    assert best == tmp_path / "soup" / "weights" / "best.pt"
    out = torch.load(str(best), map_location="cpu", weights_only=False)
    assert out["optimizer"] is None and out["ema"] is None and out["train_args"] == {"imgsz": 64}
    got = out["model"].state_dict()
    for k, v in a.state_dict().items():
        if v.is_floating_point():
            assert torch.allclose(got[k], (v + b.state_dict()[k]) / 2)
        else:
            assert torch.equal(got[k], v)
    assert not torch.allclose(got["0.weight"], a.state_dict()["0.weight"])


def test_checkpoints_of_different_models_are_refused(tmp_path):
    from vision.training import average_weights

    a = _checkpoint(tmp_path / "a.pt", torch.nn.Linear(3, 2))
    b = _checkpoint(tmp_path / "b.pt", torch.nn.Linear(4, 2))
    with pytest.raises(ValueError, match="one architecture"):
        average_weights([a, b], tmp_path / "soup")
    with pytest.raises(ValueError, match="two checkpoints"):
        average_weights([a], tmp_path / "soup")
