#!/usr/bin/env bash
# The render-thread benchmark (docs/render-thread.md): the bouncing_balls sample with
# overlapping costs (10 ms CPU per render, 6 ms CPU per update, a 60 Hz step) on the real
# Vulkan swapchain (lavapipe under Xvfb when there is no display), on one thread and with
# --render-thread, back to back in one run, rounds interleaved; then build/bench/
# render_thread_report's table (fps, p99 |animation error|, p50 latency, p99 frame, stutters),
# and a row per policy and mode over the rounds (median fps, median of the runs' p99
# |animation error|, and the p99 and p95 of all their frames pooled: compare on these).
#
# Usage: bench/render_thread.sh [--duration S] [--rounds R] [--policies P1,P2] [--out DIR]
#   defaults: 20 s per run; 2 rounds; adaptive,accumulator-capped; out/render_thread
# The display is immediate with a 144 Hz rate (--refresh-hz 144), so no policy is held to
# 60 Hz and the costs, not the display, set the rate. Writes DIR/<policy>-<mode>.rK.csv,
# each run's output beside it, and DIR/table.md. Exit 0 when every run and the report
# succeed; 2 on a usage error; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=20
rounds=2
policies=adaptive,accumulator-capped
out=out/render_thread
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="${2:?--duration needs a value}"; shift 2 ;;
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --policies) policies="${2:?--policies needs a value}"; shift 2 ;;
    --out) out="${2:?--out needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "render_thread.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in "duration:$duration" "rounds:$rounds"; do
  case "${n#*:}" in ''|*[!0-9]*|0) echo "render_thread.sh: --${n%%:*}: expected a whole number over 0, got '${n#*:}'" >&2; exit 2 ;; esac
done
command_line="bench/render_thread.sh${args[*]:+ ${args[*]}}"

if [ -z "${FP_RENDER_THREAD_INNER:-}" ]; then
  scripts/deps.sh all
  cmake -S . -B build -DFRAMEPACER_BUILD_BENCH=ON >/dev/null
  cmake --build build -j2 --target bouncing_balls render_thread_report
  export FP_RENDER_THREAD_INNER=1
  if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "${args[@]}"
  fi
fi

mkdir -p "$out"
sample=build/samples/bouncing_balls/bouncing_balls
inputs=()
failed=0
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
IFS=, read -r -a policy_list <<<"$policies"
for p in "${policy_list[@]}"; do
  for ((k = 1; k <= rounds; k++)); do
    for mode in single threaded; do
      extra=()
      [ "$mode" = threaded ] && extra=(--render-thread)
      name="$p-$mode.r$k"
      cmd=("$sample" --present-mode immediate --refresh-hz 144 --size 640x360 --duration "$duration"
           --render-load constant:10 --update-load constant:6 --logic-hz 60 --policy "$p"
           --log "$out/$name.csv" --quiet "${extra[@]}")
      echo "run: ${cmd[*]}"
      if "${cmd[@]}" >"$out/$name.out" 2>&1; then
        inputs+=("$p $mode #$k=$out/$name.csv")
      else
        echo "render_thread: $name failed (exit $?): $(tail -n 1 "$out/$name.out")" >&2
        failed=1
      fi
    done
  done
done
[ ${#inputs[@]} -gt 0 ] || { echo "render_thread: no run succeeded" >&2; exit 1; }
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
device=$(grep -ho "device '[^']*'" "$out"/*.out 2>/dev/null | head -n 1 || true)
{
  echo "Command: \`$command_line\` ($(date -u +%Y-%m-%d), $(nproc) CPU cores, ${device:-device unknown}; runs back to back, single and threaded interleaved; load average $load_before before, $load_after after)"
  echo
  build/bench/render_thread_report --warmup 60 "${inputs[@]}"
} >"$out/table.md"
cat "$out/table.md"
exit "$failed"
