"""The banking game's table page: bets go on the joker, the engine refuses what the rules refuse
(and nothing is stored), the cut settles the hand in pay order, and the night survives a restart."""

from __future__ import annotations

import sqlite3

import cv2
import numpy as np
import pytest

from web import create_app

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def bank_rows(app) -> list[tuple]:
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        return (db.execute("SELECT id, name, revision FROM bank_nights ORDER BY id").fetchall()
                + db.execute("SELECT night_id, line, body FROM bank_events ORDER BY night_id, line").fetchall())
    finally:
        db.close()


def new_bank_night(table, players=PLAYERS, hands=3, low=1, high=10) -> int:
    r = table.post("/api/bank", {"players": list(players), "hands_per_bank": hands, "min": low, "max": high})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def send(table, night: int, **event):
    return table.post(f"/api/bank/{night}/events", event)


def state(table, night: int) -> dict:
    r = table.get(f"/api/bank/{night}/state")
    assert r.status_code == 200
    return r.get_json()


@pytest.fixture
def night(table) -> int:
    """The rules text's worked example up to the cut: Anna banks 20; Ben 2 on 3, Cleo 4 on 3-4,
    Dan 5 on 4-1."""
    n = new_bank_night(table)
    assert send(table, n, event="bank", banker="Anna", chips=20, reserve=30).status_code == 201
    assert send(table, n, event="bet", player="Ben", spot="3", chips=2).status_code == 201
    assert send(table, n, event="bet", player="Cleo", spot="4-3", chips=4).status_code == 201
    assert send(table, n, event="bet", player="Dan", spot="1-4", chips=5).status_code == 201
    return n


def test_bets_lie_on_the_spots_they_were_placed_on(table, night):
    s = state(table, night)
    assert s["banker"] == "Anna" and s["bank"] == 20 and s["hands_left"] == 3
    assert s["bets_by_spot"]["3"] == [{"line": 3, "player": "Ben", "spot": "3", "chips": 2}]
    assert [b["player"] for b in s["bets_by_spot"]["3-4"]] == ["Cleo"]  # 4-3 is the side 3-4
    assert [b["player"] for b in s["bets_by_spot"]["4-1"]] == ["Dan"]
    assert s["bettors"] == ["Ben", "Cleo", "Dan"]


@pytest.mark.parametrize("bet, words", [
    ({"player": "Ben", "spot": "2", "chips": 11}, "over the maximum of 10"),
    ({"player": "Ben", "spot": "2", "chips": -3}, "under the minimum of 1"),
    ({"player": "Ben", "spot": "2", "chips": 0}, "under the minimum of 1"),
    ({"player": "Anna", "spot": "2", "chips": 2}, "the banker does not bet"),
    ({"player": "Ben", "spot": "1-3", "chips": 2}, "no place on the layout"),
])
def test_a_refused_bet_says_why_and_stores_nothing(app, table, night, bet, words):
    before = bank_rows(app)
    r = send(table, night, event="bet", **bet)
    assert r.status_code == 409
    assert words in r.get_json()["error"]
    assert bank_rows(app) == before
    assert len(state(table, night)["bets"]) == 3


@pytest.mark.parametrize("bet, words", [
    ({"player": "Zed", "spot": "2", "chips": 2}, "not at this table"),
    ({"player": "Ben", "spot": "2", "chips": "lots"}, "whole number"),
    ({"player": "Ben", "spot": "", "chips": 2}, "Tap a corner or a side"),
])
def test_unreadable_bets_are_refused_before_the_engine_sees_them(app, table, night, bet, words):
    before = bank_rows(app)
    r = send(table, night, event="bet", **bet)
    assert r.status_code == 400 and words in r.get_json()["error"]
    assert bank_rows(app) == before


def test_the_cut_settles_in_pay_order_collect_then_pay_from_the_bankers_left(table, night):
    r = send(table, night, event="cut", count=19)  # 19 cards leave 3
    assert r.status_code == 201
    hand = r.get_json()["hand"]
    assert hand["winning_number"] == 3
    assert [(p["player"], p["reason"], p["chips"]) for p in hand["steps"]] == [
        ("Dan", "lost", 5), ("Ben", "won", 6), ("Cleo", "won", 4)]
    assert hand["steps"][1]["text"] == "Ben is paid 6 for 2 on 3 (3 to 1)"
    s = state(table, night)
    assert s["bank"] == 15 and s["bets"] == [] and s["hands_left"] == 2
    assert s["balances"] == {"Anna": -5, "Ben": 6, "Cleo": 4, "Dan": -5}
    page = table.get(f"/bank/{night}").get_data(as_text=True)
    assert page.index("Dan loses 5 on 4-1") < page.index("Ben is paid 6") < page.index("Cleo is paid 4")


