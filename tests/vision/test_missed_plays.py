"""A round not over by the count at the end: the hands laid down leave the missed plays nowhere else."""

from __future__ import annotations

import pytest

from datasets.game_video import OracleDetector, render_round

from .conftest import simulated, watch_frames


class Blind(OracleDetector):
    """The oracle, never reading the given cards (a card the recognizer cannot make out)."""

    def __init__(self, blind: set[str], **kwargs):
        super().__init__(**kwargs)
        self.blind = blind

    def detect(self, image):
        return [d for d in super().detect(image) if d.card not in self.blind]


@pytest.mark.parametrize("layout", ["hoyle", "spread"])
def test_the_winning_card_never_read_is_found_from_the_hands_laid_down(layout):
    # measured on Hoyle rounds of a training design: pile tops never read, then the first hand laid
    # down was taken for plays (its cards fitted) and the round never ended
    record = simulated(6)
    last = [e for e in record if e["event"] == "play"][-1]["card"]
    video = render_round(record, layout, 6, size=(640, 360), reach_frames=2, still_frames=4)
    news = []
    _, got = watch_frames(record, list(video.frames), video.passes, Blind({last}, seed=6), on_news=news.append)
    assert got == video.truth
    if layout == "hoyle":
        assert any(n.kind == "corrected" and last in n.message for n in news)
    else:
        # rows laid card beside card: the hand cards, read far from the row ends they would go next
        # to, are not taken for plays, and the card is found where its arm left something new, one
        # step beyond its row's end, before the hands are laid down: nothing written is corrected
        assert not any(n.kind in ("corrected", "retracted") for n in news)


def test_the_ways_tried_reach_every_variant_s_rows():
    # the ways of putting missed plays down are first narrowed to cards next to one already there;
    # next to means what some variant allows: ranks one apart, the king and the ace (ace-high rows,
    # `free` rows that wrap), and a row's first card of the base rank (`free`: the first card's)
    from vision.watcher import _chains

    table = {"7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"}
    assert set(_chains(["Ah", "2h", "5c"], 1, table)) == {("Ah",)}
    assert set(_chains(["Ah", "2h"], 2, table)) == {("Ah", "2h")}
    assert set(_chains(["4c", "5c", "9s"], 1, {"4d"}, frozenset({4}))) == {("4c",)}
