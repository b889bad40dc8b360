"""A night at the table, stored as its event log (the game record, one line per row).

Nothing else is stored about the game: totals, turns, flags and chips are what the rules engine
(`scorekeeper.match.Match`) makes of the log when it replays it. Every change is one SQLite
transaction that writes the new line(s) and bumps the night's ``revision``; the live views watch that
number. A ``Match`` per night is kept in memory, keyed by revision, so twenty phones watching do not
replay the night twenty times; it is rebuilt from the database whenever the revision moved on
(another process, a restart).
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from flask import Flask

from scorekeeper.cards import BadCard, parse_card
from scorekeeper.events import Draw, End, MatchStart, Pass, Play, RoundStart, Show
from scorekeeper.match import Match
from scorekeeper.record import RecordError, event_to_json, read_record, write_record

from .event_log import EventLog, InputError, lock, notify_change, transaction
from .event_log import now as _now

# Flags that mean "this entry is a mistake of the person typing it", not a finding about a player:
# a manual entry raising one of them is refused with the engine's explanation. The camera feed may
# record them (it reports what it saw; the engine flags it).
REFUSED_FOR_MANUAL = frozenset({"unknown_player", "bad_card", "out_of_turn"})

SOURCES = ("manual", "camera", "demo", "import")


@dataclass(frozen=True)
class Night:
    id: int
    name: str
    created_at: str
    chip_cents: int
    currency: str
    is_demo: bool
    revision: int
    lines: int


# --- in-memory state: one lock for all match access, one cached Match per night -------------------


def init_app(app: Flask) -> None:
    app.extensions["fantan_lock"] = threading.RLock()
    app.extensions["fantan_matches"] = {}
    app.extensions["fantan_changed"] = threading.Condition()
    app.extensions["fantan_change_count"] = 0


# --- reading -------------------------------------------------------------------------------------


def _night(row: sqlite3.Row, lines: int) -> Night:
    return Night(
        id=row["id"], name=row["name"], created_at=row["created_at"], chip_cents=row["chip_cents"],
        currency=row["currency"], is_demo=bool(row["is_demo"]), revision=row["revision"], lines=lines,
    )


def get_night(db: sqlite3.Connection, night_id: int) -> Night:
    row = db.execute("SELECT * FROM nights WHERE id = ?", (night_id,)).fetchone()
    if row is None:
        raise InputError(f"There is no night number {night_id}.", 404)
    lines = db.execute("SELECT COUNT(*) FROM events WHERE night_id = ?", (night_id,)).fetchone()[0]
    return _night(row, lines)


def list_nights(db: sqlite3.Connection) -> list[Night]:
    rows = db.execute(
        "SELECT n.*, (SELECT COUNT(*) FROM events e WHERE e.night_id = n.id) AS lines "
        "FROM nights n ORDER BY n.id DESC"
    ).fetchall()
    return [_night(r, r["lines"]) for r in rows]


def revision(db: sqlite3.Connection, night_id: int) -> int | None:
    return LOG.revision(db, night_id)


def stored_lines(db: sqlite3.Connection, night_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT line, body, source, created_at FROM events WHERE night_id = ? ORDER BY line",
        (night_id,),
    ).fetchall()


def replay(events: Iterable[Any]) -> Match:
    """A Match rebuilt from its events (MatchStart first), the way `fantan check` replays a record."""
    events = list(events)
    match = Match(events[0])
    for event in events[1:]:
        match.push(event)
    return match


LOG: EventLog[Match] = EventLog(
    nights="nights", events="events", cache_key="fantan_matches",
    replay=lambda text: replay(read_record(text)), to_json=event_to_json,
    missing="There is no night number {night_id}.",
    moved_on="The log has moved on (the last line is now {last}, not {expect}): look again.",
)


def load_match(db: sqlite3.Connection, night_id: int) -> Match:
    """The night's Match at its current revision (cached; rebuilt when the revision moved on).

    Callers must hold `lock()` while they use the returned object."""
    return LOG.load(db, night_id)


def sources(db: sqlite3.Connection, night_id: int) -> dict[int, tuple[str, str]]:
    """line -> (source, time) for the event log."""
    return {r["line"]: (r["source"], r["created_at"]) for r in stored_lines(db, night_id)}


# --- turning input into events -------------------------------------------------------------------


def _text(data: dict, key: str, what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"Say {what} ({key!r} is missing or empty).")
    if len(value) > 100:
        raise InputError(f"{key!r} is too long.")
    return value.strip()


def read_card(code: Any) -> str:
    """The canonical code of a card written as in the record format, or a clear InputError."""
    if not isinstance(code, str) or not code.strip():
        raise InputError("Say which card (like 7d, T♠ or 10h).")
    try:
        return parse_card(code.strip()).code
    except BadCard:
        shown = code.strip()[:20]
        raise InputError(
            f"“{shown}” is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit "
            "(c d h s or ♣ ♦ ♥ ♠), like 7d or 10♥."
        ) from None


def _player(data: dict, key: str, players: tuple[str, ...]) -> str:
    name = _text(data, key, "which player")
    if name not in players:
        raise InputError(f"“{name[:40]}” is not at this table (players: {', '.join(players)}).")
    return name


def event_from_input(data: Any, match: Match) -> Any:
    """Build a record event from a JSON object or form shaped like a record line
    (``{"event": "play", "player": "Ben", "card": "7d"}``), checking names and cards."""
    if not isinstance(data, dict):
        raise InputError("Send one event as a JSON object, like {\"event\": \"pass\", \"player\": \"Ben\"}.")
    kind = data.get("event")
    players: tuple[str, ...] = tuple(match.events[0].players)
    if kind == "play":
        return Play(_player(data, "player", players), read_card(data.get("card")))
    if kind == "pass":
        return Pass(_player(data, "player", players))
    if kind == "draw":
        card = data.get("card")
        return Draw(_player(data, "player", players), None if card in (None, "") else read_card(card))
    if kind == "show":
        cards = data.get("cards")
        if isinstance(cards, str):  # a form field: "3c 9h Kd"
            cards = cards.replace(",", " ").split()
        if not isinstance(cards, list) or not cards or len(cards) > 52:
            raise InputError("Say which cards are shown (a list, like [\"3c\", \"9h\"]).")
        return Show(_player(data, "player", players), tuple(read_card(c) for c in cards))
    if kind == "round":
        dealer = _player(data, "dealer", players)
        hands = data.get("hands")
        if hands is None:
            return RoundStart(dealer)
        if not isinstance(hands, dict):
            raise InputError("'hands' must map players to lists of cards.")
        known: dict[str, tuple[str, ...]] = {}
        for name, cards in hands.items():
            if name not in players:
                raise InputError(f"“{str(name)[:40]}” is not at this table (players: {', '.join(players)}).")
            if not isinstance(cards, list) or len(cards) > 52:
                raise InputError(f"The hand of {name} must be a list of cards.")
            known[name] = tuple(read_card(c) for c in cards)
        return RoundStart(dealer, known)
    if kind == "end":
        return End()
    raise InputError(
        "Unknown event: use one of round, play, pass, draw, show, end "
        f"(got {str(kind)[:20]!r})."
    )


def refusal(flag: Any) -> str:
    """Why a manual entry was refused, from the engine's flag."""
    if flag.kind == "out_of_turn":
        why = f" ({flag.reason})" if flag.reason else ""
        return f"Not recorded: {flag.player} cannot move now{why}."
    return "Not recorded: " + flag.explain().split(": ", 1)[-1].replace("; the line is ignored.", ".")


