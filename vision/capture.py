"""Frames from a camera, a video file or a folder of pictures, numbered from 0 for the source's first frame.

Why a class of its own: a webcam on a card table gets unplugged, knocked or stalls. The round must
survive that: the source reopens the camera with growing pauses (back-off), keeps counting frame
numbers where it left off (passes are declared "at frame N"), and tells whoever listens
('camera lost', 'camera back') so the dashboard can say so. Nothing about cards happens here.

    >>> source = FrameSource("tests/frames", fps=10)          # doctest: +SKIP
    >>> for frame in source: print(frame.index, frame.image.shape)   # doctest: +SKIP
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Protocol

import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass(frozen=True)
class Frame:
    """One picture and when it was taken: `index` counts from 0 for the source's first frame."""

    index: int
    image: np.ndarray
    time: float  # seconds since the source started (from --fps for files and folders)


@dataclass(frozen=True)
class SourceStatus:
    """Something the dashboard should hear about: 'camera lost', 'camera back', 'unreadable frame', 'end'."""

    kind: str
    frame: int
    message: str


class Capture(Protocol):
    """The part of cv2.VideoCapture the source uses (a fake camera in tests implements the same)."""

    def isOpened(self) -> bool: ...
    def read(self) -> tuple[bool, np.ndarray | None]: ...
    def release(self) -> None: ...


class SourceError(RuntimeError):
    """A source that cannot be opened at all (no such file, no such camera)."""


def _open_cv(target: int | str) -> Capture:
    import cv2

    return cv2.VideoCapture(target)


