"""A camera that unplugs or stalls mid-round is reopened; frame numbers and the round go on."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from datasets.game_video import OracleDetector
from vision.capture import FrameSource, SourceError

from .conftest import watch_frames


class FlakyCamera:
    """Plays a list of pictures like a webcam; at the reads listed in `fail_at` it stops sending."""

    def __init__(self, shared: dict):
        self.shared = shared

    def isOpened(self) -> bool:
        return self.shared["opens_left_failing"] <= 0 or self._fail_open()

    def _fail_open(self) -> bool:
        self.shared["opens_left_failing"] -= 1
        return False

    def read(self):
        s = self.shared
        if s["pos"] in s["fail_at"]:
            s["fail_at"].remove(s["pos"])
            s["opens_left_failing"] = s["failing_opens"]
            return False, None
        if s["pos"] in s["stall_at"]:
            s["stall_at"].remove(s["pos"])
            time.sleep(s["stall_s"])
            return False, None
        if s["pos"] >= len(s["images"]):
            return False, None
        img = s["images"][s["pos"]]
        s["pos"] += 1
        return True, img

    def release(self) -> None:
        self.shared["released"] += 1


def flaky(images, fail_at=(), stall_at=(), failing_opens=2, stall_s=0.0):
    shared = {"images": images, "pos": 0, "fail_at": set(fail_at), "stall_at": set(stall_at), "released": 0,
              "opens_left_failing": 0, "failing_opens": failing_opens, "stall_s": stall_s}
    return shared, (lambda target: FlakyCamera(shared))


def test_frames_keep_their_numbers_across_a_reopened_camera():
    images = [np.full((4, 4, 3), i, np.uint8) for i in range(30)]
    shared, opener = flaky(images, fail_at={10, 20})
    statuses, waits = [], []
    source = FrameSource(0, opener=opener, on_status=statuses.append, latest_only=False, sleep=waits.append,
                         give_up_s=1e9, stall_s=0)
    frames = []
    for f in source:
        frames.append(f)
        if len(frames) == 30:
            source.stop()
    assert [f.index for f in frames] == list(range(30))
    assert [int(f.image[0, 0, 0]) for f in frames] == list(range(30))
    kinds = [s.kind for s in statuses]
    assert kinds.count("camera lost") == 2 and kinds.count("camera back") == 2
    assert waits[:3] == [0.5, 1.0, 2.0]  # back-off doubles while the camera stays away
    assert source.reopened == 2


def test_a_stalled_camera_counts_as_lost():
    images = [np.zeros((4, 4, 3), np.uint8) for _ in range(6)]
    shared, opener = flaky(images, stall_at={3}, failing_opens=0, stall_s=0.6)
    statuses = []
    source = FrameSource(0, opener=opener, on_status=statuses.append, latest_only=False,
                         sleep=lambda s: None, stall_s=0.2)
    frames = []
    for f in source:
        frames.append(f)
        if len(frames) == 6:
            source.stop()
    assert [s.kind for s in statuses][:2] == ["camera lost", "camera back"]
    assert len(frames) == 6


def test_a_camera_that_never_comes_back_ends_the_source():
    shared, opener = flaky([np.zeros((4, 4, 3), np.uint8)] * 3, fail_at={2}, failing_opens=10**6)
    statuses = []
    source = FrameSource(0, opener=opener, on_status=statuses.append, latest_only=False,
                         sleep=lambda s: None, give_up_s=10, stall_s=0)
    assert len(list(source)) == 2
    assert statuses[-1].kind == "end"


def test_a_camera_disappears_mid_round_and_nothing_is_lost(short_round):
    record, video = short_round(seed=11, layout="spread")
    vframes = list(video.frames)
    by_index = {id(v.image): v for v in vframes}
    shared, opener = flaky([v.image for v in vframes], fail_at={len(vframes) // 3, len(vframes) // 2})
    statuses = []
    source = FrameSource(0, opener=opener, on_status=statuses.append, latest_only=False,
                         sleep=lambda s: None, stall_s=0)
    seen = []
    for f in source:
        v = by_index[id(f.image)]
        assert f.index == v.index  # numbering survives the outage, so declared passes still line up
        seen.append(v)
        if len(seen) == len(vframes):
            source.stop()
    assert [s.kind for s in statuses].count("camera back") == 2
    _, got = watch_frames(record, seen, video.passes, OracleDetector(seed=11))
    assert got == video.truth


def test_a_folder_is_read_in_name_order_and_a_bad_picture_is_skipped_with_its_number(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((8, 8, 3), i * 10, np.uint8))
    (tmp_path / "003.png").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "004.png"), np.full((8, 8, 3), 40, np.uint8))
    statuses = []
    frames = list(FrameSource(tmp_path, fps=5, on_status=statuses.append))
    assert [f.index for f in frames] == [0, 1, 2, 4]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 10, 20, 40]
    assert frames[-1].time == pytest.approx(0.8)
    assert any(s.kind == "unreadable frame" and s.frame == 3 for s in statuses)


def test_no_such_source_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="no camera, video file or folder"):
        FrameSource(tmp_path / "missing")
    with pytest.raises(SourceError, match="no images"):
        FrameSource(tmp_path)


def test_a_live_source_drops_the_oldest_frames_when_the_consumer_falls_far_behind():
    images = [np.full((4, 4, 3), i, np.uint8) for i in range(40)]
    shared, opener = flaky(images)
    source = FrameSource(0, opener=opener, latest_only=True, stall_s=0, give_up_s=0, max_backlog=5)
    got, backlogs = [], []
    for f in source:
        got.append(f.index)
        backlogs.append(source.backlog)
        time.sleep(0.01)
    assert got == sorted(got) and got[-1] == 39
    assert source.skipped > 0 and source.skipped + len(got) == 40
    assert max(backlogs) <= 5 and backlogs[0] > 0


def test_a_video_file_is_read_frame_by_frame(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write AVI files")
    for i in range(12):
        writer.write(np.full((48, 64, 3), i * 20, np.uint8))
    writer.release()
    statuses = []
    frames = list(FrameSource(path, fps=10, on_status=statuses.append))
    assert [f.index for f in frames] == list(range(12))
    assert abs(int(frames[5].image.mean()) - 100) <= 3
    assert statuses[-1].kind == "end"
