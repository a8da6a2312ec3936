#!/usr/bin/env python3
"""Writes the level-change probe set (traces/probe-level/README.md): 18 synthetic per-frame
render costs, 3600 frames each, a lasting change of cost at frame 1800.

    scripts/level_probe.py traces/probe-level

Base render 6, 10 or 14 ms; from frame 1800 on x1.5, x2 or x3; steady, or each frame
uniform within +-10% of its level (Python's random, seeded 11, in the order written).
"""
import pathlib
import random
import sys


def write_trace(path: pathlib.Path, frame_ms) -> None:
    """A trace as bench/compare reads it: a frame_ms header, one value per line, 4 decimals."""
    path.write_text("frame_ms\n" + "".join(f"{ms:.4f}\n" for ms in frame_ms))


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: level_probe.py OUT_DIR", file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    for base in (6, 10, 14):
        for factor in (1.5, 2, 3):
            for noisy in (False, True):
                name = f"level_{base}ms_x{factor:g}_{'noisy' if noisy else 'steady'}.csv"
                levels = [base if f < 1800 else base * factor for f in range(3600)]
                write_trace(out / name, [ms * (0.9 + 0.2 * rng.random()) if noisy else ms for ms in levels])
    return 0


if __name__ == "__main__":
    sys.exit(main())
