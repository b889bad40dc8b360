"""The card recognizer as a player meets it: point it at a table, get the cards back, once each.

Runs the shipped models/ on ONNX Runtime, offline, without torch.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan.cli import main as fantan
from vision.detector import (
    CardDetector,
    Detection,
    IndexBox,
    READING_CHECK_CARDS,
    ModelError,
    crop_index,
    input_size,
    letterbox,
    merge_by_card,
)
from vision.training import OfflineError, no_network

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
TRUTH = json.loads((DATA / "cards.json").read_text())


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    with no_network():  # the shipped model loads with the network cut off
        return CardDetector()


# --- what is seen ---------------------------------------------------------------------------------

def test_a_finished_table_shows_its_52_cards(detector: CardDetector) -> None:
    # four suit rows, ace to king, cards ~100 px tall in a 1280x720 frame, a design with big court letters
    image = cv2.imread(str(DATA / "full_table.jpg"))
    found = detector.detect(image)
    cards = [d.card for d in found]
    assert len(cards) == len(set(cards)), "one entry per card identity"
    right = set(cards) & set(TRUTH["full_table.jpg"])
    assert len(right) >= 0.9 * 52
    assert len(set(cards) - right) <= 3


# scene1.jpg is blurred: the fourth export (detector epoch 40, the classifier before the fifth
# export) found 5 of its 7 cards and the test was a strict xfail; the fifth export's classifier
# reads them again (models/MODEL_CARD.md).
@pytest.mark.parametrize("name", ["scene0.jpg", "scene1.jpg"])
def test_loose_and_fanned_cards_are_named(detector: CardDetector, name: str) -> None:
    image = cv2.imread(str(DATA / name))
    found = {d.card for d in detector.detect(image)}
    truth = set(TRUTH[name])
    assert len(found & truth) >= 0.75 * len(truth)
    assert len(found - truth) <= 1


def test_boxes_lie_inside_the_frame_and_around_the_card(detector: CardDetector) -> None:
    image = cv2.imread(str(DATA / "scene1.jpg"))
    h, w = image.shape[:2]
    found = detector.detect(image)
    assert found
    for d in found:
        x1, y1, x2, y2 = d.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert 0 < d.confidence <= 1
        for ix1, iy1, ix2, iy2 in d.indices:  # the card's box holds each of its corner indices
            assert x1 <= ix1 and y1 <= iy1 and ix2 <= x2 and iy2 <= y2


def test_the_reading_check_passes_on_this_machine(detector: CardDetector) -> None:
    """The shipped models read the check picture exactly: all eight cards, nothing else (on a CPU
    without VNNI the models shipped before session 22 read four of them, and a jack or two)."""
    assert sorted(detector.check_reading()) == sorted(READING_CHECK_CARDS)


def test_a_recognizer_that_misreads_the_check_picture_is_stopped_with_the_fix(tmp_path: Path) -> None:
    class Misreading(CardDetector):  # what signed INT8 weights read on a CPU without VNNI (session 22)
        def detect(self, image_bgr):
            return [Detection(c, 0.5, (0, 0, 1, 1)) for c in ("Js", "Jh", "7h", "Qc", "Kh", "8d")]

    with pytest.raises(ModelError, match="check picture wrongly.*missed 7c, 7d, 7s, Jd.*uint8"):
        Misreading().check_reading()
    blank = tmp_path / "blank.png"
    blank.write_bytes(b"not a picture")
    with pytest.raises(ModelError, match="missing or unreadable"):
        CardDetector().check_reading(blank)


def test_watch_stops_before_the_game_when_the_recognizer_misreads(tmp_path: Path, monkeypatch, capsys) -> None:
    def misread(self, image_bgr):
        return [Detection("Js", 0.5, (0, 0, 1, 1))]

    monkeypatch.setattr(CardDetector, "detect", misread)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.full((72, 128, 3), 40, np.uint8))
    code = fantan(["watch", str(frames), "--players", "Anna,Ben,Cleo", "--dealer", "Anna",
                   "--record", str(tmp_path / "r.jsonl"), "--no-web"])
    assert code == 2
    assert "check picture wrongly" in capsys.readouterr().err
    assert not (tmp_path / "r.jsonl").exists()


def test_an_empty_table_has_no_cards(detector: CardDetector) -> None:
    felt = np.full((720, 1280, 3), (40, 110, 30), np.uint8)
    assert detector.detect(felt) == []


# --- two corners, one card ------------------------------------------------------------------------


def test_the_two_corner_indices_of_one_card_are_one_card() -> None:
    top_left = IndexBox((100, 100, 120, 130), 0.9)
    bottom_right = IndexBox((160, 200, 180, 230), 0.8)
    other = IndexBox((300, 100, 320, 130), 0.9)
    cards = merge_by_card([(top_left, "7d", 0.99), (bottom_right, "7d", 0.9), (other, "8d", 0.95)], conf=0.3)
    assert [d.card for d in cards] == ["8d", "7d"] or [d.card for d in cards] == ["7d", "8d"]
    seven = next(d for d in cards if d.card == "7d")
    assert seven.box == (100, 100, 180, 230)  # the union: the card between its corners
    assert seven.confidence == pytest.approx(0.9 * 0.99)  # its best reading


def test_an_eight_read_as_the_six_beside_it_is_not_joined_to_the_six() -> None:
    # kennard_4color round 281 (session 22): the six and the eight of diamonds side by side on their
    # Hoyle piles, the eight's two corners read as the six; joined, the eight was unseen for 70 looks
    six_tl, six_br = IndexBox((592, 143, 600, 155), 0.9), IndexBox((629, 192, 635, 207), 0.9)
    eight_tl, eight_br = IndexBox((686, 146, 696, 160), 0.9), IndexBox((727, 194, 732, 208), 0.9)
    reads = [(six_tl, "6d", 0.99), (six_br, "6d", 0.95), (eight_tl, "6d", 0.52), (eight_br, "6d", 0.93)]
    alts = [(("6d", 0.99), ("8d", 0.01)), (("6d", 0.95), ("5d", 0.03)), (("6d", 0.52), ("8d", 0.47)),
            (("6d", 0.93), ("8d", 0.07))]
    cards = {d.card: d for d in merge_by_card(reads, conf=0.1, alternatives=alts)}
    assert set(cards) == {"6d", "8d"}
    assert cards["6d"].indices == (six_tl.box, six_br.box)
    assert cards["8d"].box == (686, 146, 732, 208)
    assert cards["8d"].confidence == pytest.approx(0.47 * 0.9)
    assert cards["8d"].alternatives[0] == ("8d", 0.47)  # its next reading is now its first choice


def test_two_indices_farther_apart_than_any_card_are_two_cards_however_they_lie() -> None:
    # photo deck round 339 (session 29): the three of spades in a hand laid down, and the three of
    # clubs' index in the rows (a little wider than tall, so not upright), read as the three of
    # spades too: joined, the hand's card became one huge card spanning both, and was never seated
    hand = IndexBox((214, 292, 223, 310), 0.9)
    row = IndexBox((445, 162, 456, 176), 0.9)
    reads = [(hand, "3s", 0.88), (row, "3s", 0.62)]
    alts = [(("3s", 0.88), ("3c", 0.05)), (("3s", 0.62), ("3c", 0.35))]
    cards = {d.card: d for d in merge_by_card(reads, conf=0.1, alternatives=alts)}
    assert set(cards) == {"3s", "3c"}
    assert cards["3s"].box == hand.box
    assert cards["3c"].box == row.box
    # a card lying turned, its two indices across its diagonal, is still one card
    turned = [(IndexBox((100, 100, 118, 110), 0.9), "5h", 0.9), (IndexBox((160, 150, 178, 160), 0.9), "5h", 0.9)]
    (card,) = merge_by_card(turned, conf=0.1)
    assert card.box == (100, 100, 178, 160)


def test_a_card_with_an_index_in_each_of_its_four_corners_stays_one_card() -> None:
    corners = [(100, 100, 108, 114), (140, 100, 148, 114), (100, 170, 108, 184), (140, 170, 148, 184)]
    reads = [(IndexBox(b, 0.9), "Qs", 0.9) for b in corners]
    (card,) = merge_by_card(reads, conf=0.1)
    assert card.card == "Qs" and len(card.indices) == 4 and card.box == (100, 100, 148, 184)


def test_something_that_is_no_index_is_not_a_card() -> None:
    # a pip or a bit of court art found by stage 1 is read as "none" by stage 2 and dropped
    pip = IndexBox((50, 50, 70, 80), 0.6)
    seven = IndexBox((100, 100, 120, 130), 0.9)
    assert [d.card for d in merge_by_card([(pip, "none", 0.97), (seven, "7d", 0.99)], conf=0.3)] == ["7d"]


def test_no_index_is_never_a_next_reading_either() -> None:
    # an index read as Th 0.6, "none" 0.3: the watcher takes next readings as weaker sightings of cards
    ten = IndexBox((100, 100, 120, 130), 0.9)
    (card,) = merge_by_card([(ten, "Th", 0.6)], conf=0.1, alternatives=[(("Th", 0.6), ("none", 0.3), ("6h", 0.1))])
    assert card.alternatives == (("Th", 0.6), ("6h", 0.1))


def test_readings_below_the_confidence_floor_are_dropped() -> None:
    faint = IndexBox((0, 0, 10, 10), 0.4)
    assert merge_by_card([(faint, "Ks", 0.5)], conf=0.3) == []


# --- geometry -------------------------------------------------------------------------------------


def test_a_webcam_frame_is_seen_wide_not_squashed_into_a_square() -> None:
    assert input_size(720, 1280) == (384, 640)
    assert input_size(1200, 1200) == (480, 480)
    h, w = input_size(3024, 4032)
    assert h % 32 == 0 and w % 32 == 0 and h * w <= 640 * 384


def test_letterbox_keeps_the_aspect_ratio() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    out, r, (left, top) = letterbox(image, (384, 640))
    assert out.shape == (384, 640, 3) and r == pytest.approx(0.5) and left == 0 and top == 12


def test_an_index_at_the_frame_edge_is_still_cut_square() -> None:
    image = np.random.default_rng(0).integers(0, 255, (100, 100, 3), dtype=np.uint8)
    crop = crop_index(image, (90, -5, 110, 20))
    assert crop.shape == (64, 64, 3)


# --- close-up cards: the frame looked at again, smaller ---------------------------------------------


class ScriptedIndexDetector:
    """Stands in for the ONNX index detector: finds the boxes it is given (input pixels, by the width
    of the input it is shown) and remembers which input sizes it was shown."""

    def __init__(self, finds: dict[int, list[tuple[float, float, float, float, float]]]) -> None:
        self.finds = finds
        self.shown: list[tuple[int, int]] = []

    def get_inputs(self) -> list:
        from types import SimpleNamespace

        return [SimpleNamespace(name="images", shape=["batch", 3, "height", "width"])]

    def run(self, _outputs: None, feeds: dict) -> list[np.ndarray]:
        x = feeds["images"]
        self.shown.append((x.shape[2], x.shape[3]))
        rows = self.finds.get(x.shape[3], [])
        pred = np.zeros((5, len(rows)), np.float32)  # cx, cy, w, h, score of class "index"
        for k, (x1, y1, x2, y2, score) in enumerate(rows):
            pred[:, k] = ((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, score)
        return [pred[None]]


def scripted(finds: dict) -> CardDetector:
    with no_network():
        detector = CardDetector(pyramid=(0.5, 0.25), pyramid_below=8)
    detector.detector = ScriptedIndexDetector(finds)
    return detector


def test_an_index_found_on_the_quarter_size_copy_comes_back_in_frame_pixels() -> None:
    # a 1280x720 close-up: first pass at 640x384, then 320x192 and 160x96 (1/8 of the frame, 3 px of
    # grey above and below). A 20x20 index found at (20, 13) of the smallest copy is 160x160 in the frame.
    detector = scripted({160: [(20, 13, 40, 33, 0.8)]})
    found = detector.find_indices(np.zeros((720, 1280, 3), np.uint8))
    assert detector.detector.shown == [(384, 640), (192, 320), (96, 160)]
    assert [i.box for i in found] == [pytest.approx((160, 80, 320, 240))]
    assert found[0].score == pytest.approx(0.8)


def test_one_index_seen_at_two_sizes_is_one_index() -> None:
    # the same index in the full pass (640 wide, half the frame) and in the half-size copy (320 wide)
    detector = scripted({640: [(100, 56, 120, 76, 0.5)], 320: [(50, 28, 60, 38, 0.7)]})
    found = detector.find_indices(np.zeros((720, 1280, 3), np.uint8))
    assert len(found) == 1
    assert found[0].score == pytest.approx(0.7)  # the surer find is kept
    assert found[0].box == pytest.approx((200, 88, 240, 128))


def test_a_table_full_of_indices_is_looked_at_once() -> None:
    # 8 small indices in the first pass: no close-up here, the smaller copies are not worth their time
    row = [(10 + 30 * k, 100, 25 + 30 * k, 115, 0.9) for k in range(8)]
    detector = scripted({640: row})
    assert len(detector.find_indices(np.zeros((720, 1280, 3), np.uint8))) == 8
    assert detector.detector.shown == [(384, 640)]


def test_looking_closely_looks_at_twice_the_pixels_and_finds_in_frame_pixels() -> None:
    # the closer look (the hands laid down at the table's far edge): 960x544 for a 1280x720 frame,
    # against 640x384; a 6x8 index there (4x5 at the usual look, below the sizes the detector learnt)
    # at (600, 30) of the input (540 rows of picture, 2 of grey above) is at (800, 37.3) in the frame
    detector = scripted({960: [(600, 30, 606, 38, 0.6)] + [(10 + 30 * k, 300, 25 + 30 * k, 315, 0.9) for k in range(8)]})
    frame = np.zeros((720, 1280, 3), np.uint8)
    assert detector.find_indices(frame) == []
    assert detector.detector.shown[0] == (384, 640)
    detector.detector.shown.clear()
    found = detector.find_indices(frame, detector.closer_pixels)
    assert detector.detector.shown == [(544, 960)]
    assert len(found) == 9
    small = min(found, key=lambda i: i.score)
    assert small.box == pytest.approx((800, 37.333, 808, 48), abs=0.01)


def test_looking_closely_looks_at_the_far_side_again_on_its_own() -> None:
    # the frame's top half (1280x360) at the closer budget is read a little enlarged: 1344x378 in a
    # 1344x384 input, 3 rows of grey above. It finds a small index the whole frame's closer look missed (a far hand card), finds
    # one the whole frame also found (one index: the surer find), and one cut by the strip's lower
    # edge, which is left to the whole frame.
    row = [(10 + 30 * k, 300, 25 + 30 * k, 315, 0.9) for k in range(8)]
    detector = scripted({960: [(600, 30, 606, 38, 0.6)] + row,
                         1344: [(840, 42.2, 848.4, 53.4, 0.8), (420, 45, 427, 54, 0.5), (105, 366, 115.5, 381, 0.7)]})
    frame = np.zeros((720, 1280, 3), np.uint8)
    whole = detector.find_indices(frame, detector.closer_pixels)
    assert len(whole) == 9 and (384, 1344) not in detector.detector.shown
    found = detector.find_indices(frame, detector.closer_pixels, far_side=0.5)
    assert (384, 1344) in detector.detector.shown
    assert len(found) == 10
    far = sorted((i for i in found if i.box[1] < 100), key=lambda i: i.box[0])
    assert [i.box for i in far] == [pytest.approx((400, 40, 406.667, 48.571), abs=0.01),
                                    pytest.approx((800, 37.333, 808, 48), abs=0.01)]
    assert [i.score for i in far] == [pytest.approx(0.5), pytest.approx(0.8)]


def test_the_far_side_is_a_share_of_the_frame() -> None:
    with no_network(), pytest.raises(ValueError, match="far_side"):
        CardDetector(far_side=1.5)


def test_pyramid_scales_must_shrink_the_frame() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        CardDetector(pyramid=(2.0,))


# --- bad input, clear errors ----------------------------------------------------------------------


def test_a_missing_model_file_says_which_and_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"index_detector\.onnx.*fantan train export"):
        CardDetector(tmp_path)


def test_a_corrupt_model_file_says_so(tmp_path: Path) -> None:
    for name in ("index_detector.onnx", "index_classifier.onnx"):
        (tmp_path / name).write_bytes(b"\x08\x07 this is not a model" * 50)
    with pytest.raises(ModelError, match=r"cannot load model .*index_detector\.onnx.*damaged"):
        CardDetector(tmp_path)


def test_a_truncated_model_file_says_so(tmp_path: Path) -> None:
    for name in ("index_detector.onnx", "index_classifier.onnx"):
        data = (ROOT / "models" / name).read_bytes()
        (tmp_path / name).write_bytes(data[: len(data) // 3])
    with pytest.raises(ModelError, match="cannot load model"):
        CardDetector(tmp_path)


def test_thresholds_chosen_for_the_models_are_the_defaults(tmp_path: Path) -> None:
    for name in ("index_detector.onnx", "index_classifier.onnx"):
        (tmp_path / name).write_bytes((ROOT / "models" / name).read_bytes())
    (tmp_path / "thresholds.json").write_text('{"index_conf": 0.12, "conf": 0.08}')
    chosen = CardDetector(tmp_path)
    assert (chosen.index_conf, chosen.conf) == (0.12, 0.08)
    assert CardDetector(tmp_path, conf=0.5).conf == 0.5  # the caller's --conf wins


def test_watching_a_game_every_index_that_can_make_a_card_is_passed_on(tmp_path: Path) -> None:
    for name in ("index_detector.onnx", "index_classifier.onnx"):
        (tmp_path / name).write_bytes((ROOT / "models" / name).read_bytes())
    (tmp_path / "thresholds.json").write_text('{"index_conf": 0.35, "conf": 0.22}')
    watching = CardDetector(tmp_path, watching=True)
    assert (watching.index_conf, watching.conf) == (0.22, 0.22)  # an index below 0.22 can never make a card
    assert CardDetector(tmp_path).index_conf == 0.35  # one photo: the calibrated index floor
    assert CardDetector(tmp_path, watching=True, index_conf=0.3).index_conf == 0.3  # the caller's wins


def test_a_damaged_thresholds_file_says_so(tmp_path: Path) -> None:
    for name in ("index_detector.onnx", "index_classifier.onnx"):
        (tmp_path / name).write_bytes((ROOT / "models" / name).read_bytes())
    (tmp_path / "thresholds.json").write_text("{not json")
    with pytest.raises(ModelError, match="thresholds.json"):
        CardDetector(tmp_path)


def test_detect_reports_an_unreadable_image_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff not really a jpeg")
    code = fantan(["detect", str(tmp_path / "missing.jpg"), str(broken), str(DATA / "scene1.jpg"), "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [entry["image"] for entry in lines] == [str(tmp_path / "missing.jpg"), str(broken), str(DATA / "scene1.jpg")]
    assert "error" in lines[0] and "error" in lines[1]
    last = lines[2]
    assert (last["width"], last["height"]) == (960, 720)
    assert isinstance(last["cards"], list) and "error" not in last


def test_a_detection_is_written_as_the_cli_contract_says() -> None:
    seven = Detection("7d", 0.97123, (10.04, 20.0, 110.0, 220.55))
    assert seven.to_json() == {"card": "7d", "confidence": 0.9712, "box": [10.0, 20.0, 110.0, 220.6]}
    outlined = Detection("7d", 0.9, (0, 0, 1, 1), corners=((0, 0), (1, 0), (1, 1), (0, 1)))
    assert outlined.to_json()["corners"] == [[0, 0], [1, 0], [1, 1], [0, 1]]


def test_detect_fails_when_no_image_could_be_read(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert fantan(["detect", str(tmp_path / "nope.png"), "--json"]) != 0
    assert json.loads(capsys.readouterr().out)["error"].startswith("no such file")


def test_detect_with_a_bad_model_path_exits_with_a_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert fantan(["detect", str(DATA / "scene0.jpg"), "--model", str(tmp_path)]) == 2
    assert "model file not found" in capsys.readouterr().err


# --- the table laptop needs no torch and no network ------------------------------------------------


def test_detect_runs_without_torch_or_ultralytics() -> None:
    code = (
        "import sys; from fantan.cli import main; main(['detect', sys.argv[1], '--json']); "
        "bad = [m for m in ('torch', 'ultralytics') if m in sys.modules]; "
        "sys.exit(f'imported {bad}' if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(DATA / "scene0.jpg")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_network_guard_refuses_connections() -> None:
    with no_network(), pytest.raises(OfflineError):
        socket.create_connection(("192.0.2.1", 80), timeout=0.1)
    with no_network(), pytest.raises(OfflineError):
        socket.getaddrinfo("example.org", 443)


def test_a_find_too_large_for_the_detector_is_taken_from_the_smaller_copy() -> None:
    # a close-up: on the first pass (640 wide) the detector reports a 60x90 box, far larger than any
    # index it learnt (LEARNT_SIZES); the half-size copy sees the index at 30x45 and the quarter at a
    # learnt 15x22. Only the quarter's find is kept, so pips or court art read as a "large index" on
    # the first pass cannot become a second card.
    detector = scripted({640: [(100, 50, 160, 140, 0.4)], 320: [(50, 25, 80, 70, 0.45)],
                         160: [(25, 12.5, 40, 35, 0.6)]})
    found = detector.find_indices(np.zeros((720, 1280, 3), np.uint8))
    assert [i.score for i in found] == [pytest.approx(0.6)]
    assert found[0].box == pytest.approx((200, 76, 320, 256))


def test_the_smallest_copy_keeps_even_a_huge_find() -> None:
    # nothing smaller looks at it, so the last pass keeps what it finds at any size
    detector = scripted({160: [(20, 10, 80, 90, 0.5)]})
    assert len(detector.find_indices(np.zeros((720, 1280, 3), np.uint8))) == 1


def test_part_of_an_index_inside_the_whole_index_is_the_same_index() -> None:
    # the first pass finds the rank alone (the top of the index, 16x12 input px), the half-size copy
    # the whole index around it: the IoU of the two is small (0.3), but the part lies inside the whole
    detector = scripted({640: [(100, 50, 116, 62, 0.3)], 320: [(50, 25, 58, 45, 0.7)]})
    found = detector.find_indices(np.zeros((720, 1280, 3), np.uint8))
    assert [i.score for i in found] == [pytest.approx(0.7)]


def test_a_frame_looked_at_once_keeps_large_and_nested_finds() -> None:
    # 8 finds on the first pass: no smaller copy, so no find is left to one; a big one and one inside
    # another (a tight fan) both stay
    row = [(10 + 30 * k, 100, 25 + 30 * k, 115, 0.9) for k in range(6)]
    row += [(400, 100, 470, 190, 0.8), (300, 300, 340, 350, 0.7), (305, 305, 325, 330, 0.6)]
    detector = scripted({640: row})
    assert len(detector.find_indices(np.zeros((720, 1280, 3), np.uint8))) == 9


def test_a_card_keeps_the_other_readings_of_its_surest_index() -> None:
    # the watcher can weigh a second reading against the legal plays: 6d read as 9d first
    top_left, bottom_right = IndexBox((0, 0, 10, 14), 0.9), IndexBox((50, 70, 60, 84), 0.5)
    reads = [(top_left, "9d", 0.6), (bottom_right, "9d", 0.7)]
    tops = [(("9d", 0.6), ("6d", 0.35), ("9h", 0.02)), (("9d", 0.7), ("6d", 0.2), ("8d", 0.05))]
    (card,) = merge_by_card(reads, conf=0.3, alternatives=tops)
    assert card.alternatives == tops[0]  # 0.6 * 0.9 beats 0.7 * 0.5
    assert card.to_json().keys() == {"card", "confidence", "box"}  # the JSON of `fantan detect` is unchanged
