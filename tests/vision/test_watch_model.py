"""The same short round, recognised by the shipped model instead of the oracle (slow; the real figure)."""

from __future__ import annotations

import pytest

from .conftest import watch_frames


class _Learnless:
    """The real recognizer, with the oracle's learn/forget hooks as no-ops."""

    def __init__(self, inner):
        self.inner = inner

    def detect(self, image):
        return self.inner.detect(image)

    def learn(self, frame):
        pass

    def forget(self, frame):
        pass


# The target of issue #4: the shipped recognizer gives the exact record. It does not yet for this
# round on every deck (docs/CAMERA.md: 50 of 54 rounds exact on four held-out artwork designs, the
# OpenCV-drawn deck largely not read); the test stays as written and reports XPASS once it does, then
# drop the mark.
not_yet = pytest.mark.xfail(reason="the shipped model does not yet give every round exactly (docs/CAMERA.md)",
                            strict=False)


@pytest.mark.slow
@pytest.mark.parametrize("deck", [pytest.param("drawn", marks=not_yet), pytest.param("photo", marks=not_yet)])
def test_real_model_round(deck):
    detector_mod = pytest.importorskip("vision.detector")
    try:
        model = detector_mod.CardDetector()
    except detector_mod.ModelError as exc:
        pytest.skip(f"no shipped model: {exc}")
    from datasets.game_video import load_deck, render_round

    from .conftest import simulated

    record = simulated(7)
    video = render_round(record, "spread", 7, deck=load_deck(deck), size=(1280, 720), reach_frames=2, still_frames=4)
    _, got = watch_frames(record, list(video.frames), video.passes, _Learnless(model))
    assert got == video.truth