def check_can_push(match: Match, event: Any) -> None:
    """Refuse what cannot become a line of this night's record at all (the record format would
    call it unreadable), before the engine sees it."""
    start = match.events[0]
    if isinstance(event, RoundStart):
        if match.is_over:
            raise InputError("The night is over: every round has been played. Start a new night.", 409)
        if match.round is not None and not match.round.is_over:
            raise InputError(
                "This round is still being played: finish it, or end it without a winner first.", 409)
        return
    if match.round is None:
        raise InputError("Start a round first (deal).", 409)
    if isinstance(event, Draw) and start.variant != "domino":
        raise InputError("Drawing from a stock only happens in domino fan tan.", 409)


# --- writing -------------------------------------------------------------------------------------


def _insert(db: sqlite3.Connection, night_id: int, line: int, body: str, source: str) -> None:
    LOG.insert(db, night_id, line, body, source)


def _bump(db: sqlite3.Connection, night_id: int) -> None:
    LOG.bump(db, night_id)


def _record_lines(events: list[Any]) -> list[str]:
    return write_record(events).splitlines()


def create_night(
    db: sqlite3.Connection, start: MatchStart, *, name: str, chip_cents: int = 0, currency: str = "",
    first_dealer: str | None = None, is_demo: bool = False, source: str = "manual",
) -> int:
    """Store a new night (its `match` line, and the first `round` line when a dealer is given)."""
    try:
        match = Match(start)
        if first_dealer is not None:
            match.push(RoundStart(first_dealer))
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"These settings do not make a game: {exc}") from None
    lines = _record_lines(match.events)
    with lock(), transaction(db):
        cur = db.execute(
            "INSERT INTO nights (name, created_at, chip_cents, currency, is_demo) VALUES (?, ?, ?, ?, ?)",
            (name, _now(), chip_cents, currency, int(is_demo)),
        )
        night_id = int(cur.lastrowid)
        for number, body in enumerate(lines, start=1):
            _insert(db, night_id, number, body, source)
    notify_change()
    return night_id


