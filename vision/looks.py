"""What the watcher was told, frame by frame, kept to be told again: recorded looks.

Why: the game watcher's decisions rest on two readings of each frame, the hand check's verdict (an
arm over the table, where it came in, what is new where it left) and the recognizer's cards. Both
are slow to make (the recognizer is most of a frame's cost) and neither depends on what the watcher
decided before, so a round watched once can be watched again from its recording in seconds, by any
version of the watcher: a misreading found in a benchmark round is looked into, and a rule tried on
it, without filming and reading the round again. The only look that depends on the watcher is the
closer look it asks for while it waits for the hands laid down at a round's end; the recording keeps
the usual look of every uncovered frame and the closer look where the recorded watcher asked for it,
and a replay that asks for a closer look where none was recorded gets the usual one (`Replay.unrecorded`
counts those frames).

The file is gzipped JSON lines: a header (whatever the recorder wants to keep with it, such as the
round's plan and its true record, and the frame size), then one line a frame:
`{"cover": [covered, changed, entry, changes], "passes": [[frame, player], ...], "usual": [...],
"closely": [...]}`, each card as `[card, confidence, box, indices, alternatives]`.

    >>> recorder = Recorder(detector, CoverWatch(), header={"round": 68})
    >>> watcher = Watcher(start, dealer, recorder.detector, cover=recorder.cover)   # doctest: +SKIP
    >>> recorder.save("round68.jsonl.gz")                                           # doctest: +SKIP
    >>> watcher = Replay.load("round68.jsonl.gz").watch(start, dealer)              # doctest: +SKIP
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Iterator

import numpy as np

from scorekeeper.events import MatchStart

from .capture import Frame
from .detector import Detection
from .occlusion import Cover
from .watcher import Watcher


def _card_line(d) -> list:
    line = [d.card, round(float(d.confidence), 4), [round(float(v), 1) for v in d.box],
            [[round(float(v), 1) for v in b] for b in (getattr(d, "indices", ()) or ())],
            [[c, round(float(p), 4)] for c, p in (getattr(d, "alternatives", ()) or ())]]
    if (corners := getattr(d, "corners", None)) is not None:
        line.append([[round(float(x), 1), round(float(y), 1)] for x, y in corners])
    return line


def _card(line: list) -> Detection:
    card, confidence, box, indices, alternatives, *corners = line
    return Detection(card, confidence, tuple(box), tuple(tuple(p) for p in corners[0]) if corners else None,
                     tuple(tuple(b) for b in indices), tuple((c, p) for c, p in alternatives))


def _cover_line(c: Cover) -> list:
    return [bool(c.covered), round(float(c.changed), 4),
            None if c.entry is None else [round(float(v), 1) for v in c.entry],
            [[round(float(v), 1) for v in p] for p in c.changes]]


def _cover(line: list) -> Cover:
    covered, changed, entry, changes = line
    return Cover(covered, changed, None if entry is None else tuple(entry), tuple(tuple(p) for p in changes))


class Recorder:
    """Wraps a detector and a hand check, keeping what they said for each frame. Every frame passes
    the hand check first (the watcher asks it before anything else), which starts the frame's line."""

    def __init__(self, detector, cover, header: dict | None = None):
        self.header = dict(header or {})
        self.lines: list[dict] = []
        self._pending: list[list] = []  # passes declared since the last frame
        recorder = self

        # The watcher is handed what is kept, not what was said: the kept lines are rounded, and a
        # watcher told the unrounded figures may decide otherwise where two of them nearly tie, so
        # that a replay would not be the round as watched (kennard_4color round 602, session 29).
        class _Cover:
            def update(self, image):
                line = _cover_line(cover.update(image))
                recorder.lines.append({"cover": line, "passes": recorder._pending})
                recorder._pending = []
                if "size" not in recorder.header:
                    recorder.header["size"] = [int(image.shape[1]), int(image.shape[0])]
                return _cover(line)

        class _Detector:
            def detect(self, image):
                kept = [_card_line(d) for d in detector.detect(image)]
                recorder.lines[-1]["usual"] = kept
                return [_card(c) for c in kept]

            def detect_closely(self, image):
                closely = getattr(detector, "detect_closely", None)
                if closely is None:
                    return self.detect(image)
                kept = [_card_line(d) for d in closely(image)]
                recorder.lines[-1]["closely"] = kept
                recorder.lines[-1]["usual"] = [_card_line(d) for d in detector.detect(image)]
                return [_card(c) for c in kept]

            def __getattr__(self, name):  # learn/forget of a benchmark's oracle, and the like
                return getattr(detector, name)

        self.cover, self.detector = _Cover(), _Detector()

    def declared(self, frame: int, player: str) -> None:
        """A pass was declared to the watcher (before the next frame it sees)."""
        self._pending.append([int(frame), player])

    def save(self, path: str | Path) -> None:
        if self._pending and self.lines:
            self.lines[-1]["after"] = self._pending
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(json.dumps(self.header) + "\n")
            for line in self.lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")


class RecordingError(ValueError):
    """A file that is not a recording of looks (or is damaged)."""


class Replay:
    """A recording told again: `cover` and `detector` for a Watcher, `frames()` to feed it."""

    def __init__(self, header: dict, lines: list[dict]):
        self.header, self.lines = header, lines
        self.unrecorded = 0  # closer looks asked for where the recording has only the usual one
        self._at = -1
        w, h = header.get("size", (1280, 720))
        self._image = np.zeros((int(h), int(w), 3), np.uint8)  # only its size is read
        replay = self

        class _Cover:
            def update(self, image):
                replay._at += 1
                return _cover(replay.lines[replay._at]["cover"])

        class _Detector:
            def detect(self, image):
                return [_card(c) for c in replay.lines[replay._at].get("usual", [])]

            def detect_closely(self, image):
                line = replay.lines[replay._at]
                if "closely" not in line:
                    replay.unrecorded += 1
                    return self.detect(image)
                return [_card(c) for c in line["closely"]]

        self.cover, self.detector = _Cover(), _Detector()

    @classmethod
    def load(cls, path: str | Path) -> "Replay":
        try:
            with gzip.open(path, "rt", encoding="utf-8") as f:
                header = json.loads(f.readline())
                lines = [json.loads(line) for line in f if line.strip()]
        except (OSError, EOFError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordingError(f"{path}: not a recording of looks ({exc})") from exc
        if not isinstance(header, dict) or any("cover" not in line for line in lines):
            raise RecordingError(f"{path}: not a recording of looks (a line without the hand check's verdict)")
        return cls(header, lines)

    def frames(self) -> Iterator[tuple[Frame, list[tuple[int, str]]]]:
        """Each frame to show the watcher, with the passes declared just before it."""
        for i, line in enumerate(self.lines):
            yield Frame(i, self._image, i / 10), [(int(f), p) for f, p in line.get("passes", [])]

    def passes_after(self) -> list[tuple[int, str]]:
        """Passes declared after the last frame (before the source ended)."""
        return [(int(f), p) for f, p in (self.lines[-1].get("after", []) if self.lines else [])]

    def watch(self, start: MatchStart, dealer: str) -> Watcher:
        """A watcher for this match told the whole recording, passes as they were declared, to the
        source's end (a recording is told once: load it again to watch it again)."""
        watcher = Watcher(start, dealer, self.detector, cover=self.cover)
        for frame, passes in self.frames():
            for f, player in passes:
                watcher.declare_pass(f, player)
            watcher.see(frame)
        for f, player in self.passes_after():
            watcher.declare_pass(f, player)
        watcher.finish()
        return watcher
