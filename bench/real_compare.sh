#!/usr/bin/env bash
# The comparison's workloads on the real loop: the load_sweep sample renders each trace (its
# frame_ms column x the scale as CPU work on top of the scene's own render) through a real
# Vulkan swapchain with immediate presents and no refresh rate given - the comparison's
# `immediate` column - under each policy, with the comparison's step (5 ms), step cap (50
# steps: 0.25 s) and update cost (0.5 ms). Each run is then replayed in virtual time on the
# costs it measured (pacer-sim --replay), and the table shows real / replay for each policy,
# beside the comparison's own row for that workload (docs/results.csv: the trace's costs
# alone, 3600 frames, seed 7).
#
# Usage: bench/real_compare.sh [--traces "A.csv B.csv"] [--scale K] [--frames N]
#                              [--policies P1,P2,...] [--out DIR]
#   defaults: capframex_judgment_gtx1070.csv frameview_naraka_30fps_native_4k.csv
#   presentmon2_apexlegends_dx12_run2.csv; scale 0.5; 1800 frames;
#   adaptive,accumulator-capped,accumulator,flipcode,swappy,framepace; out/real_compare
# Installs what it needs (scripts/deps.sh all), builds load_sweep, pacer-sim and pacer-report
# in build/, runs under Xvfb when there is no display, writes DIR/<trace>_<policy>.csv (+
# .meta.json), DIR/<trace>_<policy>.replay.csv and the table in DIR/table.md.
# Exit 0 when every run succeeds; 2 on a usage error; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

traces="capframex_judgment_gtx1070.csv frameview_naraka_30fps_native_4k.csv presentmon2_apexlegends_dx12_run2.csv"
scale=0.5
frames=1800
policies=adaptive,accumulator-capped,accumulator,flipcode,swappy,framepace
out=out/real_compare
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --traces) traces="${2:?--traces needs a value}"; shift 2 ;;
    --scale) scale="${2:?--scale needs a value}"; shift 2 ;;
    --frames) frames="${2:?--frames needs a value}"; shift 2 ;;
    --policies) policies="${2:?--policies needs a value}"; shift 2 ;;
    --out) out="${2:?--out needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "real_compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$frames" in ''|*[!0-9]*|0) echo "real_compare.sh: --frames: expected a whole number over 0, got '$frames'" >&2; exit 2 ;; esac
case "$scale" in 0.5|1|1.0) ;; *) echo "real_compare.sh: --scale: the comparison has 0.5 and 1.0, got '$scale'" >&2; exit 2 ;; esac
[ "$scale" = 1 ] && scale=1.0

if [ -z "${FP_REAL_COMPARE_INNER:-}" ]; then
  scripts/deps.sh all
  cmake -S . -B build >/dev/null
  cmake --build build -j2 --target load_sweep pacer-sim pacer-report
  export FP_REAL_COMPARE_INNER=1
  if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "${args[@]}"
  fi
fi

mkdir -p "$out"
sample=build/samples/load_sweep/load_sweep
sim=build/tools/pacer-sim/pacer-sim
report=build/tools/pacer-report/pacer-report
IFS=, read -r -a policy_list <<<"$policies"
table="$out/table.md"
{
  echo "| workload | policy | fps real / replay / comparison | p99 anim ms real / replay / comparison | stutters real / replay / comparison | latency p50 ms real / replay / comparison | dropped ms real / replay / comparison |"
  echo "|---|---|---|---|---|---|---|"
} >"$table"
failed=0
# cells LOG: "fps p99-anim stutters latency-p50 dropped" of LOG after the 60-frame warm-up, from
# one pacer-report table (its latency p50 is the comparison's: pacer::Summary's for both).
cells() {
  local text
  text=$("$report" --warmup 60 "$1")
  value_of() { grep -E "^$1 " <<<"$text" | awk '{print $NF}'; }
  echo "$(value_of "average fps") $(value_of "\\|animation error\\| p99") $(value_of stutters) $(printf '%.1f' "$(value_of "latency p50")") $(value_of dropped)"
}
for trace in $traces; do
  [ -f "traces/$trace" ] || { echo "real_compare.sh: no trace 'traces/$trace'" >&2; exit 2; }
  name=${trace%.csv}
  for p in "${policy_list[@]}"; do
    log="$out/${name}_$p.csv"
    cmd=("$sample" --present-mode immediate --size 640x360 --balls 300 --frames "$frames" --quiet
         --render-load "trace:traces/$trace,scale=$scale,loop" --update-load constant:0.5
         --step-ms 5 --max-steps 50 --policy "$p" --log "$log")
    echo "run: ${cmd[*]}"
    if ! "${cmd[@]}" >"$out/${name}_$p.out" 2>&1; then
      echo "real_compare: $name $p failed: $(tail -n 1 "$out/${name}_$p.out")" >&2
      failed=1
      continue
    fi
    "$sim" --replay "$log" --log "$out/${name}_$p.replay.csv" --warmup 60 --quiet
    row=$(awk -F, -v w="$name" -v s="$scale" -v p="$p" \
      '$1 == w && $3 == s && $4 == "immediate" && $5 == p { printf "%.1f %.3f %d %.1f %.1f", $6, $7, $9, $12, $13 }' docs/results.csv)
    read -r c_fps c_anim c_stut c_lat c_drop <<<"${row:-NA NA NA NA NA}"
    read -r r_fps r_anim r_stut r_lat r_drop <<<"$(cells "$log")"
    read -r s_fps s_anim s_stut s_lat s_drop <<<"$(cells "$out/${name}_$p.replay.csv")"
    echo "| $name x$scale | $p | $r_fps / $s_fps / $c_fps | $r_anim / $s_anim / $c_anim | $r_stut / $s_stut / $c_stut | $r_lat / $s_lat / $c_lat | $r_drop / $s_drop / $c_drop |" >>"$table"
  done
done
cat "$table"
exit "$failed"
