"""A rendered round, watched end to end, gives back exactly the record it was made from."""

from __future__ import annotations

import pytest

from datasets.game_video import OracleDetector

from .conftest import watch_frames


@pytest.mark.parametrize("layout", ["spread", "fanned", "hoyle"])
def test_a_short_rendered_round_gives_the_exact_record(short_round, layout):
    # Oracle detector (the renderer's truth with dropped, jittered and misread cards): this tests the
    # stabiliser, table model and attribution, not the recognizer (see test_real_model_round below).
    record, video = short_round(seed=7, layout=layout)
    frames = list(video.frames)
    watcher, got = watch_frames(record, frames, video.passes, OracleDetector(seed=7))
    assert got == video.truth
    assert watcher.frames_covered > 0  # arms did cross the table
    assert any(e["event"] == "show" for e in got)


def test_the_truth_is_the_simulated_round_without_its_hands(short_round):
    record, video = short_round(seed=3)
    list(video.frames)
    plays = [e for e in record if e["event"] in ("play", "pass")]
    assert [e for e in video.truth if e["event"] in ("play", "pass")] == plays
    assert "hands" not in video.truth[1]
