#!/usr/bin/env python3
"""Writes a level-change probe set: 18 synthetic per-frame render costs, 3600 frames each,
a lasting change of cost.

    scripts/level_probe.py traces/probe-level            # set A (traces/probe-level/README.md)
    scripts/level_probe.py --set b traces/probe-level-b  # set B (traces/probe-level-b/README.md)

Set A: base render 6, 10 or 14 ms; from frame 1800 on x1.5, x2 or x3; steady, or each frame
uniform within +-10% of its level (Python's random, seeded 11, in the order written).
Set B: base render 4, 7 or 11 ms; x0.5 (a drop), x1.75 or x2.5; the change at frame
1500 + 37 x the trace's index in the order written (0-17: the changes fall at different
phases of the vblanks); steady, or uniform within +-10% (seeded 23).
"""
import pathlib
import random
import sys


def write_trace(path: pathlib.Path, frame_ms) -> None:
    """A trace as bench/compare reads it: a frame_ms header, one value per line, 4 decimals."""
    path.write_text("frame_ms\n" + "".join(f"{ms:.4f}\n" for ms in frame_ms))


def main() -> int:
    args = sys.argv[1:]
    which = "a"
    if len(args) == 3 and args[0] == "--set" and args[1] in ("a", "b"):
        which, args = args[1], args[2:]
    if len(args) != 1:
        print("usage: level_probe.py [--set a|b] OUT_DIR", file=sys.stderr)
        return 2
    out = pathlib.Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    if which == "a":
        rng, bases, factors = random.Random(11), (6, 10, 14), (1.5, 2, 3)
    else:
        rng, bases, factors = random.Random(23), (4, 7, 11), (0.5, 1.75, 2.5)
    index = 0
    for base in bases:
        for factor in factors:
            for noisy in (False, True):
                at = 1800 if which == "a" else 1500 + 37 * index
                index += 1
                name = f"level_{base}ms_x{factor:g}_{'noisy' if noisy else 'steady'}.csv"
                levels = [base if f < at else base * factor for f in range(3600)]
                write_trace(out / name, [ms * (0.9 + 0.2 * rng.random()) if noisy else ms for ms in levels])
    return 0


if __name__ == "__main__":
    sys.exit(main())
