"""Load check on loopback: 20 phones watch the table page live while a round's events come in.

    .venv/bin/python benchmarks/bench_web_load.py [--phones 20] [--events 60] [--interval 0.25]

Starts a real `fantan serve` (its own temporary database), creates a night, and runs:
- each phone: loads the table page, opens the live stream, and on every announcement fetches the
  table's live part, exactly as the page's script does;
- one scorer: posts the plays and passes of a simulated round, one every --interval seconds.
Prints p50 / p95 / max of each kind of request, and how long a play took to reach every phone
(from the scorer sending it to a phone having the redrawn table). Bounded: --events and --limit.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.events import Pass, Play, RoundStart  # noqa: E402
from scorekeeper.simulate import simulate_match  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def report(name: str, seconds: list[float]) -> None:
    if not seconds:
        print(f"{name:<34} no samples")
        return
    ms = [s * 1000 for s in seconds]
    print(f"{name:<34} n={len(ms):<5} p50={pct(ms, .5):7.1f} ms  p95={pct(ms, .95):7.1f} ms  "
          f"max={max(ms):7.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between posted events")
    parser.add_argument("--limit", type=float, default=120.0, help="give up after this many seconds")
    parser.add_argument("--stagger", type=float, default=0.1,
                        help="seconds between phones opening the page (0: all at the same instant)")
    args = parser.parse_args(argv)

    tmp = tempfile.mkdtemp()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "fantan", "serve", "--db", f"{tmp}/load.sqlite",
                               "--port", str(port), "--no-demo"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/session", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print("server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.1)

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        token = json.loads(opener.open(base + "/api/session").read())["csrf_token"]

        def post(path: str, body: dict) -> dict:
            req = urllib.request.Request(base + path, json.dumps(body).encode(), method="POST", headers={
                "Content-Type": "application/json", "X-CSRF-Token": token, "Accept": "application/json"})
            return json.loads(opener.open(req, timeout=30).read())

        events = simulate_match("fan-tan", ["Anna", "Ben", "Cleo", "Dan"], seed=7, strategy="greedy")
        dealer = next(e.dealer for e in events if isinstance(e, RoundStart))
        moves = [e for e in events if isinstance(e, (Play, Pass))][: args.events]
        night = post("/api/nights", {"players": ["Anna", "Ben", "Cleo", "Dan"], "dealer": dealer,
                                     "rounds": 1})["id"]
        rev0 = json.loads(opener.open(f"{base}/api/nights/{night}/state").read())["revision"]

        sent_at: dict[int, float] = {}
        page_times: list[float] = []
        live_times: list[float] = []
        post_times: list[float] = []
        reach_times: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        stop = threading.Event()
        ready = threading.Barrier(args.phones + 1)

        def get(conn: http.client.HTTPConnection, path: str) -> float:
            t = time.perf_counter()
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                raise RuntimeError(f"{path}: {r.status}")
            return time.perf_counter() - t

        def phone(k: int) -> None:
            try:
                time.sleep(k * args.stagger)  # people open the page one after another
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                t = get(conn, f"/nights/{night}")
                with lock:
                    page_times.append(t)
                stream = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                stream.request("GET", f"/api/nights/{night}/stream?since={rev0}")
                resp = stream.getresponse()
                ready.wait(timeout=30)
                while not stop.is_set():
                    try:
                        line = resp.fp.readline()
                    except socket.timeout:
                        continue
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        rev = json.loads(line[6:])["revision"]
                        t = get(conn, f"/nights/{night}/live")
                        done = time.perf_counter()
                        with lock:
                            live_times.append(t)
                            if rev in sent_at:
                                reach_times.append(done - sent_at[rev])
                time.sleep(k * args.stagger)
                t = get(conn, f"/nights/{night}")  # and reload it at the end
                with lock:
                    page_times.append(t)
                stream.close()
                conn.close()
            except Exception as exc:  # counted and printed, not hidden
                with lock:
                    errors.append(f"phone {k}: {exc!r}")

        threads = [threading.Thread(target=phone, args=(k,), daemon=True) for k in range(args.phones)]
        for t in threads:
            t.start()
        ready.wait(timeout=30)
        started = time.perf_counter()
        for i, move in enumerate(moves):
            if time.perf_counter() - started > args.limit:
                break
            body = ({"event": "play", "player": move.player, "card": move.card} if isinstance(move, Play)
                    else {"event": "pass", "player": move.player})
            t = time.perf_counter()
            with lock:
                sent_at[rev0 + i + 1] = t
            answer = post(f"/api/nights/{night}/events", body)
            post_times.append(time.perf_counter() - t)
            if answer.get("revision") != rev0 + i + 1:
                errors.append(f"unexpected revision {answer.get('revision')}")
            time.sleep(args.interval)
        time.sleep(2.0)
        stop.set()
        for t in threads:
            t.join(timeout=30)

        print(f"{args.phones} phones watching (opening the page {args.stagger}s apart), {len(post_times)} "
              f"events posted every {args.interval}s on loopback ({os.cpu_count()} CPUs)")
        report("POST event (scorer)", post_times)
        report("GET table page (phone)", page_times)
        report("GET live part after update", live_times)
        report("play -> redrawn on a phone", reach_times)
        expected = len(post_times) * args.phones
        print(f"updates seen by phones: {len(live_times)} of {expected} (a phone may fold two "
              f"quick updates into one fetch: the stream says the latest revision)")
        print(f"errors: {len(errors)}")
        for e in errors[:10]:
            print("  ", e)
        return 1 if errors else 0
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    raise SystemExit(main())