def test_a_dry_bank_pays_short_then_returns_the_rest_and_passes_left(table):
    n = new_bank_night(table, hands=5)
    send(table, n, event="bank", banker="Ben", chips=5)
    send(table, n, event="bet", player="Dan", spot="2", chips=2)   # Ben's left is Cleo, then Dan, then Anna
    send(table, n, event="bet", player="Anna", spot="2", chips=3)
    send(table, n, event="bet", player="Cleo", spot="1-2", chips=4)
    hand = send(table, n, event="result", number=2).get_json()["hand"]
    assert [(p["player"], p["reason"], p["chips"]) for p in hand["steps"]] == [
        ("Cleo", "won", 4), ("Dan", "short", 1)]
    assert [r["player"] for r in hand["returned"]] == ["Anna"]
    assert hand["passed"] == "emptied"
    s = state(table, n)
    assert s["phase"] == "bank" and s["banker"] is None and s["next_banker"] == "Cleo"
    page = table.get(f"/bank/{n}").get_data(as_text=True)
    assert "returned unpaid" in page and "pass at once to Cleo" in page


def test_a_cut_that_is_not_a_third_of_the_pack_is_refused(app, table, night):
    before = bank_rows(app)
    r = send(table, night, event="cut", count=12)
    assert r.status_code == 409 and "18 to 52" in r.get_json()["error"]
    assert bank_rows(app) == before


def test_the_wrong_banker_is_noted_but_stands(table):
    n = new_bank_night(table)
    send(table, n, event="cut_for_bank", player="Anna", card="9c")
    send(table, n, event="cut_for_bank", player="Ben", card="Kd")
    send(table, n, event="cut_for_bank", player="Cleo", card="2s")
    send(table, n, event="cut_for_bank", player="Dan", card="4h")
    r = send(table, n, event="bank", banker="Cleo", chips=10)
    assert r.status_code == 201 and r.get_json()["flag"]["kind"] == "wrong_banker"
    assert state(table, n)["banker"] == "Cleo"


def test_undo_takes_back_the_last_line_only_once(table, night):
    r = table.post(f"/api/bank/{night}/undo", {"line": 5})
    assert r.status_code == 200 and r.get_json()["undone"] == 5
    assert [b["player"] for b in state(table, night)["bets"]] == ["Ben", "Cleo"]
    assert table.post(f"/api/bank/{night}/undo", {"line": 5}).status_code == 409


def test_the_night_survives_a_restart_and_exports_as_a_record(tmp_path, table, night, app):
    send(table, night, event="cut", count=19)
    database = app.config["DATABASE"]
    fresh = create_app({"DATABASE": database, "TESTING": True}).test_client()  # a new process
    s = fresh.get(f"/api/bank/{night}/state").get_json()
    assert s["bank"] == 15 and s["balances"] == {"Anna": -5, "Ben": 6, "Cleo": 4, "Dan": -5}
    assert s["last_hand"]["steps"][0]["text"] == "Dan loses 5 on 4-1 to the bank"
    text = fresh.get(f"/bank/{night}/record.jsonl").get_data(as_text=True)
    from scorekeeper.banking import check_record

    assert check_record(text)["balances"] == s["balances"]
    assert text.splitlines()[3] == '{"event": "bet", "player": "Cleo", "spot": "3-4", "chips": 4}'


def test_bad_settings_are_refused_with_a_message(table):
    r = table.post("/api/bank", {"players": ["Anna"], "hands_per_bank": 3})
    assert r.status_code == 400 and "2 to 8" in r.get_json()["error"]
    r = table.post("/api/bank", {"players": ["Anna", "Ben"], "hands_per_bank": 0})
    assert r.status_code == 400 and "hands_per_bank" in r.get_json()["error"]
    r = table.post("/api/bank", {"players": ["Anna", "Ben"], "hands_per_bank": 2, "min": 5, "max": 2})
    assert r.status_code == 400 and "maximum" in r.get_json()["error"]


