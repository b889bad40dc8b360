"""Starting a night: the form becomes the record's match line; bad settings come back with a
message and the form as typed."""

import pytest


def test_a_night_from_the_form_starts_with_the_first_deal(client, table):
    r = client.post("/api/nights", data={
        "csrf_token": table.token, "name": "Friday", "players": "Anna\nBen\nCleo", "dealer": "Cleo",
        "variant": "sjuan", "stakes": "chips", "target": "50", "chip_value": "0.10", "currency": "€"},
        headers={"Accept": "text/html"})
    assert r.status_code == 302
    night = int(r.headers["Location"].rsplit("/", 1)[1])
    record = table.get(f"/nights/{night}/record.jsonl").get_data(as_text=True).splitlines()
    assert record[0] == ('{"event": "match", "variant": "sjuan", "players": ["Anna", "Ben", "Cleo"], '
                         '"stakes": "chips", "target": 50}')
    assert record[1] == '{"event": "round", "dealer": "Cleo"}'


def test_options_reach_the_match_line(table):
    night = table.new_night(players=("Anna", "Ben"), variant="domino", hand_size=7, ace_high=True)
    first = table.get(f"/nights/{night}/record.jsonl").get_data(as_text=True).splitlines()[0]
    assert '"options": {"ace_high": true, "hand_size": 7}' in first


@pytest.mark.parametrize("settings, message", [
    ({"players": "Anna"}, "2 to 8 players"),
    ({"players": "Anna, Ben, Anna"}, "Two players are called"),
    ({"players": "Anna, Ben", "variant": "whist"}, "Unknown game"),
    ({"players": "Anna, Ben", "stakes": "money"}, "points or for chips"),
    ({"players": "Anna, Ben", "rounds": "0"}, "between 1"),
    ({"players": "Anna, Ben", "rounds": "three"}, "whole number"),
    ({"players": "Anna, Ben", "chip_value": "-0.5"}, "cannot be negative"),
    ({"players": "Anna, Ben", "chip_value": "lots"}, "amount like"),
    ({"players": "Anna, Ben", "dealer": "Zed"}, "not one of the players"),
    ({"players": "A,B,C,D,E", "variant": "domino", "hand_size": "11"}, "more than 52 cards"),
])
def test_bad_settings_are_explained_and_the_form_kept(client, table, stored, settings, message):
    before = stored()
    r = client.post("/api/nights", data={"csrf_token": table.token, **settings}, headers={"Accept": "text/html"})
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and message in html
    assert settings["players"].split(",")[0] in html  # what was typed is still there
    r = table.post("/api/nights", settings)
    assert r.status_code == 400 and message in r.get_json()["error"]
    assert stored() == before


def test_home_goes_to_the_new_night_form_first_then_to_the_latest_night(client, table):
    assert client.get("/").headers["Location"].endswith("/nights/new")
    night = table.new_night()
    assert client.get("/").headers["Location"].endswith(f"/nights/{night}")
