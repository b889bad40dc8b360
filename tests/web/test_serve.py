"""`fantan serve`: the command line of the dashboard (spec: cli.md)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from fantan.cli import main
from fantan.commands.serve import is_loopback

ROOT = Path(__file__).resolve().parents[2]


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_bad_arguments_say_what_is_wrong(tmp_path, capsys):
    assert main(["serve", "--video", str(tmp_path / "none.mp4"), "--db", str(tmp_path / "d.sqlite")]) == 2
    assert "no video file" in capsys.readouterr().err
    assert main(["serve", "--port", "70000", "--db", str(tmp_path / "d.sqlite")]) == 2
    with pytest.raises(SystemExit):
        main(["serve", "--demo", "--camera", "0"])


def test_a_database_from_a_newer_program_is_refused(tmp_path, capsys):
    from web.db import MIGRATIONS, connect, migrate

    db = tmp_path / "new.sqlite"
    migrate(connect(str(db)), MIGRATIONS + ["CREATE TABLE later (x)"])
    assert main(["serve", "--db", str(db), "--no-demo"]) == 2
    assert "newer" in capsys.readouterr().err


def _own_lan_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            addr = s.getsockname()[0]
        return None if addr.startswith("127.") else addr
    except OSError:
        return None


def test_on_all_addresses_a_pin_is_printed_and_needed_from_the_network(tmp_path):
    lan = _own_lan_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "fantan", "serve", "--host", "0.0.0.0", "--port", str(port),
                             "--db", str(tmp_path / "d.sqlite"), "--no-demo"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        while not any("PIN" in line for line in lines):
            lines.append(proc.stdout.readline())
            assert proc.poll() is None, lines
        pin = re.search(r"Table PIN: (\d{6})", "".join(lines)).group(1)
        import http.cookiejar

        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://{lan}:{port}/api/session", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        session = json.loads(opener.open(f"http://{lan}:{port}/api/session").read())
        assert session["pin_needed"] is True

        def create(extra: dict) -> int:
            req = urllib.request.Request(f"http://{lan}:{port}/api/nights", method="POST",
                                         data=json.dumps({"players": ["A", "B"], "dealer": "B"}).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": session["csrf_token"], **extra})
            try:
                return opener.open(req).status
            except urllib.error.HTTPError as e:
                return e.code
        assert create({}) == 403
        assert create({"X-Table-PIN": pin}) == 201
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/nights/new").read().decode()
        assert pin in page  # the laptop shows it
        assert pin not in opener.open(f"http://{lan}:{port}/nights/new").read().decode()
    finally:
        proc.kill()
        proc.wait()
