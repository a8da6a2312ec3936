#!/usr/bin/env python3
"""What any plan-and-hold policy could reach on a free display, by the trace alone.

On VRR within the panel's range (and on an immediate display) a frame is shown when it is
presented. A policy that plans each frame's world for a planned present time and holds
early presents to it (adaptive does) shows a render that runs over its plan late by the
overrun, an animation error of that size; every render under the plan idles the loop, which
costs rate. This script asks, for the comparison's rows that adaptive misses on animation
error or rate, whether ANY such plan could meet both limits, knowing the whole trace in
advance:

- static: one plan for every frame, the best over the trace's own percentiles;
- lag-1: each frame's plan is a + b x the render before (the least-squares fit over the whole
  trace) plus one offset, the best over the residuals' percentiles: the most a predictor that
  reads only the last render could do;
- local: each frame's plan is one percentile (the best) of the renders within 64 frames
  either side of it, the future included: more than a plan read from recent renders can
  know where costs move between calm and noisy stretches;
- trailing: each frame's plan is one percentile of the renders before it alone (the last 32,
  128 or 512, the warm-up's among them), the best window and percentile: what a plan read
  from recent renders could do, given the one percentile that suits the trace (a policy must
  choose it without seeing the trace).

The model, kept simple on purpose: each render is the trace's frame_ms x the scale, repeated
to 3600 frames and the first 60 left out, as bench/compare runs it; the simulation's updates
add a tenth of each frame's period (0.5 ms per 5 ms step), so a frame's period is its render
(or its plan, when longer) / 0.9, never under the panel's shortest refresh; the capped loop's
period is its render / 0.9, never under that refresh; a frame's animation error is its
overrun (the catch-up's own small errors and the baselines' rows are not modelled: the
limits come from the comparison's CSV). On an immediate display with no refresh given, both
the plans and the capped loop run no faster than 60 Hz, as the comparison caps them there. A
row the oracle cannot meet is out of reach of any plan of that kind in this model; one it
meets shows room a policy could still find.

With --below-peers it asks the goal's other question instead: for the rows where adaptive
meets the animation and rate limits but a peer (swappy, framepace) shows a p99 animation
error at or below adaptive's, whether a plan could get under the lowest peer's p99 while
keeping the rate limit.

Usage: bench/plan_oracle.py --csv docs/results-fresh-g.csv --traces traces/fresh-g
           [--display vrr:48-144] [--scale 1.0] [--half held-out] [--below-peers]
Prints one line per row looked at and the counts. Exit 2 on a usage error, 1 on a file it
cannot read.
"""
import argparse
import bisect
import csv
import math
import os
import sys

import trace_csv  # bench/trace_csv.py, beside this script

BASELINES = ("accumulator", "accumulator-capped", "flipcode")
PEERS = ("swappy", "framepace")
# The refresh the comparison assumes on an immediate display with no rate given (its cap).
ASSUMED_REFRESH_HZ = 60.0
# The frames the comparison runs, and the warm-up its metrics leave out.
RUN_FRAMES = trace_csv.RUN_FRAMES
WARMUP_FRAMES = trace_csv.WARMUP_FRAMES


def fail(message, code):
    print(f"plan_oracle.py: {message}", file=sys.stderr)
    sys.exit(code)


def p99(values):
    s = sorted(values)
    return s[min(len(s) - 1, math.ceil(0.99 * len(s)) - 1)]


def load_trace(path, scale):
    """The run's renders, the warm-up frames first (the metrics leave them out: [WARMUP_FRAMES:])."""
    return trace_csv.load_run(path, scale, RUN_FRAMES, fail)


def mean(values):
    """The mean, with an exactly rounded sum (math.fsum): statistics.mean's value to the last digit or so, at a
    fraction of its cost."""
    values = list(values)
    return math.fsum(values) / len(values)


def best_plan(renders, plans_for, anim_limit, shortest, strict=False):
    """The highest rate among the plans that meet the animation limit (under it when strict)
    and the rate limit."""
    capped = mean(max(r / 0.9, shortest) for r in renders)
    best = None
    for plans in plans_for:
        late = p99([max(0.0, r - p) for r, p in zip(renders, plans)])
        period = mean(max(max(r, p) / 0.9, shortest) for r, p in zip(renders, plans))
        rate = capped / period
        within = late < anim_limit if strict else late <= anim_limit
        if within and rate >= 0.9 and (best is None or rate > best[1]):
            best = (late, rate)
    return best


def static_plans(renders, steps=200):
    s = sorted(renders)
    for k in range(steps):
        q = s[int(len(s) * k / steps)]
        yield [q] * len(renders)


def lag1_plans(renders, steps=200):
    _, pred = trace_csv.lag1_fit(renders)
    res = sorted(r - p for r, p in zip(renders, pred))
    for k in range(steps):
        c = res[int(len(res) * k / steps)]
        yield [p + c for p in pred]


def local_plans(renders, half_window=64, steps=200):
    windows = [sorted(renders[max(0, i - half_window):i + half_window + 1]) for i in range(len(renders))]
    for k in range(steps):
        yield [w[int(len(w) * k / steps)] for w in windows]


