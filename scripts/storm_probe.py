#!/usr/bin/env python3
"""Writes a storm probe set: synthetic per-frame render costs, 3600 frames each, a storm of
long renders among short ones.

    scripts/storm_probe.py traces/probe-storm              (set a: traces/probe-storm/README.md)
    scripts/storm_probe.py --set b traces/probe-storm-b    (set b: traces/probe-storm-b/README.md)
    scripts/storm_probe.py --set c traces/probe-storm-c    (set c: traces/probe-storm-c/README.md)
    scripts/storm_probe.py --set d traces/probe-storm-d    (set d: traces/probe-storm-d/README.md)
    scripts/storm_probe.py --set e traces/probe-storm-e    (set e: traces/probe-storm-e/README.md)
    scripts/storm_probe.py --set f traces/probe-storm-f    (set f: traces/probe-storm-f/README.md)
    scripts/storm_probe.py --set g traces/probe-storm-g    (set g: traces/probe-storm-g/README.md)
    scripts/storm_probe.py --set h traces/probe-storm-h    (set h: traces/probe-storm-h/README.md)
    scripts/storm_probe.py --set i traces/probe-storm-i    (set i: traces/probe-storm-i/README.md)

Each frame's base render is uniform within +-5% of the base; from the storm's first frame on,
for its length, each frame (drawn on its own) is long with the set's share, and then takes
2-10 x the base longer (uniform), as a shader-compile storm does. Python's random, seeded per
set, in the order written.

Set a: bases 6, 10, 14 ms; shares 0.2, 0.33, 0.5; 90 or 300 frames from frame 900; seed 13.
Set b: bases 8, 12 ms; shares 0.25, 0.4; 150 or 600 frames from frame 1500; seed 29.
Set c: bases 7, 11 ms; shares 0.2, 0.3; 240 or 480 frames from frame 1200; seed 37.
Set d: bases 9, 13 ms; shares 0.3, 0.45; 120 or 360 frames from frame 1000; seed 53.
Set e: bases 8, 15 ms; shares 0.25, 0.5; 200 or 500 frames from frame 700; seed 71.
Set f: bases 11, 16 ms; shares 0.3, 0.4; 180 or 420 frames from frame 800; seed 97.
Set g: bases 12, 17 ms; shares 0.22, 0.35; 150 or 450 frames from frame 1000; seed 131.
Set h: bases 9, 14 ms; shares 0.3, 0.45; 90 or 270 frames from frame 1100; seed 173.
Set i: bases 10, 15 ms; shares 0.25, 0.4; 120 or 400 frames from frame 600; seed 193.
"""
import argparse
import pathlib
import random
import sys

from level_probe import write_trace

SETS = {
    "a": {"seed": 13, "bases": (6, 10, 14), "shares": (0.2, 0.33, 0.5), "lengths": (90, 300), "start": 900},
    "b": {"seed": 29, "bases": (8, 12), "shares": (0.25, 0.4), "lengths": (150, 600), "start": 1500},
    "c": {"seed": 37, "bases": (7, 11), "shares": (0.2, 0.3), "lengths": (240, 480), "start": 1200},
    "d": {"seed": 53, "bases": (9, 13), "shares": (0.3, 0.45), "lengths": (120, 360), "start": 1000},
    "e": {"seed": 71, "bases": (8, 15), "shares": (0.25, 0.5), "lengths": (200, 500), "start": 700},
    "f": {"seed": 97, "bases": (11, 16), "shares": (0.3, 0.4), "lengths": (180, 420), "start": 800},
    "g": {"seed": 131, "bases": (12, 17), "shares": (0.22, 0.35), "lengths": (150, 450), "start": 1000},
    "h": {"seed": 173, "bases": (9, 14), "shares": (0.3, 0.45), "lengths": (90, 270), "start": 1100},
    "i": {"seed": 193, "bases": (10, 15), "shares": (0.25, 0.4), "lengths": (120, 400), "start": 600},
}


def main() -> int:
    parser = argparse.ArgumentParser(prog="storm_probe.py", description="Writes a storm probe set.")
    parser.add_argument("--set", choices=sorted(SETS), default="a", help="which set (default a)")
    parser.add_argument("out_dir", metavar="OUT_DIR")
    args = parser.parse_args()
    spec = SETS[args.set]
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(spec["seed"])
    start = spec["start"]
    for base in spec["bases"]:
        for share in spec["shares"]:
            for length in spec["lengths"]:
                name = f"storm_{base}ms_share{share:g}_{length}frames.csv"
                frame_ms = []
                for f in range(3600):
                    ms = base * (0.95 + 0.1 * rng.random())
                    if start <= f < start + length and rng.random() < share:
                        ms += base * (2 + 8 * rng.random())
                    frame_ms.append(ms)
                write_trace(out / name, frame_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
