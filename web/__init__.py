"""The table dashboard: a Flask app that keeps a night's event log and shows what the rules engine
makes of it (docs/DASHBOARD.md).

    >>> app = create_app({"DATABASE": "/tmp/night.sqlite"})   # doctest: +SKIP
    >>> app.run()                                              # doctest: +SKIP

`fantan serve` builds the app with `create_app`, and the tests do the same with a temporary database.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: DATABASE (SQLite path), TABLE_PIN (None on loopback: the PIN
    every change from another address must give), CAMERA (None, "demo" or a source description)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=None,  # default: web.db.default_path()
        TABLE_PIN=None,
        CAMERA=None,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a game record is a few kB; refuse anything huge
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        LIVE_HEARTBEAT_SECONDS=15.0,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False

    from . import db

    if not app.config["DATABASE"]:
        app.config["DATABASE"] = str(db.default_path())
    folder = os.path.dirname(os.path.abspath(app.config["DATABASE"]))
    os.makedirs(folder, exist_ok=True)
    db.init_db(app.config["DATABASE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = db.session_secret(app.config["DATABASE"])
    db.init_app(app)

    from . import camera, chips, history, live, new_night, nights, safety, standings, table

    nights.init_app(app)
    safety.init_app(app)
    camera.init_app(app)
    for module in (new_night, table, standings, chips, history, live, camera, safety):
        app.register_blueprint(module.bp)
    from . import banking

    app.register_blueprint(banking.bp)
    app.jinja_env.globals.update(safety.template_globals())
    from .table_view import card_face

    app.jinja_env.filters["face"] = card_face
    return app
