"""`fantan watch`: the camera pipeline without a person at the keyboard (contract: spec/cli.md).

    fantan watch SOURCE --players A,B,C,D --dealer D [--variant fan-tan] [--stakes points]
                 [--passes FILE] [--record OUT.jsonl] [--fps N] [--no-web]

SOURCE is a camera index (0), a video file, or a folder of pictures read in name order as frames.
`--passes` is JSON Lines {"frame": N, "player": "Dan"}: passes declared at frame N (counted from 0).
The reconstructed game record goes to --record (rewritten after every new line, so nothing is lost if
the run is stopped), or to stdout. The players sit clockwise in the order given, the first one on the
camera's side of the table (docs/CAMERA.md). Without --no-web the dashboard runs alongside and gets
every play as it happens.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = ("fan-tan", "sjuan", "parliament", "free", "domino")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("watch", help="turn a camera, video or folder of frames into a game record",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", help="camera index (0), video file, or folder of images")
    p.add_argument("--players", required=True, help="names in clockwise order, first on the camera's side: A,B,C,D")
    p.add_argument("--dealer", required=True, help="who dealt the first round")
    p.add_argument("--variant", default="fan-tan", choices=VARIANTS)
    p.add_argument("--stakes", default="points", choices=("points", "chips"))
    p.add_argument("--rounds", type=int, default=None, help="rounds in the match (written on the match line)")
    p.add_argument("--passes", type=Path, help='JSON Lines {"frame": N, "player": "Dan"}')
    p.add_argument("--record", type=Path, help="write the game record here (default: stdout)")
    p.add_argument("--fps", type=float, default=10.0, help="frame rate of a folder of images (default 10)")
    p.add_argument("--realtime", action="store_true",
                   help="play files at --fps like a live camera, skipping frames when behind")
    p.add_argument("--model", type=Path, help="recognizer model folder (default: the shipped models/)")
    p.add_argument("--conf", type=float, default=None,
                   help="lowest recognizer confidence taken (default: the models' thresholds.json, as measured)")
    p.add_argument("--no-web", action="store_true", help="do not start the dashboard")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run)


class InputProblem(ValueError):
    """Bad input from the user: one clear line, exit 2."""


def read_passes(path: Path, players: tuple[str, ...]) -> list[tuple[int, str]]:
    """The passes file: one {"frame": N, "player": name} per line; blank lines are not allowed."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputProblem(f"cannot read passes file {path}: {exc}") from None
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputProblem(f"{path} line {n}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("frame"), int) or isinstance(obj.get("frame"), bool) \
                or obj["frame"] < 0 or not isinstance(obj.get("player"), str):
            raise InputProblem(f'{path} line {n}: expected {{"frame": N >= 0, "player": "name"}}')
        if obj["player"] not in players:
            raise InputProblem(f"{path} line {n}: {obj['player']!r} is not one of the players {', '.join(players)}")
        out.append((obj["frame"], obj["player"]))
    return out


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def run(args) -> int:
    from scorekeeper.events import MatchStart
    from scorekeeper.record import write_record

    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    try:
        if len(players) < 2 or len(set(players)) != len(players):
            raise InputProblem("--players needs 2 to 8 different names, comma-separated")
        if args.dealer not in players:
            raise InputProblem(f"--dealer {args.dealer!r} is not one of the players {', '.join(players)}")
        if args.fps <= 0:
            raise InputProblem("--fps must be positive")
        passes = read_passes(args.passes, players) if args.passes else []
        start = MatchStart(args.variant, players, args.stakes, rounds=args.rounds)
    except (InputProblem, ValueError) as exc:
        print(f"fantan watch: {exc}", file=sys.stderr)
        return 2

    from vision.capture import FrameSource, SourceError
    from vision.watcher import Watcher

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    link = None
    try:

        def on_status(status) -> None:
            say(f"[frame {status.frame}] {status.kind}: {status.message}")
            if link is not None:
                link.status(status)

        source = FrameSource(args.source, fps=args.fps, on_status=on_status, realtime=args.realtime)
        detector = _detector(args)
    except (SourceError, OSError, RuntimeError, ValueError) as exc:
        print(f"fantan watch: {exc}", file=sys.stderr)
        return 2

    def on_news(news) -> None:
        if news.kind in ("illegal", "removed") or (news.kind == "end" and news.message):
            say(f"[frame {news.frame}] {news.kind}: {news.message}")
        if link is not None:
            if news.kind in ("corrected", "retracted"):
                link.sync(watcher.events)  # lines already sent were re-ordered or taken out
            else:
                link.news(news)

    watcher = Watcher(start, args.dealer, detector, passes=passes, on_news=on_news)
    if not args.no_web:
        link = _dashboard(args, start, say)

    written = 0

    def save() -> None:
        nonlocal written
        events = watcher.events
        if args.record is not None and len(events) != written:
            _write_atomic(args.record, write_record(events))
            written = len(events)

    t0 = time.monotonic()
    frames = 0
    try:
        for frame in source:
            # Behind a live camera: every frame is checked for arms (cheap), cards are read less often.
            watcher.see(frame, behind=source.latest_only and source.backlog > 1)
            frames += 1
            if link is not None:
                for f, player in link.new_passes(frame.index):
                    watcher.declare_pass(f, player)
                link.frame(frame, watcher)
            save()
            if frames % 100 == 0:
                dt = time.monotonic() - t0
                say(f"[frame {frame.index}] {frames / dt:.1f} frames/s, {len(watcher.events)} record lines")
    except KeyboardInterrupt:
        say("stopped; writing what was seen")
    except SourceError as exc:
        print(f"fantan watch: {exc}", file=sys.stderr)
        return 2
    watcher.finish()
    save()
    dt = max(time.monotonic() - t0, 1e-9)
    say(f"{frames} frames in {dt:.1f} s ({frames / dt:.1f} frames/s; to keep up {source.skipped} dropped, "
        f"{watcher.frames_unread} not read for cards); "
        f"{watcher.frames_covered} covered by a hand; {len(watcher.events)} record lines")
    if args.record is None:
        sys.stdout.write(write_record(watcher.events))
    return 0


def _detector(args):
    from vision.detector import CardDetector

    kwargs = {"conf": args.conf, "watching": True}
    detector = CardDetector(args.model, **kwargs) if args.model else CardDetector(**kwargs)
    detector.check_reading()  # a machine that computes the models wrongly stops here, not after a game
    return detector


def _dashboard(args, start, say):
    """Start the dashboard in this process and feed it; None (and a line) if it cannot start."""
    try:
        from vision.dashboard_feed import DashboardFeed

        feed = DashboardFeed.start(start, args.dealer, host=args.host, port=args.port)
    except Exception as exc:  # the record matters more than the dashboard: go on without it
        say(f"dashboard not started ({exc}); going on without it")
        return None
    say(f"dashboard on http://{args.host}:{args.port}/")
    return feed
