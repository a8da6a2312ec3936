#!/usr/bin/env bash
# The main job. Installs what it needs, builds, and runs the policies side by side
# in virtual time with the worked-timeline costs, writing out/pacing.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh core
cmake -S . -B build-run -DFP_BUILD_GRAPHICS=OFF -DFP_BUILD_TESTS=OFF -DFP_BUILD_BENCH=OFF >/dev/null
cmake --build build-run -j2 >/dev/null
mkdir -p out
sim=build-run/tools/pacer-sim/pacer-sim
for p in adaptive accumulator accumulator-capped flipcode variable; do
  "$sim" --policy "$p" --render-ms 3 --update-ms 1 --step-ms 5 --frames 1200 --log "out/pacing-$p.csv"
done
cp out/pacing-adaptive.csv out/pacing.csv
echo "logs: out/pacing-*.csv"
