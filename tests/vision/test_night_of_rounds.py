"""Several rounds in one video, as a camera left running for the night sees them: each round ends when
its cards are gathered, the next begins with its first card, and each is read whole."""

from __future__ import annotations

import json

from datasets.game_video import OracleDetector, render_night
from scorekeeper.record import write_record
from scorekeeper.simulate import simulate_match

from .conftest import watch_frames

PLAYERS = ("Anna", "Ben", "Cleo")


def night(variant: str, seed: int, rounds: int = 2) -> list[dict]:
    events = simulate_match(variant, PLAYERS, seed=seed, known_hands=True, rounds=rounds)
    return [json.loads(line) for line in write_record(events).splitlines()]


def filmed(record: list[dict], seed: int):
    video = render_night(record, "spread", seed, size=(640, 360), reach_frames=2, still_frames=4)
    return video, list(video.frames)


def test_two_rounds_in_one_video_give_both_rounds_exactly():
    # parliament seed 10: the second round opens with a pass, declared before its first card shows
    # (while the first round's cards are gone and nothing new lies there): it is the new round's line
    record = night("parliament", 10)
    video, frames = filmed(record, 10)
    rounds = [i for i, e in enumerate(video.truth) if e["event"] == "round"]
    assert len(rounds) == 2 and video.truth[rounds[1] + 1]["event"] == "pass"
    _, got = watch_frames(record, frames, video.passes, OracleDetector(seed=10))
    assert got == video.truth


def test_a_round_whose_last_play_was_never_seen_is_read_again_when_its_cards_are_gathered():
    # fan-tan seed 3: the first round's next-to-last card (the queen of hearts) is never read; its
    # last card then looks like a play that does not fit, the hands are laid down and gathered, and
    # the next round starts on the same video. Read again when the table is cleared, the round comes
    # out whole (as it does at the end of a video that holds one round).
    record = night("fan-tan", 3)
    video, frames = filmed(record, 3)
    rounds = [i for i, e in enumerate(video.truth) if e["event"] == "round"]
    plays = [e["card"] for e in video.truth[:rounds[1]] if e["event"] == "play"]
    hidden = plays[-2]
    gathered = next(f.index for f in frames if f.index > 50 and not f.cards)
    for f in frames[:gathered]:
        f.cards = [c for c in f.cards if c.card != hidden]
    news = []
    _, got = watch_frames(record, frames, video.passes, OracleDetector(seed=3), on_news=news.append)
    assert got == video.truth
    assert any(n.kind == "corrected" and n.message.startswith(hidden) for n in news)
