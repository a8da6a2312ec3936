"""A trace's renders as bench/compare runs them, for the bench scripts (plan_oracle.py,
fifo_hold_model.py): the frame_ms column x the scale, repeated to the run's length; and the
lag-1 fit both read from them."""
import csv
import math

# The frames the comparison runs, and the warm-up its metrics leave out.
RUN_FRAMES = 3600
WARMUP_FRAMES = 60


def lag1_fit(values):
    """The least-squares fit of each value on the one before: (the slope b, the predictions:
    the first value itself, then a + b x the value before)."""
    x, y = values[:-1], values[1:]
    mx, my = math.fsum(x) / len(x), math.fsum(y) / len(y)
    var = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / var if var > 0 else 0.0
    a0 = my - b * mx
    return b, [values[0]] + [a0 + b * v for v in x]


def load_run(path, scale, frames, fail):
    """The first `frames` renders (ms) of the trace at `path` x `scale`, the trace repeated;
    an unreadable file or a bad column calls fail(message, 1)."""
    try:
        with open(path, newline="") as f:
            v = [float(r["frame_ms"]) * scale for r in csv.DictReader(f)]
    except OSError as e:
        fail(f"cannot read '{path}': {e.strerror}", 1)
    except (KeyError, TypeError, ValueError):
        fail(f"'{path}': expected a frame_ms column of numbers", 1)
    if not v:
        fail(f"'{path}': no frames", 1)
    out = []
    while len(out) < frames:
        out += v
    return out[:frames]
