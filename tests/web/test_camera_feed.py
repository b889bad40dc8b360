"""The camera's night on the dashboard follows the watcher when it re-orders lines it already sent."""

from __future__ import annotations

from types import SimpleNamespace

from scorekeeper.events import MatchStart, Pass, Play, RoundStart
from scorekeeper.match import Match
from scorekeeper.record import write_record
from vision.dashboard_feed import DashboardFeed
from web.db import get_db
from web.nights import create_night, load_match, stored_lines

PLAYERS = ("Anna", "Ben", "Cleo")
HANDS = {"Anna": "7h 6h 5h 8c 2s Ac".split(), "Ben": "7c 8h 9h 3c 4c 5c".split(),
         "Cleo": "7d 6c 9c Tc 2c 3s".split()}


def _news(event):
    kind = "pass" if isinstance(event, Pass) else "play"
    return SimpleNamespace(kind=kind, event=event, message="")


def test_a_card_made_out_late_rewrites_the_lines_after_it_and_keeps_an_untaken_tap(app):
    start = MatchStart("fan-tan", PLAYERS)
    with app.app_context():
        night = create_night(get_db(), start, name="camera", first_dealer="Cleo", source="camera")
    feed = DashboardFeed(app, night)
    with app.app_context():
        feed._seen_lines = len(stored_lines(get_db(), night))
    # what the camera told first: 7h (Anna), 8h (Ben); the 7c it made out later was put down between
    told = [Play("Anna", "7h"), Play("Ben", "8h")]
    for ev in told:
        feed.news(_news(ev))
    with app.app_context():  # a player taps Pass on the dashboard; the watcher has not taken it yet
        from web.nights import append
        append(get_db(), night, Pass("Anna"), source="manual", strict=False)
    truth = Match(start)
    for ev in (RoundStart("Cleo"), Play("Anna", "7h"), Play("Ben", "7c"), Play("Cleo", "8h")):
        truth.push(ev)
    feed.sync(list(truth.events))
    with app.app_context():
        rows = stored_lines(get_db(), night)
        bodies = [r["body"] for r in rows]
        assert bodies[:5] == write_record(truth.events).splitlines()
        assert len(bodies) == 6 and '"pass"' in bodies[5] and rows[5]["source"] == "manual"
        assert [r["source"] for r in rows[:3]] == ["camera"] * 3  # unchanged lines keep their source
        match = load_match(get_db(), night)
        assert [getattr(e, "player", None) for e in match.events[2:5]] == ["Anna", "Ben", "Cleo"]
    # the untaken tap is still there for the watcher to take
    assert feed.new_passes(frame=10, every_s=0.0) == [(10, "Anna")]
    feed.sync(list(truth.events) + [Pass("Anna")])  # nothing differs: nothing is written
    with app.app_context():
        assert [r["body"] for r in stored_lines(get_db(), night)] == bodies


def test_a_rewrite_that_does_not_replay_is_refused_and_changes_nothing(app):
    import pytest

    from web.event_log import InputError
    from web.nights import rewrite_from

    start = MatchStart("fan-tan", PLAYERS)
    with app.app_context():
        db = get_db()
        night = create_night(db, start, name="camera", first_dealer="Cleo", source="camera")
        before = [r["body"] for r in stored_lines(db, night)]
        with pytest.raises(InputError, match="does not replay"):
            rewrite_from(db, night, 2, [Play("Anna", "7h")])  # a play with no round line before it
        with pytest.raises(InputError, match="no line"):
            rewrite_from(db, night, 1, [])
        assert [r["body"] for r in stored_lines(db, night)] == before
