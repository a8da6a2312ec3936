#!/usr/bin/env bash
# The main job: installs what it needs, builds, runs the load_sweep sample for about 20 s
# through a real Vulkan swapchain (under Xvfb when there is no display), and writes
#   out/pacing.csv      the native pacing log (+ out/pacing.meta.json: run metadata and summary)
#   out/trace.json      a Chrome/Perfetto trace of every frame
#   out/report.html     charts and metrics (tools/pacer-report)
# then prints the summary. Extra arguments go to the sample, e.g. scripts/run.sh --policy flipcode
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh all
cmake -S . -B build-run -DFP_BUILD_TESTS=OFF -DFP_BUILD_BENCH=OFF >/dev/null
cmake --build build-run -j2 >/dev/null
mkdir -p out
cmd=(build-run/samples/load_sweep/load_sweep --duration 20 --log out/pacing.csv --trace out/trace.json)
if [ -z "${DISPLAY:-}" ]; then
  # Xvfb reports no refresh rate: assume a 60 Hz monitor, so adaptive plans its frames on a
  # vblank grid as it does on a real display (a later --refresh-hz in "$@" wins).
  xvfb-run -a -s "-screen 0 1280x720x24" "${cmd[@]}" --refresh-hz 60 "$@"
else
  "${cmd[@]}" "$@"
fi
build-run/tools/pacer-report/pacer-report out/pacing.csv --html out/report.html --json out/summary.json
echo "wrote out/pacing.csv, out/pacing.meta.json, out/trace.json, out/report.html, out/summary.json"
