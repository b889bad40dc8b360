"""Safety: form tokens on every change, a table PIN for phones when the dashboard listens beyond
this computer, and errors that never show a stack trace."""

import pytest

from web import create_app
from web.safety import make_pin


def test_a_change_without_the_form_token_is_refused(client, table, stored):
    night = table.new_night()
    before = stored()
    r = client.post(f"/api/nights/{night}/events", json={"event": "play", "player": "Ben", "card": "7d"})
    assert r.status_code == 400 and "reload the page" in r.get_json()["error"]
    r = client.post(f"/api/nights/{night}/events", json={"event": "play", "player": "Ben", "card": "7d"},
                    headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 400
    assert stored() == before


def test_reading_needs_no_token(client, table):
    night = table.new_night()
    assert client.get(f"/api/nights/{night}/state").status_code == 200


@pytest.fixture
def public_app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "p.sqlite"), "TESTING": True, "TABLE_PIN": "123456"})



def make_table(app, addr):
    # The conftest's Table, rebuilt here for another app and address.
    client = app.test_client()
    token = client.get("/api/session", environ_base={"REMOTE_ADDR": addr}).get_json()["csrf_token"]

    def post(url, body, headers=None):
        return client.post(url, json=body, environ_base={"REMOTE_ADDR": addr},
                           headers={"X-CSRF-Token": token, **(headers or {})})
    return client, post


def test_the_pin_is_six_digits():
    pins = {make_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 1


def test_a_phone_needs_the_pin_for_every_change(public_app):
    client, post = make_table(public_app, "192.168.1.20")
    body = {"players": ["Anna", "Ben"], "variant": "parliament", "dealer": "Ben"}
    r = post("/api/nights", body)
    assert r.status_code == 403 and "PIN" in r.get_json()["error"]
    assert post("/api/nights", body, {"X-Table-PIN": "000000"}).status_code == 403
    assert post("/api/nights", body, {"X-Table-PIN": "123456"}).status_code == 201


def test_a_phone_unlocks_once_with_the_pin_page(public_app):
    client, post = make_table(public_app, "192.168.1.21")
    assert post("/pin", {"pin": "123456"}).status_code == 200
    assert post("/api/nights", {"players": ["Anna", "Ben"], "dealer": "Ben"}).status_code == 201


def test_the_laptop_sees_the_pin_and_needs_none(public_app):
    client, post = make_table(public_app, "127.0.0.1")
    assert "123456" in client.get("/nights/new", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)
    assert "123456" not in client.get("/nights/new", environ_base={"REMOTE_ADDR": "10.0.0.5"}).get_data(as_text=True)
    assert post("/api/nights", {"players": ["Anna", "Ben"], "dealer": "Ben"}).status_code == 201


def test_guessing_the_pin_is_locked_out_after_five_tries(public_app):
    client, post = make_table(public_app, "192.168.1.22")
    for _ in range(5):
        assert post("/pin", {"pin": "999999"}).status_code == 403
    r = post("/pin", {"pin": "123456"})  # even the right PIN waits now
    assert r.status_code == 429


def test_on_loopback_there_is_no_pin(client, table):
    r = client.get("/api/session")
    assert r.get_json()["pin_needed"] is False


def test_a_crash_shows_a_message_not_a_stack_trace(app, client, monkeypatch):
    import web.history

    def boom(*a, **k):
        raise RuntimeError("secret internals")
    monkeypatch.setattr(web.history, "list_nights", boom)
    r = client.get("/history")
    body = r.get_data(as_text=True)
    assert r.status_code == 500
    assert "Traceback" not in body and "secret internals" not in body
    assert "Something went wrong" in body
    r = client.get("/api/nights")
    assert r.status_code == 500 and set(r.get_json()) == {"error"}


def test_unknown_pages_and_methods_answer_in_words(client):
    r = client.get("/nights/999")
    assert r.status_code == 404 and "no night number 999" in r.get_data(as_text=True)
    r = client.get("/api/nights/999/state")
    assert r.status_code == 404 and r.get_json()["error"]
    assert client.get("/api/nights/1/events").status_code == 405


def test_the_session_cookie_never_holds_the_pin(public_app):
    client, post = make_table(public_app, "192.168.1.23")
    post("/pin", {"pin": "123456"})
    from flask.sessions import SecureCookieSessionInterface

    cookie = client.get_cookie("session").value
    data = SecureCookieSessionInterface().get_signing_serializer(public_app).loads(cookie)
    assert "pin_ok" in data and "123456" not in str(data)
