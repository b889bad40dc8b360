"""Garbage to every route that changes something: a 4xx answer with a message, and nothing stored."""

import json

import pytest

GARBAGE_JSON = [
    [1, 2, 3],
    "play 7d",
    42,
    None,
    {"event": 5},
    {"event": "play", "player": ["Ben"], "card": {"rank": 7}},
    {"event": "play", "player": "Ben", "card": "7" * 10_000},
    {"event": "pass", "player": "x" * 500},
    {"event": "round", "dealer": "Anna", "hands": {"Anna": "7d"}},
    {"event": "show", "player": "Ben", "cards": []},
    {"event": "draw", "player": "Ben"},  # not domino
    {"event": "\u0000", "player": "\ud800"},
    {"players": "", "variant": "chess", "stakes": "beans", "rounds": -1, "chip_value": "-5"},
    {"line": "last", "revision": [], "delete": "maybe", "confirm": 0, "pin": 1234},
]
RAW = [b"\xff\xfe\x00garbage", b"{not json", b"", b'{"event": "play"' * 1000]


def routes(night):
    return [
        ("POST", "/api/nights"),
        ("POST", f"/api/nights/{night}/events"),
        ("POST", f"/api/nights/{night}/undo"),
        ("POST", f"/api/nights/{night}/lines/3"),
        ("POST", f"/api/nights/{night}/lines/99"),
        ("DELETE", f"/api/nights/{night}/lines/xyz"),
        ("POST", "/api/import"),
        ("POST", f"/api/nights/{night}/delete"),
        ("POST", "/pin"),
        ("POST", "/api/nights/999/events"),
        ("POST", f"/api/nights/{night}/stream"),
        ("POST", "/api/demo"),
    ]


@pytest.fixture
def night(table):
    n = table.new_night()
    table.play(n, "Ben", "7d")
    return n


def _has_message(r) -> bool:
    if r.is_json:
        body = r.get_json()
        return isinstance(body, dict) and isinstance(body.get("error"), str) and len(body["error"]) > 5
    return len(r.get_data(as_text=True)) > 20


def test_garbage_json_to_every_route(client, table, night, stored):
    before = stored()
    for method, url in routes(night):
        for body in GARBAGE_JSON:
            r = client.open(url, method=method, data=json.dumps(body), content_type="application/json",
                            headers={"X-CSRF-Token": table.token})
            assert 400 <= r.status_code < 500, (method, url, body, r.status_code, r.get_data()[:200])
            assert _has_message(r), (url, body)
    assert stored() == before


def test_garbage_bytes_and_forms_to_every_route(client, table, night, stored):
    before = stored()
    for method, url in routes(night):
        for raw in RAW:
            for ctype in ("application/json", "application/octet-stream", "application/x-www-form-urlencoded"):
                r = client.open(url, method=method, data=raw, content_type=ctype,
                                headers={"X-CSRF-Token": table.token, "Accept": "application/json"})
                assert 400 <= r.status_code < 500, (method, url, raw[:20], ctype, r.status_code)
                assert _has_message(r)
        r = client.open(url, method=method, data={"csrf_token": table.token, "event": "play", "card": "??"},
                        headers={"Accept": "text/html"})
        assert 400 <= r.status_code < 500, (url, r.status_code)
    assert stored() == before


def test_an_upload_too_big_is_refused(client, table, stored):
    before = stored()
    r = client.post("/api/import", data=b"x" * (3 * 1024 * 1024), content_type="application/x-ndjson",
                    headers={"X-CSRF-Token": table.token})
    assert r.status_code == 413 and "too big" in r.get_json()["error"]
    assert stored() == before
