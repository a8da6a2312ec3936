#!/usr/bin/env python3
"""Convert a published per-frame capture into a traces/ file, and tabulate traces/.

Extraction (one capture -> one trace):

    scripts/import_trace.py extract SOURCE OUT.csv [--app EXE] [--skip N]
                                    [--max-frames 12000] [--no-busy]

SOURCE is a capture in one of the formats met so far:
  * CSV with a MsBetweenPresents-like column: PresentMon 1.x/2.x, OCAT, FrameView,
    and CapFrameX CSV exports (leading "//key=value" comment lines are skipped).
    Rows are kept for one swap chain only: the (Application, ProcessID,
    SwapChainAddress) with the most rows, or the most frequent one of the
    application given with --app.
  * CapFrameX JSON (Runs[*].CaptureData.MsBetweenPresents; a UTF-8 BOM is fine).
    Runs are concatenated in order.
  * A benchmark tool's own per-frame log with the header `frame, fps, time` (Metro
    Exodus's built-in benchmark, res_csv.csv): frame_ms = 1000 / fps.
  * A bare list of frame times in ms, one per line, no header (traces/fresh-z's source).
SOURCE "-" reads standard input (use it with `git show COMMIT:PATH`).

frame_ms is MsBetweenPresents (present-to-present, milliseconds). busy_ms is the
CPU busy time of the frame where the capture has one (PresentMon 2.x MsCPUBusy,
CapFrameX JSON CpuBusy); --no-busy leaves it out.

Leading rows are dropped while they are not usable (NA, not a number, outside
(0, 10000] ms); --skip N drops N more leading rows after that. A row in the
middle with an unusable frame time is dropped and counted on stderr. The output
keeps at most --max-frames frames, 4 decimals, header `frame_ms` or
`frame_ms,busy_ms`.

Selection (which logs of a published FrameView data set form a fresh set):

    scripts/import_trace.py select GIT_DIR COMMIT [--skip N] [--count N]
                                   [--min-frames 600] [--exclude FILE ...]

lists the `*_Log.csv` files of that commit of a repository snapshot (the layout
TOP/GAME - VARIANT/CAP/MODE/.../FrameView_*_Log.csv), leaves out frame generation
(a folder below CAP whose name has "FG"), files whose path appears in an
--exclude file (traces/README.md names every file already taken) and logs with
fewer than --min-frames usable frames, groups the rest by game (GAME, the
folder name before " - "), orders each game's files by the FNV-1a 64-bit hash of
the path, and prints, per game, the files at ranks skip+1 .. skip+count as
"NAME<TAB>PATH", NAME being the trace file name to extract to (fv_GAME_CAP_MODE_...,
CAP uncapped, 30fpscap or 60fpscap). The rule takes no
look at the frames beyond counting them.

Table (statistics and halves for every traces/*.csv):

    scripts/import_trace.py table [DIR]

prints, per file: frames, mean, p50, p99, max of frame_ms (p50/p99 by linear
interpolation between closest ranks), the count of frames longer than twice the
median, and the half from the split rule in traces/README.md (FNV-1a 64-bit of
the base file name: odd -> held-out, even -> tuning).
"""

import argparse
import csv
import glob
import io
import json
import os
import sys

FRAME_COLUMNS = ("MsBetweenPresents", "msBetweenPresents", "ms_between_presents")
BUSY_COLUMNS = ("MsCPUBusy", "msCPUBusy", "CPUBusy", "CpuBusy")
KEY_COLUMNS = ("Application", "ProcessID", "SwapChainAddress")
MAX_MS = 10000.0


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def half_of(name: str) -> str:
    return "held-out" if fnv1a64(os.path.basename(name).encode()) & 1 else "tuning"