def test_the_page_draws_the_joker_with_the_numbers_from_the_bankers_side(table, night):
    page = table.get(f"/bank/{night}").get_data(as_text=True)
    for spot in ("1", "2", "3", "4", "1-2", "2-3", "3-4", "4-1"):
        assert f'data-spot="{spot}"' in page
    # 1 lower left, 2 upper left, 3 upper right, 4 lower right (y grows downwards)
    from web.banking import SPOT_XY
    assert SPOT_XY["1"][0] < SPOT_XY["4"][0] and SPOT_XY["1"][1] > SPOT_XY["2"][1]
    assert SPOT_XY["2"][0] < SPOT_XY["3"][0] and SPOT_XY["3"][1] < SPOT_XY["4"][1]
    assert "aria-label=\"corner 3: Ben 2\"" in page


def _photo_of_a_cut(count: int) -> tuple[bytes, np.ndarray]:
    from datasets.cut_scenes import make_cut_scene, plain_back

    scene = make_cut_scene(np.random.default_rng(3), plain_back(), [], count=count, effects=False, tilt=0.0)
    ok, buf = cv2.imencode(".png", scene.image)
    assert ok
    return buf.tobytes(), scene.image


def test_the_camera_proposes_a_count_and_stores_nothing_until_confirmed(app, table, night):
    import io

    from scorekeeper.banking import winning_number
    from vision.cut_count import count_cut

    photo, image = _photo_of_a_cut(23)
    expected = count_cut(image).count  # the web layer passes on what vision counts, nothing else
    before = bank_rows(app)
    r = table.post(f"/api/bank/{night}/count-cut", data={"photo": (io.BytesIO(photo), "cut.png")},
                   content_type="multipart/form-data")
    assert r.status_code == 200, r.get_json()
    got = r.get_json()
    assert got["count"] == expected and got["groups"]
    assert got["winning_number"] == (winning_number(expected) if 18 <= expected <= 52 else None)
    assert bank_rows(app) == before
    r = send(table, night, event="cut", count=19, source="camera")  # the banker confirms (or corrects)
    assert r.status_code == 201 and r.get_json()["hand"]["winning_number"] == 3
    assert state(table, night)["log"][0]["source"] == "camera"


def test_counting_without_a_picture_says_what_to_do(table, night):
    r = table.post(f"/api/bank/{night}/count-cut", data={}, content_type="multipart/form-data")
    assert r.status_code == 409 and "no camera picture" in r.get_json()["error"]
    r = table.post(f"/api/bank/{night}/count-cut", data={"photo": (__import__("io").BytesIO(b"not a picture"), "x.jpg")},
                   content_type="multipart/form-data")
    assert r.status_code == 400 and "not a picture" in r.get_json()["error"]


# --- in a real browser (Debian's chromium, as in test_browser.py) -------------------------------

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def phone(app):
    from pathlib import Path

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    import threading

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base = f"http://127.0.0.1:{srv.server_port}"
        yield page
        browser.close()
    srv.shutdown()


@pytest.mark.browser
def test_tapping_the_joker_places_bets_and_a_count_settles_them(phone):
    page = phone
    page.goto(page.base + "/bank")
    page.fill("textarea[name=players]", "Anna\nBen\nCleo")
    page.fill("input[name=max]", "10")
    page.click("#bank-new button[type=submit]")
    page.wait_for_url("**/bank/*")
    page.fill("#open-bank input[name=chips]", "20")
    page.click("#open-bank button[type=submit]")
    page.wait_for_selector("#bank-chips")

    page.select_option("#bettor", "Ben")
    page.fill("#bet-chips", "2")
    page.tap("g.spot[data-spot='3']")
    page.wait_for_selector("g.spot.has-bets[data-spot='3']")
    page.select_option("#bettor", "Cleo")
    page.fill("#bet-chips", "4")
    page.tap("g.spot[data-spot='1-2']")
    page.wait_for_selector("g.spot.has-bets[data-spot='1-2']")

    # the banker may not bet: refused in words, nothing placed
    page.select_option("#bettor", "Anna")
    page.tap("g.spot[data-spot='4']")
    page.wait_for_selector("#toast.error")
    assert "the banker does not bet" in page.inner_text("#toast")
    assert page.locator("g.spot.has-bets").count() == 2

    page.fill("#cut-count", "19")  # 3 wins
    page.click("#cut-form button[type=submit]")
    page.wait_for_selector(".settlement .paysteps")
    steps = page.locator(".paysteps .step").all_inner_texts()
    assert steps[0].startswith("Cleo loses 4 on 1-2") and steps[1].startswith("Ben is paid 6 for 2 on 3")
    page.click("#step-through")
    assert page.locator(".paysteps .step.later").count() == 1
    assert page.inner_text("#bank-chips") == "18"
