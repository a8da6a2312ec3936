#!/usr/bin/env python3
"""Writes the storm probe set (traces/probe-storm/README.md): 18 synthetic per-frame render
costs, 3600 frames each, a storm of long renders among short ones from frame 900 on.

    scripts/storm_probe.py traces/probe-storm

Base render 6, 10 or 14 ms, each frame uniform within +-5% of it; from frame 900 on, for 90
or 300 frames, a share of 0.2, 0.33 or 0.5 of the frames (each drawn on its own) takes
2-10 x the base longer (uniform), as a shader-compile storm does. Python's random, seeded 13,
in the order written.
"""
import random
import sys

from level_probe import out_dir, write_trace


def main() -> int:
    out = out_dir("storm_probe.py")
    if out is None:
        return 2
    rng = random.Random(13)
    for base in (6, 10, 14):
        for share in (0.2, 0.33, 0.5):
            for length in (90, 300):
                name = f"storm_{base}ms_share{share:g}_{length}frames.csv"
                frame_ms = []
                for f in range(3600):
                    ms = base * (0.95 + 0.1 * rng.random())
                    if 900 <= f < 900 + length and rng.random() < share:
                        ms += base * (2 + 8 * rng.random())
                    frame_ms.append(ms)
                write_trace(out / name, frame_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
