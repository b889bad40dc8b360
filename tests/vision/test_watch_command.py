"""`fantan watch` as in spec/cli.md: a folder of frames and a passes file in, the game record out."""

from __future__ import annotations

import json

import pytest

from datasets.game_video import OracleDetector, write_video
from fantan.cli import main


def test_watch_a_folder_of_frames_writes_the_exact_record(tmp_path, short_round, monkeypatch):
    record, video = short_round(seed=21, layout="hoyle")
    write_video(video, tmp_path / "game")
    # The oracle stands in for the recognizer (tests only): this checks the command's plumbing.
    monkeypatch.setattr("fantan.commands.watch._detector", lambda args: OracleDetector.from_folder(tmp_path / "game", seed=2))
    out = tmp_path / "watched.jsonl"
    rc = main(["watch", str(tmp_path / "game" / "frames"), "--players", "Anna,Ben,Cleo,Dan", "--dealer",
               record[1]["dealer"], "--rounds", "1", "--passes", str(tmp_path / "game" / "passes.jsonl"),
               "--record", str(out), "--no-web", "--quiet"])
    assert rc == 0
    truth = [json.loads(line) for line in (tmp_path / "game" / "truth.jsonl").read_text().splitlines()]
    assert [json.loads(line) for line in out.read_text().splitlines()] == truth


@pytest.mark.parametrize("passes, message", [
    ('{"frame": 3}\n', "expected"),
    ('{"frame": 3, "player": "Zed"}\n', "not one of the players"),
    ("frame 3 Dan\n", "not JSON"),
])
def test_a_bad_passes_file_is_a_clear_error(tmp_path, capsys, passes, message):
    (tmp_path / "frames").mkdir()
    (tmp_path / "passes.jsonl").write_text(passes)
    rc = main(["watch", str(tmp_path / "frames"), "--players", "Anna,Ben,Cleo,Dan", "--dealer", "Dan",
               "--passes", str(tmp_path / "passes.jsonl"), "--no-web"])
    assert rc == 2
    err = capsys.readouterr().err
    assert message in err and "line 1" in err


def test_a_missing_source_or_dealer_is_a_clear_error(tmp_path, capsys):
    assert main(["watch", str(tmp_path / "nothing"), "--players", "A,B", "--dealer", "A", "--no-web"]) == 2
    assert "no camera, video file or folder" in capsys.readouterr().err
    assert main(["watch", "0", "--players", "A,B", "--dealer", "C", "--no-web"]) == 2
    assert "not one of the players" in capsys.readouterr().err
