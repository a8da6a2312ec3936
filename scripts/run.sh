#!/usr/bin/env bash
# The main job: installs what it needs, builds, runs the load_sweep sample for 20 s under
# each of four policies in turn - adaptive and the classic loops it is measured against -
# through a real Vulkan swapchain (under Xvfb when there is no display), and writes
#   out/<policy>.csv         the native pacing log of each run
#   out/<policy>.meta.json   its sidecar: run metadata and summary
#   out/<policy>.trace.json  a Chrome/Perfetto trace of every frame of that run
#   out/report.html          the runs side by side: verdict table, charts (tools/pacer-report)
#   out/summary.json         the summaries of all runs
#   out/<policy>.replay.csv  the same run replayed in virtual time on its measured costs
#                            (pacer-sim --replay: what the simulator says the loop does)
# then prints the metrics side by side, and each run beside its replay. Extra arguments go to every run, e.g.
# scripts/run.sh --duration 10; FP_POLICIES="adaptive flipcode" scripts/run.sh picks the policies.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh all
cmake -S . -B build-run -DFRAMEPACER_BUILD_TESTS=OFF -DFRAMEPACER_BUILD_BENCH=OFF >/dev/null
cmake --build build-run -j2 --target load_sweep pacer-report pacer-sim >/dev/null
read -r -a policies <<<"${FP_POLICIES:-adaptive accumulator-capped accumulator flipcode}"
mkdir -p out
# The single-run names of earlier versions of this job: gone, so out/ holds one job's results.
rm -f out/pacing.csv out/pacing.meta.json out/trace.json
# A small window and 300 balls: the scene renders in about 4-6 ms on lavapipe (two CPU
# cores, no GPU), well inside a 60 Hz period, so the sweep's loads are what the policies
# meet (samples/load_sweep/README.md has the measurement).
sample=(build-run/samples/load_sweep/load_sweep --duration 20 --size 640x360 --balls 300 --quiet)
report_refresh=()
logs=()
for policy in "${policies[@]}"; do
  echo "== load_sweep --policy $policy"
  cmd=("${sample[@]}" --policy "$policy" --log "out/$policy.csv" --trace "out/$policy.trace.json")
  if [ -z "${DISPLAY:-}" ]; then
    # Xvfb has no vblank: a FIFO present there is shown when made, not at a refresh. So the
    # runs say what happens: immediate presents, on an assumed 60 Hz monitor (Xvfb reports no
    # refresh rate) whose grid adaptive plans and holds its presents on (immediate:60). A
    # later --present-mode or --refresh-hz in "$@" wins; with --headless (no swapchain, no
    # monitor) neither is added.
    display=(--present-mode immediate --refresh-hz 60)
    report_refresh=(--refresh-hz 60)
    for arg in "$@"; do
      if [ "$arg" = --headless ]; then display=(); report_refresh=(); fi
    done
    xvfb-run -a -s "-screen 0 1280x720x24" "${cmd[@]}" "${display[@]}" "$@"
  else
    "${cmd[@]}" "$@"
  fi
  logs+=("out/$policy.csv")
done
build-run/tools/pacer-report/pacer-report "${logs[@]}" --html out/report.html --json out/summary.json "${report_refresh[@]}"
# Each run replayed in virtual time on the costs it measured, its settings from its sidecar
# (docs/pacing.md, "Replaying a real run"): the real loop should do what the simulator does.
# Exact where nothing blocks an acquire (the immediate presents under Xvfb); on a FIFO
# display the real render time already holds the wait for an image.
echo "== each run beside its replay in virtual time (pacer-sim --replay)"
for policy in "${policies[@]}"; do
  build-run/tools/pacer-sim/pacer-sim --replay "out/$policy.csv" --log "out/$policy.replay.csv" --quiet
  build-run/tools/pacer-report/pacer-report "out/$policy.csv" "out/$policy.replay.csv" |
    grep -E '^(metric|average fps|\|animation error\| p99|stutters  |busy)'
done
echo "wrote ${logs[*]} (each with .meta.json, .trace.json and .replay.csv), out/report.html, out/summary.json"