def parse_ms(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    if not (0.0 < v <= MAX_MS):
        return None
    return v


def read_source(path):
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    return raw.decode("utf-8-sig", errors="replace")


def rows_from_json(text, want_busy):
    doc = json.loads(text)
    runs = doc.get("Runs") or []
    frames, busy = [], []
    for run in runs:
        data = run.get("CaptureData") or {}
        ms = data.get("MsBetweenPresents") or []
        b = None
        if want_busy:
            for col in BUSY_COLUMNS:
                if data.get(col):
                    b = data[col]
                    break
        frames.extend(ms)
        busy.extend(b if b is not None and len(b) == len(ms) else [None] * len(ms))
    has_busy = any(v is not None for v in busy)
    return list(zip(frames, busy)), has_busy, "CapFrameX JSON"


def rows_from_csv(text, app, want_busy):
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("//")]
    reader = csv.reader(io.StringIO("\n".join(lines)))
    header = None
    for row in reader:
        names = [c.strip() for c in row]
        if any(c in names for c in FRAME_COLUMNS):
            header = names
            break
    if header is None:
        if lines and len(lines[0].split(",")) == 1 and parse_ms(lines[0].strip()) is not None:
            return rows_from_bare_list(lines)
        return rows_from_fps_log(lines)
    fcol = next(header.index(c) for c in FRAME_COLUMNS if c in header)
    bcol = None
    if want_busy:
        bcol = next((header.index(c) for c in BUSY_COLUMNS if c in header), None)
    keycols = [header.index(c) for c in KEY_COLUMNS if c in header]
    body = [r for r in reader if len(r) > fcol]

    def key(r):
        return tuple(r[i] if i < len(r) else "" for i in keycols)

    if keycols:
        counts = {}
        for r in body:
            k = key(r)
            if app and (not k or k[0].lower() != app.lower()):
                continue
            counts[k] = counts.get(k, 0) + 1
        if not counts:
            raise SystemExit(f"no rows for application {app!r}")
        main = max(counts, key=counts.get)
        if len(counts) > 1:
            print(f"swap chains: {len(counts)}; keeping {main} ({counts[main]} rows)",
                  file=sys.stderr)
        body = [r for r in body if key(r) == main]
    out = []
    for r in body:
        b = r[bcol] if bcol is not None and bcol < len(r) else None
        out.append((r[fcol], b))
    has_busy = bcol is not None and any(parse_ms(b) is not None for _, b in out)
    return out, has_busy, "CSV"


def rows_from_bare_list(lines):
    """A bare list of frame times in milliseconds, one per line, no header (a game's frame-time
    export, e.g. traces/fresh-z's): each line is a frame's frame_ms."""
    return [(ln.strip(), None) for ln in lines], False, "bare list"


def rows_from_fps_log(lines):
    """A benchmark tool's own per-frame log, header `frame, fps, time` (Metro Exodus's
    benchmark, res_csv.csv): each row's fps is 1 / the frame's time, so frame_ms = 1000 / fps."""
    reader = csv.reader(io.StringIO("\n".join(lines)))
    header = [c.strip().lower() for c in next(reader, [])]
    if "fps" not in header or "frame" not in header:
        raise SystemExit("no MsBetweenPresents-like column found (nor a frame, fps log)")
    col = header.index("fps")
    out = []
    for r in reader:
        try:
            fps = float(r[col])
        except (IndexError, ValueError):
            out.append((None, None))
            continue
        out.append((repr(1000.0 / fps) if fps > 0 else None, None))
    return out, False, "frame, fps log"


def usable_frames(text, app=None, want_busy=True, skip=0, max_frames=12000):
    """The frames extract keeps from a capture's text: (kept, has_busy, kind, rows, lead, dropped)."""
    if text.lstrip().startswith("{"):
        rows, has_busy, kind = rows_from_json(text, want_busy)
    else:
        rows, has_busy, kind = rows_from_csv(text, app, want_busy)

    def usable(r):
        f = parse_ms(r[0])
        if f is None:
            return None
        if has_busy:
            b = parse_ms(r[1])
            if b is None:
                return None
            return (f, b)
        return (f,)

    i = 0
    while i < len(rows) and usable(rows[i]) is None:
        i += 1
    lead = i
    i += skip
    kept, dropped = [], 0
    for r in rows[i:]:
        u = usable(r)
        if u is None:
            dropped += 1
            continue
        kept.append(u)
        if len(kept) >= max_frames:
            break
    return kept, has_busy, kind, rows, lead, dropped


def extract(args):
    kept, has_busy, kind, rows, lead, dropped = usable_frames(
        read_source(args.source), args.app, not args.no_busy, args.skip, args.max_frames)
    if not kept:
        raise SystemExit("no usable frames")
    with open(args.out, "w", newline="\n") as f:
        f.write("frame_ms,busy_ms\n" if has_busy else "frame_ms\n")
        for u in kept:
            f.write(",".join(f"{v:.4f}" for v in u) + "\n")
    print(f"{args.out}: {kind}, {len(rows)} rows, dropped {lead} unusable leading + "
          f"{args.skip} skipped + {dropped} unusable inside; wrote {len(kept)} frames"
          f"{' with busy_ms' if has_busy else ''}", file=sys.stderr)


def slug(text):
    return "".join(c for c in text.lower() if c.isalnum())


