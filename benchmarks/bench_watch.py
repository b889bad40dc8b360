"""End-to-end benchmark of the camera pipeline on synthetic game videos: records exact, events off, speed.

Each round is a `fantan simulate` round (known hands), filmed by datasets.game_video with arms
reaching in from the players' seats, a tilted camera, light and noise, in one of the three layouts
(spread, fanned, Hoyle piles), with the drawn deck or the real photographs of a deck (`--deck photo`).
The watcher rebuilds the record from the frames and the declared passes; it is compared with the
record the video shows: exact or not, and the edit distance over record lines (insertions,
deletions, substitutions). Detectors: `oracle` (renderer truth + noise: the pipeline alone) and
`model` (the shipped recognizer, vision.detector). Speed: frames per second of the watcher
(recognizer included) at the frame size; with `--realtime`, also the record when frames arrive from a
10 fps camera and the pipeline only takes the newest frame when it is free (frames skipped). With
`--night K`, each video is K rounds of one match filmed one after another at one table, the cards
gathered between rounds (the watcher has to see each round end and the next one begin).

    python benchmarks/bench_watch.py --rounds 21 --detector both --deck both
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.game_video import LAYOUTS, OracleDetector, load_deck, render_night, render_round  # noqa: E402
from scorekeeper.events import MatchStart  # noqa: E402
from scorekeeper.record import write_record  # noqa: E402
from scorekeeper.simulate import simulate_match  # noqa: E402
from vision.capture import Frame  # noqa: E402
from vision.looks import Recorder, Replay  # noqa: E402
from vision.occlusion import CoverWatch  # noqa: E402
from vision.watcher import Watcher  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve")
VARIANTS = ("fan-tan", "parliament", "sjuan")


def edit_distance(a: list[str], b: list[str]) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def round_plan(i: int) -> dict:
    n = (3, 4, 5)[(i // 3) % 3]
    return {"layout": LAYOUTS[i % 3], "variant": VARIANTS[(i // 9) % 3], "players": NAMES[:n], "seed": 1000 + i,
            "strategy": "greedy" if i % 2 else "random"}


class Timed:
    """A detector wrapper that measures the time spent recognising."""

    def __init__(self, inner):
        self.inner, self.seconds, self.calls = inner, 0.0, 0  # calls: recognizer runs

    def detect(self, image):
        return self._timed(self.inner.detect, image)

    def detect_closely(self, image):
        """The watcher's closer look, timed too (the usual look for a detector without one)."""
        return self._timed(getattr(self.inner, "detect_closely", self.inner.detect), image)

    def _timed(self, look, image):
        t = time.perf_counter()
        try:
            return look(image)
        finally:
            self.seconds += time.perf_counter() - t
            self.calls += 1

    def learn(self, frame):
        if hasattr(self.inner, "learn"):
            self.inner.learn(frame)

    def forget(self, frame):
        if hasattr(self.inner, "forget"):
            self.inner.forget(frame)