class FrameSource:
    """Iterate frames of `source`: a camera index ("0"), a video file, or a folder of images in name order.

    A camera that fails (read returns nothing) or stalls (no frame for `stall_s`) is released and
    reopened after 0.5 s, 1 s, 2 s ... up to `max_backoff_s`, for at most `give_up_s` in one outage;
    frame numbers go on from where they were. Files and folders end at their end. With
    `latest_only` (live cameras, and files with `realtime`) a reader thread queues the frames; at most
    `max_backlog` wait (older ones are dropped and counted in `skipped`), and `backlog` tells the
    consumer how far behind it is, so it can skip the recognizer on some frames while it catches up.
    """

    def __init__(self, source: int | str | Path, fps: float = 10.0,
                 on_status: Callable[[SourceStatus], None] | None = None,
                 opener: Callable[[int | str], Capture] | None = None,
                 latest_only: bool | None = None, realtime: bool = False,
                 stall_s: float = 3.0, first_backoff_s: float = 0.5, max_backoff_s: float = 8.0,
                 give_up_s: float = 120.0, max_backlog: int = 100, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic):
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.fps = fps
        self.on_status = on_status or (lambda status: None)
        self.opener = opener or _open_cv
        self.stall_s, self.first_backoff_s, self.max_backoff_s, self.give_up_s = stall_s, first_backoff_s, max_backoff_s, give_up_s
        self.sleep, self.clock = sleep, clock
        self.realtime = realtime
        self.max_backlog = max_backlog
        self._queue: collections.deque[Frame] = collections.deque()
        self.skipped = 0
        self.reopened = 0
        self._stop = threading.Event()
        text = str(source)
        if isinstance(source, int) or text.isdigit():
            self.kind, self.target = "camera", int(text)
        elif Path(text).is_dir():
            self.kind, self.target = "folder", text
            self.files = sorted(p for p in Path(text).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.files:
                raise SourceError(f"no images in folder {text}")
        elif Path(text).is_file():
            self.kind, self.target = "video", text
        else:
            raise SourceError(f"no camera, video file or folder called {text!r}")
        self.latest_only = (self.kind == "camera" or realtime) if latest_only is None else latest_only

    def stop(self) -> None:
        """Ask a running iteration to end after the current frame."""
        self._stop.set()

    def __iter__(self) -> Iterator[Frame]:
        frames = self._frames()
        if self.latest_only:
            frames = self._newest_of(frames)
        yield from frames

    # --- the three kinds of source
    def _frames(self) -> Iterator[Frame]:
        if self.kind == "folder":
            yield from self._folder()
        elif self.kind == "video":
            yield from self._video()
        else:
            yield from self._camera()

    def _paced(self, index: int, start: float) -> float:
        """File time of a frame; with `realtime`, wait until that moment like a camera would."""
        t = index / self.fps
        if self.realtime:
            wait = start + t - self.clock()
            if wait > 0:
                self.sleep(wait)
        return t

    def _folder(self) -> Iterator[Frame]:
        import cv2

        start = self.clock()
        for i, path in enumerate(self.files):
            if self._stop.is_set():
                return
            image = cv2.imread(str(path))
            t = self._paced(i, start)
            if image is None:
                self.on_status(SourceStatus("unreadable frame", i, f"cannot read {path.name}; skipped"))
                continue
            yield Frame(i, image, t)
        self.on_status(SourceStatus("end", len(self.files), "end of folder"))

    def _video(self) -> Iterator[Frame]:
        cap = self.opener(self.target)
        if not cap.isOpened():
            raise SourceError(f"cannot open video {self.target}")
        start, i = self.clock(), 0
        try:
            while not self._stop.is_set():
                ok, image = cap.read()
                if not ok or image is None:
                    break
                yield Frame(i, image, self._paced(i, start))
                i += 1
        finally:
            cap.release()
        self.on_status(SourceStatus("end", i, "end of video"))

    def _camera(self) -> Iterator[Frame]:
        cap = self.opener(self.target)
        if not cap.isOpened():
            raise SourceError(f"cannot open camera {self.target}")
        start, i = self.clock(), 0
        while not self._stop.is_set():
            ok, image = self._read_with_deadline(cap)
            if ok and image is not None:
                yield Frame(i, image, self.clock() - start)
                i += 1
                continue
            # lost or stalled: release, tell, reopen with back-off
            try:
                cap.release()
            except Exception:  # a dead device may fail to release; nothing to keep
                pass
            self.on_status(SourceStatus("camera lost", i, f"camera {self.target} stopped sending frames; reopening"))
            cap = self._reopen(i)
            if cap is None:
                self.on_status(SourceStatus("end", i, f"camera {self.target} did not come back; giving up"))
                return
            self.reopened += 1
            self.on_status(SourceStatus("camera back", i, f"camera {self.target} is back"))

    def _read_with_deadline(self, cap: Capture) -> tuple[bool, np.ndarray | None]:
        """Read one frame, treating a read that hangs longer than `stall_s` as a failure."""
        if self.stall_s is None or self.stall_s <= 0:
            return cap.read()
        box: list = []
        reader = threading.Thread(target=lambda: box.append(cap.read()), daemon=True)
        reader.start()
        reader.join(self.stall_s)
        if not box:
            return False, None  # stalled; the hung thread ends when the device is released
        return box[0]

    def _reopen(self, frame: int) -> Capture | None:
        wait, waited = self.first_backoff_s, 0.0
        while waited < self.give_up_s and not self._stop.is_set():
            self.sleep(wait)
            waited += wait
            try:
                cap = self.opener(self.target)
                if cap.isOpened():
                    return cap
                cap.release()
            except Exception as exc:  # drivers raise all sorts of things while a device comes back
                self.on_status(SourceStatus("camera lost", frame, f"reopening failed: {exc}"))
            wait = min(wait * 2, self.max_backoff_s)
        return None

    # --- keep up with a live source
    @property
    def backlog(self) -> int:
        """Frames read from a live source and not yet taken: a consumer that is behind can go lighter."""
        return len(self._queue)

    def _newest_of(self, frames: Iterator[Frame]) -> Iterator[Frame]:
        """A reader thread queues frames as they come; the consumer takes them oldest first. When more
        than `max_backlog` wait, the oldest are dropped (`skipped`), so a slow consumer never falls far
        behind, and one that checks `backlog` can skip its expensive work while catching up."""
        cond = threading.Condition()
        done = threading.Event()
        error: list[BaseException] = []
        queue = self._queue

        def reader() -> None:
            try:
                for f in frames:
                    with cond:
                        if len(queue) >= self.max_backlog:
                            queue.popleft()
                            self.skipped += 1
                        queue.append(f)
                        cond.notify()
                    if self._stop.is_set():
                        break
            except BaseException as exc:  # handed to the consumer
                error.append(exc)
            finally:
                with cond:
                    done.set()
                    cond.notify()

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        try:
            while True:
                with cond:
                    while not queue and not done.is_set():
                        cond.wait(0.5)
                    if queue:
                        f = queue.popleft()
                    elif done.is_set():
                        break
                    else:
                        continue
                yield f
        finally:
            self._stop.set()
        if error:
            raise error[0]