def select(args):
    import subprocess

    def git(*cmd):
        return subprocess.run(["git", "--git-dir", args.git_dir, *cmd], check=True,
                              capture_output=True).stdout
    taken = ""
    for path in args.exclude:
        with open(path, encoding="utf-8") as f:
            taken += f.read()
    by_game = {}
    for path in git("ls-tree", "-r", "--name-only", args.commit).decode().splitlines():
        parts = path.split("/")
        if not path.endswith("_Log.csv") or len(parts) < 5 or path in taken:
            continue
        if any("FG" in part for part in parts[3:-1]):
            continue  # frame generation: a generated frame between two rendered ones
        by_game.setdefault(parts[1].split(" - ")[0], []).append(path)
    names = set()
    for game in sorted(by_game):
        ranked = sorted(by_game[game], key=lambda p: fnv1a64(p.encode()))
        chosen, seen = [], 0
        for path in ranked:
            if len(chosen) == args.count:
                break
            text = git("show", f"{args.commit}:{path}").decode("utf-8-sig", errors="replace")
            if len(usable_frames(text, want_busy=False)[0]) < args.min_frames:
                continue
            seen += 1
            if seen > args.skip:
                chosen.append(path)
        for path in chosen:
            parts = path.split("/")
            cap = "uncapped" if parts[2] == "Unlimited" else ("60" if "60" in parts[2] else "30") + "fpscap"
            rest = [p.split(" ")[0] if p[:1].isdigit() else p for p in parts[3:-1]]  # "1920x1080 25% ..."
            game = slug(parts[1].split(" - ")[0])

            def named(variant=(), stamp=()):
                return "_".join(["fv", game, *variant, cap, *map(slug, rest), *stamp]) + ".csv"
            name = named()
            if name in names and " - " in parts[1]:
                # The same settings in another of the game's folders ("Cyberpunk - RR OFF" and
                # "Cyberpunk - No RT"): the later one is named with its folder's variant too.
                name = named(variant=[slug(parts[1].split(" - ", 1)[1])])
            if name in names:
                # Two logs in one folder (a second run): the later one with its log's time too.
                name = named(stamp=[slug(parts[-1].rsplit("_Log", 1)[0].rsplit(".exe_", 1)[-1])])
            if name in names:
                raise SystemExit(f"two files would be named {name}")
            names.add(name)
            print(f"{name}\t{path}")


def percentile(sorted_vals, q):
    n = len(sorted_vals)
    pos = (n - 1) * q
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def table(args):
    files = sorted(glob.glob(os.path.join(args.dir, "*.csv")))
    print("| file | frames | mean | p50 | p99 | max | >2x p50 | busy | half |")
    print("|---|---|---|---|---|---|---|---|---|")
    halves = {"tuning": 0, "held-out": 0}
    for path in files:
        with open(path) as f:
            header = f.readline().strip().split(",")
            vals = [float(line.split(",")[0]) for line in f if line.strip()]
        s = sorted(vals)
        p50 = percentile(s, 0.5)
        spikes = sum(1 for v in vals if v > 2 * p50)
        h = half_of(path)
        halves[h] += 1
        print(f"| {os.path.basename(path)} | {len(vals)} | {sum(vals) / len(vals):.2f} | "
              f"{p50:.2f} | {percentile(s, 0.99):.2f} | {s[-1]:.2f} | {spikes} | "
              f"{'yes' if 'busy_ms' in header else 'no'} | {h} |")
    print(f"\ntuning: {halves['tuning']}, held-out: {halves['held-out']}, "
          f"total: {len(files)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract", help="convert one capture")
    e.add_argument("source")
    e.add_argument("out")
    e.add_argument("--app", help="keep this application's main swap chain")
    e.add_argument("--skip", type=int, default=0, help="drop N more leading rows")
    e.add_argument("--max-frames", type=int, default=12000)
    e.add_argument("--no-busy", action="store_true", help="leave busy_ms out")
    e.set_defaults(func=extract)
    s = sub.add_parser("select", help="choose a fresh set of FrameView logs by a fixed rule")
    s.add_argument("git_dir")
    s.add_argument("commit")
    s.add_argument("--skip", type=int, default=0, help="leave out each game's first N files")
    s.add_argument("--count", type=int, default=3, help="files per game")
    s.add_argument("--min-frames", type=int, default=600)
    s.add_argument("--exclude", action="append", default=[], help="a file naming paths already taken")
    s.set_defaults(func=select)
    t = sub.add_parser("table", help="statistics and halves of traces/*.csv")
    t.add_argument("dir", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "traces"))
    t.set_defaults(func=table)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
