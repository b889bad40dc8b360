"""The camera panel: the latest frame the table camera saw, with the recognised cards outlined.

Whoever watches the table (the camera loop below, the demo, or the vision pipeline) hands frames in
with `publish_frame`; the page fetches ``/camera/frame.jpg`` and draws the outlines from
``/api/camera`` over it as SVG, so the picture is sent once and the outlines stay sharp on a phone.

The loop below only shows what the recognizer sees. Turning frames into plays is the vision
pipeline's job (`fantan watch`); it reports each play with `web.table_feed.submit`.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

bp = Blueprint("camera", __name__)
log = logging.getLogger(__name__)


@dataclass
class CameraView:
    """The latest frame and what was recognised in it (entries as in `fantan detect --json`)."""

    source: str | None = None
    jpeg: bytes | None = None
    width: int = 0
    height: int = 0
    cards: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""
    updated: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


def init_app(app: Flask) -> None:
    app.extensions["fantan_camera"] = CameraView(source=app.config.get("CAMERA"))


def view(app: Flask | None = None) -> CameraView:
    return (app or current_app).extensions["fantan_camera"]


def publish_frame(app: Flask, jpeg: bytes, width: int, height: int, cards: list[dict[str, Any]],
                  note: str = "") -> None:
    """Show a new frame (JPEG bytes) with its recognised cards (dicts with card, confidence, box and
    optionally corners, in the frame's pixels)."""
    cam = view(app)
    with cam.lock:
        cam.jpeg, cam.width, cam.height = jpeg, int(width), int(height)
        cam.cards, cam.note, cam.updated = list(cards), note, time.time()


@bp.get("/camera/frame.jpg")
def frame():
    cam = view()
    with cam.lock:
        jpeg = cam.jpeg
    if jpeg is None:
        return jsonify({"error": "No camera frame yet."}), 404
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/camera")
def camera_json():
    cam = view()
    with cam.lock:
        return jsonify({"source": cam.source, "width": cam.width, "height": cam.height,
                        "cards": cam.cards, "note": cam.note, "has_frame": cam.jpeg is not None,
                        "age_s": round(time.time() - cam.updated, 1) if cam.updated else None})


def start_camera(app: Flask, source: int | str, *, every_s: float = 0.5
                 ) -> tuple[threading.Thread, threading.Event]:
    """Read frames from a camera index or a video file in a background thread, recognise the cards
    (when the shipped models are there) and publish a frame every `every_s` seconds.

    Returns the thread and an event to set to stop it (stop it before the program exits: the video
    and ONNX libraries abort a process that exits under a running thread)."""
    stop = threading.Event()

    def loop() -> None:
        import cv2  # heavy: only when a camera is asked for

        detector = None
        note = ""
        try:
            from vision.detector import CardDetector

            detector = CardDetector(watching=True)
            detector.check_reading()
        except Exception as exc:  # no models shipped yet, onnxruntime missing, or a CPU that reads them wrongly
            detector = None
            note = f"Card recognition is off: {exc}"
            log.warning("%s", note)
        capture = cv2.VideoCapture(source)
        if not capture.isOpened():
            publish_frame(app, b"", 0, 0, [], note=f"Cannot open camera/video {source!r}.")
            view(app).jpeg = None
            return
        is_file = isinstance(source, str)
        try:
            _frames(capture, cv2, detector, note, is_file)
        finally:
            capture.release()

    def _frames(capture, cv2, detector, note: str, is_file: bool) -> None:
        while not stop.is_set():
            ok, image = capture.read()
            if not ok:
                if is_file:  # a video: loop it so the panel keeps moving
                    capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    continue
                stop.wait(1.0)
                continue
            cards: list[dict[str, Any]] = []
            if detector is not None:
                try:
                    cards = [d.to_json() for d in detector.detect(image)]
                except Exception as exc:
                    note = f"Card recognition failed on a frame: {exc}"
            ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 70])
            if ok:
                h, w = image.shape[:2]
                publish_frame(app, buf.tobytes(), w, h, cards, note)
            stop.wait(every_s)

    thread = threading.Thread(target=loop, name="camera", daemon=True)
    thread.start()
    return thread, stop
