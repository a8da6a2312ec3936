"""A trace's renders as bench/compare runs them, for the bench scripts (plan_oracle.py,
fifo_hold_model.py): the frame_ms column x the scale, repeated to the run's length."""
import csv


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