class Run:
    """One watcher on one round; with `camera_fps`, it only sees the frames a live pipeline would catch."""

    def __init__(self, name: str, start: MatchStart, dealer: str, passes, detector, camera_fps: float | None = None,
                 extra_s: float = 0.0, record: dict | None = None):
        self.name, self.detector = name, Timed(detector)
        self.extra_s = extra_s  # pretend each frame took this much longer (a slower recognizer)
        self.recorder = None
        if record is not None:  # keep what the recognizer and the hand check said (`--record-looks`)
            self.recorder = Recorder(self.detector, CoverWatch(), header=record)
            self.watcher = Watcher(start, dealer, self.recorder.detector, passes=passes, cover=self.recorder.cover)
        else:
            self.watcher = Watcher(start, dealer, self.detector, passes=passes)
        self.camera_fps = camera_fps
        self.busy_until = 0.0  # virtual time at which the pipeline is free again
        self.seconds, self.frames, self.skipped = 0.0, 0, 0
        self.unread = 0

    def offer(self, vf) -> None:
        """Live: frames arrive every 1/camera_fps s and queue; a pipeline that is behind checks every
        frame for arms but reads cards less often (as `fantan watch` does); more than 100 waiting: the
        oldest are dropped. Files: every frame, fully."""
        behind = False
        if self.camera_fps:
            arrival = vf.index / self.camera_fps
            start = max(arrival, self.busy_until)
            waiting = int((start - arrival) * self.camera_fps)
            if waiting > 100:
                self.skipped += 1
                return
            behind = waiting > 1
        self.detector.learn(vf)
        unread, calls = self.watcher.frames_unread, self.detector.calls
        t = time.perf_counter()
        self.watcher.see(Frame(vf.index, vf.image, vf.index / 10), behind=behind)
        dt = time.perf_counter() - t
        self.detector.forget(vf)
        self.unread += self.watcher.frames_unread - unread
        self.seconds += dt
        self.frames += 1
        if self.camera_fps:
            slow = self.extra_s if self.detector.calls > calls else 0.0
            self.busy_until = start + dt + slow

    def record(self) -> list[dict]:
        self.watcher.finish()
        return [json.loads(line) for line in write_record(self.watcher.events).splitlines()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--start", type=int, default=0, metavar="S",
                    help="number the rounds from S (S .. S+ROUNDS-1; each number is its own seed, layout, "
                         "variant and table size): rounds 0-20 are the ones the watcher's rules were tuned on, "
                         "21-41 were measured first in session 12, 42 and up are still unseen")
    ap.add_argument("--detector", choices=["oracle", "model", "both"], default="both")
    ap.add_argument("--deck", default="both",
                    help="drawn, photo, both, an artwork deck name (data/artwork/<name>, e.g. a held-out "
                         "design the recognizer never trained on: dondorf, ornamental, tigullio, vectorized), "
                         "or a folder of photographs of a real deck, one upright crop per card named by its "
                         "code (Ah.jpg, Tc.jpg, ...)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--realtime", action="store_true", help="also run the model as a 10 fps live pipeline")
    ap.add_argument("--camera-fps", type=float, default=10.0)
    ap.add_argument("--slow-ms", type=float, nargs="*", default=[],
                    help="also run the oracle live at --camera-fps as if each frame took this many ms more")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--speed", type=int, default=0, metavar="N",
                    help="only measure frames per second on the first N frames of a round (recognizer included)")
    ap.add_argument("--only", type=int, nargs="*", help="run only these round numbers")
    ap.add_argument("--night", type=int, default=1, metavar="K",
                    help="film K rounds of one match in each video, the cards gathered between (a night at one "
                         "table: the watcher must see each round end and the next begin); figures are then per video")
    ap.add_argument("--diff", action="store_true", help="print how a record that is not exact differs")
    ap.add_argument("--models", type=Path, default=None, help="model folder for --detector model (default: the shipped models/)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a CardDetector keyword for the model (JSON value), e.g. index_conf=0.2 (repeat)")
    ap.add_argument("--record-looks", type=Path, metavar="DIR",
                    help="keep what the model and the hand check said of each frame, one file a round "
                         "(DIR/<deck>_<round>.jsonl.gz), to watch the round again with --replay-looks")
    ap.add_argument("--replay-looks", type=Path, nargs="+", metavar="FILE",
                    help="watch recorded rounds again (no filming, no recognizer: seconds a round) and "
                         "compare with their truth")
    args = ap.parse_args(argv)
    if args.replay_looks:
        return replay_looks(args.replay_looks, args.diff)
    w, h = (int(v) for v in args.size.lower().split("x"))

    model = None
    if args.detector in ("model", "both"):
        try:
            from vision.detector import CardDetector

            from bench_synthetic import _option  # the same KEY=VALUE spelling

            options = dict(_option(o) for o in args.option)
            options.setdefault("watching", True)  # as `fantan watch` and the dashboard read a game
            model = CardDetector(args.models, **options)
        except Exception as exc:  # no shipped model yet: say so, measure the rest
            print(f"model: not available ({exc})")
    decks = ["drawn", "photo"] if args.deck == "both" else [args.deck]
    if args.speed:
        return speed(args.speed, decks[-1], (w, h), model, args.detector)
    results: dict = {}
    for deck_name in decks:
        deck = load_deck(deck_name)
        stats = defaultdict(lambda: {"rounds": 0, "exact": 0, "edits": 0, "lines": 0, "frames": 0, "seconds": 0.0,
                                     "detect_s": 0.0, "skipped": 0, "unread": 0, "by_layout": defaultdict(lambda: [0, 0])})
        render_s = 0.0
        for i in range(args.start, args.start + args.rounds):
            if args.only and i not in args.only:
                continue
            plan = round_plan(i)
            events = simulate_match(plan["variant"], plan["players"], seed=plan["seed"], known_hands=True,
                                    strategy=plan["strategy"], rounds=args.night)
            record = [json.loads(line) for line in write_record(events).splitlines()]
            video = render_night(record, plan["layout"], plan["seed"], deck=deck, size=(w, h))
            start = events[0]
            dealer = record[1]["dealer"]
            runs: list[Run] = []
            if args.detector in ("oracle", "both"):
                runs.append(Run("oracle", start, dealer, [], OracleDetector(seed=plan["seed"])))
            for ms in args.slow_ms:
                runs.append(Run(f"oracle+{ms:g}ms@{args.camera_fps:g}fps", start, dealer, [],
                                OracleDetector(seed=plan["seed"]), args.camera_fps, ms / 1000))
            if model is not None:
                keep = None
                if args.record_looks is not None and args.night == 1:
                    keep = {"deck": deck_name, "round": i, "plan": plan, "dealer": dealer}
                runs.append(Run("model", start, dealer, [], model, record=keep))
                if args.realtime:
                    runs.append(Run(f"model@{args.camera_fps:g}fps", start, dealer, [], model, args.camera_fps))
            t = time.perf_counter()
            for vf in video.frames:
                render_s += time.perf_counter() - t
                for run in runs:
                    _feed_passes(run, video.passes)  # a pass is known once its frame is reached, as a tap
                    run.offer(vf)
                t = time.perf_counter()
            truth = video.truth
            truth_lines = [json.dumps(e, sort_keys=True) for e in truth]
            for run in runs:
                _feed_passes(run, video.passes)
                got = run.record()
                if run.recorder is not None:
                    run.recorder.header["truth"] = truth
                    run.recorder.save(args.record_looks / f"{deck_name}_{i}.jsonl.gz")
                lines = [json.dumps(e, sort_keys=True) for e in got]
                ed = edit_distance(truth_lines, lines)
                s = stats[run.name]
                s["rounds"] += 1
                s["exact"] += int(got == truth)
                s["edits"] += ed
                s["lines"] += len(truth_lines)
                s["frames"] += run.frames
                s["seconds"] += run.seconds
                s["detect_s"] += run.detector.seconds
                s["skipped"] += run.skipped
                s["unread"] += run.unread
                s["by_layout"][plan["layout"]][0] += int(got == truth)
                s["by_layout"][plan["layout"]][1] += 1
                if args.diff and got != truth:
                    import difflib

                    print("\n".join(difflib.unified_diff(truth_lines, lines, "truth", run.name, lineterm="", n=1)))
                print(f"  {deck_name:5} {run.name:14} {'night' if args.night > 1 else 'round'} {i:2} {plan['variant']:10} {len(plan['players'])}p "
                      f"{plan['layout']:6}: {'exact' if got == truth else f'{ed} edits'}"
                      f" ({run.watcher.closer_asked} closer looks after unread visits)", flush=True)
        for name, s in stats.items():
            fps = s["frames"] / s["seconds"] if s["seconds"] else float("nan")
            share = s["exact"] / s["rounds"]
            layouts = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(s["by_layout"].items()))
            unit = f"videos of {args.night} rounds" if args.night > 1 else "rounds"
            print(f"deck {deck_name}, detector {name}: {s['exact']}/{s['rounds']} {unit} exact ({share:.0%}; {layouts}); "
                  f"edit distance {s['edits']} over {s['lines']} record lines; {w}x{h}: {fps:.1f} frames/s "
                  f"({1000 * s['detect_s'] / max(s['frames'], 1):.1f} ms recognising per frame)"
                  + (f"; to keep up {s['skipped']} frames dropped, {s['unread']} not read for cards"
                     if s["skipped"] or s["unread"] else ""))
            results[f"{deck_name}/{name}"] = {k: (dict(v) if k == "by_layout" else v) for k, v in s.items()}
        print(f"(rendering took {render_s:.0f} s, not counted)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


def speed(n: int, deck_name: str, size: tuple[int, int], model, which: str) -> int:
    """Frames per second of the watcher on the first `n` frames of a round, each stage apart."""
    import os

    from vision.occlusion import CoverWatch

    plan = round_plan(4)
    events = simulate_match(plan["variant"], plan["players"], seed=plan["seed"], known_hands=True, rounds=1)
    record = [json.loads(line) for line in write_record(events).splitlines()]
    video = render_round(record, plan["layout"], plan["seed"], deck=load_deck(deck_name), size=size)
    frames = [vf for _, vf in zip(range(n), video.frames)]
    print(f"{len(frames)} frames {size[0]}x{size[1]}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} (other work on this machine slows every figure)")
    cover = CoverWatch()
    t = time.perf_counter()
    for vf in frames:
        cover.update(vf.image)
    dt = time.perf_counter() - t
    print(f"  hand-over-table check alone: {len(frames) / dt:.0f} frames/s ({1000 * dt / len(frames):.1f} ms a frame)")
    detectors = []
    if which in ("oracle", "both"):
        detectors.append(("oracle (pipeline without recognizer)", OracleDetector(seed=1)))
    if model is not None:
        detectors.append(("model (the shipped recognizer)", model))
    for name, det in detectors:
        timed = Timed(det)
        watcher = Watcher(events[0], record[1]["dealer"], timed)
        t = time.perf_counter()
        for vf in frames:
            timed.learn(vf)
            watcher.see(Frame(vf.index, vf.image, vf.index / 10))
            timed.forget(vf)
        dt = time.perf_counter() - t
        fps = len(frames) / dt
        print(f"  watcher with {name}: {fps:.1f} frames/s ({1000 * dt / len(frames):.1f} ms a frame, "
              f"{1000 * timed.seconds / max(timed.calls, 1):.1f} ms per recognizer call on {timed.calls} uncovered frames); "
              f"{'keeps up with' if fps >= 10 else 'cannot keep up with'} a 10 fps camera reading every frame")
    return 0


def _feed_passes(run: Run, passes: list[dict]) -> None:
    """Hand the watcher the passes declared so far (the renderer adds them as it reaches their frame)."""
    fed = getattr(run, "_fed", 0)
    for p in passes[fed:]:
        run.watcher.declare_pass(p["frame"], p["player"])
        if run.recorder is not None:
            run.recorder.declared(p["frame"], p["player"])
    run._fed = len(passes)


def replay_looks(paths: list[Path], diff: bool) -> int:
    """Watch recorded rounds again from their looks (`--record-looks`) and compare with their truth."""
    import difflib

    from scorekeeper.record import read_record

    exact = edits = lines = unrecorded = looks = closer_looks = 0
    t = time.perf_counter()
    for path in paths:
        replay = Replay.load(path)
        head = replay.header
        truth = head["truth"]
        start = read_record(json.dumps(truth[0]) + "\n")[0]
        watcher = replay.watch(start, head["dealer"])
        got = [json.loads(line) for line in write_record(watcher.events).splitlines()]
        truth_lines = [json.dumps(e, sort_keys=True) for e in truth]
        got_lines = [json.dumps(e, sort_keys=True) for e in got]
        ed = edit_distance(truth_lines, got_lines)
        exact += got == truth
        edits += ed
        lines += len(truth_lines)
        unrecorded += replay.unrecorded
        looks += watcher.frames_seen - watcher.frames_covered - watcher.frames_unread
        closer_looks += watcher.closer_asked
        if diff and got != truth:
            print("\n".join(difflib.unified_diff(truth_lines, got_lines, "truth", "replay", lineterm="", n=1)))
        plan = head.get("plan", {})
        print(f"  {head.get('deck', '?'):5} replay round {head.get('round', '?'):2} {plan.get('variant', ''):10} "
              f"{len(plan.get('players', ()))}p {plan.get('layout', ''):6}: {'exact' if got == truth else f'{ed} edits'}"
              f" ({watcher.closer_asked} closer looks after unread visits)", flush=True)
    print(f"replayed {len(paths)} recorded rounds: {exact}/{len(paths)} exact; edit distance {edits} over {lines} "
          f"record lines ({time.perf_counter() - t:.0f} s; {looks} looks, {closer_looks} of them closer ones after an unread "
          f"visit; {unrecorded} closer looks asked where none was recorded)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
