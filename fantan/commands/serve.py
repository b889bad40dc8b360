"""`fantan serve [--camera 0 | --video FILE | --demo] [--host 127.0.0.1] [--port 5000] [--db PATH]`:
the table dashboard (spec: cli.md; how to use it: docs/DASHBOARD.md).

With no camera argument and no camera on this computer it starts on the bundled demo, so a new user
sees the table move at once. It listens on 127.0.0.1 unless told otherwise; on any other address a
table PIN is made and printed here, and phones need it to change anything.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import signal
import sys
from pathlib import Path


def default_db() -> Path:
    """Where nights are kept when --db is not given (shared with `fantan watch`)."""
    from web.db import default_path

    return default_path()


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "serve", help="the table dashboard in a browser",
        description="Start the table dashboard (a web page for the laptop and the players' phones).")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", metavar="INDEX", type=int, help="show this camera (0 = the first)")
    source.add_argument("--video", metavar="FILE", help="show a video file as if it were the camera")
    source.add_argument("--demo", action="store_true", help="replay the bundled demo night")
    source.add_argument("--no-demo", action="store_true",
                        help="do not start the demo even when no camera is found")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the same "
                             "network in, with a table PIN)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"the SQLite file that keeps the nights (default {default_db()})")
    parser.add_argument("--demo-step", type=float, default=2.0, metavar="SECONDS",
                        help="seconds between the demo's moves (default 2)")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.set_defaults(run=run)
    return parser


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def camera_present() -> bool:
    """A camera device exists (Linux: /dev/video*). Cheap: opening it is left to the camera loop."""
    return any(Path("/dev").glob("video[0-9]*"))


def run(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from web import create_app
    from web.safety import make_pin

    if not 0 < args.port < 65536:
        print(f"fantan serve: --port must be 1..65535 (got {args.port})", file=sys.stderr)
        return 2
    db_path = Path(args.db) if args.db else default_db()
    pin = None if is_loopback(args.host) else make_pin()
    camera: str | None = None
    if args.camera is not None:
        camera = f"camera {args.camera}"
    elif args.video:
        if not Path(args.video).is_file():
            print(f"fantan serve: no video file at {args.video}", file=sys.stderr)
            return 2
        camera = f"video {args.video}"
    elif args.demo or (not args.no_demo and not camera_present()):
        camera = "demo"
    elif not args.no_demo:
        camera = "camera 0"
        args.camera = 0
    try:
        app = create_app({"DATABASE": str(db_path), "TABLE_PIN": pin, "CAMERA": camera})
    except Exception as exc:  # an unreadable or newer database: say so, do not start
        print(f"fantan serve: cannot open the database {db_path}: {exc}", file=sys.stderr)
        return 2
    if not args.verbose:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        print(f"fantan serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2

    camera_loop = None
    if camera == "demo":
        from web.demo import start_demo

        start_demo(app, step_s=args.demo_step)
    elif args.camera is not None or args.video:
        from web.camera import start_camera

        camera_loop = start_camera(app, args.camera if args.camera is not None else args.video)

    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    print(f"Fan Tan dashboard: http://{shown_host}:{args.port}/   (nights kept in {db_path})", flush=True)
    if camera:
        print(f"Showing: {camera}", flush=True)
    if pin:
        print(f"Listening on {args.host}: phones on this network may connect. Table PIN: {pin} "
              "(needed for every change from a phone; it is also shown on this computer's page)",
              flush=True)
    print("Stop with Ctrl+C.", flush=True)

    def stop_on_term(_sig, _frame):  # a service manager's stop: close as on Ctrl+C
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_term)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if camera_loop is not None:
            thread, stop = camera_loop
            stop.set()
            thread.join(timeout=5)
    return 0
