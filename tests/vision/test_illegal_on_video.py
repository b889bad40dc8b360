"""An illegal card put down on camera is reported at once, written as the flagged play, and seen taken back."""

from __future__ import annotations

from datasets.game_video import OracleDetector, _fits, render_round

from .conftest import simulated, watch_frames


def with_an_illegal_play(record: list[dict], after: int = 12) -> tuple[list[dict], dict]:
    """Insert, after the `after`-th play, a card from the next player's hand that fits nowhere yet."""
    hands = {p: list(cs) for p, cs in record[1]["hands"].items()}
    table: set[str] = set()
    out, plays = list(record[:2]), 0
    body = record[2:]
    for i, e in enumerate(body):
        out.append(e)
        if e["event"] == "play":
            table.add(e["card"])
            hands[e["player"]].remove(e["card"])
            plays += 1
            if plays == after:
                nxt = next(x for x in body[i + 1:] if x["event"] in ("play", "pass"))
                card = next(c for c in hands[nxt["player"]] if not _fits(c, table))
                bad = {"event": "play", "player": nxt["player"], "card": card}
                out.append(bad)
                out.extend(body[i + 1:])
                return out, bad
    raise AssertionError("round too short")


def test_an_illegal_card_on_camera(short_round):
    record, bad = with_an_illegal_play(simulated(seed=9))
    video = render_round(record, "spread", 9, size=(640, 360), reach_frames=2, still_frames=4)
    frames = list(video.frames)
    news = []
    watcher, got = watch_frames(record, frames, video.passes, OracleDetector(seed=9), on_news=news.append)
    assert got == video.truth
    assert bad in got
    kinds = [n.kind for n in news]
    assert kinds.count("illegal") == 1 and kinds.count("removed") == 1
    illegal = next(n for n in news if n.kind == "illegal")
    removed = next(n for n in news if n.kind == "removed")
    assert illegal.event.card == bad["card"] and illegal.flag.kind == "illegal_play"
    assert removed.frame > illegal.frame
    assert [f.kind for f in watcher.match.rounds[0].flags] == ["illegal_play"]
