"""What keeps a table's night safe from the room: form tokens, the table PIN, and errors that say
what to fix without ever showing a stack trace.

- CSRF: every change (POST/PUT/DELETE) must carry the session's token, as a form field
  ``csrf_token`` or an ``X-CSRF-Token`` header. ``GET /api/session`` hands a script its token.
- PIN: when the dashboard listens beyond this computer (``--host 0.0.0.0``), a PIN is made at start
  and shown on the laptop (requests from 127.0.0.1 see it). Every change from another address needs
  it: once per phone at ``/pin`` (kept in the session), or as an ``X-Table-PIN`` header. Five wrong
  tries from one address lock it out for a minute.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from typing import Any

from flask import (Blueprint, Response, current_app, flash, jsonify, redirect, render_template,
                   request, session, url_for)
from werkzeug.exceptions import HTTPException

from .nights import InputError

bp = Blueprint("safety", __name__)
log = logging.getLogger(__name__)

UNSAFE = {"POST", "PUT", "DELETE", "PATCH"}
LOOPBACK = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}
PIN_TRIES = 5
PIN_LOCKOUT_SECONDS = 60.0


def make_pin() -> str:
    """A fresh six-digit table PIN."""
    return f"{secrets.randbelow(10**6):06d}"


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def is_local() -> bool:
    return (request.remote_addr or "") in LOOPBACK


def _pin_mark(pin: str) -> str:
    """What a phone's session keeps once it gave the PIN: a keyed hash, never the PIN itself
    (a Flask session cookie is signed, not encrypted); a new PIN at the next start voids it."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, pin.encode(), "sha256").hexdigest()


def pin_needed() -> bool:
    """True when this request may not change anything until the PIN is given."""
    pin = current_app.config.get("TABLE_PIN")
    if not pin or is_local():
        return False
    mark = session.get("pin_ok")
    if isinstance(mark, str) and hmac.compare_digest(mark, _pin_mark(pin)):
        return False
    header = request.headers.get("X-Table-PIN", "")
    return not (header and hmac.compare_digest(header, pin))


def shown_pin() -> str | None:
    """The PIN, for the laptop's screen only."""
    pin = current_app.config.get("TABLE_PIN")
    return pin if pin and is_local() else None


def form_or_json(example: str) -> dict[str, Any]:
    """The fields a page's form or the JSON API sent, without the CSRF token.

    A JSON body that is not an object is refused with `example` (a JSON object that would do)."""
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise InputError(f"Send a JSON object, like {example}.")
        return data
    data = request.form.to_dict()
    data.pop("csrf_token", None)
    return data


def wants_json() -> bool:
    """API callers get JSON; a plain browser form gets a page or a redirect."""
    if request.is_json:
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    if request.path.startswith("/api/"):
        is_form = request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")
        return not (is_form and best == "text/html" and request.accept_mimetypes["text/html"])
    return best == "application/json" and not request.accept_mimetypes["text/html"]


def template_globals() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "shown_pin": shown_pin, "pin_needed": pin_needed}


def _check_request() -> Response | None:
    if request.method not in UNSAFE:
        return None
    sent = request.headers.get("X-CSRF-Token") or (
        request.form.get("csrf_token") if request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data") else None)
    token = session.get("csrf")
    if not sent or not token or not hmac.compare_digest(str(sent), str(token)):
        raise InputError(
            "This page has expired (its form token is missing or old): reload the page and try again.",
            400)
    if request.endpoint != "safety.enter_pin" and pin_needed():
        raise InputError("Enter the table PIN first (shown on the laptop's screen).", 403)
    return None


def _error_response(message: str, status: int) -> Response | tuple[Response, int] | tuple[str, int]:
    if wants_json():
        return jsonify({"error": message}), status
    return render_template("error.html", message=message, status=status), status


def init_app(app) -> None:
    app.extensions["fantan_pin_tries"] = {}
    app.extensions["fantan_pin_lock"] = threading.Lock()
    app.before_request(_check_request)

    @app.errorhandler(InputError)
    def input_error(exc: InputError):
        return _error_response(exc.message, exc.status)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        messages = {
            404: "There is no such page here.",
            405: "That address does not take this kind of request.",
            413: "That upload is too big (a game record is a few kilobytes).",
            400: "The request could not be read.",
        }
        return _error_response(messages.get(exc.code or 500, exc.description or "Error."), exc.code or 500)

    @app.errorhandler(Exception)
    def crash(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error_response("Something went wrong on the dashboard; nothing was changed by this request. "
                               "The details are in the console.", 500)


@bp.get("/api/session")
def api_session():
    """The token a script must send with its changes, and whether it still needs the PIN."""
    return jsonify({"csrf_token": csrf_token(), "pin_needed": pin_needed()})


@bp.route("/pin", methods=["GET", "POST"])
def enter_pin():
    pin = current_app.config.get("TABLE_PIN")
    if request.method == "GET":
        return render_template("pin.html", pin_required=bool(pin))
    if not pin:
        raise InputError("This dashboard only listens on this computer: no PIN is needed.", 400)
    address = request.remote_addr or "?"
    tries: dict[str, tuple[int, float]] = current_app.extensions["fantan_pin_tries"]
    with current_app.extensions["fantan_pin_lock"]:
        count, since = tries.get(address, (0, 0.0))
        if count >= PIN_TRIES and time.monotonic() - since < PIN_LOCKOUT_SECONDS:
            raise InputError("Too many wrong PINs: wait a minute, then try again.", 429)
        given = (request.get_json(silent=True) or {}).get("pin") if request.is_json else request.form.get("pin")
        if isinstance(given, str) and hmac.compare_digest(given.strip(), pin):
            tries.pop(address, None)
            session["pin_ok"] = _pin_mark(pin)
        else:
            if count >= PIN_TRIES:
                count = 0
            tries[address] = (count + 1, time.monotonic())
            raise InputError("That is not the table PIN.", 403)
    if wants_json():
        return jsonify({"ok": True})
    flash("PIN accepted: this phone can now change the night.", "ok")
    nxt = request.form.get("next", "")
    return redirect(nxt if nxt.startswith("/") and not nxt.startswith("//") else url_for("history.index"))
