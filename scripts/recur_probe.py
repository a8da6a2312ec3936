#!/usr/bin/env python3
"""Writes the recurring-late-frame probe: synthetic per-frame render costs, 3600 frames each,
short renders with a long one that comes back every so often.

    scripts/recur_probe.py traces/probe-recur     (traces/probe-recur/README.md)

Each frame's base render is uniform within +-5% of the base. From frame 300 on, one frame in
every gap (the gap drawn uniform within +-25% of the set's spacing, anew after each long
frame) takes h x the base longer, h uniform in [H, 2H]: a hitch that comes back (a garbage
collection, a streaming read, an autosave) rather than a storm of them or a single stall.
Bases 5, 9 and 13 ms; spacings 25, 70 and 200 frames; H 2 and 5. Python's random, seed 211,
in the order written.
"""
import argparse
import pathlib
import random
import sys

from level_probe import write_trace

SEED = 211
BASES = (5, 9, 13)
SPACINGS = (25, 70, 200)
HITCHES = (2, 5)
START = 300
FRAMES = 3600


def main() -> int:
    parser = argparse.ArgumentParser(prog="recur_probe.py", description="Writes the recurring-late-frame probe.")
    parser.add_argument("out_dir", metavar="OUT_DIR")
    args = parser.parse_args()
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    for base in BASES:
        for spacing in SPACINGS:
            for hitch in HITCHES:
                frame_ms = []
                next_long = START
                for f in range(FRAMES):
                    ms = base * (0.95 + 0.1 * rng.random())
                    if f == next_long:
                        ms += base * hitch * (1 + rng.random())
                        next_long = f + max(1, round(spacing * (0.75 + 0.5 * rng.random())))
                    frame_ms.append(ms)
                write_trace(out / f"recur_{base}ms_every{spacing}_x{hitch}.csv", frame_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
