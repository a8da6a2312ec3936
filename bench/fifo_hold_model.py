#!/usr/bin/env python3
"""What a plan-and-hold loop on a FIFO queue could reach on one trace: rate and late frames.

On a fixed-refresh FIFO queue a present is shown at the first vblank at least one period
after the previous frame's. A loop that plans each frame for a vblank (its world is that
vblank's) must not present it more than a period before that vblank, or the queue shows it a
vblank early; with one thread, the next frame starts only after that present. So a frame
planned for the vblank after next idles the loop until a period before it. This model runs
that loop on a trace (issue 11's sixtieth part, docs/results.md):

- frame k starts at S; it is planned for the first vblank at or after S + its plan, and at
  least a period after the last frame's vblank;
- it is ready at S + its busy time (the render, frame_ms x the scale, plus the updates);
  ready after its vblank, it is shown at the first vblank after it (late);
- it is presented when ready, but no earlier than a period before its vblank; the next frame
  starts the present call's time after that.

It prints the rate (frames per second over the shown frames, the first 60 left out, as
bench/compare) and the share of late frames for:
- greedy: no plan and no hold, each frame shown at the first vblank after it is ready (the
  capped loop's rate, with its animation errors);
- static pNN: one plan for every frame, the busy times' NNth percentile;
- perfect: each frame planned on its own busy time (a bound no policy reaches);
- lag-1 pNN: a + b x the busy time before (the least-squares fit over the whole trace) plus
  the residuals' NNth percentile: what a plan read from the last render could do.
The trace repeats to 3600 frames, as bench/compare runs it.

Usage: bench/fifo_hold_model.py --trace FILE [--scale 1.0] [--hz 144] [--update-ms 1.4]
           [--call-ms 0.1]
Exit 2 on a usage error, 1 on a trace it cannot read.
"""
import argparse
import math
import sys

import trace_csv  # bench/trace_csv.py, beside this script

RUN_FRAMES = trace_csv.RUN_FRAMES
WARMUP_FRAMES = trace_csv.WARMUP_FRAMES
PERCENTILES = (50, 70, 80, 90, 95, 97, 99)


def fail(message, code):
    print(f"fifo_hold_model.py: {message}", file=sys.stderr)
    sys.exit(code)


def load_busy(path, scale, update_ms):
    return [r + update_ms for r in trace_csv.load_run(path, scale, RUN_FRAMES, fail)]


def vblank_at_or_after(t, period):
    return math.ceil(t / period - 1e-9) * period


def rate(shown, period):
    frames = len(shown) - WARMUP_FRAMES - 1
    span = shown[-1] - shown[WARMUP_FRAMES]
    return 1000.0 * frames / span if span > 0 else 0.0


def run_planned(busy, plans, period, call_ms):
    """(fps, share of late frames) of the hold loop with these plans."""
    start, last, late, shown = 0.0, -1e18, 0, []
    for k, (b, p) in enumerate(zip(busy, plans)):
        planned = max(last + period, vblank_at_or_after(start + p, period))
        ready = start + b
        on_time = ready <= planned + 1e-6  # within a nanosecond: the vblank's rounding
        at = planned if on_time else vblank_at_or_after(ready, period)
        if k >= WARMUP_FRAMES and not on_time:
            late += 1
        start = max(ready, planned - period) + call_ms
        last = at
        shown.append(at)
    return rate(shown, period), late / (len(busy) - WARMUP_FRAMES)


def run_greedy(busy, period, call_ms):
    start, last, shown = 0.0, -1e18, []
    for b in busy:
        ready = start + b
        last = max(last + period, vblank_at_or_after(ready, period))
        shown.append(last)
        start = ready + call_ms
    return rate(shown, period)


def percentile(sorted_values, pct):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * pct / 100))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace", required=True, help="a CSV with a frame_ms column")
    ap.add_argument("--scale", type=float, default=1.0, help="the trace scale (default 1.0)")
    ap.add_argument("--hz", type=float, default=144.0, help="the refresh rate (default 144)")
    ap.add_argument("--update-ms", type=float, default=1.4, help="updates per frame, added to each render (default 1.4)")
    ap.add_argument("--call-ms", type=float, default=0.1, help="the present call (default 0.1)")
    a = ap.parse_args()
    if not (a.scale > 0 and a.hz > 0 and a.update_ms >= 0 and a.call_ms >= 0):
        ap.error("--scale and --hz must be above 0, --update-ms and --call-ms not below 0")
    period = 1000.0 / a.hz
    busy = load_busy(a.trace, a.scale, a.update_ms)
    print(f"greedy: {run_greedy(busy, period, a.call_ms):.1f} fps")
    ordered = sorted(busy)
    for pct in PERCENTILES:
        fps, late = run_planned(busy, [percentile(ordered, pct)] * len(busy), period, a.call_ms)
        print(f"static p{pct}: {fps:.1f} fps, {100 * late:.1f}% late")
    fps, late = run_planned(busy, busy, period, a.call_ms)
    print(f"perfect: {fps:.1f} fps, {100 * late:.1f}% late")
    b, predicted = trace_csv.lag1_fit(busy)
    residuals = sorted(v - p for v, p in zip(busy, predicted))
    print(f"lag-1 slope {b:.3f}")
    for pct in (90, 95, 97, 99):
        c = percentile(residuals, pct)
        fps, late = run_planned(busy, [p + c for p in predicted], period, a.call_ms)
        print(f"lag-1 p{pct}: {fps:.1f} fps, {100 * late:.1f}% late")


if __name__ == "__main__":
    main()
