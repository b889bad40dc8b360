"""Live updates: a phone watching the stream hears of a play at once."""

import json


def _events(chunks):
    """Yield the data of each server-sent event from the streamed body."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            for line in block.splitlines():
                if line.startswith("data: "):
                    yield json.loads(line[6:])


def test_the_stream_announces_each_change(client, table):
    night = table.new_night()
    response = client.get(f"/api/nights/{night}/stream", buffered=False)
    assert response.mimetype == "text/event-stream"
    stream = _events(response.response)
    first = next(stream)["revision"]
    table.play(night, "Ben", "7d")
    assert next(stream)["revision"] == first + 1
    table.post(f"/api/nights/{night}/undo", {"line": 3})
    assert next(stream)["revision"] == first + 2
    response.close()


def test_a_stream_resumed_with_the_last_revision_waits_for_news(client, table):
    night = table.new_night()
    rev = table.state(night)["revision"]
    response = client.get(f"/api/nights/{night}/stream?since={rev}", buffered=False)
    chunks = iter(response.response)
    seen = b""
    for _ in range(3):  # the retry hint and keep-alives, but no event for a revision already seen
        seen += next(chunks)
    assert b"data:" not in seen and b"still here" in seen
    response.close()


def test_an_unknown_night_has_no_stream(client):
    assert client.get("/api/nights/42/stream").status_code == 404
