"""The camera pipeline's door: events it saw go into the night as they are, judged by the engine."""

import pytest

from scorekeeper.events import Pass, Play
from web.nights import InputError
from web.table_feed import latest_night, submit


def test_the_camera_records_what_it_saw_even_out_of_turn(app, table):
    night = table.new_night()
    assert latest_night(app) == night
    assert submit(app, night, Play("Ben", "7d")) == (3, None)
    line, flag = submit(app, night, Pass("Anna"))  # Cleo's turn: the camera saw Anna tap anyway
    assert line == 4 and flag.kind == "out_of_turn"
    log = table.state(night)["log"]
    assert log[-1]["source"] == "camera" and log[-1]["flag"]["kind"] == "out_of_turn"


def test_a_play_before_any_deal_cannot_be_a_line(app, table):
    night = table.new_night(start_now=False, dealer=None)
    with pytest.raises(InputError):
        submit(app, night, Play("Ben", "7d"))
