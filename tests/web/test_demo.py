"""The bundled demo: a valid game record, replayed into a fresh night through the camera's door."""

from scorekeeper.match import replay
from scorekeeper.record import read_record
from web.demo import DEMO_RECORD, start_demo


def test_the_demo_record_is_small_and_readable():
    assert DEMO_RECORD.stat().st_size < 20_000
    match = replay(read_record(DEMO_RECORD.read_bytes()))
    assert match.is_over and match.match_winner
    assert any(r.flags for r in match.rounds)  # the demo shows what a flag looks like


def test_the_demo_replays_into_a_new_night_and_draws_the_camera_panel(app, client):
    night, thread = start_demo(app, step_s=0)
    thread.join(timeout=60)
    state = client.get(f"/api/nights/{night}/state").get_json()
    assert state["night"]["is_demo"] and state["match_over"]
    assert state["lines"] == len(read_record(DEMO_RECORD.read_bytes()))
    assert {e["source"] for e in state["log"]} == {"demo"}
    cam = client.get("/api/camera").get_json()
    assert cam["has_frame"] and cam["cards"]
    assert client.get("/camera/frame.jpg").data[:2] == b"\xff\xd8"  # a JPEG


def test_a_new_demo_replaces_the_old_one_but_never_a_real_night(app, client, table):
    mine = table.new_night()
    first, t1 = start_demo(app, step_s=0.01)
    second, t2 = start_demo(app, step_s=10)  # the first replay stops: its night is gone
    t1.join(timeout=60)
    ids = [n["id"] for n in client.get("/api/nights").get_json()]
    assert second in ids and first not in ids and mine in ids


def test_the_demo_can_be_started_from_the_history_page(app, table):
    app.config["DEMO_STEP_SECONDS"] = 0
    r = table.post("/api/demo", {})
    assert r.status_code == 201
    night = r.get_json()["id"]
    assert table.state(night)["night"]["is_demo"]
    assert table.get("/").headers["Location"].endswith(f"/nights/{night}")  # only night: the demo
