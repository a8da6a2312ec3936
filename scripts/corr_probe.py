#!/usr/bin/env python3
"""Writes the correlated-renders probe: synthetic per-frame render costs, 3600 frames each, in
which one render says something of the next (and a control in which it says nothing).

    scripts/corr_probe.py traces/probe-corr      (traces/probe-corr/README.md)

Three bases, 7, 11 and 15 ms; five shapes at each:
- made_up_p0.1, made_up_p0.25: each frame within +-5% of the base; a frame (not the one right
  after a long one) is long with that probability, 0.5-1.5 x the base longer (uniform), and
  the next frame is that much shorter, but no shorter than 0.15 x the base: a frame limiter or
  a driver making up the time (the pattern of capped captures: 30.8 ms, then 2.9 ms);
- drift_phi0.6, drift_phi0.9: the base x (1 + y) x (0.97-1.03, uniform), y_i = phi y_i-1 +
  sqrt(1 - phi^2) x 0.15 x a normal draw (a standard deviation of 15% of the base that
  drifts), y no lower than -0.7;
- independent: the base x (1 + 0.15 x a normal draw), no lower than 0.3 x the base: renders
  that say nothing of the next (the control).
Python's random, seed 41, in the order written (bases, then shapes as listed).
"""
import math
import pathlib
import random
import sys

from level_probe import write_trace

SEED = 41
BASES = (7, 11, 15)
FRAMES = 3600


def made_up(rng: random.Random, base: float, p: float) -> list:
    out = []
    owed = 0.0  # what the last long frame took: the next one makes it up
    for _ in range(FRAMES):
        ms = base * (0.95 + 0.1 * rng.random())
        if owed > 0:
            ms = max(0.15 * base, ms - owed)
            owed = 0.0
        elif rng.random() < p:
            owed = base * (0.5 + rng.random())
            ms += owed
        out.append(ms)
    return out


def drift(rng: random.Random, base: float, phi: float) -> list:
    out = []
    y = 0.0
    for _ in range(FRAMES):
        y = max(-0.7, phi * y + math.sqrt(1 - phi * phi) * 0.15 * rng.gauss(0.0, 1.0))
        out.append(base * (1 + y) * (0.97 + 0.06 * rng.random()))
    return out


def independent(rng: random.Random, base: float) -> list:
    return [base * max(0.3, 1 + 0.15 * rng.gauss(0.0, 1.0)) for _ in range(FRAMES)]


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: corr_probe.py OUT_DIR", file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    for base in BASES:
        for p in (0.1, 0.25):
            write_trace(out / f"made_up_{base}ms_p{p:g}.csv", made_up(rng, base, p))
        for phi in (0.6, 0.9):
            write_trace(out / f"drift_{base}ms_phi{phi:g}.csv", drift(rng, base, phi))
        write_trace(out / f"independent_{base}ms.csv", independent(rng, base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