def import_record(db: sqlite3.Connection, data: str | bytes, *, name: str) -> int:
    """Store a whole game record as a new night; a record `fantan check` cannot read is refused
    with its line number."""
    try:
        events = read_record(data)
        match = replay(events)
    except RecordError as exc:
        raise InputError(f"This game record cannot be read: {exc}") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"This game record cannot be replayed: {exc}") from None
    lines = _record_lines(match.events)
    with lock(), transaction(db):
        cur = db.execute(
            "INSERT INTO nights (name, created_at) VALUES (?, ?)", (name, _now()))
        night_id = int(cur.lastrowid)
        for number, body in enumerate(lines, start=1):
            _insert(db, night_id, number, body, "import")
    notify_change()
    return night_id


def append(db: sqlite3.Connection, night_id: int, event: Any, *, source: str = "manual",
           strict: bool = True) -> tuple[int, Any]:
    """Add one event at the end of the night's log; return (line, flag or None).

    The event is on disk (committed, synced) before this returns. With `strict` (manual entry) an
    event that the engine flags as out of turn, by an unknown player or with an unreadable card is
    refused and nothing is stored; other flags (an illegal play or pass) are findings and stay.
    """
    return LOG.append(db, night_id, event, source, _push,
                      lambda flag: refusal(flag) if strict and flag is not None and flag.kind in REFUSED_FOR_MANUAL
                      else None)


def _push(match: Match, event: Any) -> Any:
    check_can_push(match, event)
    try:
        return match.push(event)
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"This event does not fit the game: {exc}", 409) from None


def _remember(night_id: int, match: Match, db: sqlite3.Connection) -> None:
    LOG.remember(db, night_id, match)


def _forget(night_id: int) -> None:
    LOG.forget(night_id)


def undo(db: sqlite3.Connection, night_id: int, expect_line: int | None = None) -> int:
    """Take back the last event (never the `match` line); return the line removed.

    `expect_line` guards against two people undoing at once: the undo only happens if the last line
    is still the one they saw."""
    return LOG.undo(db, night_id, expect_line)


