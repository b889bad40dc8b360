"""The camera panel shows the latest frame handed in, with what was recognised in it."""

from web.camera import publish_frame


def test_no_frame_yet(client):
    assert client.get("/camera/frame.jpg").status_code == 404
    assert client.get("/api/camera").get_json()["has_frame"] is False


def test_a_published_frame_and_its_cards_are_served(app, client):
    jpeg = b"\xff\xd8fake-jpeg\xff\xd9"
    publish_frame(app, jpeg, 1280, 720, [{"card": "7d", "confidence": 0.97, "box": [10, 20, 110, 160]}])
    r = client.get("/camera/frame.jpg")
    assert r.data == jpeg and r.headers["Cache-Control"] == "no-store"
    cam = client.get("/api/camera").get_json()
    assert cam["width"] == 1280 and cam["cards"][0]["card"] == "7d"


def test_a_video_file_plays_in_the_camera_panel(app, client, tmp_path):
    import time

    import cv2
    import numpy as np

    from web.camera import start_camera

    path = str(tmp_path / "table.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 5, (320, 240))
    if not writer.isOpened():
        import pytest
        pytest.skip("this OpenCV cannot write a test video")
    for k in range(5):
        writer.write(np.full((240, 320, 3), 40 * k, np.uint8))
    writer.release()
    thread, stop = start_camera(app, path, every_s=0.01)
    try:
        for _ in range(300):
            cam = client.get("/api/camera").get_json()
            if cam["has_frame"]:
                break
            time.sleep(0.05)
        assert cam["has_frame"] and (cam["width"], cam["height"]) == (320, 240)
        assert client.get("/camera/frame.jpg").data[:2] == b"\xff\xd8"
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive()
