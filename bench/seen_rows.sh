#!/usr/bin/env bash
# The sums a tuning choice is made on (docs/results.md, issue 11's parts): rows meeting all
# five criteria over seeds 7 and 1-4, per set and in all, on the tuning half of traces/ and
# on every set already looked at (fresh sets A-Z, AA and AB, traces/fresh ... traces/fresh-z,
# traces/fresh-aa and traces/fresh-ab, and the probes, traces/probe-*), and the rows at seed 7 whose p99
# animation error is below both peers'. Each set runs build/bench/compare once,
# two at a time, with the --adaptive knobs given here.
#
# Usage: bench/seen_rows.sh [--out DIR] [--adaptive NAME=VALUE ...]
#   --out DIR: each run's log and page there (default out/seen_rows)
#   FP_SETS: the folders under traces/ to sum besides the tuning half (default: every
#   traces/fresh* and traces/probe* folder that holds a trace; one with its README alone, a
#   probe written down before its files, is left out with a note; until issue 11's
#   forty-fourth part it was fresh, fresh-b ... fresh-r, and the parts since 22 pass their
#   own lists); COMPARE: the binary (default build/bench/compare, built if missing).
# Prints a line per set, then the totals, then the world time adaptive dropped at seed 7 over
# every row (criterion 5's measure, summed). Exit 0 when every run succeeds; 2 on a usage error;
# 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

out=out/seen_rows
knobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out)
      [ $# -ge 2 ] || { echo "seen_rows.sh: --out needs a folder" >&2; exit 2; }
      out="$2"; shift 2 ;;
    --adaptive)
      shift
      [ $# -gt 0 ] && [[ "$1" == *=* ]] || { echo "seen_rows.sh: --adaptive needs NAME=VALUE" >&2; exit 2; }
      while [ $# -gt 0 ] && [[ "$1" == *=* ]]; do knobs+=("$1"); shift; done ;;
    *) echo "seen_rows.sh: unknown argument '$1' (usage: bench/seen_rows.sh [--out DIR] [--adaptive NAME=VALUE ...])" >&2; exit 2 ;;
  esac
done
sets=${FP_SETS:-$(cd traces && ls -d fresh* probe-* | tr '\n' ' ')}
compare=${COMPARE:-build/bench/compare}
if [ ! -x "$compare" ]; then
  cmake -S . -B build >/dev/null
  cmake --build build -j2 --target compare >/dev/null
fi
mkdir -p "$out"
args=(--frames 3600 --seed 7 --other-seeds 4)
[ ${#knobs[@]} -gt 0 ] && args+=(--adaptive "${knobs[@]}")

# One line per run: NAME, then the compare arguments that pick its workloads.
jobs_file="$out/jobs"
{
  echo "tuning --traces traces --half tuning"
  for s in $sets; do
    [ -d "traces/$s" ] || { echo "seen_rows.sh: no folder traces/$s" >&2; exit 2; }
    # A probe written down before its files exist (its README alone) is not a set yet: by
    # default it is left out, said so; named in FP_SETS it is an error, as compare would say.
    if [ -z "${FP_SETS:-}" ] && ! compgen -G "traces/$s/*.csv" > /dev/null; then
      echo "seen_rows.sh: traces/$s has no traces yet, left out" >&2
      continue
    fi
    echo "$s --traces traces/$s --no-synthetic --all-held-out"
  done
} > "$jobs_file"
# The commands, two at a time (a shell line each, its output to NAME.log; its page NAME and
# the extension below, with the runs' CSV beside it).
cmds="$out/cmds"
page_ext=md
: > "$cmds"
while read -r name rest; do
  # shellcheck disable=SC2086  # rest: the workload arguments, split on purpose
  printf '%q ' "$compare" $rest --out "$out/$name.$page_ext" "${args[@]}" >> "$cmds"
  printf '> %q 2>&1\n' "$out/$name.log" >> "$cmds"
done < "$jobs_file"
if ! tr '\n' '\0' < "$cmds" | xargs -0 -P 2 -I{} bash -c '{}'; then
  echo "seen_rows.sh: a run failed (its log is in $out)" >&2
  exit 1
fi

# A run's log has a line per row at seed 7 ("tuning ..." or "held ...", ending in "ok" when it
# meets all five, "ok (peer anim lower)" when a peer's p99 animation error is lower), then a
# line per other seed ("seed S: held-out H, tuning T rows meet all five").
total=0 below_total=0
while read -r name rest; do
  log="$out/$name.log"
  kind=held; [ "$name" = tuning ] && kind=tuning
  seed7=$(grep -cE "^$kind .* ok( |$)" "$log" || true)
  peers=$(grep -cE "^$kind .* ok \(peer anim lower\)" "$log" || true)
  others=$(grep "^seed" "$log" | sed -E "s/.*held-out ([0-9]+), tuning ([0-9]+).*/\1 \2/" |
           awk -v k="$kind" '{s += (k == "tuning") ? $2 : $1} END {print s + 0}')
  rows=$((seed7 + others)) below=$((seed7 - peers))
  total=$((total + rows)) below_total=$((below_total + below))
  printf '%-10s rows over five seeds %5d   below both peers at seed 7 %4d\n' "$name" "$rows" "$below"
done < "$jobs_file"
printf '%-10s rows over five seeds %5d   below both peers at seed 7 %4d\n' "all" "$total" "$below_total"
# The world time adaptive dropped at seed 7, from the runs' CSVs (columns found by name).
while read -r name rest; do cat "$out/$name.csv"; done < "$jobs_file" |
  awk -F, '$1 == "workload" {for (i = 1; i <= NF; i++) col[$i] = i; next}
           $col["policy"] == "adaptive" {n++; ms += $col["dropped_ms"]; if ($col["dropped_ms"] > 0) d++}
           END {printf "%-10s adaptive dropped %.1f s of world time at seed 7, in %d of its %d rows\n", "all", ms / 1000, d, n}'
