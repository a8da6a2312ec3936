#!/usr/bin/env bash
# The main job: installs what it needs, builds, and runs the bouncing-balls sample
# through a real Vulkan swapchain (under Xvfb when there is no display), writing the
# pacing log to out/pacing.csv and printing the summary.
# Extra arguments go to the sample, e.g.  scripts/run.sh --duration 5 --present-mode immediate
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh all
cmake -S . -B build-run -DFP_BUILD_TESTS=OFF -DFP_BUILD_BENCH=OFF >/dev/null
cmake --build build-run -j2 >/dev/null
mkdir -p out
cmd=(build-run/samples/bouncing_balls/bouncing_balls --duration 20 --log out/pacing.csv "$@")
if [ -z "${DISPLAY:-}" ]; then
  xvfb-run -a -s "-screen 0 1280x720x24" "${cmd[@]}"
else
  "${cmd[@]}"
fi
echo "pacing log: out/pacing.csv"