def correct(db: sqlite3.Connection, night_id: int, line: int, event: Any | None,
            expect_revision: int | None = None) -> Any:
    """Replace line `line` with `event` (or delete it when `event` is None) and replay the rest.

    Later lines are kept as they were; the engine judges them again (a correction can raise or clear
    flags further down). Refused when the corrected line itself would be a typing mistake, or when the
    log no longer replays. Returns the flag at the corrected line (None when deleted or clean)."""
    with lock():
        with transaction(db):
            if expect_revision is not None and revision(db, night_id) != expect_revision:
                raise InputError("The log has changed since you looked: look again.", 409)
            match = load_match(db, night_id)
            events = list(match.events)
            if not 2 <= line <= len(events):
                raise InputError(f"There is no line {line} to correct (lines 2 to {len(events)}).", 404)
            if event is None:
                new_events = events[: line - 1] + events[line:]
            else:
                new_events = events[: line - 1] + [event] + events[line:]
            try:
                rebuilt = Match(new_events[0])
                flag = None
                for number, ev in enumerate(new_events[1:], start=2):
                    if number == line and event is not None:
                        check_can_push(rebuilt, ev)
                        flag = rebuilt.push(ev)
                        if flag is not None and flag.kind in REFUSED_FOR_MANUAL:
                            raise InputError(refusal(flag), 409)
                    else:
                        if isinstance(ev, (Play, Pass, Draw, Show, End)) and rebuilt.round is None:
                            raise InputError("Without that line the events after it have no round.", 409)
                        rebuilt.push(ev)
            except (ValueError, TypeError, KeyError) as exc:
                raise InputError(f"After that change the log does not replay: {exc}", 409) from None
            old_sources = {r["line"]: r["source"] for r in stored_lines(db, night_id)}

            def source_of(number: int, body: str) -> str:
                if event is None:
                    return old_sources.get(number + 1, "manual")
                return "manual" if number == line else old_sources.get(number, "manual")

            _store_from(db, night_id, line, rebuilt, source_of)
        _forget(night_id)
        _remember(night_id, rebuilt, db)
    notify_change()
    return flag


def _store_from(db: sqlite3.Connection, night_id: int, line: int, rebuilt: Match,
                source_of: Callable[[int, str], str]) -> None:
    """Store the rebuilt night's lines from `line` on in place of the old ones (inside the caller's
    transaction), each with the source `source_of(line number, body)`, and move the revision on."""
    bodies = _record_lines(rebuilt.events)
    db.execute("DELETE FROM events WHERE night_id = ? AND line >= ?", (night_id, line))
    for number in range(line, len(bodies) + 1):
        _insert(db, night_id, number, bodies[number - 1], source_of(number, bodies[number - 1]))
    _bump(db, night_id)


def rewrite_from(db: sqlite3.Connection, night_id: int, line: int, events: list[Any], *,
                 source: str = "camera", sources: list[str] | None = None) -> None:
    """Replace the night's lines from `line` on with `events` (the camera's record, re-ordered after
    it made out a card late), in one transaction. A new line's source is `source`, or its entry in
    `sources` (one per event) when given; a line left as it was keeps its source. Refused,
    with nothing changed, when the new log does not replay (`line` must be 2 or more: the `match` line
    stays)."""
    with lock():
        with transaction(db):
            rows = stored_lines(db, night_id)
            if not rows:
                raise InputError(f"There is no night number {night_id}.", 404)
            if not 2 <= line <= len(rows) + 1:
                raise InputError(f"There is no line {line} to rewrite from (lines 2 to {len(rows) + 1}).", 404)
            try:
                rebuilt = replay(list(load_match(db, night_id).events[: line - 1]) + list(events))
            except (ValueError, TypeError, KeyError) as exc:
                raise InputError(f"After that change the log does not replay: {exc}", 409) from None
            old = {r["line"]: (r["body"], r["source"]) for r in rows}

            def source_of(number: int, body: str) -> str:
                was = old.get(number)
                if was is not None and was[0] == body:
                    return was[1]
                return sources[number - line] if sources is not None and number - line < len(sources) else source

            _store_from(db, night_id, line, rebuilt, source_of)
        _forget(night_id)
        _remember(night_id, rebuilt, db)
    notify_change()


def delete_night(db: sqlite3.Connection, night_id: int) -> None:
    with lock():
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM events WHERE night_id = ?", (night_id,))
        db.execute("DELETE FROM nights WHERE id = ?", (night_id,))
        db.execute("COMMIT")
        _forget(night_id)
    notify_change()


def record_text(match: Match) -> str:
    """The night as a game record (record-format.md), exactly what `fantan check` reads."""
    return write_record(match.events)

