#!/usr/bin/env bash
# Installs the Debian packages the project needs (only what is missing).
# Usage: scripts/deps.sh [core|all|fuzz]   core: compiler, CMake, GoogleTest, Google Benchmark,
#                                             CLI11 (flag tables), nlohmann-json (JSON outputs),
#                                             git + pkg-config (the consumer tests), locales
#                                             (localedef's sources: the locale tests' de_DE),
#                                             python3 (bench/plan_oracle.py, bench/fifo_hold_model.py and their tests)
#                                        all (default): plus Vulkan, GLFW, spdlog, lavapipe, Xvfb,
#                                             xdotool (key presses in the Vulkan tests), Xlib headers
#                                             (renderer.hpp's example closes its window as a user does)
#                                        fuzz: core plus clang 14 and its libFuzzer runtime
set -euo pipefail
core=(g++ cmake make git pkg-config libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev locales python3)
graphics=(libvulkan-volk-dev libvulkan-dev libglfw3-dev libspdlog-dev glslang-tools
          mesa-vulkan-drivers vulkan-validationlayers xvfb xauth xdotool libx11-dev)
fuzz=(clang-14 libclang-rt-14-dev)
want=("${core[@]}")
case "${1:-all}" in
  core) ;;
  fuzz) want+=("${fuzz[@]}") ;;
  *) want+=("${graphics[@]}") ;;
esac
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
