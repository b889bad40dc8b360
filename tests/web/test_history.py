"""History, export and import: a night leaves as the exact game record and comes back the same."""

import csv
import io
import json
from pathlib import Path

from scorekeeper.match import replay
from scorekeeper.record import read_record

EXAMPLES = Path(__file__).resolve().parents[1] / "scorekeeper" / "data" / "examples"  # copy of ../shared/spec/examples
DEMO = Path(__file__).resolve().parents[2] / "web" / "demo" / "demo.jsonl"


def test_import_then_export_gives_the_same_record(table):
    text = DEMO.read_text()
    r = table.post("/api/import", {"record": text, "name": "demo copy"})
    night = r.get_json()["id"]
    out = table.get(f"/nights/{night}/record.jsonl")
    assert out.headers["Content-Disposition"].startswith("attachment")
    assert out.get_data(as_text=True) == text


def test_an_uploaded_file_becomes_a_night(client, table):
    data = {"csrf_token": table.token, "record": (io.BytesIO(DEMO.read_bytes()), "friday.jsonl")}
    r = client.post("/api/import", data=data, content_type="multipart/form-data", headers={"Accept": "text/html"})
    assert r.status_code == 302
    assert any(n["name"] == "friday" for n in table.get("/api/nights").get_json())


def test_an_unreadable_record_is_refused_with_its_line(table, stored):
    before = stored()
    bad = '{"event": "match", "variant": "fan-tan", "players": ["A", "B"], "stakes": "points"}\n{"event": "play", "player": "A", "card": "7d"}\n'
    r = table.post("/api/import", {"record": bad})
    assert r.status_code == 400 and "line 2" in r.get_json()["error"]
    assert stored() == before


def test_the_spec_examples_import_and_keep_their_verdicts(table):
    records = sorted(EXAMPLES.glob("[0-9]*.jsonl"))
    assert len(records) == 12
    for path in records:
        r = table.post("/api/import", {"record": path.read_text(), "name": path.stem})
        assert r.status_code == 201, (path.name, r.get_json())
        got = table.get(f"/api/nights/{r.get_json()['id']}/standings").get_json()["verdict"]
        want = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert got == want, path.name


def test_the_csv_has_a_row_per_line_with_flags_in_words(table):
    night = table.post("/api/import", {"record": DEMO.read_text()}).get_json()["id"]
    rows = list(csv.DictReader(io.StringIO(table.get(f"/nights/{night}/events.csv").get_data(as_text=True))))
    events = read_record(DEMO.read_text())
    assert len(rows) == len(events)
    flagged = [r for r in rows if r["flag"]]
    verdict = replay(events).verdict()
    assert [int(r["line"]) for r in flagged] == [f["line"] for rd in verdict["rounds"] for f in rd["flags"]]
    assert all(r["flag explained"] for r in flagged)
    transfers = table.get(f"/nights/{night}/transfers.csv").get_data(as_text=True).splitlines()
    assert transfers[0] == "round,line,from,to,chips,reason" and len(transfers) > 10


def test_history_lists_nights_and_deleting_needs_the_name(table):
    night = table.new_night(name="Tuesday")
    assert "Tuesday" in table.get("/history").get_data(as_text=True)
    r = table.post(f"/api/nights/{night}/delete", {"confirm": "tuesday"})
    assert r.status_code == 400
    assert table.post(f"/api/nights/{night}/delete", {"confirm": "Tuesday"}).status_code == 200
    assert table.get(f"/api/nights/{night}/state").status_code == 404
