"""The dataset writer: same seed, same files; labels in YOLO form; crops in card-code folders."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from datasets.artwork import CODES
from datasets.make import Kit, jitter_box, make_dataset, make_scene, random_rows, yolo_lines


def _kit(deck) -> Kit:
    return Kit({deck.name: deck}, tiles=[], backs=[])


def test_same_seed_same_scene(tiny_deck):
    a, info_a = make_scene(np.random.default_rng([4, 2]), _kit(tiny_deck), size=(640, 480))
    b, info_b = make_scene(np.random.default_rng([4, 2]), _kit(tiny_deck), size=(640, 480))
    assert info_a == info_b
    assert np.array_equal(a.image, b.image)
    assert a.visible_indices() == b.visible_indices()
    c, _ = make_scene(np.random.default_rng([4, 3]), _kit(tiny_deck), size=(640, 480))
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("kind", ["table", "rows", "hands", "scatter", "closeup"])
def test_every_kind_of_scene_labels_only_what_is_seen(tiny_deck, kind):
    scene, _ = make_scene(np.random.default_rng([1, 7]), _kit(tiny_deck), size=(640, 360), kind=kind)
    for card in scene.cards:
        for it in card.indices:
            x0, y0, x1, y1 = it.box
            assert 0 <= x0 <= x1 <= 640 and 0 <= y0 <= y1 <= 360
            assert 0.0 <= it.visibility <= 1.0
            if not card.face_up:
                raise AssertionError("a face-down card has no index to see")
    # a card code appears at most once per scene: one deck, each card once
    codes = [c.code for c in scene.cards]
    assert len(codes) == len(set(codes))


def test_yolo_lines_are_normalised_and_skip_unreadable_specks(tiny_deck):
    scene, _ = make_scene(np.random.default_rng([2, 0]), _kit(tiny_deck), size=(640, 480), kind="scatter")
    lines = yolo_lines(scene, 1.0, 640, 480)
    assert len(lines) <= len(scene.visible_indices())
    for line in lines:
        cls, *vals = line.split()
        assert cls == "0"
        assert all(0.0 <= float(v) <= 1.0 for v in vals)
    # written at half size, the same labels keep their normalised place
    half = yolo_lines(scene, 0.5, 320, 240)
    full = {tuple(round(float(v), 3) for v in l.split()[1:3]) for l in lines}
    assert {tuple(round(float(v), 3) for v in l.split()[1:3]) for l in half} <= full


def test_game_rows_are_runs_through_the_seven():
    rng = np.random.default_rng(0)
    for _ in range(50):
        for suit, row in random_rows(rng).items():
            ranks = sorted("A23456789TJQK".index(c[0]) for c in row)
            assert 6 in ranks
            assert ranks == list(range(ranks[0], ranks[-1] + 1))
            assert all(c[1] == suit for c in row)


def test_crop_jitter_stays_within_its_bounds():
    rng = np.random.default_rng(0)
    for _ in range(200):
        x0, y0, x1, y1 = jitter_box(rng, (100, 100, 120, 140))
        assert 20 * 0.85 - 1e-9 <= x1 - x0 <= 20 * 1.15 + 1e-9
        assert 40 * 0.85 - 1e-9 <= y1 - y0 <= 40 * 1.15 + 1e-9
        assert abs((x0 + x1) / 2 - 110) <= 2 + 1e-9 and abs((y0 + y1) / 2 - 120) <= 4 + 1e-9


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name not in ("manifest.json", "data.yaml"):  # these name their folder
            h.update(p.relative_to(root).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def test_make_dataset_writes_both_sets_and_is_deterministic(tmp_path, artwork_dir):
    out1, out2 = tmp_path / "a", tmp_path / "b"
    m = make_dataset(out1, images=6, seed=5, val_fraction=0.34, artwork=artwork_dir, progress=False)
    make_dataset(out2, images=6, seed=5, val_fraction=0.34, workers=2, artwork=artwork_dir, progress=False)
    assert _digest(out1) == _digest(out2)  # same seed, any worker count: the same bytes
    assert m["val_images"] == 2 and m["val_decks"] == ["tiny_b"] and m["train_decks"] == ["tiny_a"]
    for split, n in (("train", 4), ("val", 2)):
        images = sorted((out1 / "detect" / "images" / split).glob("*.jpg"))
        labels = sorted((out1 / "detect" / "labels" / split).glob("*.txt"))
        assert len(images) == len(labels) == n
    yaml = (out1 / "detect" / "data.yaml").read_text()
    assert "train: images/train" in yaml and "0: index" in yaml
    classes = (out1 / "classify" / "classes.txt").read_text().split()
    assert classes == sorted(CODES) and len(classes) == 52
    crops = list((out1 / "classify").rglob("*.jpg"))
    assert len(crops) == m["crops"] > 0
    assert all(p.parent.name in CODES for p in crops)
    assert json.loads((out1 / "manifest.json").read_text())["seed"] == 5


def test_make_dataset_without_artwork_says_what_to_run(tmp_path):
    with pytest.raises(RuntimeError, match="fantan dataset artwork"):
        make_dataset(tmp_path / "out", images=1, seed=1, artwork=tmp_path / "none", progress=False)


def test_the_command_line_makes_a_dataset(tmp_path, artwork_dir, capsys):
    from fantan.cli import main

    out = tmp_path / "cards"
    code = main(["dataset", "make", "--images", "3", "--seed", "9", "--out", str(out), "--artwork", str(artwork_dir), "--val-fraction", "0.34"])
    assert code == 0
    assert "3 scenes (1 val)" in capsys.readouterr().out
    assert len(list((out / "detect" / "images" / "train").glob("*.jpg"))) == 2


def test_the_command_line_explains_bad_input(tmp_path, capsys):
    from fantan.cli import main

    assert main(["dataset", "make", "--images", "0", "--artwork", str(tmp_path)]) == 1
    assert "--images must be at least 1" in capsys.readouterr().err
    assert main(["dataset", "make", "--images", "2", "--artwork", str(tmp_path / "nothing"), "--out", str(tmp_path / "o")]) == 1
    assert "fantan dataset artwork" in capsys.readouterr().err


def test_a_rebuild_replaces_the_old_dataset_but_never_a_strange_folder(tmp_path, artwork_dir):
    out = tmp_path / "cards"
    make_dataset(out, images=4, seed=1, val_fraction=0.0, artwork=artwork_dir, progress=False)
    make_dataset(out, images=2, seed=1, val_fraction=0.0, artwork=artwork_dir, progress=False)
    assert len(list((out / "detect" / "images" / "train").glob("*.jpg"))) == 2  # no stale pictures
    mine = tmp_path / "holiday_photos"
    mine.mkdir()
    (mine / "beach.jpg").write_bytes(b"x")
    with pytest.raises(ValueError, match="not made by"):
        make_dataset(mine, images=1, seed=1, artwork=artwork_dir, progress=False)
    assert (mine / "beach.jpg").exists()


def test_a_far_table_is_a_game_at_720p_with_small_cards(tiny_deck):
    from datasets.make import FAR_CARD_H

    scene, info = make_scene(np.random.default_rng([3, 1]), _kit(tiny_deck), far=True)
    assert info["kind"] == "far" and info["size"] == [1280, 720] and scene.image.shape[:2] == (720, 1280)
    heights = [float(np.linalg.norm(np.subtract(c.quad[3], c.quad[0]))) for c in scene.cards]
    assert heights, "a far table has cards on it"
    # tilt and zoom make the near side somewhat larger and the far side smaller than the pose's height
    assert np.median(heights) < FAR_CARD_H[1] * 1.15 and max(heights) < FAR_CARD_H[1] * 1.5
    from datasets.make import _scene_poses

    for seed in range(10):  # the poses' own heights (hands laid down vary by a tenth)
        poses, _ = _scene_poses(np.random.default_rng([seed, 0]), "table", 1280, 720, far=True)
        assert all(FAR_CARD_H[0] * 0.9 <= p.height <= FAR_CARD_H[1] * 1.1 for p in poses)


def test_far_tables_leave_a_dataset_without_them_as_it_was(tmp_path, artwork_dir):
    plain, again, far = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    make_dataset(plain, images=4, seed=2, val_fraction=0.0, artwork=artwork_dir, progress=False)
    make_dataset(again, images=4, seed=2, val_fraction=0.0, artwork=artwork_dir, progress=False, far=0.0)
    assert _digest(plain) == _digest(again)
    m = make_dataset(far, images=4, seed=2, val_fraction=0.0, artwork=artwork_dir, progress=False, far=1.0)
    assert m["kinds"]["far"] == 4 and m["far"] == 1.0
    assert _digest(far) != _digest(plain)
    with pytest.raises(ValueError, match="--far"):
        make_dataset(tmp_path / "d", images=1, seed=2, artwork=artwork_dir, progress=False, far=1.5)


def test_a_scenes_kind_is_told_again_from_its_seed_and_number(tmp_path, artwork_dir):
    from datasets.make import is_far_scene

    m = make_dataset(tmp_path / "d", images=8, seed=3, val_fraction=0.0, artwork=artwork_dir, progress=False, far=0.5)
    assert m["kinds"]["far"] == sum(is_far_scene(3, i, 0.5) for i in range(8))
    assert not any(is_far_scene(3, i, 0.0) for i in range(8))
