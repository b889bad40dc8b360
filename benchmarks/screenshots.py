"""Screenshots of the dashboard's main pages for docs/screenshots/ (phone and laptop sizes).

    .venv/bin/python benchmarks/screenshots.py [--out docs/screenshots]

Runs the app on a temporary database, fills it with a simulated night (and the demo record cut off
mid-round for the table page), and photographs the pages with Debian's chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.record import read_record, write_record  # noqa: E402
from scorekeeper.simulate import simulate_match  # noqa: E402
from web import create_app  # noqa: E402
from web.demo import DEMO_RECORD, draw_frame  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE": f"{tmp}/shots.sqlite"})
    client = app.test_client()
    token = client.get("/api/session").get_json()["csrf_token"]
    headers = {"X-CSRF-Token": token}
    events = simulate_match("fan-tan", ["Anna", "Ben", "Cleo", "Dan"], seed=11, stakes="chips", rounds=3,
                            strategy=["greedy", "cheater", "random", "greedy"])
    night = client.post("/api/import", json={"record": write_record(events), "name": "Friday at Anna's"},
                        headers=headers).get_json()["id"]
    demo = read_record(DEMO_RECORD.read_bytes())
    live = client.post("/api/import", json={"record": write_record(demo[:42]), "name": "Tonight"},
                       headers=headers).get_json()["id"]
    draw_frame(app, live)

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    shots = [
        ("phone-table", f"/nights/{live}", "phone", False),
        ("phone-table-log", f"/nights/{live}", "phone", False),
        ("phone-new-night", "/nights/new", "phone", False),
        ("phone-standings", f"/nights/{night}/standings", "phone", False),
        ("phone-settle", f"/nights/{night}/settle", "phone", False),
        ("phone-chips", f"/nights/{night}/chips", "phone", False),
        ("laptop-table", f"/nights/{live}", "laptop", False),
        ("laptop-history", "/history", "laptop", False),
    ]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        laptop = browser.new_context(viewport={"width": 1280, "height": 800})
        for name, path, kind, full in shots:
            page = (phone if kind == "phone" else laptop).new_page()
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            if "table" in name:
                page.wait_for_selector("#camera-panel:not([hidden])")
                page.wait_for_timeout(500)
            if name.endswith("-log"):
                page.locator("li.ev.flagged").first.scroll_into_view_if_needed()
            target = out / f"{name}.png"
            page.screenshot(path=str(target), full_page=full)
            print(f"{target}  {target.stat().st_size // 1024} KB")
            page.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
