"""Shared helpers for the camera pipeline's tests: simulated rounds, rendered and watched."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pytest

from datasets.game_video import OracleDetector, render_round
from scorekeeper.record import write_record
from scorekeeper.simulate import simulate_match
from vision.capture import Frame
from vision.watcher import Watcher

PLAYERS = ("Anna", "Ben", "Cleo", "Dan")
#: a frame with nothing on it, for watchers whose detector and arm check are scripted
BLANK = np.full((90, 160, 3), 90, np.uint8)


@dataclass(frozen=True)
class Seen:
    """One card as a scripted detector reports it (the fields the watcher reads of a Detection)."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: tuple | None = None
    alternatives: tuple = field(default=())
    indices: tuple = field(default=())  # the corner index boxes read as this card (none: read whole)


def simulated(seed: int, variant: str = "fan-tan", players=PLAYERS, strategy: str = "random") -> list[dict]:
    """A one-round record with the dealt hands on its round line, as JSON objects."""
    events = simulate_match(variant, players, seed=seed, known_hands=True, strategy=strategy)
    return [json.loads(line) for line in write_record(events).splitlines()]


def watch_frames(record: list[dict], frames, passes, oracle: OracleDetector, **kwargs) -> tuple[Watcher, list[dict]]:
    """Feed frames (VideoFrame or (VideoFrame, index)) through a Watcher; returns it and its record."""
    from scorekeeper.events import MatchStart

    m = record[0]
    start = MatchStart(m["variant"], tuple(m["players"]), m["stakes"], rounds=m.get("rounds"))
    watcher = Watcher(start, record[1]["dealer"], oracle, passes=[(p["frame"], p["player"]) for p in passes], **kwargs)
    for vf in frames:
        oracle.learn(vf)
        watcher.see(Frame(vf.index, vf.image, vf.index / 10))
        oracle.forget(vf)
    watcher.finish()
    return watcher, [json.loads(line) for line in write_record(watcher.events).splitlines()]


@pytest.fixture
def short_round():
    """A rendered fan-tan round, small and quick (640x360, few frames per play)."""

    def make(seed: int = 5, layout: str = "spread", **kwargs):
        record = simulated(seed)
        video = render_round(record, layout, seed, size=(640, 360), reach_frames=2, still_frames=4, **kwargs)
        return record, video

    return make