def trailing_plans(frames, windows=(32, 128, 512), steps=100):
    """frames: the run's renders with the warm-up frames first, which only fill the window."""
    for window in windows:
        recent, sorted_recent = [], []
        for i, r in enumerate(frames):
            if i >= WARMUP_FRAMES:
                recent.append(list(sorted_recent))
            bisect.insort(sorted_recent, r)
            if i >= window:  # the window holds frames[i - window + 1 .. i]
                del sorted_recent[bisect.bisect_left(sorted_recent, frames[i - window])]
        for k in range(steps):
            yield [w[min(len(w) - 1, int(len(w) * k / steps))] for w in recent]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", required=True, help="a comparison's CSV (bench/compare writes it beside its --out page)")
    ap.add_argument("--traces", required=True, help="the folder holding the traces it ran")
    ap.add_argument("--display", default="vrr:48-144", help="vrr:LO-HI or immediate (default vrr:48-144)")
    ap.add_argument("--scale", default="1.0", help="the trace scale's rows (default 1.0)")
    ap.add_argument("--half", default=None, help="only this half's rows (held-out or tuning)")
    ap.add_argument("--below-peers", action="store_true",
                    help="the rows adaptive meets on animation and rate where a peer's p99 is at or below its own:"
                         " can a plan get under the lowest peer's?")
    args = ap.parse_args()
    if args.display.startswith("vrr:"):
        try:
            shortest = 1000.0 / float(args.display.split("-")[1])
        except (IndexError, ValueError):
            fail(f"--display: expected vrr:LO-HI, got '{args.display}'", 2)
    elif args.display == "immediate":
        shortest = 1000.0 / ASSUMED_REFRESH_HZ
    else:
        fail(f"--display: expected vrr:LO-HI or immediate, got '{args.display}'", 2)
    if args.scale not in ("0.5", "1.0"):
        fail(f"--scale: the comparison has 0.5 and 1.0, got '{args.scale}'", 2)
    if not os.path.isdir(args.traces):
        fail(f"--traces: no folder '{args.traces}'", 2)
    try:
        with open(args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read '{args.csv}': {e.strerror}", 1)
    need = {"workload", "half", "scale", "display", "policy", "avg_fps", "anim_p99_ms"}
    if not rows or not need <= set(rows[0]):
        fail(f"'{args.csv}': not a comparison's CSV (its columns: {', '.join(sorted(need))})", 1)
    by = {}
    for r in rows:
        if r["display"] == args.display and r["scale"] == args.scale and (args.half is None or r["half"] == args.half):
            by.setdefault(r["workload"], {})[r["policy"]] = r
    counts = {"rows": 0, "static": 0, "lag1": 0, "local": 0, "trailing": 0}
    for workload, pol in sorted(by.items()):
        if "adaptive" not in pol or any(b not in pol for b in BASELINES):
            continue
        a = pol["adaptive"]
        anim_limit = max(0.1, 0.5 * min(float(pol[b]["anim_p99_ms"]) for b in BASELINES))
        fps_limit = 0.9 * float(pol["accumulator-capped"]["avg_fps"])
        anim, fps = float(a["anim_p99_ms"]), float(a["avg_fps"])
        meets = anim <= anim_limit and fps >= fps_limit
        peers = [(float(pol[p]["anim_p99_ms"]), p) for p in PEERS if p in pol]
        if args.below_peers:
            if not meets or not peers or min(peers)[0] > anim:
                continue
            target, peer = min(peers)
        elif meets:
            continue
        path = os.path.join(args.traces, workload + ".csv")
        if not os.path.exists(path):
            continue  # a synthetic shape: no trace file
        frames = load_trace(path, float(args.scale))
        renders = frames[WARMUP_FRAMES:]
        goal = target if args.below_peers else anim_limit
        st = best_plan(renders, static_plans(renders), goal, shortest, args.below_peers)
        l1 = best_plan(renders, lag1_plans(renders), goal, shortest, args.below_peers)
        lo = best_plan(renders, local_plans(renders), goal, shortest, args.below_peers)
        tr = best_plan(renders, trailing_plans(frames), goal, shortest, args.below_peers)
        counts["rows"] += 1
        counts["static"] += st is not None
        counts["lag1"] += l1 is not None
        counts["local"] += lo is not None
        counts["trailing"] += tr is not None
        show = lambda b: "none" if b is None else f"{b[0]:.3f} ms at {b[1]:.3f}"
        against = f"{peer} {target:.3f} ms" if args.below_peers else f"limit {anim_limit:.3f}"
        print(f"{workload}: adaptive {anim:.3f} ms ({against}), {fps:.1f} fps (limit {fps_limit:.1f});"
              f" static plan {show(st)}; lag-1 plan {show(l1)}; local plan {show(lo)}; trailing plan {show(tr)}")
    if args.below_peers:
        print(f"{counts['rows']} met rows with a trace where a peer's p99 is as low or lower; a plan under the"
              f" lowest peer's within the rate limit: static on {counts['static']}, lag-1 on {counts['lag1']},"
              f" local on {counts['local']}, trailing on {counts['trailing']}")
    else:
        print(f"{counts['rows']} missing rows with a trace; a static plan meets both limits on {counts['static']},"
              f" a lag-1 plan on {counts['lag1']}, a local plan on {counts['local']}, a trailing plan on {counts['trailing']}")


if __name__ == "__main__":
    main()
